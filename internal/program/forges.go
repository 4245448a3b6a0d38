package program

// forges registers the programs risk classifies in risk/forges.go.
func (r builder) forges() {
	// Runners of the project's tasks and of programs the project names.
	r.verbs("gh", "extension")

	// Options that aim a program at another folder, file or repository
	// than the one it runs in: a lease for a folder does not cover them.
	r.repoOpts("gh", "-R", "--repo")

	// The clouds' and forges' command lines that keep logs, token caches
	// and their own settings in the home, and fail without them.
	r.state("gh", ".config/gh", ".local/state/gh")

	// The credentials, relative to the home, each needs for its own work:
	// the person's own, to fetch, list and read what the person may.
	r.creds("gh", ".config/gh/hosts.yml", ".ssh")
	r.creds("glab", ".config/glab-cli/config.yml")

	r.add(0, `hub tea jj hg svn gt fossil bzr darcs goreleaser vsce ovsx`)
}
