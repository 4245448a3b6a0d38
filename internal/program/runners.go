package program

// runners registers the programs risk classifies in risk/runners.go.
func (r builder) runners() {
	// Shells. Bourne shells' -c strings and stdin are read as bash.
	r.add(Shell|Bourne, `sh bash zsh dash ksh mksh ash yash rbash busybox-sh`)
	r.add(Shell, `fish csh tcsh nu xonsh elvish pwsh powershell cmd cmd.exe`)

	// Interpreters and runtimes.
	r.add(Interpreter, `python python2 python3 pypy pypy3 ipython node nodejs deno bun ruby irb perl php lua luajit
		osascript tclsh wish Rscript R julia java jshell groovy scala kotlin iex escript racket guile
		sbcl runghc runhaskell ghci expect jrunscript qjs ts-node tsx esno`)

	// Editors, pagers and calculators whose commands can start a shell.
	r.add(Escapes, `tmux screen`)

	// Runners of the project's tasks and of programs the project names.
	r.add(Runner, `make gmake just task rake invoke mage nix-shell`)
	r.add(RunsArgs, `watchexec nodemon hyperfine direnv mise aws-vault sops tmux screen concurrently doppler dotenv
		pipenv pdm hatch rye nix nix-shell devbox pixi conda script`)
	r.add(Launcher|RunsArgs, `tmux screen script watchexec nodemon hyperfine concurrently dotenv`)
	r.verbs("pipenv", "run")
	r.verbs("pdm", "run")
	r.verbs("hatch", "run")
	r.verbs("rye", "run")
	r.verbs("deno", "run", "task")
	r.verbs("bun", "run", "x")
	r.verbs("nix", "run", "develop", "shell")
	r.verbs("direnv", "exec")
	r.verbs("mise", "exec", "x", "run")
	r.verbs("aws-vault", "exec")
	r.verbs("sops", "exec-env", "exec-file")
	r.verbs("doppler", "run")
	r.verbs("devbox", "run")
	r.verbs("pixi", "run", "exec")
	r.verbs("conda", "run")
	r.verbs("tmux", "new", "new-session", "new-window", "split-window", "send-keys", "run-shell", "respawn-pane")
	r.verbs("screen", "-dm", "-dmS")

	// Options whose value is a program or a command line.
	r.progOpts("nodemon", "--exec", "-x")
	r.progOpts("watchexec", "--shell")
	r.progOpts("hyperfine", "--prepare", "-p", "--setup", "-s", "--cleanup", "-c", "--shell", "-S")
	r.progOpts("make", "--eval", "-E")
	r.progOpts("gmake", "--eval", "-E")

	r.add(0, `credstash claude codex gemini aider cursor-agent opencode amp qwen crush`)

	r.add(Builds, `direnv mise nodemon watchexec`)
}
