package program

import "strings"

// looks registers the programs that only read, list or print, and whose
// class does not depend on their arguments: risk's looks family
// (risk/looks.go) classifies each of them read and reads its operands as
// paths read. A few programs of other families only look as well, and are
// registered with their families.
func (r builder) looks() {
	// Editors, pagers and calculators whose commands can start a shell.
	r.add(Escapes, `less more most`)

	// Runners of the project's tasks and of programs the project names.
	r.add(RunsArgs, `fd fdfind`)

	// Options whose value is a program or a command line.
	r.progOpts("rg", "--pre")
	r.progOpts("bat", "--pager")
	r.progOpts("batcat", "--pager")
	r.progOpts("delta", "--pager")
	r.progOpts("fd", "--exec", "-x", "--exec-batch", "-X")
	r.progOpts("fdfind", "--exec", "-x", "--exec-batch", "-X")
	r.progOpts("less", "--lesskey-src", "--lesskey-file")

	r.add(Wrapper|Builtin, `builtin command`)
	r.add(Looks, looks)
}

// Lookers lists the programs of the looks family.
func Lookers() []string { return strings.Fields(looks) }

const looks = `
	git-check-ref-format gettext shuf tsort pr look units ncal sha224sum sha384sum md5 base32 basenc
	zipinfo zipgrep mimetype pv wait-on ls ll la dir vdir cat tac head tail less more most bat batcat
	wc grep egrep fgrep rg ag ack fd fdfind tree pwd true false test [ [[ date cal whoami id groups
	uname hostname which whereis type file stat du df free uptime ps pstree pgrep top htop btop lsof
	ss netstat ip ifconfig ping ping6 traceroute tracepath dig nslookup host whois diff colordiff cmp
	comm cut tr paste join expand unexpand fold fmt nl column rev seq sleep yes basename dirname
	realpath readlink md5sum sha1sum sha256sum sha512sum shasum b2sum cksum sum hexdump od strings jq
	gojq jless fx info help tldr apropos whatis locale nproc lscpu lsblk lsusb lspci arch getconf tput
	clear reset stty tty printf echo print wait jobs fg bg disown umask ulimit times shift getopts
	read mapfile readarray let local readonly return break continue exit logout shopt unset unalias
	complete compgen caller dirs suspend command builtin bc expr factor numfmt tokei cloc scc
	sloccount ctags gtags cscope w who last lastlog users finger getent csvlook xsv mlr miller
	exiftool identify ffprobe mediainfo pdfinfo golint staticcheck golangci-lint shellcheck hadolint
	yamllint jsonlint markdownlint lsattr getfacl namei findmnt mountpoint blkid dmesg loginctl
	systemd-analyze zcat zgrep zless bzcat xzcat zstdcat lz4cat diff3 sdiff icdiff delta difft
	nvidia-smi sensors vmstat iostat mpstat sar pidstat uuidgen sw_vers lsb_release system_profiler
	vm_stat lsmod pbpaste mdfind mdls otool hexyl glow mdcat duf dust procs btm lsd exa eza jo gron
	xmllint csvcut csvgrep csvstat csvjson in2csv tflint tfsec trivy checkov grype syft kubeconform
	kubeval conftest actionlint dive ctop pipdeptree pip-audit safety deptry vulture radon pydocstyle
	pycodestyle commitlint knip depcheck madge govulncheck gosec revive errcheck ineffassign hlint
	cppcheck cpplint swiftlint detekt oxlint htmlhint diff-so-fancy rofi dmenu tig watchman-diag
`
