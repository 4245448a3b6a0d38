// Kubernetes and cluster tools: kubectl, helm and the deploy tools built on them.

package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

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
		if kubeSecrets(w[1]) && kubeOutputValues(c) {
			c.add(Secret, Words(n+" "+w[1]+" -o prints secret values"))
		}
		c.add(Read, Words(n+" reads the cluster"))
	case "describe", "logs", "top", "explain", "api-resources", "api-versions", "version", "cluster-info",
		"diff", "wait", "events", "kustomize", "completion", "plugin", "":
		c.add(Read, Words(n+" reads the cluster"))
	case "auth":
		c.add(Read, Words(n))
	case "config":
		switch w[1] {
		case "view":
			if c.has("--raw") {
				c.add(Secret, Words(n+" view --raw prints credentials"))
			}
			c.add(Read, Words(n+" view"))
		case "get-contexts", "current-context", "get-clusters", "get-users":
			c.add(Read, Words(n+" "+w[1]))
		default:
			c.add(LocalWrite, Words(n+" "+w[1]+" changes the local kubeconfig"))
		}
	case "rollout":
		if w[1] == "status" || w[1] == "history" {
			c.add(Read, Words(n+" "+w[1]))
			return
		}
		c.add(Deploy, Words(n+" "+w[1]+" changes a running deployment"))
	case "delete":
		if dry {
			c.add(Read, Words(n+" --dry-run"))
			return
		}
		switch {
		case kubeNamespaces(w[1]):
			c.lasting(n + " " + w[1] + " deletes whole namespaces and everything in them")
		case c.has("--all") && c.has("--all-namespaces", "-A"):
			c.lasting(n + " --all --all-namespaces deletes every such resource in every namespace")
		default:
			c.add(Destructive, Words(n+" deletes cluster resources"))
		}
	case "port-forward", "proxy":
		c.add(LocalWrite, Words(n+" opens a local port"))
		c.listenAll(n, "--address")
	case "create", "apply", "replace", "patch", "set", "scale", "autoscale", "label", "annotate", "edit", "expose",
		"run", "cordon", "uncordon", "drain", "taint", "cp", "exec", "attach", "debug", "certificate":
		if dry {
			c.add(Read, Words(n+" --dry-run"))
			return
		}
		if verb == "create" && w[1] == "token" {
			// kubectl create token prints a service account's token.
			c.add(Secret, Words(n+" token prints a service account's token"))
		}
		c.add(Deploy, Words(n+" changes the cluster"))
		switch verb {
		case "exec", "run", "debug":
			c.innerRun("--")
		case "cp":
			c.copyIn()
		}
	default:
		c.add(Deploy, Words(n+" may change the cluster"))
	}
}

// kubeSecrets reports whether kubectl get's resource words name secrets:
// "secret", "secrets/db", "pods,secrets".
func kubeSecrets(kinds string) bool {
	for _, k := range strings.Split(kinds, ",") {
		k, _, _ = strings.Cut(k, "/")
		if k = strings.ToLower(k); k == "secret" || k == "secrets" {
			return true
		}
	}
	return false
}

// kubeOutputValues reports whether kubectl get's -o prints objects'
// fields: every format but name prints a secret's data (kubectl get(1));
// the default table lists names, types and key counts only.
func kubeOutputValues(c *cmd) bool {
	for i, a := range c.args {
		v, ok := "", false
		switch {
		case a.Value == "-o" || a.Value == "--output":
			if i+1 < len(c.args) {
				v, ok = c.args[i+1].Value, c.args[i+1].Literal
			}
		case strings.HasPrefix(a.Value, "--output="):
			v, ok = strings.TrimPrefix(a.Value, "--output="), a.Literal
		case strings.HasPrefix(a.Value, "-o") && !strings.HasPrefix(a.Value, "--"):
			v, ok = strings.TrimPrefix(strings.TrimPrefix(a.Value, "-o"), "="), a.Literal
		default:
			continue
		}
		if !ok || v != "name" && v != "wide" {
			return true
		}
	}
	return false
}

// kubeNamespaces reports whether kubectl delete's resource words name
// namespaces: "ns", "namespace/prod", "pods,ns".
func kubeNamespaces(kinds string) bool {
	for _, k := range strings.Split(kinds, ",") {
		k, _, _ = strings.Cut(k, "/")
		switch strings.ToLower(k) {
		case "ns", "namespace", "namespaces":
			return true
		}
	}
	return false
}

func helm(c *cmd) {
	w := c.words(2)
	dry := c.has("--dry-run")
	switch v := w[0]; v {
	case "get":
		// helm get values, all and manifest print the release's values and
		// rendered objects, its passwords and Secret manifests among them;
		// notes, hooks and metadata do not carry the values.
		switch w[1] {
		case "notes", "hooks", "metadata":
			c.add(Read, Words("helm get "+w[1]))
		default:
			c.add(Secret, Words("helm get "+w[1]+" prints the release's values and secrets"))
		}
	case "list", "ls", "status", "history", "show", "inspect", "template", "lint", "search", "version", "env", "verify", "":
		c.add(Read, Words("helm "+v))
	case "repo", "dependency", "dep", "pull", "fetch", "package", "plugin", "create", "completion":
		if v == "repo" && (w[1] == "list" || w[1] == "ls") {
			c.add(Read, Words("helm repo list"))
			return
		}
		c.add(LocalWrite, Words("helm "+v))
		if v == "plugin" {
			c.helmPlugin()
		}
	case "install", "upgrade", "rollback":
		if dry {
			c.add(Read, Words("helm "+v+" --dry-run"))
			return
		}
		c.add(Deploy, Words("helm "+v+" changes a release in the cluster"))
		if v != "rollback" {
			c.worksOn(1, helmTakes...) // the release and the chart it installs
			c.setFiles()
		}
	case "uninstall", "delete", "del", "un":
		c.add(Destructive, Words("helm "+v+" removes a release"))
	case "push":
		c.add(Publish, Words("helm push publishes a chart"))
		c.worksOn(1, helmTakes...) // the chart package and where it goes
	default:
		c.add(Deploy, Words("helm "+v))
	}
}

// helmTakes are the options of helm's install, upgrade and push that take
// a value as the next word.
var helmTakes = []string{"--set", "--set-string", "--set-file", "--set-json", "--set-literal", "--values", "--version",
	"--kube-context", "--timeout", "--post-renderer", "--post-renderer-args", "--description", "--repo", "--username",
	"--password", "--ca-file", "--cert-file", "--key-file", "--history-max", "--name-template", "--labels", "--keyring",
	"--registry-config", "--repository-config", "--repository-cache", "--kube-apiserver", "--kube-token", "--kube-ca-file",
	"--kube-as-user", "--kube-as-group", "--burst-limit", "--qps", "--wait-for", "--hide-secret"}

// setFiles records the files helm --set-file reads into the values
// (key=path, several joined by commas).
func (c *cmd) setFiles() {
	for j, w := range c.args {
		val, ok := strings.CutPrefix(w.Value, "--set-file=")
		switch {
		case !w.Literal:
			continue
		case w.Value == "--set-file" && j+1 < len(c.args):
			if !c.args[j+1].Literal {
				c.path(OpRead, c.args[j+1])
				continue
			}
			val, ok = c.args[j+1].Value, true
		}
		if !ok {
			continue
		}
		for _, kv := range strings.Split(val, ",") {
			if _, f, found := strings.Cut(kv, "="); found {
				c.path(OpRead, shell.Word{Raw: f, Value: f, Literal: true, Tilde: strings.HasPrefix(f, "~")})
			}
		}
	}
}

// ko builds Go images and pushes them, then applies manifests.
func ko(c *cmd) {
	switch v := c.verb(); v {
	case "apply", "create", "run":
		c.add(Deploy, Words("ko "+v+" deploys to the cluster"))
	case "build", "publish", "resolve":
		if c.has("--local", "-L", "--push=false") {
			c.add(LocalWrite, Words("ko "+v+" --local builds without pushing"))
			return
		}
		c.add(Publish, Words("ko "+v+" pushes images"))
	case "delete":
		c.add(Deploy, Words("ko delete removes from the cluster"))
		c.add(Destructive, Words("ko delete removes from the cluster"))
	case "login":
		c.add(Secret, Words("ko login stores registry credentials"))
	default:
		c.add(Read, Words("ko "+v))
	}
}

func helmfile(c *cmd) {
	switch v := c.verb(); v {
	case "apply", "sync", "deploy", "charts":
		c.add(Deploy, Words("helmfile "+v+" releases to the cluster"))
	case "destroy", "delete":
		c.add(Deploy, Words("helmfile "+v))
		c.add(Destructive, Words("helmfile "+v+" uninstalls releases"))
	case "deps", "repos", "fetch", "build", "init", "cache":
		c.add(LocalWrite, Words("helmfile "+v))
	default:
		c.add(Read, Words("helmfile "+v))
	}
}

func skaffold(c *cmd) {
	switch v := c.verb(); v {
	case "run", "deploy", "apply", "dev", "debug":
		c.add(Deploy, Words("skaffold "+v+" deploys to the cluster"))
	case "delete":
		c.add(Deploy, Words("skaffold delete"))
		c.add(Destructive, Words("skaffold delete removes what it deployed"))
	case "build":
		if c.has("--push=false") {
			c.add(LocalWrite, Words("skaffold build --push=false"))
			return
		}
		c.add(Publish, Words("skaffold build pushes images"))
	case "init", "fix", "test":
		c.add(LocalWrite, Words("skaffold "+v))
	default:
		c.add(Read, Words("skaffold "+v))
	}
}

func eksctl(c *cmd) {
	ws := c.words(2)
	switch v := ws[0]; {
	case v == "get" || v == "info" || v == "version" || v == "help" || v == "completion" || v == "" || v == "utils" && strings.HasPrefix(ws[1], "describe"):
		c.add(Read, Words("eksctl "+v))
	case v == "delete" && ws[1] == "cluster":
		c.lasting("eksctl delete cluster deletes the cluster and everything running in it")
	case v == "delete" || v == "drain":
		c.add(Deploy, Words("eksctl "+v+" "+ws[1]))
		c.add(Destructive, Words("eksctl "+v+" "+ws[1]))
	default:
		c.add(Deploy, Words("eksctl "+v+" "+ws[1]+" changes a cluster"))
	}
}

func flux(c *cmd) {
	switch v := c.verb(); v {
	case "get", "logs", "tree", "trace", "diff", "check", "stats", "events", "version", "export", "completion", "":
		c.add(Read, Words("flux "+v))
	case "delete", "uninstall":
		c.add(Deploy, Words("flux "+v))
		c.add(Destructive, Words("flux "+v))
	default:
		c.add(Deploy, Words("flux "+v+" changes the cluster"))
	}
}

func tilt(c *cmd) {
	switch v := c.verb(); v {
	case "up", "ci", "down", "trigger", "enable", "disable", "args":
		c.add(Deploy, Words("tilt "+v+" deploys to the current cluster"))
	default:
		c.add(Read, Words("tilt "+v))
	}
}

func kustomize(c *cmd) {
	switch v := c.verb(); v {
	case "edit", "create", "init", "fn", "localize":
		c.add(LocalWrite, Words("kustomize "+v))
		c.cwdWrite()
	default:
		c.add(Read, Words("kustomize "+v))
	}
}

func kubeContext(c *cmd) {
	if len(c.operands()) == 0 || c.has("-c", "--current") {
		c.add(Read, Words(c.name+" lists"))
		return
	}
	c.add(LocalWrite, Words(c.name+" switches the current cluster or namespace"))
}

func k9s(c *cmd) {
	if c.has("version", "info", "help", "--help", "-h") || c.has("--readonly") {
		c.add(Read, Words("k9s"))
		return
	}
	c.add(Opaque, Words("k9s is an interactive console that can change and delete anything in the cluster"))
}

func argocd(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[1] == "delete" || ws[1] == "terminate-op":
		c.add(Destructive, Words("argocd "+ws[0]+" "+ws[1]))
	case ws[1] == "get" || ws[1] == "list" || ws[1] == "diff" || ws[1] == "history" || ws[1] == "manifests" || ws[1] == "logs" || ws[0] == "version" || ws[0] == "context":
		c.add(Read, Words("argocd "+ws[0]+" "+ws[1]))
	default:
		c.add(Deploy, Words("argocd "+ws[0]+" "+ws[1]+" changes what runs in the cluster"))
	}
}

func nomad(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[1] == "stop" || ws[1] == "purge" || ws[1] == "gc":
		c.add(Destructive, Words("nomad "+ws[0]+" "+ws[1]))
	case ws[1] == "status" || ws[1] == "plan" || ws[1] == "inspect" || ws[1] == "history" || ws[1] == "logs" || ws[1] == "validate" || ws[0] == "status" || ws[0] == "version":
		c.add(Read, Words("nomad "+ws[0]+" "+ws[1]))
	default:
		c.add(Deploy, Words("nomad "+ws[0]+" "+ws[1]+" changes what runs on the cluster"))
	}
}
