package program

// builtins registers the programs risk classifies in risk/builtins.go.
func (r builder) builtins() {
	// Interpreters and runtimes.
	r.add(Interpreter|Builtin, `source . eval trap`)

	r.add(0, `cd pushd popd alias hash enable set export declare typeset history : printenv`)

	r.add(Wrapper, `env`)
	r.add(Wrapper|Builtin, `exec`)
}
