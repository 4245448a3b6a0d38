package program

// clusters registers the programs risk classifies in risk/clusters.go.
func (r builder) clusters() {
	// Runners of the project's tasks and of programs the project names.
	r.verbs("kubectl", "exec", "run", "debug")

	// Options that aim a program at another folder, file or repository
	// than the one it runs in: a lease for a folder does not cover them.
	r.workOpts("kubectl", "-f", "--filename", "-k", "--kustomize")
	r.workOpts("helm", "--values", "-f")

	// The clouds' and forges' command lines that keep logs, token caches
	// and their own settings in the home, and fail without them.
	r.state("kubectl", ".kube/cache", ".kube/http-cache")

	// The credentials, relative to the home, each needs for its own work:
	// the person's own, to fetch, list and read what the person may.
	r.creds("kubectl", ".kube/config")
	r.creds("helm", ".kube/config")

	r.add(0, `oc k helmfile kustomize skaffold tilt ko kubectx kubens k9s eksctl argocd flux nomad`)
}
