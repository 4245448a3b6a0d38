// Container engines: docker, podman, buildah, compose, and what a run hands the container.

package risk

import (
	"slices"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// dockerFamily: docker and the engines that take its command line; a
// step that points them at another daemon acts on another host.
func dockerFamily() family {
	return family{names: []string{"docker", "podman", "nerdctl"}, classify: docker, after: (*cmd).dockerEndpoint}
}

func docker(c *cmd) {
	w := c.words(3)
	sub, verb := w[0], w[1]
	// Which command runs is the first word, and for a group of commands
	// (docker system prune) the second: one that is not a literal is
	// none sayso knows.
	group := slices.Contains(dockerGroups, sub)
	if !c.literalWords(1) {
		return // opaque (words)
	}
	if group && !c.literalWords(2) {
		c.add(Opaque, UnknownVerb.By(c.name, c.written(2), ""))
		return
	}
	dockerWrites(c, sub, verb)
	if sub == "stack" || sub == "service" || sub == "swarm" || sub == "node" {
		switch {
		case verb == "deploy" || verb == "up" || verb == "create" || verb == "update" || verb == "scale" || verb == "rollback" || verb == "init" || verb == "join":
			c.add(Deploy, Deploys.By(c.name, sub+" "+verb, ""))
		case verb == "rm" || verb == "remove" || verb == "leave":
			c.add(Destructive, Destroys.By(c.name, sub+" "+verb, ""))
		default:
			c.add(Read, OnlyReads.By(c.name, sub+" "+verb, ""))
		}
		return
	}
	if sub == "volume" && verb == "create" {
		// the local driver binds a host path: --opt device=/ --opt o=bind
		for i, a := range c.args {
			v := a.Value
			if (v == "--opt" || v == "-o") && i+1 < len(c.args) {
				v = c.args[i+1].Value
			} else {
				v = strings.TrimPrefix(strings.TrimPrefix(v, "--opt="), "-o")
			}
			if strings.HasPrefix(v, "device=") || !a.Literal {
				c.add(Privilege, RaisesPrivilege.By(c.name, "volume create", a.Raw))
			}
		}
	}
	if group {
		docker2(c, sub, verb)
		return
	}
	dockerVerb(c, sub)
}

// dockerGroups are the words that name a group of commands: docker2
// reads the command from the word after them (the swarm's among them,
// read in docker itself).
var dockerGroups = []string{"container", "image", "volume", "network", "system", "builder", "buildx", "compose",
	"context", "manifest", "plugin", "stack", "service", "swarm", "node"}

func dockerVerb(c *cmd, v string) {
	n := c.name
	switch v {
	case "inspect":
		dockerInspect(c, n+" inspect")
	case "ps", "images", "logs", "version", "info", "stats", "top", "port", "diff", "history", "search", "events", "ls", "":
		c.add(Read, OnlyReads.By(n, v, ""))
	case "rm", "rmi", "prune", "kill-all":
		c.add(ContainerRemove, RemovesContainers.By(n, v, ""))
	case "push":
		c.add(Publish, Publishes.By(n, "push", ""))
	case "login", "logout":
		c.add(Secret, StoresCredential.By(n, v, ""))
	case "run", "create":
		c.add(LocalWrite, WorksInContainer.By(n, v, ""))
		dockerRunFlags(c)
		c.passEnv()
		c.runInner(v)
	case "exec":
		c.add(LocalWrite, WorksInContainer.By(n, "exec", ""))
		if c.has("--privileged") {
			c.add(Privilege, RaisesPrivilege.By(n, "exec --privileged", ""))
		}
		c.passEnv()
		c.execInner()
	case "cp":
		c.add(LocalWrite, WorksInContainer.By(n, "cp", ""))
		c.copyIn()
	case "build":
		c.add(LocalWrite, RunsProject.By(n, "build", ""))
		if c.has("--push") {
			c.add(Publish, Publishes.By(n, "build --push", ""))
		}
	default:
		c.add(LocalWrite, LocalWork.By(n, v, ""))
	}
}

func docker2(c *cmd, sub, verb string) {
	n := c.name + " " + sub
	switch sub {
	case "compose":
		switch verb {
		case "ps", "logs", "config", "ls", "images", "top", "version", "port", "events":
			c.add(Read, OnlyReads.By(n, verb, ""))
		case "rm":
			c.add(ContainerRemove, RemovesContainers.By(n, "rm", ""))
		case "down":
			if c.has("-v", "--volumes", "--rmi") {
				c.add(ContainerRemove, RemovesContainers.By(n, "down --volumes", ""))
			} else {
				c.add(LocalWrite, WorksInContainer.By(n, "down", ""))
			}
		case "push":
			c.add(Publish, Publishes.By(n, "push", ""))
		default:
			c.add(LocalWrite, LocalWork.By(n, verb, ""))
			dockerRunFlags(c)
			compose(c)
		}
	case "buildx":
		if verb == "bake" {
			c.add(Opaque, RunsUnread.By(n, "bake", ""))
		}
		if verb == "build" || verb == "bake" {
			c.add(LocalWrite, LocalWork.By(n, verb, ""))
			if c.has("--push") || c.has("--output=type=registry") {
				c.add(Publish, Publishes.By(n, "--push", ""))
			}
			return
		}
		switch verb {
		case "prune", "rm":
			c.add(ContainerRemove, RemovesContainers.By(n, verb, ""))
		case "imagetools":
			// create pushes the manifest list it makes.
			switch tool := c.words(3)[2]; tool {
			case "inspect", "":
				c.add(Read, OnlyReads.By(n+" imagetools", tool, ""))
			case "create":
				c.add(Publish, Publishes.By(n+" imagetools", "create", ""))
			default:
				c.add(Opaque, UnknownVerb.By(n+" imagetools", tool, ""))
			}
		case "ls", "inspect", "du", "version", "":
			c.add(Read, OnlyReads.By(n, verb, ""))
		case "create", "use", "stop", "dial-stdio", "history":
			c.add(LocalWrite, LocalWork.By(n, verb, ""))
		default:
			c.add(Opaque, UnknownVerb.By(n, verb, ""))
		}
	case "system":
		switch verb {
		case "prune":
			c.add(ContainerRemove, RemovesContainers.By(n, "prune", ""))
		case "reset":
			c.add(ContainerRemove, RemovesContainers.By(n, "reset", ""))
			c.add(Destructive, Destroys.By(n, "reset", ""))
		case "check":
			// --repair removes the containers and images it finds damaged.
			if c.has("--repair", "-r") {
				c.add(ContainerRemove, RemovesContainers.By(n, "check --repair", ""))
				return
			}
			c.add(Read, OnlyReads.By(n, verb, ""))
		case "df", "info", "events", "":
			c.add(Read, OnlyReads.By(n, verb, ""))
		case "connection":
			if v := c.words(3)[2]; v == "list" || v == "ls" || v == "" {
				c.add(Read, OnlyReads.By(n+" connection", v, ""))
				return
			}
			c.add(LocalWrite, ChangesLocalSettings.By(n, "connection", ""))
		default:
			// migrate, renumber and service (an API for whoever connects)
			// among them.
			c.add(Opaque, UnknownVerb.By(n, verb, ""))
		}
	case "manifest":
		switch verb {
		case "push":
			c.add(Publish, Publishes.By(n, "push", ""))
		case "inspect", "":
			c.add(Read, OnlyReads.By(n, verb, ""))
		case "create", "annotate", "rm", "add", "remove", "exists":
			c.add(LocalWrite, LocalWork.By(n, verb, ""))
		default:
			c.add(Opaque, UnknownVerb.By(n, verb, ""))
		}
	case "context":
		if verb == "ls" || verb == "show" || verb == "inspect" || verb == "" {
			c.add(Read, OnlyReads.By(n, verb, ""))
			return
		}
		c.add(LocalWrite, LocalWork.By(n, verb, ""))
	default:
		switch verb {
		case "rm", "remove", "prune", "rmi":
			c.add(ContainerRemove, RemovesContainers.By(n, verb, ""))
		case "inspect":
			if sub == "container" {
				dockerInspect(c, n+" inspect")
				return
			}
			c.add(Read, OnlyReads.By(n, "inspect", ""))
		case "ls", "list", "logs", "history", "":
			c.add(Read, OnlyReads.By(n, verb, ""))
		default:
			dockerVerb(c, verb)
		}
	}
}

// dockerRunFlags: flags that hand a container the host.
func dockerRunFlags(c *cmd) {
	for i, w := range c.args {
		v := w.Value
		switch {
		case v == "--privileged", v == "--pid=host", v == "--userns=host",
			strings.HasPrefix(v, "--cap-add=") && hostCap(v[len("--cap-add="):]),
			strings.HasPrefix(v, "--security-opt") && strings.Contains(v, "unconfined"),
			strings.HasPrefix(v, "--device"), v == "--volumes-from" || strings.HasPrefix(v, "--volumes-from="):
			c.add(Privilege, ContainerGetsHost.By(c.name, v, ""))
		case v == "--cap-add" || v == "--security-opt" || v == "--pid" || v == "--userns":
			if i+1 < len(c.args) {
				n := c.args[i+1].Value
				if v == "--cap-add" && hostCap(n) || strings.Contains(n, "unconfined") || n == "host" {
					c.add(Privilege, ContainerGetsHost.By(c.name, v+" "+n, ""))
				}
			}
		case v == "-v" || v == "--volume" || v == "--mount" || strings.HasPrefix(v, "--volume=") || strings.HasPrefix(v, "--mount=") || strings.HasPrefix(v, "-v") && len(v) > 2:
			spec, literal := "", true
			switch {
			case strings.Contains(v, "="):
				spec = v[strings.IndexByte(v, '=')+1:]
				literal = c.args[i].Literal
			case strings.HasPrefix(v, "-v") && len(v) > 2:
				spec = v[2:]
				literal = c.args[i].Literal
			case i+1 < len(c.args):
				spec = c.args[i+1].Value
				literal = c.args[i+1].Literal
			}
			if !literal {
				raw := c.args[min(i+1, len(c.args)-1)].Raw
				if strings.Contains(v, "=") || strings.HasPrefix(v, "-v") && len(v) > 2 {
					raw = c.args[i].Raw
					if at := strings.IndexByte(raw, '='); at >= 0 && strings.HasPrefix(raw, "--") {
						raw = raw[at+1:]
					} else {
						raw = raw[2:]
					}
				}
				if spec, literal = pwdSpec(raw); !literal {
					c.add(Opaque, PathUnknown.By(c.name, "mount", raw))
					continue
				}
			}
			if strings.Contains(spec, "docker.sock") || strings.HasPrefix(spec, "/:") || strings.Contains(spec, "source=/,") || strings.Contains(spec, "src=/,") {
				c.add(Privilege, ContainerGetsHost.By(c.name, "", ""))
			}
			if strings.HasPrefix(v, "--mount") {
				c.mountOption(spec)
				continue
			}
			if src, _, ok := strings.Cut(spec, ":"); ok && !strings.Contains(spec, "=") {
				ro := strings.HasSuffix(spec, ":ro") || strings.Contains(spec, ":ro,") || strings.Contains(spec, ",ro")
				c.bindSource(src, ro)
			}
		}
	}
}

// pwdSpec reads a mount spec led by the working folder ("$PWD:/w",
// "$(pwd)/src:/src"); any other expansion is not read.
func pwdSpec(raw string) (string, bool) {
	raw = strings.ReplaceAll(raw, `"`, "")
	for _, p := range []string{"$PWD", "${PWD}", "$(pwd)"} {
		if rest, ok := strings.CutPrefix(raw, p); ok && (strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "/")) {
			raw = "." + rest
			break
		}
	}
	return raw, !strings.ContainsAny(raw, "$`\"'")
}

// mountOption reads --mount's type=bind,source=…,target=…,readonly: a
// bind is a bind whatever its keys' order or spelling, and a volume the
// local driver binds from a host path (volume-opt=device=…) is one too.
func (c *cmd) mountOption(spec string) {
	src, ro, bind := "", false, false
	for _, kv := range strings.Split(spec, ",") {
		k, v, _ := strings.Cut(kv, "=")
		switch strings.ToLower(k) {
		case "type":
			bind = bind || v == "bind"
		case "source", "src":
			src = v
		case "readonly", "ro":
			ro = v == "" || v == "true" || v == "1"
		case "volume-opt":
			if strings.HasPrefix(v, "device=") || strings.HasPrefix(v, "o=") && strings.Contains(v, "bind") {
				c.add(Privilege, RaisesPrivilege.By(c.name, "", spec))
			}
		}
	}
	if bind && src != "" {
		c.bindSource(src, ro)
	}
}

// bindSource judges a host path bound into a container: the container —
// root, outside every wall — changes its source unless it is read-only.
func (c *cmd) bindSource(src string, ro bool) {
	if src == "/run" || src == "/var/run" || strings.HasPrefix(src, "/run/") || strings.HasPrefix(src, "/var/run/") {
		c.add(Privilege, ContainerGetsHost.By(c.name, "", src))
	}
	if strings.HasPrefix(src, "/") || strings.HasPrefix(src, "~") || strings.HasPrefix(src, ".") || strings.HasPrefix(src, "$") {
		w := shell.Word{Raw: src, Value: src, Literal: !strings.HasPrefix(src, "$"), Tilde: strings.HasPrefix(src, "~")}
		c.path(OpRead, w)
		if !ro {
			c.path(OpWrite, w)
		}
	}
	switch strings.TrimSuffix(src, "/") {
	case "~", "$HOME", "${HOME}", "/home", "/root":
		c.add(Secret, TouchesCredential.By(c.name, "", ""))
	}
}

// dockerInspect: docker inspect prints a container's whole configuration,
// Config.Env with the keys it was started with among them (docker
// inspect(1)), unless a --format picks fields that are not the
// environment.
func dockerInspect(c *cmd, n string) {
	for i := range c.args {
		f, ok, found := formatOpt(c.args, i, "-f", "--format", false)
		if !found {
			continue
		}
		g := strings.ReplaceAll(f, " ", "")
		if ok && g != "" && g != "json" && !strings.Contains(g, "Env") && !strings.Contains(g, ".Config}}") &&
			!strings.Contains(g, "json.}}") && !strings.Contains(g, "{{.}}") {
			c.add(Read, OnlyReads.By(n, "--format", ""))
			return
		}
		break
	}
	if c.has("--type=image", "--type=network", "--type=volume") {
		c.add(Read, OnlyReads.By(n, "", ""))
		return
	}
	c.add(Secret, PrintsCredential.By(n, "", ""))
}

// execInner judges the command docker exec runs in the container by what
// it shows — a drop or an rm -rf of the container's data is one still —
// leaving out what paths say, since they are the container's, not the
// host's.
func (c *cmd) execInner() {
	var words []string
	seenExec, container := false, false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		switch {
		case !seenExec:
			seenExec = w.Value == "exec"
		case !container && strings.HasPrefix(w.Value, "-"):
			switch w.Value {
			case "-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys":
				i++
			}
		case !container:
			container = true
		default:
			words = append(words, w.Raw)
		}
	}
	for _, f := range c.inner(words) {
		switch f.Class {
		case Read, LocalWrite, Opaque, Protected, InstructionPatch:
			continue
		}
		// A secret the command shows is the container's — its environment,
		// its mounted secrets — and lands in the transcript all the same.
		c.add(f.Class, InContainer.By(c.name, "exec", f.Why()))
	}
}

// innerRun judges the command after sep (kubectl exec POD -- CMD,
// kubectl run NAME --image=I -- CMD) as exec's is judged: it runs in the
// cluster, outside the wall, and what it prints — a pod's environment
// holds the keys it runs with — lands in the transcript.
func (c *cmd) innerRun(sep string) {
	for i, a := range c.args {
		if a.Literal && a.Value == sep {
			var words []string
			for _, w := range c.args[i+1:] {
				words = append(words, w.Raw)
			}
			for _, f := range c.inner(words) {
				switch f.Class {
				case Read, LocalWrite, Opaque, Protected, InstructionPatch:
					continue
				}
				c.add(f.Class, InContainer.By(c.name, "", f.Why()))
			}
			return
		}
	}
}

// inner classifies the words a container runs, as a project not this one.
func (c *cmd) inner(words []string) []Finding {
	if len(words) == 0 || c.a.ctx.depth >= 3 {
		return nil
	}
	ctx := c.a.ctx
	ctx.depth++
	ctx.Scripts, ctx.Recipes, ctx.Packages, ctx.Commands = nil, nil, nil, nil // the container's project is not this one
	return Classify(shell.Parse(strings.Join(words, " ")), ctx).Findings
}

func localClusterFamily() family {
	return family{names: []string{"kind", "minikube", "k3d", "colima", "lima"}, classify: localCluster}
}

// localCluster: kind, minikube, k3d make clusters and machines on this
// machine.
func localCluster(c *cmd) {
	ws := c.words(2)
	switch ws[0] {
	case "get", "status", "version", "ip", "profile", "logs", "list", "ls", "help", "":
		c.add(Read, OnlyReads.By(c.name, ws[0], ""))
	case "ssh", "kubectl":
		c.add(Opaque, RunsUnread.By(c.name, ws[0], ""))
	case "service", "tunnel", "dashboard":
		c.add(Network, ReachesHost.By(c.name, ws[0], ""))
	default:
		c.add(LocalWrite, LocalWork.By(c.name, strings.TrimSpace(ws[0]+" "+ws[1]), ""))
	}
}

func buildahFamily() family {
	return family{names: []string{"buildah"}, classify: buildah}
}

func buildah(c *cmd) {
	if c.byVerb(c.verb(), verbRule{nil, LocalWrite, LocalWork},
		verbRule{[]string{"push"}, Publish, Publishes},
		verbRule{[]string{"rm", "rmi", "prune"}, ContainerRemove, RemovesContainers},
		verbRule{[]string{"images", "containers", "inspect", "info", "version", "ps", ""}, Read, OnlyReads},
		verbRule{[]string{"run", "unshare"}, Opaque, RunsUnread},
		verbRule{[]string{"login"}, Secret, TouchesCredential}) == LocalWrite {
		c.cwdWrite()
	}
}

func dockerComposeFamily() family {
	return family{names: []string{"docker-compose"}, classify: dockerCompose}
}

// dockerCompose is docker-compose, read as docker compose.
func dockerCompose(c *cmd) {
	compose := shell.Word{Raw: "compose", Value: "compose", Literal: true}
	inner := &cmd{a: c.a, i: c.i, seg: c.seg, name: "docker", args: append([]shell.Word{compose}, c.args...)}
	docker(inner)
}

func earthlyFamily() family {
	return family{names: []string{"earthly"}, classify: earthly}
}

func earthly(c *cmd) {
	if c.has("--push") {
		c.add(Publish, Publishes.By("earthly", "--push", ""))
	}
	if c.has("-P", "--allow-privileged") {
		c.add(Privilege, RaisesPrivilege.By("earthly", "", ""))
	}
	c.add(LocalWrite, RunsProject.By("earthly", "", ""))
	c.cwdWrite()
}

func skopeoFamily() family {
	return family{names: []string{"skopeo"}, classify: skopeo}
}

func skopeo(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "copy", "sync":
		ops := c.operands()
		if len(ops) > 0 && strings.HasPrefix(ops[len(ops)-1].Value, "docker://") {
			c.add(Publish, Publishes.By("skopeo", v, ""))
			return
		}
		c.add(LocalWrite, LocalWork.By("skopeo", v, ""))
	case "delete":
		c.add(ContainerRemove, RemovesContainers.By("skopeo", "delete", ""))
	case "login", "logout":
		c.add(Secret, TouchesCredential.By("skopeo", v, ""))
	case "generate-sigstore-key", "standalone-sign":
		c.add(LocalWrite, LocalWork.By("skopeo", v, ""))
	case "inspect", "list-tags", "manifest-digest", "standalone-verify", "help", "":
		c.add(Read, OnlyReads.By("skopeo", v, ""))
	default:
		c.add(Opaque, UnknownVerb.By("skopeo", v, ""))
	}
}

// hostCap reports a capability, named as docker reads it (case blind,
// with or without CAP_), that lets a container reach the host: load a
// module, read any file by handle, mount, raw I/O, eBPF.
func hostCap(name string) bool {
	switch strings.TrimPrefix(strings.ToUpper(name), "CAP_") {
	case "ALL", "SYS_ADMIN", "SYS_MODULE", "DAC_READ_SEARCH", "SYS_RAWIO", "BPF", "PERFMON", "MAC_ADMIN", "MAC_OVERRIDE", "SYS_BOOT":
		return true
	}
	return false
}

// dockerEndpoint: a docker option naming another daemon (--context, -H,
// --host) makes every changing command act on another machine.
func (c *cmd) dockerEndpoint() {
	for i, w := range c.args {
		v := w.Value
		if !w.Literal {
			continue
		}
		if !strings.HasPrefix(v, "-") {
			return // the verb: options after it are the verb's
		}
		val := ""
		switch {
		case (v == "--context" || v == "-c" || v == "-H" || v == "--host" || v == "--url" || v == "--connection") && i+1 < len(c.args):
			val = c.args[i+1].Value
		case strings.HasPrefix(v, "--context=") || strings.HasPrefix(v, "--host=") || strings.HasPrefix(v, "--url=") || strings.HasPrefix(v, "--connection="):
			_, val, _ = strings.Cut(v, "=")
		case strings.HasPrefix(v, "-H") && len(v) > 2:
			val = v[2:]
		default:
			continue
		}
		if val != "" && val != "default" && !strings.HasPrefix(val, "unix://") && val != "desktop-linux" && val != "colima" && val != "orbstack" && val != "rootless" {
			if !Safe(c.a.segClasses(c.i).Without(Read)) || !c.a.segClasses(c.i).Without(Read).Empty() {
				c.add(Deploy, Deploys.By(c.name, "", val))
			}
			return
		}
	}
}

// dockerRunOpts are docker run's and podman run's options that take a
// value in the next word (docker-run(1), podman-run(1)); an option not
// listed here and not among dockerRunSwitches is taken to take one too.
var dockerRunSwitches = map[string]bool{
	"-d": true, "--detach": true, "-i": true, "--interactive": true, "-t": true, "--tty": true, "-it": true, "-ti": true,
	"-dit": true, "-itd": true, "--rm": true, "-P": true, "--publish-all": true, "--privileged": true, "--init": true,
	"--read-only": true, "--no-healthcheck": true, "--oom-kill-disable": true, "-q": true, "--quiet": true,
	"--disable-content-trust": true, "--replace": true, "--rootfs": true, "--http-proxy": true, "--no-hosts": true,
	"--use-api-socket": true, "--sig-proxy": true, "--tls-verify": true,
}

// runInner judges the command a container started by run or create runs
// (docker-run(1): IMAGE [COMMAND] [ARG...], with --entrypoint before
// them) as exec's is judged: the daemon runs it outside every wall, so a
// download run as code there is one here.
func (c *cmd) runInner(verb string) {
	var words []string
	entry := ""
	seen, image := false, false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		switch {
		case !seen:
			seen = w.Literal && v == verb
		case !image && strings.HasPrefix(v, "-"):
			if strings.HasPrefix(v, "--entrypoint") {
				if at := strings.IndexByte(w.Raw, '='); at >= 0 {
					entry = w.Raw[at+1:]
				} else if i+1 < len(c.args) {
					entry = c.args[i+1].Raw
				}
			}
			if !strings.Contains(v, "=") && !dockerRunSwitches[v] {
				i++
			}
		case !image:
			image = true
		default:
			words = append(words, w.Raw)
		}
	}
	if entry != "" {
		words = append([]string{entry}, words...)
	}
	for _, f := range c.inner(words) {
		switch f.Class {
		case Read, LocalWrite, Opaque, Protected, InstructionPatch:
			continue
		}
		c.add(f.Class, InContainer.By(c.name, verb, f.Why()))
	}
}

// passEnv judges the variables -e and --env hand the container
// (docker-run(1): "-e VAR" passes the host's value through; "-e VAR=$X"
// expands it here): a secret passed in leaves the wall with the
// container, which the daemon runs outside it.
func (c *cmd) passEnv() {
	seen := false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v, val := w.Value, shell.Word{}
		if !seen {
			seen = w.Literal && (v == "run" || v == "create" || v == "exec")
			continue
		}
		if !strings.HasPrefix(v, "-") {
			return // the image or the container: what follows is its command
		}
		if !strings.Contains(v, "=") && !dockerRunSwitches[v] && !strings.HasPrefix(v, "-e") && v != "--env" {
			i++ // an option's value
			continue
		}
		switch {
		case (v == "-e" || v == "--env") && i+1 < len(c.args):
			val = c.args[i+1]
		case strings.HasPrefix(v, "--env="):
			val = shell.Word{Raw: w.Raw, Value: v[len("--env="):], Literal: w.Literal, Params: w.Params}
		case strings.HasPrefix(v, "-e") && len(v) > 2 && !strings.HasPrefix(v, "--"):
			val = shell.Word{Raw: w.Raw, Value: v[2:], Literal: w.Literal, Params: w.Params}
		default:
			continue
		}
		name, _, set := strings.Cut(val.Value, "=")
		if !set && val.Literal && secretVar(name) {
			c.add(Secret, TouchesCredential.By(c.name, "", name))
		}
		for _, p := range val.Params {
			if secretVar(p) {
				c.add(Secret, TouchesCredential.By(c.name, "", p))
			}
		}
		if set && !val.Literal && len(val.Params) == 0 {
			c.add(Opaque, BuiltAtRunTime.By(c.name, "", val.Raw))
		}
	}
}

// copyIn judges docker cp's and podman cp's host paths (docker-cp(1):
// SRC_PATH CONTAINER:DEST or CONTAINER:SRC DEST_PATH): a host file
// copied in is read, by the daemon outside the wall; a container's file
// copied out is written here.
func (c *cmd) copyIn() {
	ops := c.operands()
	if len(ops) < 2 {
		return
	}
	src, dst := ops[len(ops)-2], ops[len(ops)-1] // kubectl cp -c NAME takes a value: the paths come last
	if containerRef(dst.Value) && !containerRef(src.Value) {
		if src.Value == "-" {
			return // a tar stream on stdin, judged with the pipe
		}
		c.path(OpRead, src)
		switch strings.TrimSuffix(src.Value, "/") {
		case "~", "$HOME", "/home", "/root", "/":
			c.add(Secret, TouchesCredential.By(c.name, "cp", ""))
		}
		return
	}
	if containerRef(src.Value) && !containerRef(dst.Value) && dst.Value != "-" {
		c.path(OpWrite, dst)
	}
}

// containerRef reports whether a docker cp operand names a container's
// path (CONTAINER:PATH): a colon before any slash.
func containerRef(v string) bool {
	colon := strings.IndexByte(v, ':')
	slash := strings.IndexByte(v, '/')
	return colon > 0 && (slash < 0 || colon < slash)
}
