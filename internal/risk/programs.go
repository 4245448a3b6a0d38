package risk

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/shell"
)

// buildPrograms makes the table of the programs with a classifier of
// their own: the program's name to the function that classifies it.
func buildPrograms() map[string]func(*cmd) {
	programs := basePrograms()
	for k, v := range morePrograms() {
		programs[k] = v
	}
	addToolbox(programs)
	for k, v := range writers() {
		programs[k] = v
	}
	for _, name := range program.Sayso {
		if name != "sayso" {
			programs[name] = saysoProgram
		}
	}
	for _, f := range families() {
		fn := f.classifier()
		for _, n := range f.names {
			programs[n] = fn
		}
	}
	return programs
}

// basePrograms is the first table of programs with a classifier of their
// own, from before the families.
func basePrograms() map[string]func(*cmd) {
	return map[string]func(*cmd){
		"hub": hub,
		"gcc": compiler, "g++": compiler, "cc": compiler, "c++": compiler, "clang": compiler, "clang++": compiler,
		"kubectl": kubectl, "oc": kubectl, "k": kubectl, "helm": helm,
		"terraform": terraform, "tofu": terraform, "terragrunt": terraform, "pulumi": pulumi,
		"gcloud": gcloud, "gsutil": gsutil, "az": azure,
		"fly": fly, "flyctl": fly, "vercel": vercel, "netlify": netlify, "heroku": heroku,
		"firebase": deployCLI, "wrangler": deployCLI, "serverless": deployCLI, "sls": deployCLI,
		"cdk": cdk, "ansible-playbook": ansible, "ansible": ansible, "kamal": deployCLI, "railway": deployCLI,
		"vault": vault, "stripe": stripe,
		"rm": rm, "rmdir": rmdir, "unlink": unlink, "shred": shred, "srm": shred, "wipe": shred,
		"mv": copyMove, "install": copyMove, "ln": link,
		"touch": writeOperands, "mkdir": writeOperands, "mktemp": mktemp, "truncate": truncate,
		"tee": tee, "sed": sed, "dd": dd, "chmod": chmod, "chown": chown, "chgrp": chown,
		"find": find, "unzip": unzip, "uniq": uniq, "sort": sortCmd,
		"base64": base64Cmd, "split": writeOperands,
		"mkfs": mkfs, "fdisk": mkfs, "sfdisk": mkfs, "parted": mkfs, "wipefs": mkfs, "mkswap": mkfs, "blkdiscard": mkfs,
		"kill": kill, "killall": killall, "pkill": killall,
		"wget": wget, "http": httpie, "https": httpie, "xh": httpie, "aria2c": wget,
		"ssh": ssh, "sftp": scp, "nc": netcat, "ncat": netcat, "netcat": netcat, "socat": socat,
		"telnet": netcat, "ftp": netcat, "tftp": netcat, "mail": mail, "sendmail": mail, "mutt": mail,
		"source": source, ".": source, "eval": evalCmd, "trap": trapCmd, "alias": alias, "hash": hashCmd, "enable": enableCmd,
		"exec": execCmd, "cd": cd, "pushd": cd, "popd": popd,
		"twine": twine, "go": goCmd, "bundle": bundle,
		"mvn": mvn, "mvnw": mvn, "gradle": gradle, "gradlew": gradle, "dotnet": dotnet,
		"apt": apt, "apt-get": apt, "dpkg": apt, "yum": apt, "dnf": apt, "pacman": apt, "apk": apt, "zypper": apt,
		"snap": apt, "brew": brew, "port": apt,
		"psql": sqlClient, "mysql": sqlClient, "mariadb": sqlClient, "sqlite3": sqlite, "duckdb": sqlite,
		"clickhouse-client": sqlClient, "cockroach": sqlClient, "mongosh": mongo, "mongo": mongo,
		"crontab": crontab, "at": atCmd, "batch": atCmd, "launchctl": launchctl, "service": systemctl,
		"mount": privileged, "umount": privileged, "modprobe": privileged, "insmod": privileged, "rmmod": privileged,
		"sysctl": sysctl, "iptables": privileged, "ip6tables": privileged, "nft": privileged, "ufw": privileged,
		"useradd": privileged, "userdel": privileged, "usermod": privileged, "groupadd": privileged, "passwd": privileged,
		"chpasswd": privileged, "visudo": privileged, "setcap": privileged, "nsenter": privileged, "unshare": privileged,
		"systemd-run": systemdRun, "sudo": privileged, "su": privileged, "doas": privileged, "pkexec": privileged,
		"sudoedit": sudoedit, "reboot": halt, "shutdown": halt, "halt": halt, "poweroff": halt, "init": halt,
		"printenv": printenv, "env": printenv, "set": setCmd, "export": exportCmd, "declare": exportCmd, "typeset": exportCmd,
		"history": historyCmd, "op": passwordManager, "pass": passwordManager, "security": security, "gopass": passwordManager,
		"bw": passwordManager, "lpass": passwordManager, "keepassxc-cli": passwordManager, "secret-tool": passwordManager,
		"sayso":  sayso,
		"script": scriptCmd,
		"vim":    editor, "vi": editor, "nvim": editor, "nano": editor, "emacs": editor, "code": editor,
		"patch": patchCmd, "open": openCmd, "xdg-open": openCmd,
		"git-lfs": localWrite, "pre-commit": localWrite,
	}
}

// saysoProgram is one of the programs sayso installs beside its CLI (the
// hook's forwarder, the wall's launcher): the client runs them, never an
// agent's step.
func saysoProgram(c *cmd) {
	c.add(Protected, TouchesProtected.By(c.name, "", ""))
}

// simplePrograms are programs whose class does not depend on their
// arguments. Their operands are read as paths, so reading a secret is seen.
var simplePrograms = buildSimplePrograms()

func buildSimplePrograms() map[string]Class {
	simplePrograms := map[string]Class{}
	for _, n := range strings.Fields(`ls ll la dir vdir cat tac head tail less more most bat batcat wc grep egrep fgrep rg ag ack
		fd fdfind tree pwd true false test [ [[ date cal whoami id groups uname hostname which whereis type file stat du df free
		uptime ps pstree pgrep top htop btop lsof ss netstat ip ifconfig ping ping6 traceroute tracepath dig nslookup host whois
		diff colordiff cmp comm cut tr paste join expand unexpand fold fmt nl column rev seq sleep yes basename dirname
		realpath readlink md5sum sha1sum sha256sum sha512sum shasum b2sum cksum sum hexdump od strings jq gojq jless fx
		info help tldr apropos whatis locale nproc lscpu lsblk lsusb lspci arch getconf tput clear reset stty tty
		printf echo print wait jobs fg bg disown umask ulimit times shift getopts read mapfile readarray let local readonly
		return break continue exit logout shopt unset unalias complete compgen caller dirs suspend command builtin
		bc expr factor numfmt tokei cloc scc sloccount ctags gtags cscope
		w who last lastlog users finger getent
		csvlook xsv mlr miller exiftool identify ffprobe mediainfo pdfinfo
		golint staticcheck golangci-lint shellcheck hadolint yamllint jsonlint markdownlint
		lsattr getfacl namei findmnt mountpoint blkid dmesg loginctl systemd-analyze
		zcat zgrep zless bzcat xzcat zstdcat lz4cat
		git-check-ref-format diff3 sdiff icdiff delta difft
		nvidia-smi sensors vmstat iostat mpstat sar pidstat`) {
		simplePrograms[n] = Read
	}
	for _, n := range strings.Fields(`goimports gopls prettier eslint black ruff
		rustfmt rustc clippy-driver tsc esbuild webpack vite rollup parcel swc babel jest vitest mocha ava tap karma cypress
		pytest tox nox coverage mypy pyright pylint flake8 bandit
		ld ar ranlib strip objdump nm readelf ninja meson bazel bazelisk buck2 scons autoreconf
		configure autoconf automake libtool pkg-config javac kotlinc scalac sbt ant lein clojure elixir erl rebar3
		ghc cabal stack nim crystal dart flutter swift swiftc xcodebuild xcrun dune opam ocaml
		protoc buf sqlc wire mockgen stringer go-bindata templ air reflex entr
		hugo jekyll sphinx-build docusaurus gatsby next nuxt astro remix expo
		convert magick ffmpeg pandoc dot plantuml mermaid mmdc wkhtmltopdf pdftotext pdftoppm
		asdf rtx nvm fnm volta pyenv rbenv goenv sdk rustup
		streamlit flask uvicorn gunicorn hypercorn celery
		vue-cli ng nx turbo rush
		ruby-build bundler-audit brakeman rubocop rspec minitest
		phpunit phpstan psalm php-cs-fixer
		mdbook zola trunk cargo-watch
		age rage `) {
		simplePrograms[n] = LocalWrite
	}
	return simplePrograms
}

// metaOnly programs look at files without printing what they hold.
var metaOnly = map[string]bool{"ls": true, "ll": true, "la": true, "dir": true, "vdir": true, "stat": true, "file": true,
	"du": true, "test": true, "[": true, "[[": true, "tree": true, "namei": true, "realpath": true, "readlink": true,
	"basename": true, "dirname": true, "wc": true, "lsattr": true, "getfacl": true, "pwd": true, "which": true, "type": true,
	"man": true, "info": true, "help": true, "fd": true, "fdfind": true}

// networkLookups send their arguments to a name server or a host.
var networkLookups = map[string]bool{"dig": true, "nslookup": true, "host": true, "ping": true, "ping6": true,
	"traceroute": true, "tracepath": true, "whois": true}

// simple classifies a program from simplePrograms.
func (c *cmd) simple(cl Class) {
	switch cl {
	case Read:
		c.add(Read, OnlyReads.By(c.name, "", ""))
		switch {
		case networkLookups[c.name]:
			for _, w := range c.args {
				if !w.Literal {
					c.add(Network, BuiltAtRunTime.By(c.name, "", w.Raw))
				}
			}
		case (c.name == "less" || c.name == "more" || c.name == "most") && c.hasPrefixArg("+"):
			c.add(Opaque, RunsUnread.By(c.name, "", ""))
		case c.name == "less":
			c.logFiles()
			c.readOperands()
		case metaOnly[c.name]:
			if c.name == "tree" {
				c.logFiles()
			}
			for _, w := range c.operands() {
				for _, p := range c.a.resolve(w) {
					if c.a.protected(p) {
						c.add(Protected, TouchesProtected.By(c.name, "", w.Raw))
					}
				}
			}
		case !printers[c.name] || c.name == "cat" || c.name == "base64" || c.name == "xxd" || c.name == "od":
			c.readOperands()
			if c.recursive() {
				c.readsUnder(c.operands())
			}
		}
	default:
		c.add(cl, RunsProject.By(c.name, "", ""))
		if sp, ok := writeSpecs[c.name]; ok {
			c.specWrites(sp)
		}
		c.readSecrets()
		c.cwdWrite()
	}
}

// hasPrefixArg reports whether a literal argument starts with p.
func (c *cmd) hasPrefixArg(p string) bool {
	for _, w := range c.args {
		if strings.HasPrefix(w.Value, p) {
			return true
		}
	}
	return false
}

// readSecrets records operands that name secrets or sayso's own files.
func (c *cmd) readSecrets() {
	ops := c.operands()
	for _, w := range ops {
		c.readIfSecret(w)
	}
	c.readsUnder(ops)
}

// secretFolders are the folders of the home that hold keys, tokens and
// passwords.
var secretFolders = []string{".ssh", ".aws", ".gnupg", ".kube", ".config/gcloud", ".password-store", ".docker", ".netrc", ".git-credentials", ".config/gh"}

// readsUnder classifies reading every file below each of ws: a folder that
// holds sayso's own files is protected, one that holds the home's keys is
// secret (grep -r token ~, tar czf home.tgz ~).
func (c *cmd) readsUnder(ws []shell.Word) {
	home := c.a.ctx.Home
	for _, w := range ws {
		for _, p := range c.a.resolve(w) {
			for _, q := range c.a.ctx.Protected {
				if within(q, p) && q != p {
					c.add(Protected, TouchesProtected.By(c.name, "", w.Raw))
				}
			}
			if home == "" || !within(home, p) && !within(p, home) {
				continue
			}
			for _, f := range secretFolders {
				if s := path.Join(home, f); within(s, p) && s != p {
					c.add(Secret, Reason{Kind: PathCredential, Program: c.name, Verb: "read", Object: w.Raw, What: "everything under it, ~/" + f + " included"})
					break
				}
			}
		}
	}
}

// recursive reports whether a grep-like reader walks the folders it is
// given: rg, ag and ack always do; grep with -r, -R or --recursive.
func (c *cmd) recursive() bool {
	switch c.name {
	case "rg", "ag", "ack":
		return true
	case "grep", "egrep", "fgrep", "zgrep":
		return c.has("-r", "-R", "--recursive", "--dereference-recursive") || c.shortFlag('r') || c.shortFlag('R')
	}
	return false
}

// cwdWrite records the working folder as written: a build, an install or
// a test run writes where it runs.
func (c *cmd) cwdWrite() {
	for _, d := range c.a.cwds {
		c.a.out.Paths = append(c.a.out.Paths, PathUse{Op: OpWrite, Path: d, Raw: ".", Segment: c.i})
	}
}

func localWrite(c *cmd) {
	c.add(LocalWrite, ChangesProject.By(c.name, "", ""))
	c.cwdWrite()
}

// logFiles records the files less copies what it shows into (-o, -O,
// --log-file and --LOG-FILE, abbreviated or in a cluster) and the file
// tree -o writes its listing to.
func (c *cmd) logFiles() {
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		var file *shell.Word
		next := func() {
			if i+1 < len(c.args) {
				i++
				file = &c.args[i]
			}
		}
		switch {
		case !w.Literal && strings.HasPrefix(w.Raw, "-"):
			c.unknownWrite(c.name + " " + w.Raw)
			continue
		case v == "--":
			return
		case c.name == "tree" && v == "-o":
			next()
		case c.name == "tree":
		case strings.HasPrefix(v, "--"):
			name, val, hasVal := strings.Cut(v[2:], "=")
			if len(name) < 2 || !strings.HasPrefix("log-file", name) && !strings.HasPrefix("LOG-FILE", name) {
				continue
			}
			if hasVal {
				file = &shell.Word{Raw: val, Value: val, Literal: true, Tilde: strings.HasPrefix(val, "~")}
			} else {
				next()
			}
		case strings.HasPrefix(v, "-"):
			for j := 1; j < len(v); j++ {
				if strings.IndexByte("bhjkpPtTxyz#D", v[j]) >= 0 {
					break // the rest is this option's value
				}
				if v[j] == 'o' || v[j] == 'O' {
					if rest := v[j+1:]; rest != "" {
						file = &shell.Word{Raw: rest, Value: rest, Literal: true, Tilde: strings.HasPrefix(rest, "~")}
					} else {
						next()
					}
					break
				}
			}
		}
		if file != nil {
			c.add(LocalWrite, WritesPath.By(c.name, "", file.Raw))
			c.write(*file)
		}
	}
}
