package wall

import (
	"slices"
	"strconv"
	"strings"
)

// A step whose command is one program with plain words (`go test ./...`,
// `ls -la`, `git status`) is started as that program, not through a bash
// that evals it: a second bash for each step costs as much as the step's
// own. What runs is what bash would run: the program bash finds on PATH,
// with the same words and environment, in the same folder.

// programWords are the words of command when bash would run it as one
// program with those words and nothing else: words of letters, digits
// and _./,:+@%-= separated by single spaces, the first neither a bash
// keyword nor a builtin nor an assignment nor a job. Anything else —
// quotes, expansions, globs, redirections, operators, comments, tabs,
// newlines — is bash's to read.
func programWords(command string) ([]string, bool) {
	if command == "" {
		return nil, false
	}
	words := strings.Split(command, " ")
	for _, w := range words {
		if w == "" || strings.IndexFunc(w, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./,:+@%-=", r))
		}) >= 0 {
			return nil, false
		}
	}
	first := words[0]
	if strings.ContainsRune(first, '=') || strings.HasPrefix(first, "%") || slices.Contains(bashWords, first) {
		return nil, false
	}
	return words, true
}

// bashWords are bash's keywords and builtins (`compgen -k -b`): bash runs
// them itself, never a program of the same name.
var bashWords = []string{
	"if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done",
	"in", "function", "time", "{", "}", "!", "[[", "]]", "coproc",
	".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen",
	"complete", "compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec",
	"exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let",
	"local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly",
	"return", "set", "shift", "shopt", "source", "suspend", "test", "times", "trap", "true", "type",
	"typeset", "ulimit", "umask", "unalias", "unset", "wait",
}

// bashOwnEnv reports whether env holds a variable bash reads at its start
// that changes how it would run a program: a file it sources first
// (BASH_ENV, ENV), options (SHELLOPTS, BASHOPTS: xtrace prints the
// command), functions it imports (BASH_FUNC_*), names it skips on PATH
// (EXECIGNORE). A step with one goes through bash.
func bashOwnEnv(env []string) bool {
	for _, e := range env {
		name, _, _ := strings.Cut(e, "=")
		switch {
		case name == "BASH_ENV", name == "ENV", name == "SHELLOPTS", name == "BASHOPTS", name == "EXECIGNORE",
			strings.HasPrefix(name, "BASH_FUNC_"):
			return true
		}
	}
	return false
}

// programEnv is env as the walled bash would hand it to the program it
// runs at path: one shell level deeper (the launcher's exec took one
// away: bash's exec builtin lowers SHLVL), and `_` naming the program.
func programEnv(env []string, path string) []string {
	out := make([]string, 0, len(env)+2)
	level := 0
	for _, e := range env {
		switch {
		case strings.HasPrefix(e, "_="):
		case strings.HasPrefix(e, "SHLVL="):
			if n, err := strconv.Atoi(strings.TrimSpace(e[len("SHLVL="):])); err == nil && n >= 0 {
				level = n
			}
		default:
			out = append(out, e)
		}
	}
	return append(out, "SHLVL="+strconv.Itoa(level+1), "_="+path)
}
