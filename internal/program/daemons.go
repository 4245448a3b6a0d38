package program

// daemons registers the programs risk classifies in risk/daemons.go.
func (r builder) daemons() {
	// Runners of the project's tasks and of programs the project names.
	r.add(Launcher|RunsArgs, `systemd-run`)

	r.add(0, `pm2 forever supervisorctl`)
}
