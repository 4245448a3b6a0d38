package program

// packages registers the programs risk classifies in risk/packages.go.
func (r builder) packages() {
	// Runners of the project's tasks and of programs the project names.
	r.add(Runner, `gradle gradlew mvn mvnw npx bunx pnpm pnpx yarn uvx`)
	r.add(RunsArgs, `npx pnpx bunx uvx npm pnpm yarn uv poetry bundle`)
	r.verbs("npm", "run", "run-script", "exec", "x", "start", "restart", "stop")
	r.verbs("cargo", "run", "xtask")
	r.verbs("go", "run", "generate", "tool")
	for _, n := range []string{"uv", "poetry", "dotnet"} {
		r.verbs(n, "run")
	}
	r.verbs("bundle", "exec")

	// Options whose value is a program or a command line.
	for _, n := range []string{"npm", "yarn", "pnpm"} {
		r.progOpts(n, "--script-shell")
	}
	r.progOpts("go", "-exec", "-toolexec")

	// Options that aim a program at another folder, file or repository
	// than the one it runs in: a lease for a folder does not cover them.
	r.workOpts("npm", "--prefix", "-C", "--workspace", "-w")
	r.workOpts("pnpm", "--dir", "-C", "--prefix", "--filter", "-F")
	r.workOpts("yarn", "--cwd")
	r.workOpts("cargo", "--manifest-path")

	r.add(0, `pip pip3 pipx twine gem composer apt apt-get dpkg yum dnf pacman apk zypper snap brew port pkg
		choco scoop winget emerge xbps-install nix-env guix flox eopkg pkgin pkgman flatpak`)
}
