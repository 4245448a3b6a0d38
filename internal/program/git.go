package program

// git registers the programs risk classifies in risk/git.go.
func (r builder) git() {
	// Runners of the project's tasks and of programs the project names.
	r.add(RunsArgs, `git`)
	r.verbs("git", "bisect run", "submodule foreach", "filter-branch", "difftool", "mergetool")

	// Options whose value is a program or a command line.
	r.progOpts("git", "--exec-path")

	// The credentials, relative to the home, each needs for its own work:
	// the person's own, to fetch, list and read what the person may.
	r.creds("git", ".ssh", ".git-credentials", ".config/git/credentials", ".netrc", ".config/gh/hosts.yml",
		".cache/git/credential", ".git-credential-cache", // credential.helper=cache
		".gnupg") // commit.gpgsign: gpg signs with its keyring and agent
}
