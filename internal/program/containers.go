package program

// containers registers the programs risk classifies in risk/containers.go.
func (r builder) containers() {
	// Runners of the project's tasks and of programs the project names.
	r.add(Runner, `earthly`)
	r.verbs("docker", "exec", "run")
	r.verbs("podman", "exec", "run")

	// The credentials, relative to the home, each needs for its own work:
	// the person's own, to fetch, list and read what the person may.
	r.creds("docker", ".docker/config.json")

	r.add(0, `nerdctl buildah skopeo docker-compose kind minikube k3d colima lima`)
}
