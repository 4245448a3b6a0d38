package program

// writesPatch registers the programs risk classifies in risk/writes_patch.go.
func (r builder) writesPatch() {
	r.add(0, `patch`)
}
