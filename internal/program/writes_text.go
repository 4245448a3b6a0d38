package program

// writesText registers the programs risk classifies in risk/writes_text.go.
func (r builder) writesText() {
	// Interpreters and runtimes.
	r.add(Interpreter, `awk gawk mawk nawk`)

	r.add(0, `sponge`)

	r.add(Looks, `xxd yq`)
}
