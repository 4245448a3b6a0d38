package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// words returns the literal operands that are plain words, in order, up to
// n of them: the subcommand path of a CLI (gh pr create, kubectl get pods).
func (c *cmd) words(n int) []string {
	var out []string
	skip := false
	for _, w := range c.args {
		if len(out) == n {
			break
		}
		if skip {
			skip = false
			continue
		}
		v := w.Value
		if !w.Literal {
			out = append(out, "")
			continue
		}
		if strings.HasPrefix(v, "-") {
			if c.optTakesArg(v) {
				skip = true
			}
			continue
		}
		out = append(out, v)
	}
	for len(out) < n {
		out = append(out, "")
	}
	return out
}

// optTakesArg knows the global options of the CLIs below that take a value
// as the next word.
func (c *cmd) optTakesArg(v string) bool {
	if strings.Contains(v, "=") {
		return false
	}
	switch v {
	case "-R", "--repo", "-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server",
		"--profile", "--region", "--project", "--output", "-o", "--config", "-c", "-H", "--host", "-f", "--file",
		"--subscription", "-g", "--resource-group", "--app", "-a", "--scope", "--team", "--token", "-l", "--selector",
		"--chdir", "-C", "--log-level", "--format", "--filter", "--zone", "--account", "-t", "--tag", "-m", "--body", "--title",
		"--base", "--head", "-b", "-e", "--env", "--stack", "--cwd", "--workspace", "--method", "-X", "--jq", "-q", "--template", "--path":
		return true
	}
	return false
}

// hub wraps git: its own commands are GitHub's, every other one is git's.
func hub(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "pr", "issue", "release", "api":
		gh(c)
	case "pull-request", "create", "fork", "gist":
		c.add(RemoteWrite, "hub "+v+" changes GitHub")
	case "delete":
		c.add(Destructive, "hub delete deletes a repository on GitHub")
	case "browse", "compare", "ci-status":
		c.add(Read, "hub "+v+" reads")
	case "sync":
		c.add(LocalWrite, "hub sync updates local branches")
	default:
		git(c)
	}
}

func gh(c *cmd) {
	w := c.words(3)
	group, verb := w[0], w[1]
	switch group {
	case "pr":
		switch verb {
		case "merge":
			c.add(Merge, "gh pr merge merges into the base branch")
		case "create", "comment", "edit", "review", "ready", "close", "reopen", "lock", "unlock", "update-branch":
			c.add(RemoteWrite, "gh pr "+verb+" changes the pull request on GitHub")
		case "checkout":
			c.add(LocalWrite, "gh pr checkout switches the local branch")
		default:
			c.add(Read, "gh pr "+verb+" reads")
		}
	case "issue":
		switch verb {
		case "delete":
			c.add(Destructive, "gh issue delete")
		case "create", "comment", "edit", "close", "reopen", "transfer", "pin", "unpin", "lock", "unlock", "develop":
			c.add(RemoteWrite, "gh issue "+verb+" writes to GitHub")
		default:
			c.add(Read, "gh issue "+verb+" reads")
		}
	case "release":
		switch verb {
		case "create", "upload":
			c.add(Publish, "gh release "+verb+" publishes a release")
		case "delete", "delete-asset":
			c.add(Destructive, "gh release "+verb+" deletes a published release")
		case "edit":
			c.add(RemoteWrite, "gh release edit")
		case "download":
			c.add(LocalWrite, "gh release download")
		default:
			c.add(Read, "gh release "+verb)
		}
	case "repo":
		switch verb {
		case "delete", "archive":
			c.add(Destructive, "gh repo "+verb)
		case "create", "fork", "edit", "rename", "sync", "set-default", "deploy-key", "autolink":
			if verb == "sync" && c.has("--force") {
				c.add(ForceRemote, "gh repo sync --force hard-resets the destination branch")
			}
			if verb == "set-default" {
				c.add(LocalWrite, "gh repo set-default")
			} else {
				c.add(RemoteWrite, "gh repo "+verb+" changes a repository on GitHub")
			}
		case "clone":
			c.add(LocalWrite, "gh repo clone")
			if ops := c.operands(); len(ops) > 2 {
				c.clonesTo(ops[2:])
			}
		default:
			c.add(Read, "gh repo "+verb)
		}
	case "workflow":
		switch verb {
		case "run":
			c.add(RemoteWrite, "gh workflow run starts a workflow")
			if name := strings.ToLower(w[2]); strings.Contains(name, "deploy") || strings.Contains(name, "release") || strings.Contains(name, "publish") {
				c.add(Deploy, "gh workflow run starts "+w[2])
			}
		case "enable", "disable":
			c.add(RemoteWrite, "gh workflow "+verb)
		default:
			c.add(Read, "gh workflow "+verb)
		}
	case "run":
		switch verb {
		case "rerun", "cancel":
			c.add(RemoteWrite, "gh run "+verb)
		case "delete":
			c.add(Destructive, "gh run delete")
		case "download":
			c.add(LocalWrite, "gh run download")
		default:
			c.add(Read, "gh run "+verb)
		}
	case "secret", "variable":
		switch verb {
		case "set":
			c.add(RemoteWrite, "gh "+group+" set stores a value on GitHub")
		case "delete", "remove":
			c.add(Destructive, "gh "+group+" delete")
		default:
			c.add(Read, "gh "+group+" "+verb+" lists names only")
		}
	case "gist":
		switch verb {
		case "create", "edit":
			c.add(Exfil, "gh gist "+verb+" uploads files to GitHub")
			c.readOperandsAfter(2)
		case "delete":
			c.add(Destructive, "gh gist delete")
		case "clone":
			c.add(LocalWrite, "gh gist clone")
			if ops := c.operands(); len(ops) > 2 {
				c.clonesTo(ops[2:])
			}
		default:
			c.add(Read, "gh gist "+verb)
		}
	case "auth":
		switch verb {
		case "token":
			c.add(Secret, "gh auth token prints the token")
		case "status":
			if c.has("--show-token", "-t") {
				c.add(Secret, "gh auth status --show-token prints the token")
			}
			c.add(Read, "gh auth status")
		default:
			c.add(Secret, "gh auth "+verb+" changes the stored login")
		}
	case "api":
		ghAPI(c)
	case "label", "milestone", "project", "ruleset", "cache", "codespace", "extension", "alias", "config", "ssh-key", "gpg-key":
		switch verb {
		case "list", "view", "ls", "status", "get", "":
			c.add(Read, "gh "+group+" "+verb)
		case "delete", "remove", "rm":
			c.add(Destructive, "gh "+group+" "+verb)
		default:
			if group == "extension" || group == "alias" || group == "config" {
				c.add(LocalWrite, "gh "+group+" "+verb)
			} else {
				c.add(RemoteWrite, "gh "+group+" "+verb)
			}
		}
	default:
		c.add(Read, "gh "+group+" reads")
	}
}

func (c *cmd) readOperandsAfter(n int) {
	ops := c.operands()
	if len(ops) > n {
		for _, w := range ops[n:] {
			c.path(OpRead, w)
		}
	}
}

func ghAPI(c *cmd) {
	method := ""
	fields := false
	for i, w := range c.args {
		v := w.Value
		switch {
		case (v == "-X" || v == "--method") && i+1 < len(c.args):
			method = strings.ToUpper(c.args[i+1].Value)
		case strings.HasPrefix(v, "--method="):
			method = strings.ToUpper(v[9:])
		case strings.HasPrefix(v, "-X") && len(v) > 2:
			method = strings.ToUpper(v[2:])
		case v == "-f" || v == "-F" || v == "--field" || v == "--raw-field" || v == "--input":
			fields = true
		}
	}
	if method == "" && fields {
		method = "POST"
	}
	switch method {
	case "", "GET", "HEAD":
		c.add(Read, "gh api GET reads")
	case "DELETE":
		c.add(Destructive, "gh api DELETE deletes on GitHub")
	default:
		c.add(RemoteWrite, "gh api "+method+" writes to GitHub")
	}
}

func docker(c *cmd) {
	w := c.words(3)
	sub, verb := w[0], w[1]
	dockerWrites(c, sub, verb)
	if sub == "stack" || sub == "service" || sub == "swarm" || sub == "node" {
		switch {
		case verb == "deploy" || verb == "up" || verb == "create" || verb == "update" || verb == "scale" || verb == "rollback" || verb == "init" || verb == "join":
			c.add(Deploy, c.name+" "+sub+" "+verb+" changes the running services")
		case verb == "rm" || verb == "remove" || verb == "leave":
			c.add(Destructive, c.name+" "+sub+" "+verb)
		default:
			c.add(Read, c.name+" "+sub+" "+verb)
		}
		return
	}
	if sub == "container" || sub == "image" || sub == "volume" || sub == "network" || sub == "system" || sub == "builder" || sub == "buildx" || sub == "compose" || sub == "context" || sub == "manifest" || sub == "plugin" {
		docker2(c, sub, verb)
		return
	}
	dockerVerb(c, sub)
}

func dockerVerb(c *cmd, v string) {
	n := c.name
	switch v {
	case "ps", "images", "inspect", "logs", "version", "info", "stats", "top", "port", "diff", "history", "search", "events", "ls", "":
		c.add(Read, n+" "+v+" reads")
	case "rm", "rmi", "prune", "kill-all":
		c.add(ContainerRemove, n+" "+v+" removes containers or images")
	case "push":
		c.add(Publish, n+" push publishes an image")
	case "login", "logout":
		c.add(Secret, n+" "+v+" stores registry credentials")
	case "run", "create":
		c.add(LocalWrite, n+" "+v+" starts a container")
		dockerRunFlags(c)
	case "exec":
		c.add(LocalWrite, n+" exec runs a command in a container")
		if c.has("--privileged") {
			c.add(Privilege, n+" exec --privileged")
		}
	case "build":
		c.add(LocalWrite, n+" build builds an image")
		if c.has("--push") {
			c.add(Publish, n+" build --push publishes the image")
		}
	default:
		c.add(LocalWrite, n+" "+v)
	}
}

func docker2(c *cmd, sub, verb string) {
	n := c.name + " " + sub
	switch sub {
	case "compose":
		switch verb {
		case "ps", "logs", "config", "ls", "images", "top", "version", "port", "events":
			c.add(Read, n+" "+verb)
		case "rm":
			c.add(ContainerRemove, n+" rm")
		case "down":
			if c.has("-v", "--volumes", "--rmi") {
				c.add(ContainerRemove, n+" down --volumes deletes the data volumes")
			} else {
				c.add(LocalWrite, n+" down stops the project's containers")
			}
		case "push":
			c.add(Publish, n+" push publishes images")
		default:
			c.add(LocalWrite, n+" "+verb)
			dockerRunFlags(c)
		}
	case "buildx":
		if verb == "build" || verb == "bake" {
			c.add(LocalWrite, n+" "+verb)
			if c.has("--push") || c.has("--output=type=registry") {
				c.add(Publish, n+" --push publishes the image")
			}
			return
		}
		if verb == "prune" || verb == "rm" {
			c.add(ContainerRemove, n+" "+verb)
			return
		}
		c.add(Read, n+" "+verb)
	case "system":
		if verb == "prune" {
			c.add(ContainerRemove, n+" prune removes containers, images and volumes")
			return
		}
		if verb == "reset" {
			c.add(ContainerRemove, n+" system reset removes every container, image, volume and setting")
			c.add(Destructive, n+" system reset removes every container, image, volume and setting")
			return
		}
		c.add(Read, n+" "+verb)
	case "manifest":
		if verb == "push" {
			c.add(Publish, n+" push")
			return
		}
		c.add(Read, n+" "+verb)
	case "context":
		if verb == "ls" || verb == "show" || verb == "inspect" || verb == "" {
			c.add(Read, n+" "+verb)
			return
		}
		c.add(LocalWrite, n+" "+verb)
	default:
		switch verb {
		case "rm", "remove", "prune", "rmi":
			c.add(ContainerRemove, n+" "+verb+" removes them")
		case "ls", "list", "inspect", "logs", "history", "":
			c.add(Read, n+" "+verb)
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
			strings.HasPrefix(v, "--cap-add") && (strings.Contains(v, "ALL") || strings.Contains(v, "SYS_ADMIN")),
			strings.HasPrefix(v, "--security-opt") && strings.Contains(v, "unconfined"),
			strings.HasPrefix(v, "--device"):
			c.add(Privilege, c.name+" "+v+" gives the container the host")
		case v == "--cap-add" || v == "--security-opt" || v == "--pid" || v == "--userns":
			if i+1 < len(c.args) {
				n := c.args[i+1].Value
				if n == "ALL" || n == "SYS_ADMIN" || strings.Contains(n, "unconfined") || n == "host" {
					c.add(Privilege, c.name+" "+v+" "+n+" gives the container the host")
				}
			}
		case v == "-v" || v == "--volume" || v == "--mount" || strings.HasPrefix(v, "--volume=") || strings.HasPrefix(v, "--mount=") || strings.HasPrefix(v, "-v") && len(v) > 2:
			spec := ""
			switch {
			case strings.Contains(v, "="):
				spec = v[strings.IndexByte(v, '=')+1:]
			case strings.HasPrefix(v, "-v") && len(v) > 2:
				spec = v[2:]
			case i+1 < len(c.args):
				spec = c.args[i+1].Value
			}
			if strings.Contains(spec, "docker.sock") || strings.HasPrefix(spec, "/:") || strings.Contains(spec, "source=/,") || strings.Contains(spec, "src=/,") {
				c.add(Privilege, c.name+" mounts the host's root or the Docker socket")
			}
			if src, _, ok := strings.Cut(spec, ":"); ok && !strings.Contains(spec, "=") {
				if src == "/run" || src == "/var/run" || strings.HasPrefix(src, "/run/") || strings.HasPrefix(src, "/var/run/") {
					c.add(Privilege, c.name+" mounts the host's sockets ("+src+"): the daemons behind them run what they are asked")
				}
				// A bind mount lets the container — root, outside every
				// wall — change its source, unless it is read-only.
				op := OpWrite
				if strings.HasSuffix(spec, ":ro") || strings.Contains(spec, ":ro,") || strings.Contains(spec, ",ro") {
					op = OpRead
				}
				if strings.HasPrefix(src, "/") || strings.HasPrefix(src, "~") || strings.HasPrefix(src, ".") || strings.HasPrefix(src, "$") {
					w := shell.Word{Raw: src, Value: src, Literal: !strings.HasPrefix(src, "$"), Tilde: strings.HasPrefix(src, "~")}
					c.path(OpRead, w)
					if op == OpWrite {
						c.path(OpWrite, w)
					}
				}
				switch strings.TrimSuffix(src, "/") {
				case "~", "$HOME", "${HOME}", "/home", "/root":
					c.add(Secret, c.name+" hands the container the whole home, its keys among it")
				}
			}
		}
	}
}

func kubectl(c *cmd) {
	w := c.words(3)
	verb := w[0]
	dry := false
	for _, a := range c.args {
		if strings.HasPrefix(a.Value, "--dry-run") && a.Value != "--dry-run=none" {
			dry = true
		}
	}
	n := c.name + " " + verb
	switch verb {
	case "get":
		if (w[1] == "secret" || w[1] == "secrets" || strings.HasPrefix(w[1], "secret/")) && c.has("-o", "--output") {
			c.add(Secret, n+" "+w[1]+" -o prints secret values")
		}
		c.add(Read, n+" reads the cluster")
	case "describe", "logs", "top", "explain", "api-resources", "api-versions", "version", "cluster-info",
		"diff", "wait", "events", "kustomize", "completion", "plugin", "":
		c.add(Read, n+" reads the cluster")
	case "auth":
		c.add(Read, n)
	case "config":
		switch w[1] {
		case "view":
			if c.has("--raw") {
				c.add(Secret, n+" view --raw prints credentials")
			}
			c.add(Read, n+" view")
		case "get-contexts", "current-context", "get-clusters", "get-users":
			c.add(Read, n+" "+w[1])
		default:
			c.add(LocalWrite, n+" "+w[1]+" changes the local kubeconfig")
		}
	case "rollout":
		if w[1] == "status" || w[1] == "history" {
			c.add(Read, n+" "+w[1])
			return
		}
		c.add(Deploy, n+" "+w[1]+" changes a running deployment")
	case "delete":
		if dry {
			c.add(Read, n+" --dry-run")
			return
		}
		c.add(Destructive, n+" deletes cluster resources")
	case "port-forward", "proxy":
		c.add(LocalWrite, n+" opens a local port")
	case "create", "apply", "replace", "patch", "set", "scale", "autoscale", "label", "annotate", "edit", "expose",
		"run", "cordon", "uncordon", "drain", "taint", "cp", "exec", "attach", "debug", "certificate":
		if dry {
			c.add(Read, n+" --dry-run")
			return
		}
		c.add(Deploy, n+" changes the cluster")
	default:
		c.add(Deploy, n+" may change the cluster")
	}
}

func helm(c *cmd) {
	w := c.words(2)
	dry := c.has("--dry-run")
	switch v := w[0]; v {
	case "list", "ls", "status", "history", "get", "show", "inspect", "template", "lint", "search", "version", "env", "verify", "":
		c.add(Read, "helm "+v)
	case "repo", "dependency", "dep", "pull", "fetch", "package", "plugin", "create", "completion":
		if v == "repo" && (w[1] == "list" || w[1] == "ls") {
			c.add(Read, "helm repo list")
			return
		}
		c.add(LocalWrite, "helm "+v)
	case "install", "upgrade", "rollback":
		if dry {
			c.add(Read, "helm "+v+" --dry-run")
			return
		}
		c.add(Deploy, "helm "+v+" changes a release in the cluster")
	case "uninstall", "delete", "del", "un":
		c.add(Destructive, "helm "+v+" removes a release")
	case "push":
		c.add(Publish, "helm push publishes a chart")
	default:
		c.add(Deploy, "helm "+v)
	}
}

func terraform(c *cmd) {
	w := c.words(2)
	n := c.name + " " + w[0]
	switch w[0] {
	case "plan", "show", "output", "graph", "providers", "version", "validate", "console", "get", "-version", "":
		c.add(Read, n+" reads")
	case "init", "fmt", "test", "login", "logout", "metadata", "modules":
		c.add(LocalWrite, n)
		c.cwdWrite()
	case "destroy":
		c.add(Destructive, n+" destroys infrastructure")
	case "apply":
		if c.has("-destroy", "--destroy") {
			c.add(Destructive, n+" -destroy destroys infrastructure")
			return
		}
		c.add(Deploy, n+" changes infrastructure")
	case "state":
		switch w[1] {
		case "list", "show", "pull":
			c.add(Read, n+" "+w[1])
		case "rm":
			c.add(Destructive, n+" rm forgets resources")
		default:
			c.add(Deploy, n+" "+w[1]+" changes the state")
		}
	case "workspace":
		switch w[1] {
		case "list", "show":
			c.add(Read, n+" "+w[1])
		case "delete":
			c.add(Destructive, n+" delete")
		default:
			c.add(LocalWrite, n+" "+w[1])
		}
	default:
		c.add(Deploy, n+" changes infrastructure")
	}
}

func pulumi(c *cmd) {
	w := c.words(2)
	switch w[0] {
	case "preview", "stack", "whoami", "version", "about", "config", "logs", "":
		if w[0] == "stack" && (w[1] == "rm" || w[1] == "remove") {
			c.add(Destructive, "pulumi stack rm")
			return
		}
		c.add(Read, "pulumi "+w[0])
	case "destroy":
		c.add(Destructive, "pulumi destroy")
	default:
		c.add(Deploy, "pulumi "+w[0]+" changes infrastructure")
	}
}

// cloudVerb classifies a cloud CLI's operation by the verb its name starts
// with: list/describe/get read, delete destroys, anything else changes.
func (c *cmd) cloudVerb(label, op string) {
	op = strings.ToLower(op)
	switch {
	case op == "" || op == "help" || strings.HasPrefix(op, "list") || strings.HasPrefix(op, "describe") || strings.HasPrefix(op, "get") ||
		strings.HasPrefix(op, "show") || op == "ls" || strings.HasPrefix(op, "wait") || op == "version" || op == "info" ||
		strings.HasPrefix(op, "search") || strings.HasPrefix(op, "lookup") || strings.HasPrefix(op, "query") || strings.HasPrefix(op, "filter") ||
		op == "whoami" || op == "status" || strings.HasPrefix(op, "head-") || strings.HasPrefix(op, "validate") || strings.HasPrefix(op, "test-") ||
		strings.HasPrefix(op, "check") || strings.HasPrefix(op, "scan") || strings.HasPrefix(op, "estimate") || strings.HasPrefix(op, "simulate") || op == "logs" || op == "tail":
		c.add(Read, label+" "+op+" reads")
	case strings.HasPrefix(op, "delete") || strings.HasPrefix(op, "remove") || strings.HasPrefix(op, "terminate") ||
		strings.HasPrefix(op, "destroy") || strings.HasPrefix(op, "purge") || strings.HasPrefix(op, "deregister") ||
		strings.HasPrefix(op, "disable") || op == "rm" || op == "rb" || strings.HasPrefix(op, "drop") || strings.HasPrefix(op, "revoke"):
		c.add(Destructive, label+" "+op+" deletes cloud resources")
	default:
		c.add(Deploy, label+" "+op+" changes cloud resources")
	}
}

func aws(c *cmd) {
	w := c.words(3)
	svc, op := w[0], w[1]
	switch {
	case svc == "s3":
		awsS3(c, op, w[2])
	case svc == "configure" && op == "get" && secretVar(w[2]):
		c.add(Secret, "aws configure get "+w[2]+" prints a secret")
	case svc == "configure" && op == "export-credentials":
		c.add(Secret, "aws configure export-credentials prints credentials")
	case svc == "sts" && (strings.HasPrefix(op, "assume-role") || op == "get-session-token" || op == "get-federation-token"):
		c.add(Secret, "aws sts "+op+" prints credentials")
	case svc == "sts" || svc == "configure" && (op == "list" || op == "get" || op == "list-profiles"):
		c.add(Read, "aws "+svc+" "+op)
	case svc == "configure":
		c.add(Secret, "aws configure stores credentials")
	case op == "get-secret-value" || op == "get-login-password" || op == "get-authorization-token" || op == "get-session-token" ||
		svc == "ssm" && strings.HasPrefix(op, "get-parameter") && c.has("--with-decryption") || op == "decrypt" || op == "get-credentials-for-identity" || op == "get-password-data":
		c.add(Secret, "aws "+svc+" "+op+" prints a secret")
	case svc == "deploy" || svc == "cloudformation" && (op == "deploy" || op == "create-stack" || op == "update-stack"):
		c.add(Deploy, "aws "+svc+" "+op)
	case svc == "ecr" && op == "put-image" || svc == "codeartifact" && strings.HasPrefix(op, "publish"):
		c.add(Publish, "aws "+svc+" "+op)
	default:
		c.cloudVerb("aws "+svc, op)
	}
}

func awsS3(c *cmd, op, first string) {
	ops := c.operands()
	var dst string
	if len(ops) > 0 {
		dst = ops[len(ops)-1].Value
	}
	switch op {
	case "ls", "presign", "":
		c.add(Read, "aws s3 "+op)
	case "rm", "rb":
		c.add(Destructive, "aws s3 "+op+" deletes from a bucket")
	case "mb", "website":
		c.add(RemoteWrite, "aws s3 "+op)
	case "cp", "mv", "sync":
		if strings.HasPrefix(dst, "s3://") {
			if op == "sync" && c.has("--delete") {
				c.add(Destructive, "aws s3 sync --delete deletes from the bucket")
			}
			if op == "mv" && len(ops) > 2 && strings.HasPrefix(ops[len(ops)-2].Value, "s3://") {
				c.add(Destructive, "aws s3 mv removes the source objects")
			}
			c.add(RemoteWrite, "aws s3 "+op+" uploads to "+dst)
			for _, w := range ops[1 : len(ops)-1] {
				if !strings.HasPrefix(w.Value, "s3://") {
					c.path(OpRead, w)
				}
			}
			return
		}
		c.add(LocalWrite, "aws s3 "+op+" downloads")
		if len(ops) > 0 {
			c.write(ops[len(ops)-1])
		}
	default:
		c.add(Deploy, "aws s3 "+op)
	}
}

func gcloud(c *cmd) {
	var ws []string
	for _, w := range c.words(6) {
		if w != "" {
			ws = append(ws, w)
		}
	}
	for _, w := range ws {
		switch w {
		case "print-access-token", "print-identity-token", "print-refresh-token", "get-credentials", "access":
			if w == "access" && !contains(ws, "versions") {
				continue
			}
			c.add(Secret, "gcloud "+w+" prints credentials")
			return
		}
	}
	if len(ws) > 0 && ws[0] == "config" {
		if contains(ws, "set") || contains(ws, "unset") || contains(ws, "configurations") && contains(ws, "activate") {
			c.add(LocalWrite, "gcloud config changes local settings")
			return
		}
		c.add(Read, "gcloud config")
		return
	}
	if len(ws) > 0 && ws[0] == "auth" {
		if contains(ws, "list") {
			c.add(Read, "gcloud auth list")
			return
		}
		c.add(Secret, "gcloud auth changes the stored login")
		return
	}
	for _, w := range ws {
		if w == "deploy" {
			c.add(Deploy, "gcloud deploy")
			return
		}
	}
	op := ""
	if len(ws) > 0 {
		op = ws[len(ws)-1]
		for _, w := range ws {
			if cloudVerbWord(w) {
				op = w
				break
			}
		}
	}
	c.cloudVerb("gcloud", op)
}

func cloudVerbWord(w string) bool {
	for _, p := range []string{"list", "describe", "get", "delete", "create", "update", "set", "add", "remove", "deploy", "apply",
		"start", "stop", "restart", "resize", "import", "export", "patch", "enable", "disable", "run", "submit", "ssh", "scp", "connect", "show"} {
		if w == p || strings.HasPrefix(w, p+"-") {
			return true
		}
	}
	return false
}

func contains(ws []string, s string) bool {
	for _, w := range ws {
		if w == s {
			return true
		}
	}
	return false
}

func gsutil(c *cmd) {
	for len(c.args) > 0 && strings.HasPrefix(c.args[0].Value, "-") {
		if v := c.args[0].Value; (v == "-o" || v == "-h" || v == "-u") && len(c.args) > 1 {
			c.args = c.args[1:]
		}
		c.args = c.args[1:]
	}
	w := c.words(1)
	switch w[0] {
	case "ls", "cat", "du", "stat", "version", "hash":
		c.add(Read, "gsutil "+w[0])
	case "rm", "rb":
		c.add(Destructive, "gsutil "+w[0]+" deletes from a bucket")
	case "rsync":
		if c.shortFlag('d') {
			c.add(Destructive, "gsutil rsync -d deletes from the destination")
		}
		c.add(RemoteWrite, "gsutil rsync")
	default:
		ops := c.operands()
		if len(ops) > 0 && strings.HasPrefix(ops[len(ops)-1].Value, "gs://") {
			c.add(RemoteWrite, "gsutil "+w[0]+" uploads")
			return
		}
		c.add(LocalWrite, "gsutil "+w[0])
	}
}

func azure(c *cmd) {
	ws := c.words(5)
	if contains(ws, "get-access-token") || ws[0] == "login" || ws[0] == "logout" {
		c.add(Secret, "az "+ws[0]+" handles credentials")
		return
	}
	op := ""
	for _, w := range ws {
		if cloudVerbWord(w) || w == "purge" || w == "swap" {
			op = w
			break
		}
	}
	if ws[0] == "account" && (op == "show" || op == "list") {
		c.add(Read, "az account")
		return
	}
	if ws[0] == "keyvault" && (contains(ws, "secret") || contains(ws, "key") || contains(ws, "certificate")) &&
		(op == "show" || contains(ws, "download") || contains(ws, "backup")) {
		c.add(Secret, "az keyvault "+ws[1]+" prints or saves a secret")
		return
	}
	for _, w := range ws {
		switch {
		case w == "up":
			// az webapp up, az containerapp up, az staticwebapp …: build and deploy.
			c.add(Deploy, "az "+ws[0]+" up deploys")
			return
		case strings.HasPrefix(w, "upload") || ws[0] == "storage" && (w == "sync" || w == "copy"):
			c.add(RemoteWrite, "az "+ws[0]+" "+w+" uploads to storage")
			return
		}
	}
	c.cloudVerb("az "+ws[0], op)
}

func fly(c *cmd) {
	ws := c.words(2)
	switch v := ws[0]; v {
	case "deploy", "launch", "scale", "restart", "machine", "machines", "deploy-x", "secrets", "ips", "certs", "regions", "volumes", "apps", "postgres", "redis", "proxy", "ssh", "console", "config":
		switch ws[1] {
		case "list", "ls", "show", "status", "":
			if v == "deploy" || v == "launch" || v == "restart" || v == "scale" {
				c.add(Deploy, c.name+" "+v)
				return
			}
			if v == "ssh" || v == "console" || v == "proxy" {
				c.add(Deploy, c.name+" "+v+" opens a session on the app")
				return
			}
			c.add(Read, c.name+" "+v)
		case "destroy", "delete", "remove", "rm":
			c.add(Destructive, c.name+" "+v+" "+ws[1])
		default:
			c.add(Deploy, c.name+" "+v+" "+ws[1])
		}
	case "destroy":
		c.add(Destructive, c.name+" destroy")
	case "status", "logs", "info", "version", "auth", "doctor", "dashboard", "open", "releases", "history", "platform", "orgs", "":
		if v == "auth" && ws[1] == "token" {
			c.add(Secret, c.name+" auth token")
			return
		}
		c.add(Read, c.name+" "+v)
	default:
		c.add(Deploy, c.name+" "+v)
	}
}

func vercel(c *cmd) {
	ws := c.words(2)
	switch v := ws[0]; v {
	case "ls", "list", "inspect", "logs", "whoami", "help", "--version", "domains-ls", "project-ls":
		c.add(Read, "vercel "+v)
	case "env":
		if ws[1] == "pull" {
			c.add(Secret, "vercel env pull writes the project's secrets")
			return
		}
		if ws[1] == "ls" || ws[1] == "list" {
			c.add(Read, "vercel env ls")
			return
		}
		c.add(Deploy, "vercel env "+ws[1])
	case "rm", "remove":
		c.add(Destructive, "vercel rm deletes deployments")
	case "link", "pull", "login", "logout", "dev", "build", "init":
		c.add(LocalWrite, "vercel "+v)
	default:
		c.add(Deploy, "vercel deploys")
	}
}

func netlify(c *cmd) {
	ws := c.words(1)
	switch ws[0] {
	case "deploy":
		c.add(Deploy, "netlify deploy")
	case "status", "open", "sites:list", "logs", "":
		c.add(Read, "netlify "+ws[0])
	case "dev", "build", "link", "init", "login":
		c.add(LocalWrite, "netlify "+ws[0])
	default:
		if strings.Contains(ws[0], "delete") {
			c.add(Destructive, "netlify "+ws[0])
			return
		}
		c.add(Deploy, "netlify "+ws[0])
	}
}

func heroku(c *cmd) {
	ws := c.words(1)
	v := ws[0]
	switch {
	case strings.Contains(v, "destroy") || strings.Contains(v, "delete") || strings.Contains(v, "reset"):
		c.add(Destructive, "heroku "+v)
	case v == "logs" || v == "ps" || v == "apps" || v == "info" || v == "releases" || v == "config" || v == "addons" || v == "status" || v == "whoami" || v == "":
		c.add(Read, "heroku "+v)
	case v == "auth:token":
		c.add(Secret, "heroku auth:token")
	default:
		c.add(Deploy, "heroku "+v+" changes the app")
	}
}

// deployCLI: platforms whose verbs deploy unless they only look.
func deployCLI(c *cmd) {
	ws := c.words(1)
	v := ws[0]
	switch {
	case v == "" || v == "help" || v == "whoami" || v == "login" || v == "logs" || v == "tail" || v == "info" || strings.HasSuffix(v, "list") || v == "status" || v == "version" || v == "dev" || v == "serve" || v == "emulators:start" || v == "init" || v == "build" || v == "types":
		c.add(LocalWrite, c.name+" "+v)
	case strings.Contains(v, "delete") || strings.Contains(v, "remove") || strings.Contains(v, "destroy") || v == "rm":
		c.add(Destructive, c.name+" "+v)
	default:
		c.add(Deploy, c.name+" "+v)
	}
}

func cdk(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "deploy", "bootstrap", "import", "watch", "rollback":
		c.add(Deploy, "cdk "+v)
	case "destroy":
		c.add(Destructive, "cdk destroy")
	default:
		c.add(LocalWrite, "cdk "+v)
	}
}

func ansible(c *cmd) {
	if c.has("--check", "-C", "--syntax-check", "--list-hosts", "--list-tasks") {
		c.add(Read, c.name+" --check changes nothing")
		return
	}
	c.add(Deploy, c.name+" changes the hosts it runs against")
}

func vault(c *cmd) {
	ws := c.words(2)
	v, sub := ws[0], ws[1]
	switch {
	case v == "kv" && sub == "get" || v == "read" || v == "token" || v == "login" || v == "print":
		c.add(Secret, "vault "+v+" reads secrets")
	case v == "kv" && (sub == "list" || sub == "metadata"), v == "list", v == "status", v == "version", v == "secrets" && sub == "list", v == "auth" && sub == "list", v == "policy" && (sub == "list" || sub == "read"):
		c.add(Read, "vault "+v+" "+sub)
	case v == "kv" && (sub == "delete" || sub == "destroy" || sub == "metadata"), v == "delete", v == "secrets" && (sub == "disable" || sub == "move"), v == "auth" && sub == "disable", v == "lease" && sub == "revoke", v == "policy" && sub == "delete":
		c.add(Destructive, "vault "+v+" "+sub)
	default:
		c.add(RemoteWrite, "vault "+v+" "+sub+" changes stored secrets or settings")
	}
}

func rclone(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "ls", "lsd", "lsl", "lsf", "lsjson", "size", "check", "cat", "about", "listremotes", "version", "tree", "md5sum", "sha1sum", "hashsum", "":
		c.add(Read, "rclone "+v)
	case "delete", "purge", "deletefile", "rmdir", "rmdirs", "cleanup", "dedupe":
		c.add(Destructive, "rclone "+v+" deletes remote files")
	case "sync", "bisync":
		c.add(Destructive, "rclone "+v+" deletes what the source lacks")
	case "config":
		c.add(Secret, "rclone config holds remote credentials")
	default:
		c.add(RemoteWrite, "rclone "+v)
	}
}

func stripe(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[1] == "create" || ws[1] == "capture" || ws[1] == "pay" || ws[1] == "confirm" || strings.Contains(ws[0], "refund") || strings.Contains(ws[0], "payout") || strings.Contains(ws[0], "transfer") || ws[0] == "post":
		c.add(Money, "stripe "+ws[0]+" "+ws[1]+" moves money")
	case ws[1] == "list" || ws[1] == "retrieve" || ws[0] == "get" || ws[0] == "logs" || ws[0] == "listen" || ws[0] == "":
		c.add(Read, "stripe "+ws[0])
	default:
		c.add(Money, "stripe "+ws[0]+" "+ws[1]+" may charge or pay")
	}
}
