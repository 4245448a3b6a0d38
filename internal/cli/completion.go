package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/sayso-dev/sayso/docs"
)

const completionUsage = `usage: sayso completion bash|zsh|fish

Prints a script that completes sayso's commands, their verbs and the
help topics in that shell, made from the commands this sayso has. Load it
in the shell's start-up file:

  bash:  source <(sayso completion bash)         in ~/.bashrc
  zsh:   source <(sayso completion zsh)          in ~/.zshrc, after compinit
  fish:  sayso completion fish | source          in ~/.config/fish/config.fish

Run it again after an upgrade: a new command completes from then on.
`

var shells = []string{"bash", "zsh", "fish"}

func init() {
	register(command{"completion", "print a shell completion script", runCompletion, completionUsage}, shells...)
}

func runCompletion(env *Env, args []string) error {
	if len(args) != 1 {
		return usagef("completion: want one shell (bash, zsh or fish)")
	}
	switch args[0] {
	case "bash":
		completeBash(env.Stdout)
	case "zsh":
		completeZsh(env.Stdout)
	case "fish":
		completeFish(env.Stdout)
	default:
		return usagef("completion: unknown shell %q (want bash, zsh or fish)", args[0])
	}
	return nil
}

// helpWords are what 'sayso help' takes: every command and every topic.
func helpWords() []string {
	var out []string
	for _, c := range commands {
		out = append(out, c.name)
	}
	for _, t := range docs.TopicNames() {
		if !contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func contains(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// second are the words each command takes first, help's included.
func second() []registered {
	var out []registered
	for _, c := range commands {
		if c.name == "help" {
			c.verbs = helpWords()
		}
		if len(c.verbs) > 0 {
			out = append(out, c)
		}
	}
	return out
}

func completeBash(w io.Writer) {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	fmt.Fprintf(w, `# bash completion for sayso, made by 'sayso completion bash'
_sayso() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W %s -- "$cur"))
        return
    fi
    [[ $COMP_CWORD -eq 2 ]] || return
    case ${COMP_WORDS[1]} in
`, shQuote(strings.Join(names, " ")))
	for _, c := range second() {
		fmt.Fprintf(w, "        %s) COMPREPLY=($(compgen -W %s -- \"$cur\")) ;;\n", c.name, shQuote(strings.Join(c.verbs, " ")))
	}
	fmt.Fprint(w, `    esac
}
complete -F _sayso sayso
`)
}

func completeZsh(w io.Writer) {
	fmt.Fprint(w, `#compdef sayso
# zsh completion for sayso, made by 'sayso completion zsh'
_sayso() {
    local -a commands
    commands=(
`)
	for _, c := range commands {
		fmt.Fprintf(w, "        %s\n", shQuote(c.name+":"+c.summary))
	}
	fmt.Fprint(w, `    )
    if (( CURRENT == 2 )); then
        _describe -t commands 'sayso command' commands
        return
    fi
    (( CURRENT == 3 )) || return 1
    case $words[2] in
`)
	for _, c := range second() {
		fmt.Fprintf(w, "        %s) compadd -- %s ;;\n", c.name, strings.Join(c.verbs, " "))
	}
	fmt.Fprint(w, `    esac
}
if [[ $funcstack[1] == _sayso ]]; then
    _sayso "$@"
else
    compdef _sayso sayso
fi
`)
}

func completeFish(w io.Writer) {
	fmt.Fprint(w, "# fish completion for sayso, made by 'sayso completion fish'\ncomplete -c sayso -f\n")
	for _, c := range commands {
		fmt.Fprintf(w, "complete -c sayso -n __fish_use_subcommand -a %s -d %s\n", c.name, shQuote(c.summary))
	}
	for _, c := range second() {
		fmt.Fprintf(w, "complete -c sayso -n %s -a %s\n", shQuote("__fish_seen_subcommand_from "+c.name+"; and test (count (commandline -opc)) -eq 2"), shQuote(strings.Join(c.verbs, " ")))
	}
}

// shQuote quotes s in single quotes. A quote inside is written as a
// closing quote, a backslashed quote and an opening quote, which bash,
// zsh and fish all read as one quote.
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
