package program

// writesSystem registers the programs risk classifies in risk/writes_system.go.
func (r builder) writesSystem() {
	r.add(Looks, `hostnamectl iconv journalctl timedatectl`)
}
