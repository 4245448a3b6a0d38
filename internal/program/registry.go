package program

import (
	"strings"
	"sync"
)

// registry returns every program sayso knows. A program is added here and
// classified in package risk under the same name; a test fails when one is
// missing from the other. It is built once, on first use, by
// buildRegistry, from the tables below in the order they are written: a
// process that links the package only for its lists of names (the hook's
// forwarder, through package paths) never builds it.
var registry = sync.OnceValue(buildRegistry)

// buildRegistry makes the registry at its size: a map grown entry by entry
// is rehashed several times on the way, a third of its cost.
func buildRegistry() map[string]Program {
	r := make(builder, registrySize)
	r.traits()
	r.wrappers()
	r.sayso()
	r.looks()
	r.builds()
	return r
}

// builder is the registry while buildRegistry fills it.
type builder map[string]Program

// registrySize is room for every program registered; TestRegistrySize
// fails when the registry outgrows it.
const registrySize = 1400

// add registers each name in names (space-separated) with traits t.
func (r builder) add(t Trait, names string) {
	for _, n := range strings.Fields(names) {
		p := r[n]
		p.Traits |= t
		r[n] = p
	}
}

// list names one of the lists of a Program.
type list uint8

const (
	verbs    list = iota // Verbs: the subcommands that run code
	progOpts             // ProgOpts: options whose value is a program or a command line
	workOpts             // WorkOpts: options whose value is the folder or file it works on
	repoOpts             // RepoOpts: options whose value names another repository
	state                // State: the folders of the home where it keeps its own state
	creds                // Credentials: the credentials, relative to the home, it needs
)

// verbs, progOpts, workOpts, repoOpts, state and creds append to that
// list of name's entry.
func (r builder) verbs(name string, vs ...string)    { r.set(verbs, name, vs...) }
func (r builder) progOpts(name string, vs ...string) { r.set(progOpts, name, vs...) }
func (r builder) workOpts(name string, vs ...string) { r.set(workOpts, name, vs...) }
func (r builder) repoOpts(name string, vs ...string) { r.set(repoOpts, name, vs...) }
func (r builder) state(name string, vs ...string)    { r.set(state, name, vs...) }
func (r builder) creds(name string, vs ...string)    { r.set(creds, name, vs...) }

// set appends vs to the list l of name's entry.
func (r builder) set(l list, name string, vs ...string) {
	p := r[name]
	f := [...]*[]string{&p.Verbs, &p.ProgOpts, &p.WorkOpts, &p.RepoOpts, &p.State, &p.Credentials}[l]
	*f = append(*f, vs...)
	r[name] = p
}

// traits registers the programs with traits, and what the wrappers,
// runners, clouds and forges among them do.
func (r builder) traits() {
	// Shells. Bourne shells' -c strings and stdin are read as bash.
	r.add(Shell|Bourne, `sh bash zsh dash ksh mksh ash yash rbash busybox-sh`)
	r.add(Shell, `fish csh tcsh nu xonsh elvish pwsh powershell cmd cmd.exe`)

	// Interpreters and runtimes.
	r.add(Interpreter, `python python2 python3 pypy pypy3 ipython node nodejs deno bun ruby irb perl
		php lua luajit osascript tclsh wish Rscript R julia java jshell groovy scala kotlin elixir iex
		erl escript racket guile sbcl runghc runhaskell ghci awk gawk mawk nawk expect jrunscript qjs
		ts-node tsx esno`)
	r.add(Interpreter|Builtin, `source . eval trap coproc`)
	r.add(Escapes, `ed ex vi vim nvim view emacs less more most man dc ftp gdb lldb mysql mariadb psql sqlite3 duckdb tmux screen nano`)

	// Runners of the project's tasks and of programs the project names.
	r.add(Runner, `make gmake just task rake invoke nox tox mage gradle gradlew mvn mvnw ant sbt lein ninja
		npx bunx pnpm pnpx yarn uvx nix-shell earthly`)
	r.add(RunsArgs, `npx pnpx bunx uvx npm pnpm yarn git find watchexec nodemon hyperfine direnv mise uv
		aws-vault sops cmake fd fdfind tmux screen concurrently doppler dotenv poetry pipenv pdm hatch rye
		bundle nix nix-shell devbox pixi conda script`)
	r.add(Launcher|RunsArgs, `tmux screen script dtach entr nsenter unshare systemd-run gdb lldb watchexec nodemon
		hyperfine concurrently dotenv`)
	r.verbs("npm", "run", "run-script", "exec", "x", "start", "restart", "stop")
	r.verbs("cargo", "run", "xtask")
	r.verbs("go", "run", "generate", "tool")
	r.verbs("uv", "run")
	r.verbs("poetry", "run")
	r.verbs("pipenv", "run")
	r.verbs("pdm", "run")
	r.verbs("hatch", "run")
	r.verbs("rye", "run")
	r.verbs("bundle", "exec")
	r.verbs("dotnet", "run")
	r.verbs("swift", "run")
	r.verbs("mix", "run")
	r.verbs("deno", "run", "task")
	r.verbs("bun", "run", "x")
	r.verbs("stack", "run", "exec")
	r.verbs("cabal", "run", "exec")
	r.verbs("dune", "exec")
	r.verbs("nix", "run", "develop", "shell")
	r.verbs("docker", "exec", "run")
	r.verbs("podman", "exec", "run")
	r.verbs("kubectl", "exec", "run", "debug")
	r.verbs("git", "bisect run", "submodule foreach", "filter-branch", "difftool", "mergetool")
	r.verbs("gh", "extension")
	r.verbs("direnv", "exec")
	r.verbs("mise", "exec", "x", "run")
	r.verbs("aws-vault", "exec")
	r.verbs("sops", "exec-env", "exec-file")
	r.verbs("cmake", "-E")
	r.verbs("doppler", "run")
	r.verbs("devbox", "run")
	r.verbs("pixi", "run", "exec")
	r.verbs("conda", "run")
	r.verbs("tmux", "new", "new-session", "new-window", "split-window", "send-keys", "run-shell", "respawn-pane")
	r.verbs("screen", "-dm", "-dmS")

	// Options whose value is a program or a command line.
	r.progOpts("rg", "--pre")
	r.progOpts("bat", "--pager")
	r.progOpts("batcat", "--pager")
	r.progOpts("delta", "--pager")
	r.progOpts("man", "--pager", "-P", "--html", "-H")
	r.progOpts("mysql", "--pager")
	r.progOpts("mariadb", "--pager")
	r.progOpts("fd", "--exec", "-x", "--exec-batch", "-X")
	r.progOpts("fdfind", "--exec", "-x", "--exec-batch", "-X")
	r.progOpts("sort", "--compress-program")
	for _, t := range []string{"tar", "gtar", "bsdtar"} {
		r.progOpts(t, "--to-command", "--use-compress-program", "-I", "--checkpoint-action", "--rsh-command", "--info-script", "-F", "--new-volume-script")
	}
	r.progOpts("rsync", "-e", "--rsh", "--rsync-path")
	r.progOpts("zip", "-TT", "--unzip-command")
	r.progOpts("nodemon", "--exec", "-x")
	r.progOpts("watchexec", "--shell")
	r.progOpts("hyperfine", "--prepare", "-p", "--setup", "-s", "--cleanup", "-c", "--shell", "-S")
	r.progOpts("fzf", "--preview", "--bind")
	r.progOpts("npm", "--script-shell")
	r.progOpts("yarn", "--script-shell")
	r.progOpts("pnpm", "--script-shell")
	r.progOpts("go", "-exec", "-toolexec")
	r.progOpts("git", "--exec-path")
	r.progOpts("sqlite3", "-cmd", "-init")
	r.progOpts("duckdb", "-cmd", "-init")
	r.progOpts("emacs", "--eval", "-l", "--load", "-f", "--funcall", "--script")
	r.progOpts("make", "--eval", "-E")
	r.progOpts("gmake", "--eval", "-E")
	r.progOpts("ssh", "-o")
	r.progOpts("less", "--lesskey-src", "--lesskey-file")

	// Options that aim a program at another folder, file or repository
	// than the one it runs in: a lease for a folder does not cover them.
	r.workOpts("npm", "--prefix", "-C", "--workspace", "-w")
	r.workOpts("pnpm", "--dir", "-C", "--prefix", "--filter", "-F")
	r.workOpts("yarn", "--cwd")
	r.workOpts("cargo", "--manifest-path")
	r.workOpts("kubectl", "-f", "--filename", "-k", "--kustomize")
	r.workOpts("helm", "--values", "-f")
	r.repoOpts("gh", "-R", "--repo")

	// The clouds' and forges' command lines that keep logs, token caches
	// and their own settings in the home, and fail without them.
	r.state("gcloud", ".config/gcloud")
	r.state("gsutil", ".config/gcloud", ".gsutil")
	r.state("az", ".azure")
	r.state("aws", ".aws/cli/cache", ".aws/sso/cache")
	r.state("kubectl", ".kube/cache", ".kube/http-cache")
	r.state("gh", ".config/gh", ".local/state/gh")

	// The credentials the forges', clouds' and clusters' command lines
	// need to fetch, list and read what the person may: git's keys and
	// stored passwords (gh's token as its credential helper) and the
	// keyring it signs commits with, each tool's own token or keys, the
	// registries' logins docker pulls with.
	r.creds("git", ".ssh", ".git-credentials", ".config/git/credentials", ".netrc", ".config/gh/hosts.yml",
		".cache/git/credential", ".git-credential-cache", // credential.helper=cache
		".gnupg") // commit.gpgsign: gpg signs with its keyring and agent
	r.creds("docker", ".docker/config.json")
	r.creds("gh", ".config/gh/hosts.yml", ".ssh")
	r.creds("glab", ".config/glab-cli/config.yml")
	r.creds("aws", ".aws")
	r.creds("az", ".azure")
	for _, g := range []string{"gcloud", "gsutil"} {
		r.creds(g, ".config/gcloud/credentials.db", ".config/gcloud/access_tokens.db", ".config/gcloud/legacy_credentials",
			".config/gcloud/application_default_credentials.json")
	}
	r.creds("kubectl", ".kube/config")
	r.creds("helm", ".kube/config")

	// Programs that reach other hosts.
	r.add(Remote, `curl wget http https xh aria2c ssh scp sftp rsync rclone nc ncat netcat socat telnet
		ftp tftp mail sendmail mutt lynx links w3m elinks websocat wscat swaks ssh-copy-id mosh autossh
		grpcurl httpie s3cmd lftp ncftp smbclient`)

	r.add(0, knownPlain)
}

// knownPlain lists the programs sayso knows that have no trait above:
// package risk classifies each of them.
const knownPlain = `
	git gh hub glab tea jj hg svn gt fossil bzr darcs git-lfs pre-commit git-check-ref-format
	gcc g++ cc c++ clang clang++ gofmt
	docker podman nerdctl buildah skopeo docker-compose kind minikube k3d colima lima
	kubectl oc k helm helmfile kustomize skaffold tilt ko kubectx kubens k9s stern eksctl argocd flux
	terraform tofu terragrunt pulumi packer vagrant ansible ansible-playbook ansible-galaxy
	aws gcloud gsutil az sam cdk fly flyctl vercel netlify heroku firebase wrangler serverless sls kamal railway render
	doctl linode-cli hcloud scw ibmcloud oci aliyun
	vault rclone stripe nomad consul goreleaser vsce ovsx sops credstash aws-vault doppler
	mkdocs flyway liquibase prisma dbmate sqitch
	rm rmdir unlink shred srm wipe cp mv install ln rsync touch mkdir mktemp truncate tee sed dd
	chmod chown chgrp find tar gtar bsdtar zip unzip uniq sort base64 split patch
	mkfs fdisk sfdisk parted wipefs mkswap blkdiscard sgdisk gdisk cgdisk diskutil hdiutil
	kill killall pkill
	ssh-keygen ssh-add gpg gpg2 openssl
	cd pushd popd alias hash enable set export declare typeset history : printenv
	make gmake npm pnpm yarn pip pip3 uv pipx poetry twine cargo go gem bundle composer mvn mvnw
	gradle gradlew dotnet apt apt-get dpkg yum dnf pacman apk zypper snap brew port
	psql mysql mariadb sqlite3 duckdb clickhouse-client cockroach redis-cli mongosh mongo
	createdb dropdb createuser dropuser pg_dump pg_dumpall pg_restore pg_ctl pg_isready mysqladmin mysqldump
	mongodump mongorestore mongoimport mongoexport etcdctl kafka-topics kafka-console-producer
	kafka-console-consumer kafka-consumer-groups rabbitmqctl rabbitmqadmin nats valkey-cli memcached
	crontab at batch systemctl launchctl service journalctl
	mount umount modprobe insmod rmmod sysctl iptables ip6tables nft ufw useradd userdel usermod
	groupadd passwd chpasswd visudo setcap nsenter unshare systemd-run sudoedit newgrp
	reboot shutdown halt poweroff init
	op pass security gopass bw lpass keepassxc-cli secret-tool
	claude codex gemini aider cursor-agent opencode amp qwen crush
	tmux screen script vim vi nvim nano emacs code ed ex open xdg-open
	ngrok cloudflared lt localtunnel bore tailscale zerotier-cli wg wg-quick
	gdb lldb gcore playwright chromium chromium-browser google-chrome chrome firefox
	tree-sitter
	lerna changeset semantic-release release-it np chromatic flit maturin wasm-pack eas nuget pod cap fastlane
	pm2 forever supervisorctl rails wp husky dbt cdktf copilot kapp istioctl linkerd velero sentry-cli playwright-cli pgcli mycli litecli usql
	adb defaults nmap mtr iperf3 ab wrk k6 hurl tcpdump tshark lazygit lazydocker ranger broot wine
	pkg choco scoop winget emerge xbps-install nix-env guix flox eopkg pkgin pkgman flatpak softwareupdate installer
	update-alternatives ldconfig networksetup pmset nmcli
	rimraf mkdirp ncp copyfiles npm-run-all run-s run-p perf fuser chattr cron
	fastapi kafka-topics.sh kafka-console-producer.sh kafka-console-consumer.sh kafka-consumer-groups.sh
	7zz lzma unlzma unlz4 mogrify objcopy sponge standard
`
