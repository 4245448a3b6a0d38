package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// morePrograms extends programs with the tools of this file.
var morePrograms = map[string]func(*cmd){
	"glab": glab, "goreleaser": goreleaser, "vsce": publishVerb, "ovsx": publishVerb, "skopeo": skopeo,
	"sam": deployCLI, "argocd": argocd, "nomad": nomad, "ngrok": tunnel, "cloudflared": tunnel, "lt": tunnel,
	"localtunnel": tunnel, "lynx": textBrowser, "links": textBrowser, "w3m": textBrowser, "elinks": textBrowser,
	"gpg": gpg, "gpg2": gpg, "man": manCmd, "gdb": gdb, "lldb": gdb, "playwright": playwright,
	"chromium": browserProgram, "chromium-browser": browserProgram, "google-chrome": browserProgram, "chrome": browserProgram,
	"firefox": browserProgram, "gofmt": gofmt, ":": colon, "ssh-keygen": sshKeygen, "ssh-add": sshAdd,
	"strace": tracer, "ltrace": tracer, "gcore": tracer,
}

// tracer: attached to a running process, a tracer reads its memory — a
// key, a cookie, sayso's own — whatever it is.
func tracer(c *cmd) {
	if c.name == "gcore" || c.has("-p", "--attach") || c.shortFlag('p') {
		c.add(Secret, c.name+" attaches to a running process and reads its memory")
		return
	}
	c.add(Read, c.name+" lists its options")
}

func colon(c *cmd) { c.add(Read, ": does nothing") }

func glab(c *cmd) {
	ws := c.words(2)
	switch ws[0] {
	case "mr":
		c.args = append([]shell.Word{{Raw: "pr", Value: "pr", Literal: true}}, c.args[1:]...)
		if ws[1] == "note" {
			c.add(RemoteWrite, "glab mr note comments on the merge request")
			return
		}
		gh(c)
	case "ci", "pipeline":
		switch ws[1] {
		case "run", "retry", "trigger", "cancel":
			c.add(RemoteWrite, "glab "+ws[0]+" "+ws[1])
		case "delete":
			c.add(Destructive, "glab "+ws[0]+" delete")
		default:
			c.add(Read, "glab "+ws[0]+" "+ws[1])
		}
	default:
		gh(c)
	}
}

func goreleaser(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "release", "":
		if c.has("--snapshot", "--skip=publish", "--skip-publish") {
			c.add(LocalWrite, "goreleaser release --snapshot builds without publishing")
			return
		}
		c.add(Publish, "goreleaser release publishes a release")
	case "check", "healthcheck", "--version", "jsonschema":
		c.add(Read, "goreleaser "+v)
	default:
		c.add(LocalWrite, "goreleaser "+v)
	}
}

func publishVerb(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "publish", "unpublish":
		c.add(Publish, c.name+" "+v+" publishes to the marketplace")
	case "login", "create-publisher":
		c.add(Secret, c.name+" "+v)
	default:
		c.add(LocalWrite, c.name+" "+v)
	}
}

func skopeo(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "copy", "sync":
		ops := c.operands()
		if len(ops) > 0 && strings.HasPrefix(ops[len(ops)-1].Value, "docker://") {
			c.add(Publish, "skopeo "+v+" pushes an image to a registry")
			return
		}
		c.add(LocalWrite, "skopeo "+v)
	case "delete":
		c.add(ContainerRemove, "skopeo delete removes an image from a registry")
	default:
		c.add(Read, "skopeo "+v)
	}
}

func argocd(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[1] == "delete" || ws[1] == "terminate-op":
		c.add(Destructive, "argocd "+ws[0]+" "+ws[1])
	case ws[1] == "get" || ws[1] == "list" || ws[1] == "diff" || ws[1] == "history" || ws[1] == "manifests" || ws[1] == "logs" || ws[0] == "version" || ws[0] == "context":
		c.add(Read, "argocd "+ws[0]+" "+ws[1])
	default:
		c.add(Deploy, "argocd "+ws[0]+" "+ws[1]+" changes what runs in the cluster")
	}
}

func nomad(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[1] == "stop" || ws[1] == "purge" || ws[1] == "gc":
		c.add(Destructive, "nomad "+ws[0]+" "+ws[1])
	case ws[1] == "status" || ws[1] == "plan" || ws[1] == "inspect" || ws[1] == "history" || ws[1] == "logs" || ws[1] == "validate" || ws[0] == "status" || ws[0] == "version":
		c.add(Read, "nomad "+ws[0]+" "+ws[1])
	default:
		c.add(Deploy, "nomad "+ws[0]+" "+ws[1]+" changes what runs on the cluster")
	}
}

func tunnel(c *cmd) {
	c.add(Exfil, c.name+" exposes a local port to the internet")
}

func textBrowser(c *cmd) {
	c.a.mark(c.i, roleFetch)
	c.fetch(c.operands())
}

func gpg(c *cmd) {
	c.outputs([]string{"-o", "--output"}, nil)
	switch {
	case c.has("--export-secret-keys", "--export-secret-subkeys", "--decrypt", "-d", "--export-ownertrust", "--gen-revoke"):
		c.add(Secret, c.name+" prints secret keys or decrypted data")
	case c.has("--list-keys", "-k", "--list-secret-keys", "-K", "--verify", "--fingerprint", "--version", "--list-sigs", "--export", "--armor") && !c.has("--sign", "-s", "--encrypt", "-e", "--import", "--delete-key", "--delete-secret-key"):
		c.add(Read, c.name+" lists or verifies")
	case c.has("--delete-secret-key", "--delete-key", "--delete-secret-and-public-key"):
		c.add(Destructive, c.name+" deletes keys")
	default:
		c.add(LocalWrite, c.name+" signs, encrypts or imports")
	}
}

func manCmd(c *cmd) {
	for _, w := range c.args {
		v := w.Value
		if v == "-P" || strings.HasPrefix(v, "--pager") || strings.HasPrefix(v, "-H") || strings.HasPrefix(v, "--html") || strings.HasPrefix(v, "-P") && len(v) > 2 {
			c.add(Opaque, "man "+v+" runs another program")
			return
		}
	}
	c.add(Read, "man shows a manual")
}

func gdb(c *cmd) {
	for _, w := range c.args {
		if w.Value == "-p" || w.Value == "--pid" || strings.HasPrefix(w.Value, "--pid=") || w.Value == "attach" || c.name == "lldb" && (w.Value == "--attach-pid" || w.Value == "-n") {
			c.add(Secret, c.name+" attaches to a running process and reads its memory")
			return
		}
	}
	for _, w := range c.args {
		v := w.Value
		if v == "-ex" || v == "--ex" || v == "-x" || v == "--command" || v == "-batch" || v == "--batch" || v == "-iex" || v == "-o" || v == "--one-line" || v == "-s" && c.name == "lldb" {
			c.add(Opaque, c.name+" runs debugger commands, which can run programs")
			return
		}
	}
	c.add(LocalWrite, c.name+" debugs a program of the project")
}

func playwright(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "open", "codegen", "screenshot", "pdf", "cr", "ff", "wk":
		c.add(Browser, "playwright "+v+" drives a browser")
	default:
		c.add(LocalWrite, "playwright "+v+" runs the project's browser tests")
		c.cwdWrite()
	}
}

func browserProgram(c *cmd) {
	c.add(Browser, c.name+" runs a browser")
}

func gofmt(c *cmd) {
	if c.has("-w") || c.shortFlag('w') {
		c.add(LocalWrite, "gofmt -w rewrites files")
		for _, w := range c.operands() {
			c.write(w)
		}
		return
	}
	c.add(Read, "gofmt prints")
}

func sshKeygen(c *cmd) {
	if c.has("-l", "-F", "-H", "-R", "-y", "-Y") {
		c.add(Read, "ssh-keygen inspects keys")
		if c.has("-y") {
			c.add(Secret, "ssh-keygen -y reads a private key")
		}
		return
	}
	c.add(LocalWrite, "ssh-keygen makes a key")
	for i, w := range c.args {
		if w.Value == "-f" && i+1 < len(c.args) {
			c.path(OpWrite, c.args[i+1])
		}
	}
}

func sshAdd(c *cmd) {
	if c.has("-l", "-L") {
		c.add(Read, "ssh-add lists keys")
		return
	}
	c.add(Secret, "ssh-add loads a private key")
}
