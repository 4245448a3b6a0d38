package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// toolbox are the classifiers of the everyday toolbox beyond programs.go:
// other version control systems and forges, database and queue clients,
// disk tools, deploy tools, senders, and the programs that run others.
var toolbox = map[string]func(*cmd){
	"jj": jj, "hg": hg, "svn": svn, "tea": tea, "gt": graphite, "fossil": otherVCS, "bzr": otherVCS, "darcs": otherVCS,
	"createdb": pgAdmin, "createuser": pgAdmin, "dropdb": pgAdmin, "dropuser": pgAdmin, "pg_dump": dumpDB, "pg_dumpall": dumpDB,
	"mysqldump": dumpDB, "mongodump": dumpDB, "mongoexport": dumpDB, "pg_restore": restoreDB, "mongorestore": restoreDB,
	"mongoimport": restoreDB, "pg_isready": readOnly, "pg_ctl": pgCtl, "mysqladmin": mysqladmin, "etcdctl": etcdctl,
	"kafka-topics": kafkaTopics, "kafka-console-producer": kafkaProducer, "kafka-console-consumer": readOnly,
	"kafka-consumer-groups": kafkaGroups, "rabbitmqctl": rabbitmq, "rabbitmqadmin": rabbitmq, "nats": nats,
	"valkey-cli": redisCli, "memcached": localWrite, "consul": consul,
	"sgdisk": partitioner, "gdisk": partitioner, "cgdisk": partitioner, "diskutil": diskutil, "hdiutil": hdiutil,
	"mkdocs": mkdocs, "ko": ko, "helmfile": helmfile, "skaffold": skaffold, "eksctl": eksctl, "flyway": flyway,
	"liquibase": liquibase, "prisma": prisma, "dbmate": dbmate, "sqitch": sqitch, "flux": flux, "tilt": tilt, "packer": packer,
	"vagrant": vagrant, "kustomize": kustomize, "kind": localCluster, "minikube": localCluster, "k3d": localCluster,
	"colima": localCluster, "lima": localCluster, "kubectx": kubeContext, "kubens": kubeContext, "k9s": k9s, "stern": readOnly,
	"buildah": buildah, "docker-compose": dockerCompose, "earthly": earthly, "ansible-galaxy": localWrite,
	"doctl": genericCloud, "linode-cli": genericCloud, "hcloud": genericCloud, "scw": genericCloud, "ibmcloud": genericCloud,
	"oci": genericCloud, "aliyun": genericCloud, "render": genericCloud,
	"openssl": openssl, "swaks": swaks, "websocat": websocket, "wscat": websocket, "tailscale": tailscale,
	"zerotier-cli": networkConfig, "wg": networkConfig, "wg-quick": networkConfig, "ssh-copy-id": sshCopyID,
	"mosh": ssh, "autossh": ssh, "grpcurl": grpcurl, "httpie": httpie, "s3cmd": s3cmd, "lftp": netcat, "ncftp": netcat,
	"smbclient": netcat,
	"watchexec": runsCommand, "nodemon": runsCommand, "hyperfine": runsCommand, "concurrently": runsCommand,
	"direnv": direnv, "mise": mise, "aws-vault": awsVault, "sops": sops, "doppler": doppler, "dotenv": runsCommand,
	"conda": envManager, "pdm": envManager, "pipenv": envManager, "hatch": envManager, "rye": envManager, "pixi": envManager,
	"devbox": envManager, "nix": nix, "nix-shell": envManager, "invoke": runner, "cmake": cmake, "fzf": fzf,
	"tree-sitter": localWrite, "newgrp": privileged, "view": editor, "ex": editor, "watch": readOnly,
	"R": interpreter, "ghci": interpreter, "runghc": interpreter, "runhaskell": interpreter, "iex": interpreter,
	"escript": interpreter, "racket": interpreter, "guile": interpreter, "sbcl": interpreter, "scala": interpreter,
	"kotlin": interpreter, "jrunscript": interpreter, "qjs": interpreter, "elvish": interpreter, "cmd": interpreter,
	"cmd.exe": interpreter, "java": interpreter, "ipython": interpreter, "tsx": interpreter, "ts-node": interpreter, "esno": interpreter, "busybox-sh": shellProgram, "coproc": opaqueProgram, "qwen": agentCLI, "crush": agentCLI,
}

// addToolbox adds the toolbox to programs, and a classifier for each
// wrapper seen alone.
func addToolbox() {
	for _, n := range []string{"nohup", "setsid", "nice", "ionice", "stdbuf", "time", "timeout", "xargs", "parallel",
		"busybox", "toybox", "caffeinate", "unbuffer", "chrt", "flock", "setarch", "linux32", "linux64", "fakeroot",
		"faketime", "numactl", "xvfb-run", "valgrind", "catchsegv", "firejail", "taskset", "chronic", "dbus-launch",
		"dbus-run-session", "ssh-agent", "proxychains", "proxychains4", "torsocks", "sshpass", "dtach",
		"chroot", "runuser", "run0", "sg", "cross-env"} {
		if _, ok := toolbox[n]; !ok {
			toolbox[n] = wrapperAlone
		}
	}
	for k, v := range toolbox {
		programs[k] = v
	}
	addEveryday()
	addOptions()
}

func readOnly(c *cmd) { c.add(Read, c.name+" only reads") }

func opaqueProgram(c *cmd) { c.add(Opaque, c.name+" runs code sayso does not read") }

// wrapperAlone classifies a wrapper shell did not peel: one that acts on
// a running process or lists (ionice -p, flock FD) reads or tunes; any
// other hides what it runs.
func wrapperAlone(c *cmd) {
	if len(c.args) == 0 {
		c.add(Read, c.name+" alone prints or waits")
		return
	}
	switch c.name {
	case "ionice", "chrt", "taskset":
		if c.has("-p", "--pid") || c.shortFlag('p') {
			c.add(LocalWrite, c.name+" tunes a running process")
			return
		}
	case "flock", "ssh-agent":
		c.add(LocalWrite, c.name+" holds a lock or an agent")
		return
	case "dtach":
		if v := c.args[0].Value; v == "-a" || v == "-p" {
			c.add(LocalWrite, "dtach attaches to a session")
			return
		}
	}
	c.add(Opaque, c.name+" runs a command sayso could not read")
}

// word returns the first n operands as plain words (options skipped).
func (c *cmd) verb() string { return c.words(1)[0] }

func jj(c *cmd) {
	ws := c.words(3)
	switch ws[0] {
	case "git":
		switch ws[1] {
		case "push":
			if c.has("--deleted", "--all") {
				c.add(ForceRemote, "jj git push moves or deletes every bookmark on the remote")
				return
			}
			c.add(RemoteWrite, "jj git push")
			c.remoteNamed()
		case "fetch", "import", "export", "init", "clone", "colocation":
			c.add(LocalWrite, "jj git "+ws[1])
			c.cwdWrite()
		case "remote":
			switch ws[2] {
			case "add", "set-url", "rename":
				c.add(NewRemote, "jj git remote "+ws[2])
			case "remove":
				c.add(LocalWrite, "jj git remote remove")
			default:
				c.add(Read, "jj git remote "+ws[2])
			}
		default:
			c.add(Read, "jj git "+ws[1])
		}
	case "log", "st", "status", "diff", "show", "evolog", "obslog", "files", "file", "cat", "root", "help", "version", "--version", "config", "interdiff", "operation", "op", "util", "":
		if (ws[0] == "op" || ws[0] == "operation") && (ws[1] == "restore" || ws[1] == "revert" || ws[1] == "abandon" || ws[1] == "undo") {
			c.add(LocalWrite, "jj op "+ws[1])
			return
		}
		if ws[0] == "config" && (ws[1] == "set" || ws[1] == "edit" || ws[1] == "unset") {
			c.add(LocalWrite, "jj config "+ws[1])
			return
		}
		if ws[0] == "file" && ws[1] != "list" && ws[1] != "show" && ws[1] != "annotate" {
			c.add(LocalWrite, "jj file "+ws[1])
			return
		}
		c.add(Read, "jj "+ws[0])
	default:
		c.add(LocalWrite, "jj "+ws[0]+" changes the local repository")
		c.cwdWrite()
	}
}

// remoteNamed: a push to a URL rather than a named remote is a new remote.
func (c *cmd) remoteNamed() {
	for _, w := range c.args {
		if strings.Contains(w.Value, "://") || strings.HasPrefix(w.Value, "--remote=") && strings.Contains(w.Value, ":") {
			c.add(NewRemote, c.name+" pushes to a URL: "+w.Raw)
		}
	}
}

func hg(c *cmd) {
	v := c.verb()
	switch v {
	case "push", "outgoing-push":
		if c.has("-f", "--force") {
			c.add(ForceRemote, "hg push --force")
			return
		}
		c.add(RemoteWrite, "hg push")
		c.remoteNamed()
	case "status", "st", "log", "diff", "show", "summary", "sum", "heads", "branches", "branch", "bookmarks", "paths", "id", "identify",
		"annotate", "blame", "cat", "files", "locate", "grep", "help", "version", "--version", "incoming", "in", "outgoing", "out", "tip", "parents", "root", "config", "showconfig", "":
		if v == "config" && c.has("-e", "--edit") {
			c.add(LocalWrite, "hg config --edit")
			return
		}
		c.add(Read, "hg "+v)
	case "purge", "clean", "strip", "prune", "rollback":
		c.add(Destructive, "hg "+v+" discards work")
	case "update", "up", "checkout", "co", "revert":
		if c.has("-C", "--clean", "--all") || v == "revert" && c.has("-a", "--all") {
			c.add(Destructive, "hg "+v+" discards changes")
			return
		}
		c.add(LocalWrite, "hg "+v)
		c.cwdWrite()
	case "serve":
		c.add(Network, "hg serve serves the repository")
	default:
		c.add(LocalWrite, "hg "+v)
		c.cwdWrite()
	}
}

func svn(c *cmd) {
	v := c.verb()
	urls := false
	for _, w := range c.operands()[min(1, len(c.operands())):] {
		if strings.Contains(w.Value, "://") || strings.HasPrefix(w.Value, "^/") {
			urls = true
		}
	}
	switch v {
	case "commit", "ci", "import", "lock", "unlock":
		c.add(RemoteWrite, "svn "+v+" writes to the repository")
	case "copy", "cp", "mkdir", "move", "mv", "rename", "ren", "propset", "ps", "propdel", "pd", "propedit", "pe":
		if urls || c.has("--revprop") {
			c.add(RemoteWrite, "svn "+v+" on the repository")
			return
		}
		c.add(LocalWrite, "svn "+v)
	case "delete", "del", "remove", "rm":
		if urls {
			c.add(Destructive, "svn "+v+" deletes from the repository")
			c.add(RemoteWrite, "svn "+v+" deletes from the repository")
			return
		}
		c.add(LocalWrite, "svn "+v)
	case "revert":
		c.add(Destructive, "svn revert discards changes")
	case "relocate":
		c.add(NewRemote, "svn relocate points the working copy at another repository")
	case "switch", "sw":
		if c.has("--relocate") {
			c.add(NewRemote, "svn switch --relocate")
			return
		}
		c.add(LocalWrite, "svn switch")
	case "status", "st", "log", "diff", "di", "info", "list", "ls", "cat", "blame", "praise", "annotate", "ann", "proplist", "pl",
		"propget", "pg", "help", "--version", "mergeinfo", "":
		c.add(Read, "svn "+v)
	default:
		c.add(LocalWrite, "svn "+v)
		c.cwdWrite()
	}
}

// tea is Gitea's CLI.
func tea(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[0] == "login" || ws[0] == "logins" || ws[0] == "logout":
		if ws[1] == "list" || ws[1] == "ls" || ws[1] == "" && ws[0] == "logins" {
			c.add(Read, "tea logins")
			return
		}
		c.add(Secret, "tea "+ws[0]+" handles a token")
	case ws[1] == "merge" || ws[0] == "merge":
		c.add(Merge, "tea "+ws[0]+" merge")
	case ws[0] == "release" || ws[0] == "releases" || ws[0] == "r":
		switch ws[1] {
		case "create", "edit":
			c.add(Publish, "tea release "+ws[1])
		case "delete":
			c.add(Destructive, "tea release delete")
		default:
			c.add(Read, "tea releases")
		}
	case ws[1] == "delete" || ws[1] == "rm":
		c.add(Destructive, "tea "+ws[0]+" "+ws[1])
	case ws[0] == "comment" || ws[0] == "c" || ws[1] == "create" || ws[1] == "c" || ws[1] == "edit" || ws[1] == "close" || ws[1] == "reopen" ||
		ws[1] == "approve" || ws[1] == "reject" || ws[1] == "review" || ws[0] == "open" && false:
		c.add(RemoteWrite, "tea "+ws[0]+" "+ws[1])
	case ws[1] == "checkout" || ws[1] == "clean" || ws[0] == "clone":
		c.add(LocalWrite, "tea "+ws[0]+" "+ws[1])
		c.cwdWrite()
	default:
		c.add(Read, "tea "+ws[0]+" "+ws[1])
	}
}

// graphite is Graphite's gt: submit pushes a stack with force-with-lease.
func graphite(c *cmd) {
	v := c.verb()
	switch v {
	case "submit", "ss", "s":
		c.add(RemoteWrite, "gt "+v+" pushes the stack and opens pull requests")
		c.add(ForceRemote, "gt "+v+" force-pushes the stack's branches")
	case "merge":
		c.add(Merge, "gt merge merges pull requests")
	case "auth":
		c.add(Secret, "gt auth stores a token")
	case "log", "ls", "ll", "info", "status", "branch-info", "parent", "children", "trunk", "--version", "help", "dash", "":
		c.add(Read, "gt "+v)
	case "sync", "get":
		c.add(LocalWrite, "gt "+v+" pulls the trunk and cleans merged branches")
		c.cwdWrite()
	default:
		c.add(LocalWrite, "gt "+v)
		c.cwdWrite()
	}
}

func otherVCS(c *cmd) {
	v := c.verb()
	switch v {
	case "push", "send", "sync", "commit", "ci", "autosync":
		if c.name == "fossil" && v == "commit" && !c.has("--no-autosync") || v != "commit" && v != "ci" || c.name == "darcs" && v == "send" {
			c.add(RemoteWrite, c.name+" "+v+" writes to the remote")
			return
		}
		c.add(LocalWrite, c.name+" "+v)
	case "status", "log", "diff", "info", "timeline", "whatsnew", "changes", "help", "version", "":
		c.add(Read, c.name+" "+v)
	case "revert", "obliterate", "unrecord", "clean", "purge", "scrub":
		c.add(Destructive, c.name+" "+v+" discards work")
	default:
		c.add(LocalWrite, c.name+" "+v)
		c.cwdWrite()
	}
}

// dbHost is the host a database client names (-h, --host), or "".
func (c *cmd) dbHost() string {
	for i, w := range c.args {
		v := w.Value
		switch {
		case (v == "-h" || v == "--host" || v == "-H") && i+1 < len(c.args):
			return c.args[i+1].Value
		case strings.HasPrefix(v, "--host="):
			return strings.TrimPrefix(v, "--host=")
		case strings.HasPrefix(v, "-h") && len(v) > 2:
			return v[2:]
		case strings.HasPrefix(v, "postgres://") || strings.HasPrefix(v, "postgresql://") || strings.HasPrefix(v, "mongodb://") ||
			strings.HasPrefix(v, "mongodb+srv://") || strings.HasPrefix(v, "mysql://") || strings.HasPrefix(v, "--uri=") || strings.HasPrefix(v, "--url="):
			return v
		}
	}
	return ""
}

func localHost(h string) bool {
	return h == "" || h == "localhost" || h == "127.0.0.1" || h == "::1" || strings.HasPrefix(h, "/") ||
		strings.Contains(h, "@localhost") || strings.Contains(h, "@127.0.0.1") || strings.Contains(h, "//localhost") || strings.Contains(h, "//127.0.0.1")
}

func pgAdmin(c *cmd) {
	switch c.name {
	case "dropdb", "dropuser":
		if c.has("--help", "--version", "-V", "-?") {
			c.add(Read, c.name+" prints its help")
			return
		}
		c.add(Destructive, c.name+" drops "+strings.Join(shell.Words(c.operands()), " "))
	default:
		if !localHost(c.dbHost()) {
			c.add(RemoteWrite, c.name+" changes a database server")
			return
		}
		c.add(LocalWrite, c.name+" changes the local database server")
	}
}

// dumpDB reads a database and writes the dump where it is told.
func dumpDB(c *cmd) {
	c.add(Read, c.name+" reads the database")
	for i, w := range c.args {
		v := w.Value
		switch {
		case (v == "-f" || v == "--file" || v == "-o" || v == "--out" || v == "--result-file" || v == "-r") && i+1 < len(c.args):
			c.write(c.args[i+1])
		case strings.HasPrefix(v, "--file=") || strings.HasPrefix(v, "--out=") || strings.HasPrefix(v, "--result-file="):
			_, p, _ := strings.Cut(v, "=")
			c.write(shell.Word{Raw: p, Value: p, Literal: true})
		}
	}
}

// restoreDB writes a dump into a database: with --drop or --clean it
// first drops what is there.
func restoreDB(c *cmd) {
	if c.has("--drop", "--clean", "-c", "--if-exists") || c.name == "pg_restore" && c.shortFlag('c') {
		c.add(Destructive, c.name+" drops what the database holds before restoring")
		return
	}
	if !localHost(c.dbHost()) {
		c.add(RemoteWrite, c.name+" writes into a database server")
		return
	}
	c.add(LocalWrite, c.name+" writes into the local database")
}

func pgCtl(c *cmd) {
	switch v := c.verb(); v {
	case "status", "--version", "":
		c.add(Read, "pg_ctl "+v)
	default:
		c.add(LocalWrite, "pg_ctl "+v)
	}
}

func mysqladmin(c *cmd) {
	for _, w := range c.operands() {
		switch v := strings.ToLower(w.Value); {
		case v == "drop" || v == "shutdown" || v == "kill" || v == "purge":
			c.add(Destructive, "mysqladmin "+v)
		case v == "password" || v == "old-password":
			c.add(Secret, "mysqladmin "+v+" sets a password")
		case v == "create" || strings.HasPrefix(v, "flush") || strings.HasPrefix(v, "refresh") || v == "reload" || strings.HasPrefix(v, "start") || strings.HasPrefix(v, "stop"):
			if localHost(c.dbHost()) {
				c.add(LocalWrite, "mysqladmin "+v)
			} else {
				c.add(RemoteWrite, "mysqladmin "+v)
			}
		}
	}
	if c.a.segClasses(c.i).Empty() {
		c.add(Read, "mysqladmin reads the server's state")
	}
}

func etcdctl(c *cmd) {
	ws := c.words(2)
	switch ws[0] {
	case "get", "watch", "endpoint", "member", "alarm", "version", "check", "":
		if ws[0] == "member" && (ws[1] == "add" || ws[1] == "remove" || ws[1] == "update" || ws[1] == "promote") ||
			ws[0] == "alarm" && ws[1] == "disarm" {
			c.add(Deploy, "etcdctl "+ws[0]+" "+ws[1]+" changes the cluster")
			return
		}
		c.add(Read, "etcdctl "+ws[0])
	case "del", "delete", "compaction", "defrag", "lease":
		if ws[0] == "lease" && ws[1] != "revoke" {
			c.add(RemoteWrite, "etcdctl lease "+ws[1])
			return
		}
		c.add(Destructive, "etcdctl "+ws[0]+" removes data")
	case "snapshot":
		if ws[1] == "save" || ws[1] == "status" {
			c.add(Read, "etcdctl snapshot "+ws[1])
			return
		}
		c.add(Destructive, "etcdctl snapshot "+ws[1])
	case "user", "role", "auth":
		if ws[1] == "get" || ws[1] == "list" {
			c.add(Read, "etcdctl "+ws[0]+" "+ws[1])
			return
		}
		c.add(Privilege, "etcdctl "+ws[0]+" "+ws[1]+" changes who may do what")
	default:
		c.add(RemoteWrite, "etcdctl "+ws[0]+" writes to the cluster")
	}
}

func kafkaTopics(c *cmd) {
	switch {
	case c.has("--delete"):
		c.add(Destructive, c.name+" --delete removes a topic and its messages")
	case c.has("--create", "--alter"):
		c.add(RemoteWrite, c.name+" changes topics")
	default:
		c.add(Read, c.name+" lists or describes")
	}
}

func kafkaProducer(c *cmd) {
	c.add(RemoteWrite, c.name+" sends messages to the broker")
	for _, r := range c.seg.Redirs {
		if r.Reads() {
			c.add(Exfil, c.name+" sends a file to the broker")
		}
	}
}

func kafkaGroups(c *cmd) {
	switch {
	case c.has("--delete", "--delete-offsets"):
		c.add(Destructive, c.name+" deletes consumer groups or offsets")
	case c.has("--reset-offsets") && c.has("--execute"):
		c.add(Destructive, c.name+" --reset-offsets --execute moves consumers")
	default:
		c.add(Read, c.name+" lists or describes")
	}
}

func rabbitmq(c *cmd) {
	v := strings.ToLower(c.verb())
	switch {
	case strings.HasPrefix(v, "list") || v == "status" || v == "show" || v == "cluster_status" || v == "environment" || v == "report" || v == "ping" || v == "":
		c.add(Read, c.name+" "+v)
	case strings.HasPrefix(v, "delete") || strings.HasPrefix(v, "purge") || strings.HasPrefix(v, "close") || v == "reset" || v == "force_reset" ||
		v == "stop" || v == "stop_app" || v == "forget_cluster_node" || v == "shutdown":
		c.add(Destructive, c.name+" "+v)
	case strings.Contains(v, "user") || strings.Contains(v, "permission"):
		c.add(Privilege, c.name+" "+v+" changes who may do what")
	default:
		c.add(RemoteWrite, c.name+" "+v+" changes the broker")
	}
}

func nats(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[0] == "pub" || ws[0] == "publish" || ws[0] == "req" || ws[0] == "request":
		c.add(RemoteWrite, "nats "+ws[0]+" sends a message")
	case ws[1] == "rm" || ws[1] == "del" || ws[1] == "purge" || ws[1] == "delete":
		c.add(Destructive, "nats "+ws[0]+" "+ws[1])
	case ws[1] == "add" || ws[1] == "put" || ws[1] == "edit" || ws[1] == "create" || ws[1] == "update" || ws[1] == "restore":
		c.add(RemoteWrite, "nats "+ws[0]+" "+ws[1])
	default:
		c.add(Read, "nats "+ws[0]+" "+ws[1])
	}
}

func consul(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[1] == "delete" || ws[0] == "leave" || ws[0] == "force-leave" || ws[1] == "deregister":
		c.add(Destructive, "consul "+ws[0]+" "+ws[1])
	case ws[1] == "put" || ws[1] == "import" || ws[1] == "register" || ws[1] == "create" || ws[1] == "update" || ws[1] == "write":
		c.add(RemoteWrite, "consul "+ws[0]+" "+ws[1])
	case ws[0] == "agent" || ws[0] == "exec" || ws[0] == "watch" || ws[0] == "lock":
		c.add(Opaque, "consul "+ws[0]+" runs or serves what sayso cannot see")
	default:
		c.add(Read, "consul "+ws[0]+" "+ws[1])
	}
}

func partitioner(c *cmd) {
	if c.has("-p", "--print", "-v", "--verify", "-i", "--info", "-l", "--list", "--version", "--help") && !c.has("-Z", "--zap-all", "-z", "--zap", "-o", "--clear", "-n", "--new", "-d", "--delete") {
		c.add(Read, c.name+" prints the partition table")
		return
	}
	c.add(Destructive, c.name+" rewrites a partition table")
}

func diskutil(c *cmd) {
	ws := c.words(2)
	v := strings.ToLower(ws[0])
	switch {
	case v == "list" || v == "info" || v == "information" || v == "verifyvolume" || v == "verifydisk" || v == "activity" || v == "listfilesystems" || v == "":
		c.add(Read, "diskutil "+ws[0])
	case v == "apfs" || v == "cs" || v == "appleraid" || v == "ar" || v == "coreStorage":
		if strings.HasPrefix(strings.ToLower(ws[1]), "list") {
			c.add(Read, "diskutil "+ws[0]+" "+ws[1])
			return
		}
		c.add(Destructive, "diskutil "+ws[0]+" "+ws[1]+" changes disks")
	case v == "mount" || v == "unmount" || v == "umount" || v == "mountdisk" || v == "unmountdisk" || v == "eject" || v == "rename" || v == "renamevolume" || v == "enableownership":
		c.add(Privilege, "diskutil "+ws[0]+" changes mounts")
	default:
		c.add(Destructive, "diskutil "+ws[0]+" erases or repartitions a disk")
	}
}

func hdiutil(c *cmd) {
	switch v := c.verb(); v {
	case "info", "imageinfo", "verify", "help", "":
		c.add(Read, "hdiutil "+v)
	default:
		c.add(LocalWrite, "hdiutil "+v)
		for _, w := range c.operands()[min(1, len(c.operands())):] {
			c.path(OpWrite, w)
		}
	}
}

// mkdocs gh-deploy builds the site and force-pushes it to gh-pages.
func mkdocs(c *cmd) {
	switch v := c.verb(); v {
	case "gh-deploy":
		c.add(Deploy, "mkdocs gh-deploy publishes the site")
		if c.has("--force", "-f") {
			c.add(ForceRemote, "mkdocs gh-deploy --force")
		}
	case "serve":
		c.add(LocalWrite, "mkdocs serve")
		c.devServer()
	default:
		c.add(LocalWrite, "mkdocs "+v)
		c.cwdWrite()
	}
}

// devServer: a server bound to all interfaces shows the folder to the
// network.
func (c *cmd) devServer() {
	for i, w := range c.args {
		v := w.Value
		addr := ""
		switch {
		case (v == "-a" || v == "--dev-addr" || v == "--host" || v == "--bind" || v == "-b" || v == "-H") && i+1 < len(c.args):
			addr = c.args[i+1].Value
		case strings.HasPrefix(v, "--dev-addr=") || strings.HasPrefix(v, "--host=") || strings.HasPrefix(v, "--bind="):
			_, addr, _ = strings.Cut(v, "=")
		}
		if strings.HasPrefix(addr, "0.0.0.0") || addr == "::" || strings.HasPrefix(addr, "[::]") {
			c.add(Network, c.name+" serves to every network: "+addr)
		}
	}
}

// ko builds Go images and pushes them, then applies manifests.
func ko(c *cmd) {
	switch v := c.verb(); v {
	case "apply", "create", "run":
		c.add(Deploy, "ko "+v+" deploys to the cluster")
	case "build", "publish", "resolve":
		if c.has("--local", "-L", "--push=false") {
			c.add(LocalWrite, "ko "+v+" --local builds without pushing")
			return
		}
		c.add(Publish, "ko "+v+" pushes images")
	case "delete":
		c.add(Deploy, "ko delete removes from the cluster")
		c.add(Destructive, "ko delete removes from the cluster")
	case "login":
		c.add(Secret, "ko login stores registry credentials")
	default:
		c.add(Read, "ko "+v)
	}
}

func helmfile(c *cmd) {
	switch v := c.verb(); v {
	case "apply", "sync", "deploy", "charts":
		c.add(Deploy, "helmfile "+v+" releases to the cluster")
	case "destroy", "delete":
		c.add(Deploy, "helmfile "+v)
		c.add(Destructive, "helmfile "+v+" uninstalls releases")
	case "deps", "repos", "fetch", "build", "init", "cache":
		c.add(LocalWrite, "helmfile "+v)
	default:
		c.add(Read, "helmfile "+v)
	}
}

func skaffold(c *cmd) {
	switch v := c.verb(); v {
	case "run", "deploy", "apply", "dev", "debug":
		c.add(Deploy, "skaffold "+v+" deploys to the cluster")
	case "delete":
		c.add(Deploy, "skaffold delete")
		c.add(Destructive, "skaffold delete removes what it deployed")
	case "build":
		if c.has("--push=false") {
			c.add(LocalWrite, "skaffold build --push=false")
			return
		}
		c.add(Publish, "skaffold build pushes images")
	case "init", "fix", "test":
		c.add(LocalWrite, "skaffold "+v)
	default:
		c.add(Read, "skaffold "+v)
	}
}

func eksctl(c *cmd) {
	ws := c.words(2)
	switch v := ws[0]; {
	case v == "get" || v == "info" || v == "version" || v == "help" || v == "completion" || v == "" || v == "utils" && strings.HasPrefix(ws[1], "describe"):
		c.add(Read, "eksctl "+v)
	case v == "delete" || v == "drain":
		c.add(Deploy, "eksctl "+v+" "+ws[1])
		c.add(Destructive, "eksctl "+v+" "+ws[1])
	default:
		c.add(Deploy, "eksctl "+v+" "+ws[1]+" changes a cluster")
	}
}

func flyway(c *cmd) {
	for _, w := range c.operands() {
		switch v := w.Value; v {
		case "clean":
			c.add(Destructive, "flyway clean drops every object in the schemas")
		case "migrate", "baseline", "repair", "undo":
			c.add(RemoteWrite, "flyway "+v+" changes the database")
		}
	}
	if c.a.segClasses(c.i).Empty() {
		c.add(Read, "flyway reads the schema history")
	}
}

func liquibase(c *cmd) {
	for _, w := range c.operands() {
		v := strings.ToLower(w.Value)
		switch {
		case strings.HasPrefix(v, "drop") || strings.HasPrefix(v, "rollback"):
			c.add(Destructive, "liquibase "+w.Value)
		case strings.HasPrefix(v, "update") || v == "tag" || strings.HasPrefix(v, "changelog-sync") || strings.HasPrefix(v, "changelogsync") || v == "execute-sql" || v == "release-locks":
			c.add(RemoteWrite, "liquibase "+w.Value+" changes the database")
		}
	}
	if c.a.segClasses(c.i).Empty() {
		c.add(Read, "liquibase reads")
	}
}

// prisma: migrate dev and db push change the development database; reset,
// --force-reset and --accept-data-loss drop data; migrate deploy applies
// migrations to the database the environment names.
func prisma(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[0] == "migrate" && ws[1] == "reset", c.has("--force-reset", "--accept-data-loss"):
		c.add(Destructive, "prisma "+ws[0]+" "+ws[1]+" drops data")
	case ws[0] == "migrate" && (ws[1] == "deploy" || ws[1] == "resolve"):
		c.add(Deploy, "prisma migrate "+ws[1]+" applies migrations to the database")
	case ws[0] == "db" && ws[1] == "execute":
		c.add(Opaque, "prisma db execute runs SQL sayso does not read")
	case ws[0] == "migrate" && (ws[1] == "status" || ws[1] == "diff"), ws[0] == "validate", ws[0] == "version", ws[0] == "-v", ws[0] == "--version", ws[0] == "help":
		c.add(Read, "prisma "+ws[0])
	case ws[0] == "studio":
		c.add(LocalWrite, "prisma studio")
	default:
		c.add(LocalWrite, "prisma "+strings.TrimSpace(ws[0]+" "+ws[1]))
		c.cwdWrite()
	}
}

func dbmate(c *cmd) {
	switch v := c.verb(); v {
	case "drop", "rollback", "down":
		c.add(Destructive, "dbmate "+v)
	case "status", "--version", "help", "":
		c.add(Read, "dbmate "+v)
	default:
		c.add(LocalWrite, "dbmate "+v)
		c.cwdWrite()
	}
}

func sqitch(c *cmd) {
	switch v := c.verb(); v {
	case "revert", "rebase":
		c.add(Destructive, "sqitch "+v+" reverts changes in the database")
	case "deploy":
		c.add(RemoteWrite, "sqitch deploy changes the database")
	case "status", "log", "plan", "show", "verify", "help", "":
		c.add(Read, "sqitch "+v)
	default:
		c.add(LocalWrite, "sqitch "+v)
	}
}

func flux(c *cmd) {
	switch v := c.verb(); v {
	case "get", "logs", "tree", "trace", "diff", "check", "stats", "events", "version", "export", "completion", "":
		c.add(Read, "flux "+v)
	case "delete", "uninstall":
		c.add(Deploy, "flux "+v)
		c.add(Destructive, "flux "+v)
	default:
		c.add(Deploy, "flux "+v+" changes the cluster")
	}
}

func tilt(c *cmd) {
	switch v := c.verb(); v {
	case "up", "ci", "down", "trigger", "enable", "disable", "args":
		c.add(Deploy, "tilt "+v+" deploys to the current cluster")
	default:
		c.add(Read, "tilt "+v)
	}
}

func packer(c *cmd) {
	switch v := c.verb(); v {
	case "build":
		c.add(Deploy, "packer build creates machine images")
	case "init", "fmt", "hcl2_upgrade", "plugins":
		c.add(LocalWrite, "packer "+v)
	default:
		c.add(Read, "packer "+v)
	}
}

func vagrant(c *cmd) {
	switch v := c.verb(); v {
	case "status", "global-status", "version", "ssh-config", "box", "plugin", "validate", "port", "help", "":
		if (v == "box" || v == "plugin") && c.words(2)[1] != "list" {
			c.add(LocalWrite, "vagrant "+v)
			return
		}
		c.add(Read, "vagrant "+v)
	case "destroy":
		c.add(Destructive, "vagrant destroy deletes machines")
	case "ssh", "powershell", "rdp":
		c.add(Opaque, "vagrant "+v+" runs commands inside a machine")
	case "push", "share", "cloud":
		c.add(Deploy, "vagrant "+v)
	default:
		c.add(LocalWrite, "vagrant "+v)
	}
}

func kustomize(c *cmd) {
	switch v := c.verb(); v {
	case "edit", "create", "init", "fn", "localize":
		c.add(LocalWrite, "kustomize "+v)
		c.cwdWrite()
	default:
		c.add(Read, "kustomize "+v)
	}
}

// localCluster: kind, minikube, k3d make clusters and machines on this
// machine.
func localCluster(c *cmd) {
	ws := c.words(2)
	switch ws[0] {
	case "get", "status", "version", "ip", "profile", "logs", "list", "ls", "help", "":
		c.add(Read, c.name+" "+ws[0])
	case "ssh", "kubectl":
		c.add(Opaque, c.name+" "+ws[0]+" runs commands inside the machine")
	case "service", "tunnel", "dashboard":
		c.add(Network, c.name+" "+ws[0]+" opens a port")
	default:
		c.add(LocalWrite, c.name+" "+strings.TrimSpace(ws[0]+" "+ws[1])+" changes a local cluster")
	}
}

func kubeContext(c *cmd) {
	if len(c.operands()) == 0 || c.has("-c", "--current") {
		c.add(Read, c.name+" lists")
		return
	}
	c.add(LocalWrite, c.name+" switches the current cluster or namespace")
}

func k9s(c *cmd) {
	if c.has("version", "info", "help", "--help", "-h") || c.has("--readonly") {
		c.add(Read, "k9s")
		return
	}
	c.add(Opaque, "k9s is an interactive console that can change and delete anything in the cluster")
}

func buildah(c *cmd) {
	switch v := c.verb(); v {
	case "push":
		c.add(Publish, "buildah push")
	case "rm", "rmi", "prune":
		c.add(ContainerRemove, "buildah "+v)
	case "images", "containers", "inspect", "info", "version", "ps", "":
		c.add(Read, "buildah "+v)
	case "run", "unshare":
		c.add(Opaque, "buildah "+v+" runs a command sayso does not read")
	case "login":
		c.add(Secret, "buildah login")
	default:
		c.add(LocalWrite, "buildah "+v)
		c.cwdWrite()
	}
}

// dockerCompose is docker-compose, read as docker compose.
func dockerCompose(c *cmd) {
	compose := shell.Word{Raw: "compose", Value: "compose", Literal: true}
	inner := &cmd{a: c.a, i: c.i, seg: c.seg, name: "docker", args: append([]shell.Word{compose}, c.args...)}
	docker(inner)
}

func earthly(c *cmd) {
	if c.has("--push") {
		c.add(Publish, "earthly --push pushes images and runs push commands")
	}
	if c.has("-P", "--allow-privileged") {
		c.add(Privilege, "earthly runs privileged containers")
	}
	c.add(LocalWrite, "earthly builds the project")
	c.cwdWrite()
}

func genericCloud(c *cmd) {
	ws := c.words(3)
	op := ws[1]
	for _, w := range ws[1:] {
		if cloudVerbWord(w) || w == "rm" || w == "ls" || strings.HasPrefix(w, "destroy") || strings.HasPrefix(w, "terminate") {
			op = w
			break
		}
	}
	if ws[0] == "auth" || ws[0] == "login" || ws[0] == "logout" || ws[0] == "config" && op != "list" && op != "get" {
		c.add(Secret, c.name+" "+ws[0]+" handles credentials")
		return
	}
	if op == "ssh" || op == "exec" {
		c.add(Opaque, c.name+" "+ws[0]+" "+op+" runs commands on a remote machine")
		return
	}
	c.cloudVerb(c.name+" "+ws[0], op)
}

// openssl: s_client and friends talk to hosts; other commands work on
// local files.
func openssl(c *cmd) {
	v := c.verb()
	switch v {
	case "s_client", "s_time", "ocsp":
		c.add(Network, "openssl "+v+" connects to a host")
		if c.seg.Pipeline != 0 && c.seg.Stage > 0 {
			c.add(Exfil, "openssl "+v+" sends its input to the host")
		}
		for _, r := range c.seg.Redirs {
			if r.Reads() || r.Input() {
				c.add(Exfil, "openssl "+v+" sends its input to the host")
			}
		}
	case "s_server":
		c.add(Network, "openssl s_server listens for connections")
	case "version", "help", "list", "ciphers", "errstr", "rand", "speed", "":
		c.add(Read, "openssl "+v)
	default:
		c.add(Read, "openssl "+v)
		for i, w := range c.args {
			switch {
			case (w.Value == "-out" || w.Value == "-keyout") && i+1 < len(c.args):
				c.write(c.args[i+1])
			case w.Value == "-in" && (v == "x509" || v == "verify" || v == "crl" || v == "asn1parse" && false) && i+1 < len(c.args):
				// a certificate: x509 will not print a key
				c.readIfProtected(c.args[i+1])
			case (w.Value == "-in" || w.Value == "-key" || w.Value == "-inkey" || w.Value == "-CAkey") && i+1 < len(c.args):
				c.path(OpRead, c.args[i+1])
			}
		}
	}
}

// readIfProtected records w as read only when it is sayso's own.
func (c *cmd) readIfProtected(w shell.Word) {
	for _, p := range c.a.resolve(w) {
		if c.a.protected(p) {
			c.path(OpRead, w)
			return
		}
	}
}

func swaks(c *cmd) {
	if c.has("--help", "--version") {
		c.add(Read, "swaks")
		return
	}
	c.add(Exfil, "swaks sends mail")
}

func websocket(c *cmd) {
	for _, w := range c.operands() {
		v := w.Value
		if strings.Contains(v, "://") && !strings.Contains(v, "://localhost") && !strings.Contains(v, "://127.0.0.1") {
			c.add(Exfil, c.name+" sends its input to "+v)
			return
		}
	}
	if c.has("-s", "--server", "-l", "--listen") {
		c.add(Network, c.name+" listens")
		return
	}
	c.add(LocalWrite, c.name+" talks to a local server")
}

func tailscale(c *cmd) {
	switch v := c.verb(); v {
	case "status", "ip", "ping", "netcheck", "whois", "version", "dns", "exit-node", "metrics", "licenses", "bugreport", "":
		if v == "exit-node" && c.words(2)[1] != "list" {
			c.add(Privilege, "tailscale exit-node")
			return
		}
		c.add(Read, "tailscale "+v)
	case "funnel", "serve":
		if w := c.words(2)[1]; w == "status" || c.has("status") {
			c.add(Read, "tailscale "+v+" status")
			return
		}
		c.add(Exfil, "tailscale "+v+" exposes a local service")
	case "file":
		if c.words(2)[1] == "cp" {
			c.add(Exfil, "tailscale file cp sends files")
			return
		}
		c.add(LocalWrite, "tailscale file get")
	case "ssh", "nc":
		c.add(Network, "tailscale "+v)
		c.add(Opaque, "tailscale "+v+" runs a session on another machine")
	case "login", "logout", "switch", "cert":
		c.add(Secret, "tailscale "+v)
	default:
		c.add(Privilege, "tailscale "+v+" changes this machine's network")
	}
}

func networkConfig(c *cmd) {
	if c.verb() == "show" || c.verb() == "" || c.verb() == "listnetworks" || c.verb() == "info" || c.verb() == "status" {
		if c.name == "wg" && c.has("private-key", "preshared-key") {
			c.add(Secret, "wg show prints keys")
			return
		}
		c.add(Read, c.name+" shows")
		return
	}
	c.add(Privilege, c.name+" changes this machine's network")
}

func sshCopyID(c *cmd) {
	c.add(RemoteWrite, "ssh-copy-id installs a key on another host")
	c.add(Privilege, "ssh-copy-id grants login to another host")
}

func grpcurl(c *cmd) {
	if c.has("-d") {
		c.add(Exfil, "grpcurl -d sends data to a host")
		return
	}
	c.add(Network, "grpcurl reaches a host")
}

func s3cmd(c *cmd) {
	switch v := c.verb(); v {
	case "ls", "la", "info", "du", "get":
		c.add(Network, "s3cmd "+v)
	case "del", "rm", "rb", "deleteall":
		c.add(Destructive, "s3cmd "+v)
	default:
		c.add(Exfil, "s3cmd "+v+" sends files to a bucket")
	}
}

// runsCommand: a program whose command the shell reader split off; it
// watches, times or starts what is classified on its own.
func runsCommand(c *cmd) {
	if c.seg.Inline {
		c.add(LocalWrite, c.name+" runs the command read after it")
		return
	}
	if c.name == "nodemon" && len(c.operands()) == 0 {
		c.add(LocalWrite, "nodemon runs the project's start script")
		return
	}
	if c.has("--version", "-V", "--help", "-h") {
		c.add(Read, c.name+" prints its version")
		return
	}
	c.add(Opaque, c.name+" runs a command sayso could not read")
}

func direnv(c *cmd) {
	switch v := c.verb(); v {
	case "exec":
		runsCommand(c)
	case "allow", "permit", "grant":
		c.add(Opaque, "direnv allow lets .envrc run on every visit to the folder")
	case "status", "version", "help", "dump", "":
		c.add(Read, "direnv "+v)
	default:
		c.add(LocalWrite, "direnv "+v)
	}
}

func mise(c *cmd) {
	switch v := c.verb(); v {
	case "exec", "x":
		runsCommand(c)
	case "run", "r", "tasks":
		c.add(LocalWrite, "mise "+v+" runs a task of the project")
		c.namedTask(c.words(2)[1])
		c.cwdWrite()
	case "trust":
		c.add(Opaque, "mise trust lets the project's config run its hooks")
	case "ls", "list", "current", "where", "which", "doctor", "version", "--version", "env", "settings", "config", "plugins", "outdated", "":
		c.add(Read, "mise "+v)
	default:
		c.add(LocalWrite, "mise "+v+" installs or selects tools")
	}
}

func awsVault(c *cmd) {
	switch v := c.verb(); v {
	case "exec":
		runsCommand(c)
	case "list", "ls", "--version", "help", "":
		c.add(Read, "aws-vault "+v)
	default:
		c.add(Secret, "aws-vault "+v+" handles AWS credentials")
	}
}

func sops(c *cmd) {
	v := c.verb()
	switch {
	case v == "exec-env" || v == "exec-file":
		runsCommand(c)
	case c.has("-d", "--decrypt", "-x", "--extract") || v == "decrypt":
		c.add(Secret, "sops prints decrypted secrets")
	default:
		c.add(LocalWrite, "sops edits or encrypts a file")
		for _, w := range c.operands() {
			c.write(w)
		}
	}
}

func doppler(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[0] == "run":
		runsCommand(c)
	case ws[0] == "secrets" && (ws[1] == "" || ws[1] == "get" || ws[1] == "download"), ws[0] == "login", ws[0] == "configure":
		c.add(Secret, "doppler "+ws[0]+" handles secrets")
	case ws[0] == "secrets":
		c.add(RemoteWrite, "doppler secrets "+ws[1])
	default:
		c.add(Read, "doppler "+ws[0])
	}
}

// envManager: an environment manager's run verb runs the command read
// after it; other verbs install or select packages.
func envManager(c *cmd) {
	v := c.verb()
	switch {
	case c.seg.Inline:
		c.add(LocalWrite, c.name+" "+v+" runs the command read after it")
	case v == "run" || v == "exec" || v == "shell" || c.name == "nix-shell" && c.has("--run", "--command"):
		c.add(Opaque, c.name+" "+v+" runs a command sayso could not read")
	case v == "publish" || v == "upload":
		if c.has("--dry-run") {
			c.add(Read, c.name+" "+v+" --dry-run")
			return
		}
		c.add(Publish, c.name+" "+v)
	case v == "list" || v == "info" || v == "show" || v == "--version" || v == "version" || v == "env" && c.words(2)[1] == "list" || v == "graph":
		c.add(Read, c.name+" "+v)
	default:
		c.add(LocalWrite, c.name+" "+v)
		c.namedTask(v)
		c.cwdWrite()
		c.remotePackages()
	}
}

func nix(c *cmd) {
	ws := c.words(2)
	switch {
	case c.seg.Inline:
		c.add(LocalWrite, "nix "+ws[0]+" runs the command read after it")
	case ws[0] == "run" || ws[0] == "shell" || ws[0] == "develop":
		for _, w := range c.operands()[1:] {
			if strings.Contains(w.Value, ":") && !strings.HasPrefix(w.Value, "nixpkgs#") && !strings.HasPrefix(w.Value, ".") {
				c.add(DownloadExec, "nix "+ws[0]+" runs "+w.Raw)
				return
			}
		}
		c.add(LocalWrite, "nix "+ws[0])
	case ws[0] == "eval" || ws[0] == "search" || ws[0] == "show-config" || ws[0] == "path-info" || ws[0] == "log" || ws[0] == "why-depends" ||
		ws[0] == "flake" && (ws[1] == "show" || ws[1] == "metadata" || ws[1] == "info" || ws[1] == "check"):
		c.add(Read, "nix "+ws[0])
	default:
		c.add(LocalWrite, "nix "+ws[0])
		c.cwdWrite()
	}
}

func cmake(c *cmd) {
	ws := c.words(2)
	if c.seg.Inline {
		c.add(LocalWrite, "cmake -E runs the command read after it")
		return
	}
	for i, w := range c.args {
		if w.Value == "-E" && i+1 < len(c.args) {
			switch sub := c.args[i+1].Value; sub {
			case "rm", "remove", "remove_directory":
				c.add(LocalWrite, "cmake -E "+sub)
				for _, p := range c.args[i+2:] {
					if !strings.HasPrefix(p.Value, "-") {
						c.path(OpDelete, p)
					}
				}
				return
			case "env", "chdir", "time":
				c.add(Opaque, "cmake -E "+sub+" runs a command sayso could not read")
				return
			case "capabilities", "echo", "echo_append", "environment", "sha256sum", "md5sum", "compare_files", "cat":
				c.add(Read, "cmake -E "+sub)
				return
			}
		}
	}
	_ = ws
	c.add(LocalWrite, "cmake configures or builds the project")
	c.cwdWrite()
}

func fzf(c *cmd) {
	c.add(Read, "fzf picks from its input")
}
