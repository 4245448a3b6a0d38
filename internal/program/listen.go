package program

// listen registers the programs risk classifies in risk/listen.go.
func (r builder) listen() {
	r.add(Builds, `jupyter`)
}
