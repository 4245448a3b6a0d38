package program

// editors registers the programs risk classifies in risk/editors.go.
func (r builder) editors() {
	// Editors, pagers and calculators whose commands can start a shell.
	r.add(Escapes, `ed ex vi vim nvim view emacs man dc nano`)

	// Runners of the project's tasks and of programs the project names.
	r.add(RunsArgs, `cmake`)
	r.verbs("cmake", "-E")

	// Options whose value is a program or a command line.
	r.progOpts("man", "--pager", "-P", "--html", "-H")
	r.progOpts("fzf", "--preview", "--bind")
	r.progOpts("emacs", "--eval", "-l", "--load", "-f", "--funcall", "--script")

	// Programs that reach other hosts.
	r.add(Remote, `lynx links w3m elinks`)

	r.add(0, `gcc g++ cc c++ clang clang++ code open xdg-open playwright chromium chromium-browser
		google-chrome chrome firefox playwright-cli`)

	r.add(Looks, `dc man`)
	r.add(Builds, `gofmt`)
}
