package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// completionScript writes sayso's completion script for shell to a file.
func completionScript(t *testing.T, shell string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := Main([]string{"completion", shell}, &Env{Stdout: &out, Stderr: &errb}); code != 0 || errb.Len() > 0 {
		t.Fatalf("completion %s = %d, %s", shell, code, errb.String())
	}
	file := filepath.Join(t.TempDir(), "sayso."+shell)
	if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func shellRun(t *testing.T, shell string, args ...string) string {
	t.Helper()
	path, err := exec.LookPath(shell)
	if err != nil {
		testenv.Missing(t, "%s is not installed (Debian: apt-get install %s)", shell, shell)
	}
	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %q: %v\n%s", shell, args, err, out)
	}
	return string(out)
}

func fields(s string) []string {
	f := strings.Fields(s)
	slices.Sort(f)
	return f
}

// cases are command lines being typed and the words that complete the
// last one: every command of the table, a verb, an agent, a topic.
func completionCases() map[string][]string {
	var all []string
	for _, c := range commands {
		all = append(all, c.name)
	}
	return map[string][]string{
		"sayso ":             all,
		"sayso le":           {"lease"},
		"sayso lease ":       {"grant", "list", "revoke"},
		"sayso lease g":      {"grant"},
		"sayso session l":    {"list"},
		"sayso install ":     {"claude", "codex", "gemini"},
		"sayso help thr":     {"threat-model"},
		"sayso help po":      {"policy"},
		"sayso completion ":  {"bash", "fish", "zsh"},
		"sayso lease grant ": nil,
	}
}

// TestCompletionBash loads the script in bash: complete -p names its
// function, and the function completes what the command table holds.
func TestCompletionBash(t *testing.T) {
	file := completionScript(t, "bash")
	if got := shellRun(t, "bash", "-c", `source "$0" && complete -p sayso`, file); strings.TrimSpace(got) != "complete -F _sayso sayso" {
		t.Fatalf("complete -p sayso = %q", got)
	}
	for line, want := range completionCases() {
		got := shellRun(t, "bash", "-c", `source "$0"; read -ra COMP_WORDS <<<"$1"; [[ $1 == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _sayso; printf '%s\n' "${COMPREPLY[@]}"`, file, line)
		if w := fields(strings.Join(want, " ")); !slices.Equal(fields(got), w) {
			t.Errorf("bash completes %q with %q, want %q", line, fields(got), w)
		}
	}
}

// TestCompletionFish loads the script in fish and asks it to complete.
func TestCompletionFish(t *testing.T) {
	file := completionScript(t, "fish")
	for line, want := range completionCases() {
		out := shellRun(t, "fish", "-c", `source $argv[1]; complete -C $argv[2]`, file, line)
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if w, _, _ := strings.Cut(l, "\t"); w != "" {
				got = append(got, w)
			}
		}
		if w := fields(strings.Join(want, " ")); !slices.Equal(fields(strings.Join(got, " ")), w) {
			t.Errorf("fish completes %q with %q, want %q", line, fields(strings.Join(got, " ")), w)
		}
	}
}

// TestCompletionZsh loads the script in zsh after compinit: it parses and
// registers _sayso for sayso.
func TestCompletionZsh(t *testing.T) {
	file := completionScript(t, "zsh")
	shellRun(t, "zsh", "-n", file)
	got := shellRun(t, "zsh", "-f", "-c", `autoload -Uz compinit && compinit -u -D && source "$1" && print -r -- "${_comps[sayso]}"`, "zsh", file)
	if strings.TrimSpace(got) != "_sayso" {
		t.Fatalf("after loading the script, zsh completes sayso with %q, want _sayso", got)
	}
}

func TestCompletionUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main([]string{"completion", "tcsh"}, &Env{Stdout: &out, Stderr: &errb}); code != ExitUsage || !strings.Contains(errb.String(), `unknown shell "tcsh"`) {
		t.Errorf("completion tcsh = %d, %q", code, errb.String())
	}
}
