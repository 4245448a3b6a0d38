// Compose files: what a compose step hands the containers it starts.

package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// Compose is what the compose files a step uses hand the containers they
// start, read by the caller: the docker run options they amount to.
type Compose struct {
	Files []string // the files read, for the diagnostic
	// Args are docker run options, paths absolute: -v SRC:DST[:ro],
	// --privileged, --cap-add X, --security-opt X, --device X,
	// --pid=host, --userns=host, --env-file F.
	Args []string
	// Unread says why the files were not read whole ("" when they were):
	// what they hand the containers is then not known.
	Unread string
}

// TestCompose is the compose file of the project the corpora are judged
// in: read, and handing its containers nothing beyond the project.
var TestCompose = map[string]Compose{"/home/user/project": {Files: []string{"/home/user/project/compose.yaml"}}}

// composeOptsWithValue are docker compose's own options that take a value.
var composeOptsWithValue = map[string]bool{
	"-f": true, "--file": true, "-p": true, "--project-name": true, "--project-directory": true,
	"--env-file": true, "--profile": true, "--ansi": true, "--parallel": true, "--progress": true,
}

// compose judges what the compose files of a step that starts containers
// (up, run, create, start, watch …) hand them, as the caller read them
// (Context.Compose): the files -f, COMPOSE_FILE or --project-directory
// name, else those compose finds from the folder it runs in.
func compose(c *cmd) {
	var files []shell.Word
	var dir *shell.Word
	seen, envFile := false, false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		if !seen {
			seen = w.Literal && v == "compose"
			continue
		}
		if !strings.HasPrefix(v, "-") || !w.Literal {
			break // the verb
		}
		name, val, hasVal := strings.Cut(v, "=")
		if !composeOptsWithValue[name] {
			continue
		}
		word := shell.Word{Raw: val, Value: val, Literal: w.Literal, Tilde: strings.HasPrefix(val, "~")}
		if !hasVal {
			if i+1 >= len(c.args) {
				break
			}
			i++
			word = c.args[i]
		}
		switch name {
		case "--env-file":
			envFile = true
		case "-f", "--file":
			files = append(files, word)
		case "--project-directory":
			d := word
			dir = &d
		}
	}
	if _, ok := c.a.env["COMPOSE_ENV_FILES"]; ok {
		envFile = true
	}
	if _, ok := c.a.env["COMPOSE_FILE"]; len(files) == 0 && !ok && envFile {
		// Compose takes COMPOSE_FILE from the env files it is given, as
		// from the project's .env: the files it uses are not known here.
		c.add(Opaque, ComposeUnread.By(c.name, "", "another env file"))
		return
	}
	if len(files) == 0 {
		if v, ok := c.a.env["COMPOSE_FILE"]; ok {
			if strings.HasPrefix(v, "\x00") {
				c.add(Opaque, BuiltAtRunTime.By(c.name, "compose", ""))
				return
			}
			for _, f := range strings.Split(v, ":") {
				if f != "" {
					files = append(files, shell.Word{Raw: f, Value: f, Literal: true, Tilde: strings.HasPrefix(f, "~")})
				}
			}
		}
	}
	var targets []string
	for _, f := range files {
		if f.Value == "-" {
			c.add(Opaque, RunsUnread.By(c.name, "compose", ""))
			return
		}
		ps := c.a.resolve(f)
		if ps == nil {
			c.add(Opaque, BuiltAtRunTime.By(c.name, "compose", f.Raw))
			return
		}
		targets = append(targets, ps...)
	}
	if len(targets) == 0 {
		switch {
		case dir != nil:
			if targets = c.a.resolve(*dir); targets == nil {
				c.add(Opaque, BuiltAtRunTime.By(c.name, "compose", dir.Raw))
				return
			}
		default:
			for _, d := range c.a.cwds {
				if d == "" {
					c.add(Opaque, RunsUnread.By(c.name, "compose", ""))
					return
				}
				targets = append(targets, d)
			}
		}
	}
	for _, t := range targets {
		c.a.out.Compose = append(c.a.out.Compose, PathUse{Op: OpRead, Path: t, Raw: t, Segment: c.i})
		got, ok := c.a.ctx.Compose[t]
		switch {
		case !ok:
			c.add(Opaque, ComposeUnread.By(c.name, "", t))
			continue
		case got.Unread != "":
			c.add(Opaque, ComposeUnread.By(c.name, "", got.Unread))
			continue
		}
		name := c.name + " compose (" + strings.Join(got.Files, ", ") + ")"
		args := make([]shell.Word, 0, len(got.Args))
		for i, a := range got.Args {
			args = append(args, shell.Word{Raw: a, Value: a, Literal: true, Tilde: strings.HasPrefix(a, "~")})
			if a == "--env-file" && i+1 < len(got.Args) {
				f := got.Args[i+1]
				(&cmd{a: c.a, i: c.i, seg: c.seg, name: name}).path(OpRead, shell.Word{Raw: f, Value: f, Literal: true, Tilde: strings.HasPrefix(f, "~")})
			}
		}
		dockerRunFlags(&cmd{a: c.a, i: c.i, seg: c.seg, name: name, args: args})
	}
}
