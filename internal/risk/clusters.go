// Kubernetes and cluster tools: kubectl, helm and the deploy tools built on them.

package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

func kubectlFamily() family {
	return family{names: []string{"kubectl", "oc", "k"}, classify: kubectl}
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
		if (kubeSecrets(w[1]) || !c.literalWords(2)) && kubeOutputValues(c) {
			// A kind that is a variable may be secrets.
			c.add(Secret, PrintsCredential.By(n, w[1]+" -o", ""))
		}
		c.add(Read, OnlyReads.By(n, "", ""))
	case "describe", "logs", "top", "explain", "api-resources", "api-versions", "version", "cluster-info",
		"diff", "wait", "events", "kustomize", "completion", "":
		c.add(Read, OnlyReads.By(n, "", ""))
	case "auth", "plugin", "config":
		// Groups of commands: the next word is the command.
		if !c.literalWords(2) {
			c.add(Opaque, UnknownVerb.By(c.name, c.written(2), ""))
			return
		}
		kubectlGroup(c, n, w[1])
	case "rollout":
		if w[1] == "status" || w[1] == "history" {
			c.add(Read, OnlyReads.By(n, w[1], ""))
			return
		}
		c.add(Deploy, Deploys.By(n, w[1], ""))
	case "delete":
		if dry {
			c.add(Read, OnlyReads.By(n, "--dry-run", ""))
			return
		}
		switch {
		case kubeNamespaces(w[1]):
			c.lasting(Reason{Kind: DeletesWhole, Program: n, Verb: w[1], What: "namespaces"})
		case c.has("--all") && c.has("--all-namespaces", "-A"):
			c.lasting(Reason{Kind: DeletesWhole, Program: n, Verb: "--all --all-namespaces", What: "every such resource in every namespace"})
		default:
			c.add(Destructive, Destroys.By(n, "", ""))
		}
	case "port-forward", "proxy":
		c.add(LocalWrite, ServesLocally.By(n, "", ""))
		c.listenAll(n, "--address")
	case "create", "apply", "replace", "patch", "set", "scale", "autoscale", "label", "annotate", "edit", "expose",
		"run", "cordon", "uncordon", "drain", "taint", "cp", "exec", "attach", "debug", "certificate":
		if dry {
			c.add(Read, OnlyReads.By(n, "--dry-run", ""))
			return
		}
		if verb == "create" && w[1] == "token" {
			// kubectl create token prints a service account's token.
			c.add(Secret, PrintsCredential.By(n, "token", ""))
		}
		c.add(Deploy, Deploys.By(n, "", ""))
		switch verb {
		case "exec", "run", "debug":
			c.innerRun("--")
		case "cp":
			c.copyIn()
		}
	default:
		c.add(Deploy, Deploys.By(n, "", ""))
	}
}

// kubectlGroup classifies verb of kubectl's group n: auth, plugin or
// config (kubectl auth --help lists can-i, reconcile and whoami; kubectl
// plugin --help lists list).
func kubectlGroup(c *cmd, n, verb string) {
	switch {
	case strings.HasSuffix(n, " auth") && verb == "reconcile":
		// Creates or updates RBAC roles and bindings.
		c.add(Privilege, RaisesPrivilege.By(n, "reconcile", ""))
	case strings.HasSuffix(n, " auth") && (verb == "can-i" || verb == "whoami" || verb == ""),
		strings.HasSuffix(n, " plugin") && (verb == "list" || verb == ""):
		c.add(Read, OnlyReads.By(n, verb, ""))
	case strings.HasSuffix(n, " config"):
		switch verb {
		case "view":
			if c.has("--raw") {
				c.add(Secret, PrintsCredential.By(n, "view --raw", ""))
			}
			c.add(Read, OnlyReads.By(n, "view", ""))
		case "get-contexts", "current-context", "get-clusters", "get-users", "":
			c.add(Read, OnlyReads.By(n, verb, ""))
		default:
			c.add(LocalWrite, ChangesLocalSettings.By(n, verb, ""))
		}
	default:
		c.add(Opaque, UnknownVerb.By(n, verb, ""))
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
	for i := range c.args {
		v, ok, found := formatOpt(c.args, i, "-o", "--output", true)
		if !found {
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

func helmFamily() family {
	return family{names: []string{"helm"}, classify: helm}
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
			c.add(Read, OnlyReads.By("helm get", w[1], ""))
		default:
			c.add(Secret, PrintsCredential.By("helm get", w[1], ""))
		}
	case "list", "ls", "status", "history", "show", "inspect", "template", "lint", "search", "version", "env", "verify", "":
		c.add(Read, OnlyReads.By("helm", v, ""))
	case "repo", "dependency", "dep", "pull", "fetch", "package", "plugin", "create", "completion":
		if (v == "plugin" || v == "repo") && !c.literalWords(2) {
			// The group's command is a variable: helm plugin install
			// runs the plugin's hooks.
			c.add(Opaque, UnknownVerb.By("helm", c.written(2), ""))
			return
		}
		if v == "repo" && (w[1] == "list" || w[1] == "ls") {
			c.add(Read, OnlyReads.By("helm", "repo list", ""))
			return
		}
		c.add(LocalWrite, LocalWork.By("helm", v, ""))
		if v == "plugin" {
			c.helmPlugin()
		}
	case "install", "upgrade", "rollback":
		if dry {
			c.add(Read, OnlyReads.By("helm", v+" --dry-run", ""))
			return
		}
		c.add(Deploy, Deploys.By("helm", v, ""))
		if v != "rollback" {
			c.worksOn(1, helmTakes...) // the release and the chart it installs
			c.setFiles()
		}
	case "uninstall", "delete", "del", "un":
		c.add(Destructive, Destroys.By("helm", v, ""))
	case "push":
		c.add(Publish, Publishes.By("helm", "push", ""))
		c.worksOn(1, helmTakes...) // the chart package and where it goes
	default:
		c.add(Deploy, Deploys.By("helm", v, ""))
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

func koFamily() family {
	return family{names: []string{"ko"}, classify: ko}
}

// ko builds Go images and pushes them, then applies manifests.
func ko(c *cmd) {
	switch v := c.verb(); v {
	case "build", "publish", "resolve":
		if c.has("--local", "-L", "--push=false") {
			c.add(LocalWrite, RunsProject.By("ko", v+" --local", ""))
			return
		}
		c.add(Publish, Publishes.By("ko", v, ""))
	case "delete":
		c.add(Deploy, Deploys.By("ko", "delete", ""))
		c.add(Destructive, Destroys.By("ko", "delete", ""))
	default:
		c.byVerb(v, verbRule{nil, Opaque, UnknownVerb},
			verbRule{[]string{"apply", "create", "run"}, Deploy, Deploys},
			verbRule{[]string{"login"}, Secret, StoresCredential},
			verbRule{[]string{"deps", "version", "completion", "help", ""}, Read, OnlyReads})
	}
}

func helmfileFamily() family {
	return family{names: []string{"helmfile"}, classify: helmfile}
}

func helmfile(c *cmd) {
	switch v := c.verb(); v {
	case "apply", "sync", "deploy", "charts":
		c.add(Deploy, Deploys.By("helmfile", v+" releases", ""))
	case "test":
		c.add(Deploy, Deploys.By("helmfile", "test", ""))
	case "destroy", "delete":
		c.add(Deploy, Deploys.By("helmfile", v, ""))
		c.add(Destructive, Destroys.By("helmfile", v, ""))
	case "deps", "repos", "fetch", "build", "init", "cache", "write-values":
		c.add(LocalWrite, LocalWork.By("helmfile", v, ""))
	case "diff", "lint", "list", "show-dag", "status", "template", "print-env", "version", "completion", "help", "":
		c.add(Read, OnlyReads.By("helmfile", v, ""))
	default:
		c.add(Opaque, UnknownVerb.By("helmfile", v, ""))
	}
}

func skaffoldFamily() family { return family{names: []string{"skaffold"}, classify: skaffold} }

func skaffold(c *cmd) {
	switch v := c.verb(); v {
	case "run", "deploy", "apply", "dev", "debug", "verify", "exec", "custom-actions":
		c.add(Deploy, Deploys.By("skaffold", v, ""))
	case "delete":
		c.add(Deploy, Deploys.By("skaffold", "delete", ""))
		c.add(Destructive, Destroys.By("skaffold", "delete", ""))
	case "build":
		if c.has("--push=false") {
			c.add(LocalWrite, LocalWork.By("skaffold", "build --push=false", ""))
			return
		}
		c.add(Publish, Publishes.By("skaffold", "build", ""))
	case "init", "fix", "test", "inspect":
		c.add(LocalWrite, LocalWork.By("skaffold", v, ""))
	case "config":
		if w := c.words(2)[1]; w == "list" || w == "" {
			c.add(Read, OnlyReads.By("skaffold", "config list", ""))
			return
		}
		c.add(LocalWrite, ChangesLocalSettings.By("skaffold", "config", ""))
	case "render", "diagnose", "lint", "schema", "options", "survey", "version", "completion", "help", "":
		c.add(Read, OnlyReads.By("skaffold", v, ""))
	default:
		c.add(Opaque, UnknownVerb.By("skaffold", v, ""))
	}
}

func eksctl(c *cmd) {
	ws := c.words(2)
	switch v := ws[0]; {
	case v == "get" || v == "info" || v == "version" || v == "help" || v == "completion" || v == "" || v == "utils" && strings.HasPrefix(ws[1], "describe"):
		c.add(Read, OnlyReads.By("eksctl", v, ""))
	case v == "delete" && ws[1] == "cluster":
		c.lasting(Reason{Kind: DeletesWhole, Program: "eksctl", Verb: "delete cluster", What: "a cluster"})
	case v == "delete" || v == "drain":
		c.add(Deploy, Deploys.By("eksctl", v+" "+ws[1], ""))
		c.add(Destructive, Destroys.By("eksctl", v+" "+ws[1], ""))
	default:
		c.add(Deploy, Deploys.By("eksctl", v+" "+ws[1], ""))
	}
}

func eksctlFamily() family {
	return family{names: []string{"eksctl"}, classify: eksctl}
}

func fluxFamily() family {
	return family{names: []string{"flux"}, classify: flux}
}

func flux(c *cmd) {
	switch v := c.verb(); v {
	case "get", "logs", "tree", "trace", "diff", "check", "stats", "events", "version", "export", "completion", "":
		c.add(Read, OnlyReads.By("flux", v, ""))
	case "delete", "uninstall":
		c.add(Deploy, Deploys.By("flux", v, ""))
		c.add(Destructive, Destroys.By("flux", v, ""))
	default:
		c.add(Deploy, Deploys.By("flux", v, ""))
	}
}

func tiltFamily() family { return family{names: []string{"tilt"}, classify: tilt} }

func tilt(c *cmd) {
	c.byVerb(c.verb(), verbRule{nil, Opaque, UnknownVerb},
		verbRule{[]string{"up", "ci", "down", "trigger", "enable", "disable", "args", "apply", "create", "delete", "edit", "patch"}, Deploy, Deploys},
		verbRule{[]string{"docker-prune"}, ContainerRemove, RemovesContainers},
		verbRule{[]string{"api-resources", "describe", "dump", "explain", "get", "logs", "wait", "verify-install", "version", "completion", "help", ""}, Read, OnlyReads})
}

func kustomizeFamily() family { return family{names: []string{"kustomize"}, classify: kustomize} }

func kustomize(c *cmd) {
	switch v := c.verb(); v {
	case "cfg":
		if !c.literalWords(2) {
			c.add(Opaque, UnknownVerb.By("kustomize", c.written(2), ""))
			return
		}
		switch w := c.words(2)[1]; w {
		case "cat", "count", "grep", "tree", "list-setters", "":
			c.add(Read, OnlyReads.By("kustomize cfg", w, ""))
		default:
			c.add(LocalWrite, LocalWork.By("kustomize cfg", w, ""))
			c.cwdWrite()
		}
	default:
		if c.byVerb(v, verbRule{nil, Opaque, UnknownVerb},
			verbRule{[]string{"edit", "create", "init", "fn", "localize"}, LocalWrite, LocalWork},
			verbRule{[]string{"build", "version", "completion", "help", "docs-fn", "docs-fn-spec", "docs-io-annotations", "docs-merge", "docs-merge3", ""}, Read, OnlyReads}) == LocalWrite {
			c.cwdWrite()
		}
	}
}

func kubeContextFamily() family {
	return family{names: []string{"kubectx", "kubens"}, classify: kubeContext}
}

func kubeContext(c *cmd) {
	if len(c.operands()) == 0 || c.has("-c", "--current") {
		c.add(Read, OnlyReads.By(c.name, "", ""))
		return
	}
	c.add(LocalWrite, ChangesLocalSettings.By(c.name, "", ""))
}

func k9sFamily() family { return family{names: []string{"k9s"}, classify: k9s} }

func k9s(c *cmd) {
	c.byFlag([]string{"version", "info", "help", "--help", "-h", "--readonly"}, "", Read, OnlyReads, Opaque, Interactive)
}

func argocdFamily() family {
	return family{names: []string{"argocd"}, classify: argocd}
}

func argocd(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[1] == "delete" || ws[1] == "terminate-op":
		c.add(Destructive, Destroys.By("argocd", ws[0]+" "+ws[1], ""))
	case ws[1] == "get" || ws[1] == "list" || ws[1] == "diff" || ws[1] == "history" || ws[1] == "manifests" || ws[1] == "logs" || ws[0] == "version" || ws[0] == "context":
		c.add(Read, OnlyReads.By("argocd", ws[0]+" "+ws[1], ""))
	default:
		c.add(Deploy, Deploys.By("argocd", ws[0]+" "+ws[1], ""))
	}
}

func nomadFamily() family {
	return family{names: []string{"nomad"}, classify: nomad}
}

func nomad(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[1] == "stop" || ws[1] == "purge" || ws[1] == "gc":
		c.add(Destructive, Destroys.By("nomad", ws[0]+" "+ws[1], ""))
	case ws[1] == "status" || ws[1] == "plan" || ws[1] == "inspect" || ws[1] == "history" || ws[1] == "logs" || ws[1] == "validate" || ws[0] == "status" || ws[0] == "version":
		c.add(Read, OnlyReads.By("nomad", ws[0]+" "+ws[1], ""))
	default:
		c.add(Deploy, Deploys.By("nomad", ws[0]+" "+ws[1], ""))
	}
}
