package shell

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
	"mvdan.cc/sh/v3/syntax"
)

// More wrappers the registry names: each runs the command after its
// options.
func init() {
	wrappers["run0"] = peelRun0
	wrappers["sg"] = peelSg
	wrappers["sshpass"] = simple(optSpec{short: "pfdP"})
	wrappers["entr"] = peelEntr
	wrappers["dtach"] = peelDtach
	wrappers["cross-env"] = peelEnv
	for _, n := range []string{"ccache", "sccache", "distcc"} {
		wrappers[n] = simple(optSpec{short: "dFMoX", long: "set-config max-files max-size dir recompress"})
	}
}

// peelRun0 reads systemd's run0: options, then the command run as root
// (a root shell when none).
func peelRun0(args []Word) ([]Word, peeled, string) {
	opts, rest, why := options(args, optSpec{short: "ugD", long: "user group chdir nice setenv property unit slice description machine background"})
	if why != "" {
		return nil, peeled{}, why
	}
	if len(rest) == 0 {
		return nil, peeled{}, "opens a root shell"
	}
	var chdir *Word
	if o := has(opts, "-D", "--chdir"); o != nil {
		chdir = o.val
	}
	return rest, peeled{chdir: chdir}, ""
}

// peelSg reads sg GROUP [-c] COMMAND: the command is one string run by
// /bin/sh.
func peelSg(args []Word) ([]Word, peeled, string) {
	if len(args) > 0 && args[0].Literal && args[0].Value == "-" {
		args = args[1:]
	}
	if len(args) < 2 {
		return nil, peeled{}, "opens a shell as another group"
	}
	rest := args[1:]
	if rest[0].Literal && rest[0].Value == "-c" {
		rest = rest[1:]
	}
	if len(rest) != 1 {
		return nil, peeled{}, "a command sg does not read as one string"
	}
	w := rest[0]
	return nil, peeled{codeWord: &w}, ""
}

// peelEntr: entr runs its utility each time a file it reads from stdin
// changes; with -s the utility is shell code.
func peelEntr(args []Word) ([]Word, peeled, string) {
	opts, rest, why := options(args, optSpec{})
	if why != "" || len(rest) == 0 {
		return nil, peeled{}, why
	}
	if has(opts, "-s") != nil {
		w := rest[0]
		return nil, peeled{codeWord: &w, repeats: true}, ""
	}
	return rest, peeled{repeats: true}, ""
}

// peelDtach: dtach -c|-A|-n SOCKET [options] COMMAND.
func peelDtach(args []Word) ([]Word, peeled, string) {
	if len(args) < 2 || !args[0].Literal {
		return nil, peeled{keep: true}, ""
	}
	switch args[0].Value {
	case "-c", "-A", "-n", "-N":
	default:
		return nil, peeled{keep: true}, "" // -a, -p: attach, push
	}
	_, rest, why := options(args[2:], optSpec{short: "er"})
	if why != "" || len(rest) == 0 {
		return nil, peeled{}, why
	}
	return rest, peeled{}, ""
}

// runsArgs reads the command a program of the registry's RunsArgs runs
// from its own arguments. It adds seg and what it runs, and reports
// whether it did; false leaves seg to be added as it is.
func (p *parser) runsArgs(seg Segment, at syntax.Pos, c ctx) bool {
	name := seg.Name()
	args := seg.Args[1:]
	switch name {
	case "git", "npx", "npm", "pnpm", "yarn":
		return p.runner(seg, at, c)
	case "watchexec":
		seg.Loop = true // it runs the command again on every change
		return p.watchexec(seg, args, at, c)
	case "nodemon":
		seg.Loop = true
		return p.nodemon(seg, args, at, c)
	case "hyperfine":
		seg.Loop = true // it runs the command many times to time it
		return p.hyperfine(seg, args, at, c)
	case "concurrently":
		return p.concurrently(seg, args, at, c)
	case "fd", "fdfind":
		return p.fdExec(seg, args, at, c)
	case "tmux":
		return p.tmux(seg, args, at, c)
	case "screen":
		return p.screen(seg, args, at, c)
	case "script":
		opts, _, _ := options(args, optSpec{short: "cEIOTBm", long: "command echo log-in log-out log-timing log-io logging-format"})
		if o := has(opts, "-c", "--command"); o != nil {
			return p.runInner(seg, name+" -c", nil, o.val, "", at, c)
		}
		return false
	}
	if name == "dotenv" {
		_, after, why := options(args, optSpec{short: "evcp"})
		if why != "" {
			return p.opaqueRun(seg, "dotenv: "+why, c)
		}
		return p.runInner(seg, "dotenv", after, nil, "", at, c)
	}
	if name == "nix-shell" {
		opts, _, _ := options(args, optSpec{short: "pIA", long: "run command arg argstr expr attr"})
		if o := has(opts, "--run", "--command"); o != nil {
			return p.runInner(seg, name+" "+o.name, nil, o.val, "", at, c)
		}
		return false
	}
	verb, rest := verbOf(args)
	if verb < 0 {
		return false
	}
	v := args[verb].Value
	kind := name + " " + v
	switch {
	case name == "direnv" && v == "exec":
		if len(rest) < 2 {
			return p.opaqueRun(seg, kind+" without a command", c)
		}
		sub := Segment{Args: rest[1:], Pos: seg.Pos, Via: []string{kind}}
		d := rest[0]
		sub.Chdir = &d
		idx := p.add(seg, c)
		p.script.Segments[idx].Inline = true
		p.run(sub, at, inside(seg, c))
		return true
	case name == "mise" && (v == "exec" || v == "x"):
		opts, after, why := options(rest, optSpec{short: "cCjE", long: "command cd jobs env"})
		if why != "" {
			return p.opaqueRun(seg, kind+": "+why, c)
		}
		if o := has(opts, "-c", "--command"); o != nil {
			return p.runInner(seg, kind+" -c", nil, o.val, "", at, c)
		}
		// Tools to install come first, then -- and the command.
		for i, w := range after {
			if w.Literal && w.Value == "--" {
				return p.runInner(seg, kind, after[i+1:], nil, "", at, c)
			}
		}
		for i, w := range after {
			if !w.Literal || !strings.Contains(w.Value, "@") {
				return p.runInner(seg, kind, after[i:], nil, "", at, c)
			}
		}
		return p.opaqueRun(seg, kind+" without a command opens a shell", c)
	case name == "uv" && v == "run":
		opts, after, why := options(rest, optSpec{short: "pmf", long: "with with-editable with-requirements python package extra group only-group no-group env-file directory project index index-url extra-index-url default-index find-links module script gui-script refresh-package upgrade-package reinstall-package no-binary-package no-build-package config-file config-setting cache-dir python-preference python-fetch index-strategy keyring-provider resolution prerelease exclude-newer link-mode color allow-insecure-host"})
		if why != "" {
			return p.opaqueRun(seg, kind+": "+why, c)
		}
		if o := has(opts, "-m", "--module"); o != nil {
			py := Word{Raw: "python", Value: "python", Literal: true}
			m := Word{Raw: "-m", Value: "-m", Literal: true}
			return p.runInner(seg, kind, append([]Word{py, m, *o.val}, after...), nil, "", at, c)
		}
		if len(after) > 0 && after[0].Literal && strings.HasSuffix(after[0].Value, ".py") {
			py := Word{Raw: "python", Value: "python", Literal: true}
			after = append([]Word{py}, after...)
		}
		return p.runInner(seg, kind, after, nil, "", at, c)
	case name == "aws-vault" && v == "exec":
		if len(rest) == 0 {
			return p.opaqueRun(seg, kind+" without a profile", c)
		}
		_, after, why := options(rest[1:], optSpec{short: "dtrs", long: "duration mfa-token region ec2-server ecs-server server prompt"})
		if why != "" {
			return p.opaqueRun(seg, kind+": "+why, c)
		}
		if len(after) == 0 {
			return p.opaqueRun(seg, kind+" without a command opens a shell", c)
		}
		return p.runInner(seg, kind, after, nil, "", at, c)
	case name == "sops" && (v == "exec-env" || v == "exec-file"):
		_, after, why := options(rest, optSpec{long: "user filename input-type output-type"})
		if why != "" || len(after) < 2 {
			return p.opaqueRun(seg, kind+" without a command", c)
		}
		w := after[1]
		return p.runInner(seg, kind, nil, &w, "", at, c)
	case name == "cmake" && v == "-E":
		return p.cmakeE(seg, rest, at, c)
	case name == "doppler" && v == "run":
		opts, after, why := options(rest, optSpec{short: "pc", long: "project config command token scope mount mount-format mount-template fallback name-transformer"})
		if why != "" {
			return p.opaqueRun(seg, kind+": "+why, c)
		}
		if o := has(opts, "--command"); o != nil {
			return p.runInner(seg, kind+" --command", nil, o.val, "", at, c)
		}
		return p.runInner(seg, kind, after, nil, "", at, c)
	case (name == "poetry" || name == "pipenv" || name == "pdm" || name == "hatch" || name == "rye" ||
		name == "bundle" || name == "devbox" || name == "pixi") && (v == "run" || v == "exec"):
		_, after, why := options(rest, optSpec{short: "e", long: "environment env manifest-path"})
		if why != "" {
			return p.opaqueRun(seg, kind+": "+why, c)
		}
		return p.runInner(seg, kind, after, nil, "", at, c)
	case name == "conda" && v == "run":
		_, after, why := options(rest, optSpec{short: "np", long: "name prefix cwd"})
		if why != "" {
			return p.opaqueRun(seg, kind+": "+why, c)
		}
		return p.runInner(seg, kind, after, nil, "", at, c)
	case name == "nix" && v == "develop" || name == "nix-shell":
		opts, _, _ := options(rest, optSpec{short: "cpI", long: "command run arg argstr expr"})
		if o := has(opts, "-c", "--command"); o != nil && name == "nix" {
			// nix develop -c CMD ARGS…: the words after -c.
			for i, w := range rest {
				if w.Literal && (w.Value == "-c" || w.Value == "--command") {
					return p.runInner(seg, kind+" -c", rest[i+1:], nil, "", at, c)
				}
			}
		}
		if o := has(opts, "--run", "--command"); o != nil && name == "nix-shell" {
			return p.runInner(seg, name+" "+o.name, nil, o.val, "", at, c)
		}
		return false
	case name == "dotenv":
		return false // handled above
	}
	return false
}

// verbOf finds a program's verb: the first plain word after its leading
// options; -1 when there is none. It returns the words after the verb.
func verbOf(args []Word) (int, []Word) {
	for i, a := range args {
		if !a.Literal {
			return -1, nil
		}
		if a.Value == "-E" { // cmake -E
			return i, args[i+1:]
		}
		if strings.HasPrefix(a.Value, "-") {
			continue
		}
		return i, args[i+1:]
	}
	return -1, nil
}

// inner adds seg and the command it runs: words run as a command, or code
// (a word or a text) run by a shell.
func (p *parser) runInner(seg Segment, kind string, words []Word, codeWord *Word, code string, at syntax.Pos, c ctx) bool {
	idx := p.add(seg, c)
	c = inside(seg, c)
	switch {
	case codeWord != nil && !codeWord.Literal:
		p.segOpaque(idx, kind+" runs a command string built at run time")
	case codeWord != nil:
		p.script.Segments[idx].Inline = true
		p.sub(codeWord.Value, at, kind, c)
	case code != "":
		p.script.Segments[idx].Inline = true
		p.sub(code, at, kind, c)
	case len(words) > 0:
		p.script.Segments[idx].Inline = true
		p.run(Segment{Args: words, Pos: seg.Pos, Via: []string{kind}}, at, c)
	default:
		p.segOpaque(idx, kind+" without a command")
	}
	return true
}

func (p *parser) opaqueRun(seg Segment, why string, c ctx) bool {
	idx := p.add(seg, c)
	p.segOpaque(idx, why)
	return true
}

// joinCode joins literal words into one command string, or reports that
// one is built at run time.
func joinCode(ws []Word) (string, bool) {
	parts := make([]string, len(ws))
	for i, w := range ws {
		if !w.Literal {
			return "", false
		}
		parts[i] = w.Value
	}
	return strings.Join(parts, " "), true
}

// watchexec runs its command through a shell (joined), or as words with
// --shell=none or -n.
func (p *parser) watchexec(seg Segment, args []Word, at syntax.Pos, c ctx) bool {
	opts, rest, why := options(args, optSpec{short: "wWefiFdsEjp", long: "watch watch-non-recursive watch-file exts filter ignore filter-file ignore-file debounce shell signal stop-signal stop-timeout env workdir project-origin on-busy-update delay-run poll emit-events-to filter-prog socket timeout wrap-process color log-file fs-events"})
	if why != "" {
		return p.opaqueRun(seg, "watchexec: "+why, c)
	}
	if o := has(opts, "--shell"); o != nil && !(o.val.Literal && (o.val.Value == "none" || o.val.Value == "bash" || o.val.Value == "sh")) {
		return p.opaqueRun(seg, "watchexec runs its command through "+o.val.Raw, c)
	}
	if has(opts, "-n") != nil || has(opts, "--shell") != nil && has(opts, "--shell").val.Value == "none" {
		return p.runInner(seg, "watchexec", rest, nil, "", at, c)
	}
	code, ok := joinCode(rest)
	if !ok {
		return p.opaqueRun(seg, "watchexec runs a command built at run time", c)
	}
	return p.runInner(seg, "watchexec", nil, nil, code, at, c)
}

// nodemon runs --exec's command line, or node with its script.
func (p *parser) nodemon(seg Segment, args []Word, at syntax.Pos, c ctx) bool {
	opts, rest, why := options(args, optSpec{short: "wexiVdCIL", long: "watch ext exec ignore delay config signal spawn cwd"})
	if why != "" {
		return p.opaqueRun(seg, "nodemon: "+why, c)
	}
	if o := has(opts, "-x", "--exec"); o != nil {
		if !o.val.Literal {
			return p.opaqueRun(seg, "nodemon --exec runs a command built at run time", c)
		}
		code, ok := joinCode(append([]Word{*o.val}, rest...))
		if !ok {
			return p.opaqueRun(seg, "nodemon runs arguments built at run time", c)
		}
		return p.runInner(seg, "nodemon --exec", nil, nil, code, at, c)
	}
	if len(rest) == 0 {
		return false // runs package.json's main or start script: the project's code
	}
	node := Word{Raw: "node", Value: "node", Literal: true}
	return p.runInner(seg, "nodemon", append([]Word{node}, rest...), nil, "", at, c)
}

// hyperfine runs each command, and those of --prepare, --setup and
// --cleanup, through a shell.
func (p *parser) hyperfine(seg Segment, args []Word, at syntax.Pos, c ctx) bool {
	var code []string
	i := 0
	twoVals := map[string]int{"-L": 2, "--parameter-list": 2, "-P": 3, "--parameter-scan": 3}
	takes := " -w --warmup -m --min-runs -M --max-runs -r --runs -D --parameter-step-size -S --shell -u --time-unit --style --sort --export-asciidoc --export-csv --export-json --export-markdown --export-orgmode --output --input -n --command-name --reference "
	runs := " -p --prepare -s --setup -c --cleanup --conclude "
	for i < len(args) {
		a := args[i]
		if !a.Literal {
			return p.opaqueRun(seg, "hyperfine runs a command built at run time", c)
		}
		v := a.Value
		name, val, hasVal := strings.Cut(v, "=")
		switch {
		case strings.HasPrefix(v, "-") && strings.Contains(runs, " "+name+" "):
			if !hasVal {
				if i+1 >= len(args) || !args[i+1].Literal {
					return p.opaqueRun(seg, "hyperfine "+name+" runs a command built at run time", c)
				}
				val = args[i+1].Value
				i++
			}
			code = append(code, val)
		case strings.HasPrefix(v, "-") && strings.Contains(runs+takes, " "+name+" ") && name == "-S" || name == "--shell":
			sh := val
			if !hasVal && i+1 < len(args) {
				sh = args[i+1].Value
				i++
			}
			if sh != "none" && sh != "bash" && sh != "sh" && sh != "zsh" {
				return p.opaqueRun(seg, "hyperfine runs its commands through "+sh, c)
			}
		case strings.HasPrefix(v, "-") && strings.Contains(takes, " "+name+" "):
			if !hasVal {
				i++
			}
		case twoVals[v] > 0:
			i += twoVals[v]
		case strings.HasPrefix(v, "-"):
		default:
			code = append(code, v)
		}
		i++
	}
	if len(code) == 0 {
		return false
	}
	return p.runInner(seg, "hyperfine", nil, nil, strings.Join(code, "\n"), at, c)
}

// concurrently runs each argument as a command line; npm:NAME stands for
// npm run NAME.
func (p *parser) concurrently(seg Segment, args []Word, at syntax.Pos, c ctx) bool {
	_, rest, why := options(args, optSpec{short: "ncpmlt", long: "names prefix-colors prefix max-processes restart-tries restart-after prefix-length timestamp-format names-separator default-input-target success kill-signal"})
	if why != "" {
		return p.opaqueRun(seg, "concurrently: "+why, c)
	}
	var code []string
	for _, w := range rest {
		if !w.Literal {
			return p.opaqueRun(seg, "concurrently runs a command built at run time", c)
		}
		v := w.Value
		for _, pm := range []string{"npm:", "yarn:", "pnpm:", "bun:"} {
			if s, ok := strings.CutPrefix(v, pm); ok {
				v = pm[:len(pm)-1] + " run " + s
			}
		}
		code = append(code, v)
	}
	if len(code) == 0 {
		return false
	}
	return p.runInner(seg, "concurrently", nil, nil, strings.Join(code, "\n"), at, c)
}

// fdExec splits off fd's -x/-X command, run once per file found.
func (p *parser) fdExec(seg Segment, args []Word, at syntax.Pos, c ctx) bool {
	for i, a := range args {
		if !a.Literal {
			continue
		}
		switch a.Value {
		case "-x", "--exec", "-X", "--exec-batch":
			end := len(args)
			for j := i + 1; j < len(args); j++ {
				if args[j].Literal && args[j].Value == ";" {
					end = j
					break
				}
			}
			cmd := args[i+1 : end]
			keep := append(append([]Word{seg.Args[0]}, args[:i+1]...), args[end:]...)
			outer := seg
			outer.Args = keep
			idx := p.add(outer, c)
			if len(cmd) == 0 {
				p.segOpaque(idx, "fd "+a.Value+" without a command")
				return true
			}
			p.script.Segments[idx].Inline = true
			inner := Segment{Args: cmd, Pos: seg.Pos, Via: []string{"fd " + a.Value}, Many: true}
			p.run(inner, at, inside(seg, c))
			return true
		}
	}
	return false
}

// tmux reads the command a new session, window or pane runs, and
// run-shell's; send-keys types into a shell sayso cannot see.
func (p *parser) tmux(seg Segment, args []Word, at syntax.Pos, c ctx) bool {
	_, rest, why := options(args, optSpec{short: "LSfT"})
	if why != "" || len(rest) == 0 || !rest[0].Literal {
		return false
	}
	v := rest[0].Value
	switch v {
	case "new", "new-session", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw":
		_, cmd, why := options(rest[1:], optSpec{short: "cefFnstxylLbp"})
		if why != "" {
			return p.opaqueRun(seg, "tmux "+v+": "+why, c)
		}
		if len(cmd) == 0 {
			return false // the default shell, interactive
		}
		if len(cmd) == 1 {
			w := cmd[0]
			return p.runInner(seg, "tmux "+v, nil, &w, "", at, c)
		}
		return p.runInner(seg, "tmux "+v, cmd, nil, "", at, c)
	case "run-shell", "run":
		_, cmd, why := options(rest[1:], optSpec{short: "dt"})
		if why != "" || len(cmd) != 1 {
			return p.opaqueRun(seg, "tmux "+v+" runs a command sayso cannot read", c)
		}
		w := cmd[0]
		return p.runInner(seg, "tmux "+v, nil, &w, "", at, c)
	}
	return false
}

// screen -dm[S NAME] CMD… starts CMD detached.
func (p *parser) screen(seg Segment, args []Word, at syntax.Pos, c ctx) bool {
	_, rest, why := options(args, optSpec{short: "SLcehpstTX"})
	if why != "" {
		return false
	}
	for _, a := range args {
		if a.Literal && (a.Value == "-X" || a.Value == "-x" || a.Value == "-r" || a.Value == "-R") {
			return false
		}
	}
	if len(rest) == 0 {
		return false
	}
	return p.runInner(seg, "screen", rest, nil, "", at, c)
}

// cmakeE reads cmake -E env|chdir|time, which run a command.
func (p *parser) cmakeE(seg Segment, rest []Word, at syntax.Pos, c ctx) bool {
	if len(rest) == 0 || !rest[0].Literal {
		return false
	}
	switch rest[0].Value {
	case "env":
		i := 1
		var sets []Assign
		for i < len(rest) {
			w := rest[i]
			if !w.Literal {
				return p.opaqueRun(seg, "cmake -E env: an argument built at run time", c)
			}
			if w.Value == "--" {
				i++
				break
			}
			if strings.HasPrefix(w.Value, "-") {
				i++
				continue
			}
			name, val, ok := strings.Cut(w.Value, "=")
			if !ok || !validName(name) {
				break
			}
			sets = append(sets, Assign{Name: name, Value: Word{Raw: val, Value: val, Literal: true}})
			i++
		}
		idx := p.add(seg, c)
		if i >= len(rest) {
			return true
		}
		p.script.Segments[idx].Inline = true
		p.run(Segment{Args: rest[i:], Assigns: sets, Pos: seg.Pos, Via: []string{"cmake -E env"}}, at, inside(seg, c))
		return true
	case "chdir":
		if len(rest) < 3 {
			return false
		}
		d := rest[1]
		idx := p.add(seg, c)
		p.script.Segments[idx].Inline = true
		p.run(Segment{Args: rest[2:], Chdir: &d, Pos: seg.Pos, Via: []string{"cmake -E chdir"}}, at, inside(seg, c))
		return true
	case "time":
		return p.runInner(seg, "cmake -E time", rest[1:], nil, "", at, c)
	}
	return false
}

// registered reports whether the registry gives name trait t: shell's
// lists of shells and runners are read from there.
func registered(name string, t program.Trait) bool { return program.Is(name, t) }
