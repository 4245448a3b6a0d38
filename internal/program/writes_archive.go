package program

// writesArchive registers the programs risk classifies in risk/writes_archive.go.
func (r builder) writesArchive() {
	// Options whose value is a program or a command line.
	for _, t := range []string{"tar", "gtar", "bsdtar"} {
		r.progOpts(t, "--to-command", "--use-compress-program", "-I", "--checkpoint-action", "--rsh-command", "--info-script", "-F", "--new-volume-script")
	}
	r.progOpts("zip", "-TT", "--unzip-command")

	r.add(0, `unzip`)
}
