package rule

import "strings"

// broad says why a rule starting with words is too broad to keep, or ""
// when it is not. These programs run whatever a file or a string says, and
// the agent can write the file: no rule may start with them, in any unit.
func broad(words []string) string {
	if len(words) == 0 {
		return "the rule has no command"
	}
	name := words[0]
	switch {
	case strings.Contains(name, "/"):
		return "a program given by its path (" + name + ") runs whatever that file is"
	case interpreters[name] || isVersioned(name):
		return name + " is a shell or an interpreter: it runs whatever code it is given"
	case wrapperNames[name]:
		return name + " is a wrapper: it runs another command"
	case network[name]:
		return name + " is never kept as a rule: it reaches other hosts"
	case name == "rm":
		return "rm is never kept as a rule"
	case runners[name]:
		return name + " is a script runner: it runs what the project's files say"
	}
	if len(words) > 1 {
		two := name + " " + words[1]
		if runners[two] {
			return two + " is a script runner: it runs what the project's files say"
		}
		if len(words) > 2 && runners[two+" "+words[2]] {
			return two + " " + words[2] + " runs a program the project names"
		}
	}
	return ""
}

// isVersioned reports interpreters named with their version: python3.12,
// ruby3.3, perl5.36, node20, php8.2, lua5.4.
func isVersioned(name string) bool {
	for _, p := range []string{"python", "ruby", "perl", "node", "php", "lua", "pypy"} {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && strings.Trim(rest, "0123456789.") == "" {
			return true
		}
	}
	return false
}

var interpreters = set(
	// shells
	"sh", "bash", "zsh", "fish", "dash", "ksh", "mksh", "ash", "yash", "rbash", "csh",
	"tcsh", "busybox-sh", "nu", "xonsh", "elvish", "pwsh", "powershell", "cmd", "cmd.exe",
	// interpreters and runtimes
	"python", "python2", "python3", "pypy", "pypy3", "ipython", "node", "nodejs", "deno",
	"bun", "ruby", "irb", "perl", "php", "lua", "luajit", "osascript", "tclsh", "wish",
	"Rscript", "R", "julia", "java", "jshell", "groovy", "scala", "kotlin", "elixir", "iex",
	"erl", "escript", "racket", "guile", "sbcl", "runghc", "runhaskell", "ghci", "awk",
	"gawk", "mawk", "nawk", "expect", "jrunscript", "qjs", "ts-node", "tsx",
	// builtins that run a file or a string
	"source", ".", "eval", "exec", "trap", "coproc", "builtin", "command",
)

// wrapperNames run the command that follows them (sayso peels them to see
// it); a rule that starts with one would cover whatever it wraps.
var wrapperNames = set(
	"sudo", "doas", "pkexec", "su", "run0", "runuser", "env", "xargs", "parallel",
	"nohup", "setsid", "nice", "ionice", "stdbuf", "time", "timeout", "chrt", "taskset",
	"chroot", "watch", "caffeinate", "unbuffer", "flock", "strace", "ltrace", "setarch",
	"linux32", "linux64", "fakeroot", "faketime", "numactl", "xvfb-run", "valgrind",
	"catchsegv", "firejail", "busybox", "toybox", "nsenter", "unshare", "systemd-run",
	"script", "tmux", "screen", "dtach", "entr", "gdb", "lldb",
)

var network = set("curl", "wget", "ssh", "scp", "sftp", "rsync", "nc", "ncat", "netcat", "socat", "telnet", "ftp")

// runners run the project's own scripts or a program it names: one word,
// two words (npm run), or three (git bisect run).
var runners = set(
	"npx", "bunx", "pnpm", "pnpx", "yarn", "make", "gmake", "just", "task", "rake",
	"invoke", "nox", "tox", "mage", "gradle", "mvn", "ant", "sbt", "lein", "ninja",
	"npm run", "npm run-script", "npm exec", "npm x", "npm start", "npm restart",
	"npm stop", "cargo run", "cargo xtask", "go run", "go generate", "go tool",
	"uv run", "uvx", "poetry run", "pipenv run", "pdm run", "hatch run", "rye run",
	"bundle exec", "dotnet run", "swift run", "mix run", "deno run", "deno task",
	"bun run", "stack run", "cabal run", "dune exec", "nix run", "nix-shell", "nix develop",
	"docker exec", "docker run", "podman exec", "podman run", "kubectl exec",
	"git bisect run", "git submodule foreach", "git filter-branch", "git difftool",
	"git mergetool", "gh extension",
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
