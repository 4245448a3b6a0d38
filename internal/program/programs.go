package program

// programs registers the programs risk classifies in risk/programs.go.
func (r builder) programs() {
	r.add(0, `git-lfs pre-commit ansible-galaxy memcached tree-sitter`)
}
