package program

// files registers the programs risk classifies in risk/files.go.
func (r builder) files() {
	// Runners of the project's tasks and of programs the project names.
	r.add(RunsArgs, `find`)

	// Options whose value is a program or a command line.
	r.progOpts("sort", "--compress-program")
	r.progOpts("rsync", "-e", "--rsh", "--rsync-path")

	// Programs that reach other hosts.
	r.add(Remote, `rsync`)

	r.add(0, `rm rmdir unlink shred srm wipe cp mv install ln touch mkdir mktemp truncate tee sed dd chmod
		chown chgrp uniq base64 split mkfs fdisk sfdisk parted wipefs mkswap blkdiscard kill killall
		pkill`)
}
