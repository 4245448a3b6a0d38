package program

// writesDb registers the programs risk classifies in risk/writes_db.go.
func (r builder) writesDb() {
	// Editors, pagers and calculators whose commands can start a shell.
	r.add(Escapes, `sqlite3 duckdb`)

	// Options whose value is a program or a command line.
	r.progOpts("sqlite3", "-cmd", "-init")
	r.progOpts("duckdb", "-cmd", "-init")
}
