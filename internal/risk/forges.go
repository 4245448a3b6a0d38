// Forges and version control systems other than git: gh, glab, hub, jj, hg, svn, tea, graphite.

package risk

import (
	"slices"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// ghFamily: gh, its extensions (which run code of their own) read before
// the rest.
func ghFamily() family {
	return family{names: []string{"gh"}, before: ghExtension, classify: gh}
}

func hubFamily() family {
	return family{names: []string{"hub"}, classify: hub}
}

// hub wraps git: its own commands are GitHub's, every other one is git's.
func hub(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "pr", "issue", "release", "api":
		gh(c)
	case "pull-request", "create", "fork", "gist":
		c.add(RemoteWrite, ChangesServer.By("hub", v, ""))
	case "delete":
		c.add(Destructive, Destroys.By("hub", "delete", ""))
	case "browse", "compare", "ci-status":
		c.add(Read, OnlyReads.By("hub", v, ""))
	case "sync":
		c.add(LocalWrite, ChangesRepository.By("hub", "sync", ""))
	default:
		git(c)
	}
}

func gh(c *cmd) {
	// Which command runs is the group and, but for the groups whose next
	// word is an argument (gh api ENDPOINT), the word after it: one that
	// is not a literal is none sayso knows.
	if w := c.words(1)[0]; !c.literalWords(1) {
		return // opaque (words)
	} else if !slices.Contains([]string{"api", "browse", "search", "status", "help", "completion"}, w) && !c.literalWords(2) {
		c.add(Opaque, UnknownVerb.By("gh", c.written(2), ""))
		return
	}
	w := c.words(3)
	group, verb := w[0], w[1]
	switch group {
	case "ext", "extensions":
		group = "extension"
	case "cs":
		group = "codespace"
	}
	switch group {
	case "pr":
		switch verb {
		case "merge":
			c.add(Merge, Merges.By("gh", "pr merge", ""))
		case "create", "comment", "edit", "review", "ready", "close", "reopen", "lock", "unlock", "update-branch", "revert":
			c.add(RemoteWrite, ChangesServer.By("gh pr", verb, ""))
		case "checkout":
			c.add(LocalWrite, ChangesRepository.By("gh", "pr checkout", ""))
		default:
			ghReads(c, "pr", verb, "list", "view", "status", "checks", "diff")
		}
	case "issue":
		switch verb {
		case "delete":
			c.add(Destructive, Destroys.By("gh", "issue delete", ""))
		case "create", "comment", "edit", "close", "reopen", "transfer", "pin", "unpin", "lock", "unlock", "develop":
			c.add(RemoteWrite, ChangesServer.By("gh issue", verb, ""))
		default:
			ghReads(c, "issue", verb, "list", "view", "status")
		}
	case "release":
		switch verb {
		case "create", "upload":
			c.add(Publish, Publishes.By("gh release", verb, ""))
			c.worksOn(3, "--notes", "--notes-file", "-F", "--target", "--discussion-category", "--notes-start-tag") // the files it attaches
		case "delete", "delete-asset":
			c.add(Destructive, Destroys.By("gh release", verb, ""))
		case "edit":
			c.add(RemoteWrite, ChangesServer.By("gh", "release edit", ""))
		case "download":
			c.add(LocalWrite, LocalWork.By("gh", "release download", ""))
		default:
			ghReads(c, "release", verb, "list", "view", "verify", "verify-asset")
		}
	case "repo":
		switch verb {
		case "delete", "archive":
			c.add(Destructive, Destroys.By("gh repo", verb, ""))
		case "create", "fork", "edit", "rename", "sync", "set-default", "deploy-key", "autolink", "unarchive":
			if verb == "sync" && c.has("--force") {
				c.add(ForceRemote, PushesForce.By("gh", "repo sync --force", ""))
			}
			if verb == "set-default" {
				c.add(LocalWrite, LocalWork.By("gh", "repo set-default", ""))
			} else {
				c.add(RemoteWrite, ChangesServer.By("gh repo", verb, ""))
			}
		case "clone":
			c.add(LocalWrite, LocalWork.By("gh", "repo clone", ""))
			if ops := c.operands(); len(ops) > 2 {
				c.clonesTo(ops[2:])
			}
		default:
			ghReads(c, "repo", verb, "list", "view", "gitignore", "license")
		}
	case "workflow":
		switch verb {
		case "run":
			c.add(RemoteWrite, ChangesServer.By("gh", "workflow run", ""))
			if name := strings.ToLower(w[2]); strings.Contains(name, "deploy") || strings.Contains(name, "release") || strings.Contains(name, "publish") {
				c.add(Deploy, Deploys.By("gh", "workflow run", w[2]))
			}
		case "enable", "disable":
			c.add(RemoteWrite, ChangesServer.By("gh workflow", verb, ""))
		default:
			ghReads(c, "workflow", verb, "list", "view")
		}
	case "run":
		switch verb {
		case "rerun", "cancel":
			c.add(RemoteWrite, ChangesServer.By("gh run", verb, ""))
		case "delete":
			c.add(Destructive, Destroys.By("gh", "run delete", ""))
		case "download":
			c.add(LocalWrite, LocalWork.By("gh", "run download", ""))
		default:
			ghReads(c, "run", verb, "list", "view", "watch")
		}
	case "secret", "variable":
		switch verb {
		case "set":
			c.add(RemoteWrite, ChangesServer.By("gh", group+" set", ""))
		case "delete", "remove":
			c.add(Destructive, Destroys.By("gh", group+" delete", ""))
		default:
			ghReads(c, group, verb, "list", "get")
		}
	case "gist":
		switch verb {
		case "create", "edit":
			c.add(Exfil, SendsData.By("gh gist", verb, ""))
			c.readOperandsAfter(2)
		case "rename":
			c.add(RemoteWrite, ChangesServer.By("gh", "gist rename", ""))
		case "delete":
			c.add(Destructive, Destroys.By("gh", "gist delete", ""))
		case "clone":
			c.add(LocalWrite, LocalWork.By("gh", "gist clone", ""))
			if ops := c.operands(); len(ops) > 2 {
				c.clonesTo(ops[2:])
			}
		default:
			ghReads(c, "gist", verb, "list", "view")
		}
	case "auth":
		switch verb {
		case "token":
			c.add(Secret, PrintsCredential.By(c.name, "auth token", ""))
		case "status":
			if c.has("--show-token", "-t") {
				c.add(Secret, PrintsCredential.By(c.name, "auth status --show-token", ""))
			}
			c.add(Read, OnlyReads.By(c.name, "auth status", ""))
		default:
			c.add(Secret, StoresCredential.By("gh auth", verb, ""))
		}
	case "api":
		ghAPI(c)
	case "label", "milestone", "project", "ruleset", "cache", "codespace", "extension", "alias", "config", "ssh-key", "gpg-key":
		switch verb {
		case "list", "view", "ls", "status", "get", "":
			c.add(Read, OnlyReads.By("gh", group+" "+verb, ""))
		case "delete", "remove", "rm":
			c.add(Destructive, Destroys.By("gh", group+" "+verb, ""))
		default:
			if group == "extension" || group == "alias" || group == "config" {
				c.add(LocalWrite, LocalWork.By("gh", group+" "+verb, ""))
				ops := c.operands()
				switch {
				case group == "alias":
					c.add(InstructionPatch, RunsLater.By("gh alias", verb, ""))
				case group == "config" && (len(ops) < 3 || !inertGhConfig[ops[2].Value]):
					c.add(InstructionPatch, RunsLater.By("gh config", verb, ""))
				}
			} else {
				c.add(RemoteWrite, ChangesServer.By("gh", group+" "+verb, ""))
			}
		}
	case "org":
		ghReads(c, "org", verb, "list")
	case "attestation":
		if verb == "download" {
			c.add(LocalWrite, LocalWork.By("gh", "attestation download", ""))
			return
		}
		ghReads(c, "attestation", verb, "verify", "trusted-root")
	case "preview":
		ghReads(c, "preview", verb, "prompter")
	case "status", "search", "browse", "completion", "help", "version", "--version", "--help", "-h", "accessibility", "licenses", "":
		// The word after these is an argument (gh search prs, gh browse
		// issues), not a command.
		c.add(Read, OnlyReads.By("gh", group, ""))
	default:
		// An alias (a shell one too) or an extension: the person's
		// configuration or a program of the home, not gh's own.
		c.add(Opaque, UnknownVerb.By("gh", group, ""))
	}
}

// ghReads classifies verb of gh's group, none of the commands the group's
// classifier names: a read when it is one of reads (or none, the group's
// help), a command sayso does not know otherwise. gh gains commands with
// its releases (gh pr revert, gh repo unarchive), and one sayso has not
// read the help of may change what it names.
func ghReads(c *cmd, group, verb string, reads ...string) {
	if verb == "" || slices.Contains(reads, verb) {
		c.add(Read, OnlyReads.By("gh "+group, verb, ""))
		return
	}
	c.add(Opaque, UnknownVerb.By("gh "+group, verb, ""))
}

func (c *cmd) readOperandsAfter(n int) {
	ops := c.operands()
	if len(ops) > n {
		for _, w := range ops[n:] {
			c.path(OpRead, w)
		}
	}
}

func ghAPI(c *cmd) {
	// The method and the fields that make it a POST are options: one
	// bash builds at run time may be either.
	if w, ok := c.hiddenOption(); ok {
		c.add(Opaque, UnknownVerb.By("gh api", w.Raw, ""))
		return
	}
	method := ""
	fields := false
	for i, w := range c.args {
		v := w.Value
		if strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") {
			// A cluster of short options: -i takes no value, the
			// first other one takes the rest as its value (-XDELETE,
			// -ftitle=x, -iX DELETE).
			v = "-" + strings.TrimLeft(v[1:], "i")
		}
		switch {
		case (v == "-X" || v == "--method") && i+1 < len(c.args):
			method = strings.ToUpper(c.args[i+1].Value)
			if !c.args[i+1].Plain() {
				c.add(Opaque, UnknownVerb.By("gh api", c.args[i+1].Raw, ""))
				return
			}
		case strings.HasPrefix(v, "--method="):
			method = strings.ToUpper(v[9:])
		case strings.HasPrefix(v, "-X") && len(v) > 2:
			method = strings.ToUpper(v[2:])
		case v == "-f" || v == "-F" || v == "--field" || v == "--raw-field" || v == "--input",
			strings.HasPrefix(v, "-f"), strings.HasPrefix(v, "-F"),
			strings.HasPrefix(v, "--field="), strings.HasPrefix(v, "--raw-field="), strings.HasPrefix(v, "--input="):
			fields = true
		}
	}
	if method == "" && fields {
		method = "POST"
	}
	switch method {
	case "", "GET", "HEAD":
		c.add(Read, OnlyReads.By("gh", "api GET", ""))
	case "DELETE":
		c.add(Destructive, Destroys.By("gh", "api DELETE", ""))
	default:
		c.add(RemoteWrite, ChangesServer.By("gh api", method, ""))
	}
}

func jj(c *cmd) {
	ws := c.words(3)
	switch ws[0] {
	case "git":
		// The command is the word after git, and after git remote the one
		// after that: one that is not a literal is none sayso knows.
		n := 2
		if ws[1] == "remote" {
			n = 3
		}
		if !c.literalWords(n) {
			c.add(Opaque, UnknownVerb.By("jj", c.written(n), ""))
			return
		}
		switch ws[1] {
		case "push":
			if c.has("--deleted", "--all") {
				c.add(ForceRemote, PushesDelete.By("jj", "git push", ""))
				return
			}
			c.add(RemoteWrite, ChangesServer.By("jj", "git push", ""))
			c.remoteNamed()
		case "fetch", "import", "export", "init", "clone", "colocation":
			c.add(LocalWrite, LocalWork.By("jj git", ws[1], ""))
			c.cwdWrite()
		case "remote":
			switch ws[2] {
			case "add", "set-url", "rename":
				c.add(NewRemote, PointsAtNewRemote.By("jj git remote", ws[2], ""))
			case "remove":
				c.add(LocalWrite, ChangesRepository.By("jj", "git remote remove", ""))
			case "list", "":
				c.add(Read, OnlyReads.By("jj git remote", ws[2], ""))
			default:
				c.add(Opaque, UnknownVerb.By("jj git remote", ws[2], ""))
			}
		case "root", "":
			c.add(Read, OnlyReads.By("jj git", ws[1], ""))
		default:
			// jj git --help lists clone, colocation, export, fetch,
			// import, init, push, remote and root.
			c.add(Opaque, UnknownVerb.By("jj git", ws[1], ""))
		}
	case "log", "st", "status", "diff", "show", "evolog", "obslog", "files", "file", "cat", "root", "help", "version", "--version", "config", "interdiff", "operation", "op", "util", "":
		if (ws[0] == "op" || ws[0] == "operation") && ws[1] == "abandon" {
			// jj op abandon drops operations from the log: what they
			// held cannot be restored or undone (jj op abandon --help).
			c.add(Destructive, Destroys.By("jj", "op abandon", ""))
			return
		}
		if ws[0] == "util" && ws[1] == "gc" {
			c.add(Destructive, DropsHistory.By("jj", "util gc", ""))
			return
		}
		if (ws[0] == "op" || ws[0] == "operation") && (ws[1] == "restore" || ws[1] == "revert" || ws[1] == "undo") {
			c.add(LocalWrite, LocalWork.By("jj op", ws[1], ""))
			return
		}
		if ws[0] == "config" && (ws[1] == "set" || ws[1] == "edit" || ws[1] == "unset") {
			c.add(LocalWrite, LocalWork.By("jj config", ws[1], ""))
			return
		}
		if ws[0] == "file" && ws[1] != "list" && ws[1] != "show" && ws[1] != "annotate" {
			c.add(LocalWrite, LocalWork.By("jj file", ws[1], ""))
			return
		}
		c.add(Read, OnlyReads.By("jj", ws[0], ""))
	case "abandon":
		// jj abandon drops commits and rebases their descendants, as
		// git branch -D and hg strip drop theirs.
		c.add(Destructive, DropsHistory.By("jj", "abandon", ""))
	default:
		c.add(LocalWrite, ChangesRepository.By("jj", ws[0], ""))
		c.cwdWrite()
	}
}

func jjFamily() family {
	return family{names: []string{"jj"}, classify: jj}
}

// remoteNamed: a push to a URL rather than a named remote is a new remote.
func (c *cmd) remoteNamed() {
	for _, w := range c.args {
		if strings.Contains(w.Value, "://") || strings.HasPrefix(w.Value, "--remote=") && strings.Contains(w.Value, ":") {
			c.add(NewRemote, PushesToURL.By(c.name, "", w.Raw))
		}
	}
}

func hgFamily() family {
	return family{names: []string{"hg"}, classify: hg}
}

func hg(c *cmd) {
	v := c.verb()
	switch v {
	case "push", "outgoing-push":
		if c.has("-f", "--force") {
			c.add(ForceRemote, PushesForce.By("hg", "push --force", ""))
			return
		}
		c.add(RemoteWrite, ChangesServer.By("hg", "push", ""))
		c.remoteNamed()
	case "status", "st", "log", "diff", "show", "summary", "sum", "heads", "branches", "branch", "bookmarks", "paths", "id", "identify",
		"annotate", "blame", "cat", "files", "locate", "grep", "help", "version", "--version", "incoming", "in", "outgoing", "out", "tip", "parents", "root", "config", "showconfig", "":
		if v == "config" && c.has("-e", "--edit") {
			c.add(LocalWrite, LocalWork.By("hg", "config --edit", ""))
			return
		}
		c.add(Read, OnlyReads.By("hg", v, ""))
	case "purge", "clean", "strip", "debugstrip", "prune", "obsolete", "rollback":
		c.add(Destructive, DiscardsWork.By("hg", v, ""))
	case "histedit":
		// hg histedit drops and folds changesets, stripping them as hg
		// strip does (hg help histedit); --abort, --continue and
		// --edit-plan only steer one under way.
		if c.has("--abort", "--continue", "--edit-plan", "--outgoing", "-o") {
			c.add(LocalWrite, LocalWork.By("hg histedit", c.args[len(c.args)-1].Value, ""))
			return
		}
		c.add(Destructive, DropsHistory.By("hg", "histedit", ""))
	case "update", "up", "checkout", "co", "revert":
		if c.has("-C", "--clean", "--all") || v == "revert" && c.has("-a", "--all") {
			c.add(Destructive, DiscardsWork.By("hg", v, ""))
			return
		}
		c.add(LocalWrite, LocalWork.By("hg", v, ""))
		c.cwdWrite()
	case "serve":
		c.add(Network, ExposesService.By("hg", "serve", ""))
	default:
		c.add(LocalWrite, LocalWork.By("hg", v, ""))
		c.cwdWrite()
	}
}

func svnFamily() family { return family{names: []string{"svn"}, classify: svn} }

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
		c.add(RemoteWrite, ChangesServer.By("svn", v, ""))
	case "copy", "cp", "mkdir", "move", "mv", "rename", "ren", "propset", "ps", "propdel", "pd", "propedit", "pe":
		if urls || c.has("--revprop") {
			c.add(RemoteWrite, ChangesServer.By("svn", v, ""))
			return
		}
		c.add(LocalWrite, LocalWork.By("svn", v, ""))
	case "delete", "del", "remove", "rm":
		if urls {
			c.add(Destructive, Destroys.By("svn", v, ""))
			c.add(RemoteWrite, ChangesServer.By("svn", v, ""))
			return
		}
		c.add(LocalWrite, LocalWork.By("svn", v, ""))
	case "revert":
		c.add(Destructive, DiscardsWork.By("svn", "revert", ""))
	case "relocate":
		c.add(NewRemote, PointsAtNewRemote.By("svn", "relocate", ""))
	case "switch", "sw":
		if c.has("--relocate") {
			c.add(NewRemote, PointsAtNewRemote.By("svn", "switch --relocate", ""))
			return
		}
		c.add(LocalWrite, LocalWork.By("svn", "switch", ""))
	case "status", "st", "log", "diff", "di", "info", "list", "ls", "cat", "blame", "praise", "annotate", "ann", "proplist", "pl",
		"propget", "pg", "help", "--version", "mergeinfo", "":
		c.add(Read, OnlyReads.By("svn", v, ""))
	default:
		c.add(LocalWrite, LocalWork.By("svn", v, ""))
		c.cwdWrite()
	}
}

// tea is Gitea's CLI.
func tea(c *cmd) {
	ws := c.words(2)
	if !c.literalWords(2) {
		// The word after a group is its command (tea pulls merge 3).
		c.add(Opaque, UnknownVerb.By("tea", c.written(2), ""))
		return
	}
	switch {
	case ws[0] == "login" || ws[0] == "logins" || ws[0] == "logout":
		if ws[1] == "list" || ws[1] == "ls" || ws[1] == "" && ws[0] == "logins" {
			c.add(Read, OnlyReads.By("tea", "logins", ""))
			return
		}
		c.add(Secret, TouchesCredential.By("tea", ws[0], ""))
	case ws[1] == "merge" || ws[0] == "merge":
		c.add(Merge, Merges.By("tea", ws[0]+" merge", ""))
	case ws[0] == "release" || ws[0] == "releases" || ws[0] == "r":
		switch ws[1] {
		case "create", "edit":
			c.add(Publish, Publishes.By("tea release", ws[1], ""))
		case "delete":
			c.add(Destructive, Destroys.By("tea", "release delete", ""))
		default:
			c.add(Read, OnlyReads.By("tea", "releases", ""))
		}
	case ws[1] == "delete" || ws[1] == "rm":
		c.add(Destructive, Destroys.By("tea", ws[0]+" "+ws[1], ""))
	case ws[0] == "comment" || ws[0] == "c" || ws[1] == "create" || ws[1] == "c" || ws[1] == "edit" || ws[1] == "close" || ws[1] == "reopen" ||
		ws[1] == "approve" || ws[1] == "reject" || ws[1] == "review" || ws[0] == "open" && false:
		c.add(RemoteWrite, ChangesServer.By("tea", ws[0]+" "+ws[1], ""))
	case ws[1] == "checkout" || ws[1] == "clean" || ws[0] == "clone":
		c.add(LocalWrite, LocalWork.By("tea", ws[0]+" "+ws[1], ""))
		c.cwdWrite()
	case slices.Contains(teaGroups, ws[0]) && (ws[1] == "" || ws[1] == "list" || ws[1] == "ls" || isNumber(ws[1])),
		ws[0] == "whoami" || ws[0] == "help" || ws[0] == "--version" || ws[0] == "":
		// tea issues 12 shows issue 12.
		c.add(Read, OnlyReads.By("tea", ws[0]+" "+ws[1], ""))
	default:
		c.add(Opaque, UnknownVerb.By("tea", ws[0]+" "+ws[1], ""))
	}
}

func teaFamily() family {
	return family{names: []string{"tea"}, classify: tea}
}

// teaGroups are tea's groups of commands (tea --help), each of which
// lists, or shows the one numbered, with no command.
var teaGroups = []string{"issues", "issue", "i", "pulls", "pull", "pr", "labels", "label", "milestones", "milestone", "ms",
	"times", "time", "t", "organizations", "organization", "org", "repos", "repo", "branches", "branch", "b",
	"notifications", "notification", "n", "actions", "webhooks", "hooks"}

func graphiteFamily() family {
	return family{names: []string{"gt"}, classify: graphite}
}

// graphite is Graphite's gt: submit pushes a stack with force-with-lease.
func graphite(c *cmd) {
	v := c.verb()
	switch v {
	case "submit", "ss", "s":
		c.add(RemoteWrite, Pushes.By("gt", v, ""))
		c.add(ForceRemote, PushesForce.By("gt", v, ""))
	case "merge":
		c.add(Merge, Merges.By("gt", "merge", ""))
	case "auth":
		c.add(Secret, StoresCredential.By("gt", "auth", ""))
	case "log", "ls", "ll", "info", "status", "branch-info", "parent", "children", "trunk", "--version", "help", "dash", "":
		c.add(Read, OnlyReads.By("gt", v, ""))
	case "sync", "get":
		c.add(LocalWrite, ChangesRepository.By("gt", v+" pulls", ""))
		c.cwdWrite()
	default:
		c.add(LocalWrite, LocalWork.By("gt", v, ""))
		c.cwdWrite()
	}
}

func otherVCSFamily() family {
	return family{names: []string{"fossil", "bzr", "darcs"}, classify: otherVCS}
}

func otherVCS(c *cmd) {
	v := c.verb()
	switch v {
	case "push", "send", "sync", "commit", "ci", "autosync":
		if c.name == "fossil" && v == "commit" && !c.has("--no-autosync") || v != "commit" && v != "ci" || c.name == "darcs" && v == "send" {
			c.add(RemoteWrite, ChangesServer.By(c.name, v, ""))
			return
		}
		c.add(LocalWrite, LocalWork.By(c.name, v, ""))
	case "status", "log", "diff", "info", "timeline", "whatsnew", "changes", "help", "version", "":
		c.add(Read, OnlyReads.By(c.name, v, ""))
	case "revert", "obliterate", "unrecord", "clean", "purge", "scrub":
		c.add(Destructive, DiscardsWork.By(c.name, v, ""))
	default:
		c.add(LocalWrite, LocalWork.By(c.name, v, ""))
		c.cwdWrite()
	}
}

func glabFamily() family {
	return family{names: []string{"glab"}, classify: glab}
}

// glab is GitLab's CLI, read as gh where its commands are gh's; the
// commands of its own, as glab mr --help and glab issue --help list them,
// are read here.
func glab(c *cmd) {
	ws := c.words(2)
	if !c.literalWords(1) {
		return // opaque (words)
	}
	if (ws[0] == "mr" || ws[0] == "issue" || ws[0] == "ci" || ws[0] == "pipeline") && !c.literalWords(2) {
		c.add(Opaque, UnknownVerb.By("glab", c.written(2), ""))
		return
	}
	switch ws[0] {
	case "mr", "issue":
		switch ws[1] {
		case "note", "approve", "revoke", "rebase", "subscribe", "unsubscribe", "todo", "update", "for":
			c.add(RemoteWrite, ChangesServer.By("glab "+ws[0], ws[1], ""))
			return
		case "delete":
			c.add(Destructive, Destroys.By("glab", ws[0]+" delete", ""))
			return
		case "approvers", "issues", "board":
			c.add(Read, OnlyReads.By("glab "+ws[0], ws[1], ""))
			return
		}
		if ws[0] == "mr" {
			c.args = append([]shell.Word{{Raw: "pr", Value: "pr", Literal: true}}, c.args[1:]...)
		}
		gh(c)
	case "ci", "pipeline":
		switch ws[1] {
		case "run", "retry", "trigger", "cancel", "run-trig":
			c.add(RemoteWrite, ChangesServer.By("glab", ws[0]+" "+ws[1], ""))
		case "delete":
			c.add(Destructive, Destroys.By("glab", ws[0]+" delete", ""))
		case "artifact":
			c.add(LocalWrite, LocalWork.By("glab", ws[0]+" artifact", ""))
		case "view", "list", "status", "get", "trace", "lint", "config", "":
			c.add(Read, OnlyReads.By("glab", ws[0]+" "+ws[1], ""))
		default:
			c.add(Opaque, UnknownVerb.By("glab "+ws[0], ws[1], ""))
		}
	default:
		gh(c)
	}
}

func goreleaserFamily() family {
	return family{names: []string{"goreleaser"}, classify: goreleaser}
}

func goreleaser(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "release", "":
		if c.has("--snapshot", "--skip=publish", "--skip-publish") {
			c.add(LocalWrite, RunsProject.By("goreleaser", "release --snapshot", ""))
			return
		}
		c.add(Publish, Publishes.By("goreleaser", "release", ""))
	case "check", "healthcheck", "--version", "jsonschema":
		c.add(Read, OnlyReads.By("goreleaser", v, ""))
	default:
		c.add(LocalWrite, LocalWork.By("goreleaser", v, ""))
	}
}

func publishVerbFamily() family {
	return family{names: []string{"vsce", "ovsx"}, classify: publishVerb}
}

func publishVerb(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "publish", "unpublish":
		c.add(Publish, Publishes.By(c.name, v, ""))
	case "login", "create-publisher":
		c.add(Secret, TouchesCredential.By(c.name, v, ""))
	default:
		c.add(LocalWrite, LocalWork.By(c.name, v, ""))
	}
}

// inertGhConfig are gh's settings that name no program and send nothing
// elsewhere: gh config set of any other (editor, pager, browser,
// http_unix_socket) plants what the person's next gh command runs.
var inertGhConfig = map[string]bool{
	"git_protocol": true, "prompt": true, "prefer_editor_prompt": true, "spinner": true,
	"color_labels": true, "accessible_colors": true, "accessible_prompter": true,
}

// ghExtension: gh extension install fetches a repository's program, and
// gh runs it.
func ghExtension(c *cmd) bool {
	ws := c.words(3)
	if (ws[0] == "extension" || ws[0] == "extensions" || ws[0] == "ext") && (ws[1] == "install" || ws[1] == "upgrade" || ws[1] == "exec") && ws[2] != "." {
		c.add(DownloadExec, FetchesCodeThatRuns.By("gh extension", ws[1], ws[2]))
		return true
	}
	return false
}
