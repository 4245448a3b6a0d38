package program

// net registers the programs risk classifies in risk/net.go.
func (r builder) net() {
	// Editors, pagers and calculators whose commands can start a shell.
	r.add(Escapes, `ftp`)

	// Options whose value is a program or a command line.
	r.progOpts("ssh", "-o")

	// Programs that reach other hosts.
	r.add(Remote, `curl wget http https xh aria2c ssh scp sftp nc ncat netcat socat telnet ftp tftp mail sendmail
		mutt mosh autossh httpie lftp ncftp smbclient`)
}
