package program

// toolbox registers the programs risk classifies in risk/toolbox.go.
func (r builder) toolbox() {
	// Interpreters and runtimes.
	r.add(Interpreter|Builtin, `coproc`)

	r.add(0, `stern pg_isready kafka-console-consumer hurl lazygit lazydocker ranger broot wine
		kafka-console-consumer.sh`)

	r.add(Wrapper, `watch`)
}
