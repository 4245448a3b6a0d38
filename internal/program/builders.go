package program

// builders registers the programs risk classifies in risk/builders.go.
func (r builder) builders() {
	// Runners of the project's tasks and of programs the project names.
	r.verbs("mix", "run")

	r.add(Builds, `mix zig`)
}
