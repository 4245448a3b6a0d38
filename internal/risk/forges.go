// Forges and version control systems other than git: gh, glab, hub, jj, hg, svn, tea, graphite.

package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// ghFamily: gh, its extensions (which run code of their own) read before
// the rest.
func ghFamily() family {
	return family{names: []string{"gh"}, before: ghExtension, classify: gh}
}

// hub wraps git: its own commands are GitHub's, every other one is git's.
func hub(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "pr", "issue", "release", "api":
		gh(c)
	case "pull-request", "create", "fork", "gist":
		c.add(RemoteWrite, Words("hub "+v+" changes GitHub"))
	case "delete":
		c.add(Destructive, Words("hub delete deletes a repository on GitHub"))
	case "browse", "compare", "ci-status":
		c.add(Read, Words("hub "+v+" reads"))
	case "sync":
		c.add(LocalWrite, Words("hub sync updates local branches"))
	default:
		git(c)
	}
}

func gh(c *cmd) {
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
			c.add(Merge, Words("gh pr merge merges into the base branch"))
		case "create", "comment", "edit", "review", "ready", "close", "reopen", "lock", "unlock", "update-branch":
			c.add(RemoteWrite, Words("gh pr "+verb+" changes the pull request on GitHub"))
		case "checkout":
			c.add(LocalWrite, Words("gh pr checkout switches the local branch"))
		default:
			c.add(Read, Words("gh pr "+verb+" reads"))
		}
	case "issue":
		switch verb {
		case "delete":
			c.add(Destructive, Words("gh issue delete"))
		case "create", "comment", "edit", "close", "reopen", "transfer", "pin", "unpin", "lock", "unlock", "develop":
			c.add(RemoteWrite, Words("gh issue "+verb+" writes to GitHub"))
		default:
			c.add(Read, Words("gh issue "+verb+" reads"))
		}
	case "release":
		switch verb {
		case "create", "upload":
			c.add(Publish, Words("gh release "+verb+" publishes a release"))
			c.worksOn(3, "--notes", "--notes-file", "-F", "--target", "--discussion-category", "--notes-start-tag") // the files it attaches
		case "delete", "delete-asset":
			c.add(Destructive, Words("gh release "+verb+" deletes a published release"))
		case "edit":
			c.add(RemoteWrite, Words("gh release edit"))
		case "download":
			c.add(LocalWrite, Words("gh release download"))
		default:
			c.add(Read, Words("gh release "+verb))
		}
	case "repo":
		switch verb {
		case "delete", "archive":
			c.add(Destructive, Words("gh repo "+verb))
		case "create", "fork", "edit", "rename", "sync", "set-default", "deploy-key", "autolink":
			if verb == "sync" && c.has("--force") {
				c.add(ForceRemote, Words("gh repo sync --force hard-resets the destination branch"))
			}
			if verb == "set-default" {
				c.add(LocalWrite, Words("gh repo set-default"))
			} else {
				c.add(RemoteWrite, Words("gh repo "+verb+" changes a repository on GitHub"))
			}
		case "clone":
			c.add(LocalWrite, Words("gh repo clone"))
			if ops := c.operands(); len(ops) > 2 {
				c.clonesTo(ops[2:])
			}
		default:
			c.add(Read, Words("gh repo "+verb))
		}
	case "workflow":
		switch verb {
		case "run":
			c.add(RemoteWrite, Words("gh workflow run starts a workflow"))
			if name := strings.ToLower(w[2]); strings.Contains(name, "deploy") || strings.Contains(name, "release") || strings.Contains(name, "publish") {
				c.add(Deploy, Words("gh workflow run starts "+w[2]))
			}
		case "enable", "disable":
			c.add(RemoteWrite, Words("gh workflow "+verb))
		default:
			c.add(Read, Words("gh workflow "+verb))
		}
	case "run":
		switch verb {
		case "rerun", "cancel":
			c.add(RemoteWrite, Words("gh run "+verb))
		case "delete":
			c.add(Destructive, Words("gh run delete"))
		case "download":
			c.add(LocalWrite, Words("gh run download"))
		default:
			c.add(Read, Words("gh run "+verb))
		}
	case "secret", "variable":
		switch verb {
		case "set":
			c.add(RemoteWrite, Words("gh "+group+" set stores a value on GitHub"))
		case "delete", "remove":
			c.add(Destructive, Words("gh "+group+" delete"))
		default:
			c.add(Read, Words("gh "+group+" "+verb+" lists names only"))
		}
	case "gist":
		switch verb {
		case "create", "edit":
			c.add(Exfil, Words("gh gist "+verb+" uploads files to GitHub"))
			c.readOperandsAfter(2)
		case "delete":
			c.add(Destructive, Words("gh gist delete"))
		case "clone":
			c.add(LocalWrite, Words("gh gist clone"))
			if ops := c.operands(); len(ops) > 2 {
				c.clonesTo(ops[2:])
			}
		default:
			c.add(Read, Words("gh gist "+verb))
		}
	case "auth":
		switch verb {
		case "token":
			c.add(Secret, Words(c.name+" auth token prints the token"))
		case "status":
			if c.has("--show-token", "-t") {
				c.add(Secret, Words(c.name+" auth status --show-token prints the token"))
			}
			c.add(Read, Words(c.name+" auth status"))
		default:
			c.add(Secret, Words("gh auth "+verb+" changes the stored login"))
		}
	case "api":
		ghAPI(c)
	case "label", "milestone", "project", "ruleset", "cache", "codespace", "extension", "alias", "config", "ssh-key", "gpg-key":
		switch verb {
		case "list", "view", "ls", "status", "get", "":
			c.add(Read, Words("gh "+group+" "+verb))
		case "delete", "remove", "rm":
			c.add(Destructive, Words("gh "+group+" "+verb))
		default:
			if group == "extension" || group == "alias" || group == "config" {
				c.add(LocalWrite, Words("gh "+group+" "+verb))
				ops := c.operands()
				switch {
				case group == "alias":
					c.add(InstructionPatch, Words("gh alias "+verb+" defines what a later gh command runs"))
				case group == "config" && (len(ops) < 3 || !inertGhConfig[ops[2].Value]):
					c.add(InstructionPatch, Words("gh config "+verb+" of a setting that may name a program gh runs later (editor, pager, browser)"))
				}
			} else {
				c.add(RemoteWrite, Words("gh "+group+" "+verb))
			}
		}
	case "status", "search", "browse", "org", "attestation", "preview", "completion", "help", "version", "--version", "--help", "-h", "accessibility", "licenses", "":
		c.add(Read, Words("gh "+group+" reads"))
	default:
		// An alias (a shell one too) or an extension: the person's
		// configuration or a program of the home, not gh's own.
		c.add(Opaque, Words("gh "+group+" is not a gh command sayso knows (an alias or an extension)"))
	}
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
	method := ""
	fields := false
	for i, w := range c.args {
		v := w.Value
		switch {
		case (v == "-X" || v == "--method") && i+1 < len(c.args):
			method = strings.ToUpper(c.args[i+1].Value)
		case strings.HasPrefix(v, "--method="):
			method = strings.ToUpper(v[9:])
		case strings.HasPrefix(v, "-X") && len(v) > 2:
			method = strings.ToUpper(v[2:])
		case v == "-f" || v == "-F" || v == "--field" || v == "--raw-field" || v == "--input":
			fields = true
		}
	}
	if method == "" && fields {
		method = "POST"
	}
	switch method {
	case "", "GET", "HEAD":
		c.add(Read, Words("gh api GET reads"))
	case "DELETE":
		c.add(Destructive, Words("gh api DELETE deletes on GitHub"))
	default:
		c.add(RemoteWrite, Words("gh api "+method+" writes to GitHub"))
	}
}

func jj(c *cmd) {
	ws := c.words(3)
	switch ws[0] {
	case "git":
		switch ws[1] {
		case "push":
			if c.has("--deleted", "--all") {
				c.add(ForceRemote, Words("jj git push moves or deletes every bookmark on the remote"))
				return
			}
			c.add(RemoteWrite, Words("jj git push"))
			c.remoteNamed()
		case "fetch", "import", "export", "init", "clone", "colocation":
			c.add(LocalWrite, Words("jj git "+ws[1]))
			c.cwdWrite()
		case "remote":
			switch ws[2] {
			case "add", "set-url", "rename":
				c.add(NewRemote, Words("jj git remote "+ws[2]))
			case "remove":
				c.add(LocalWrite, Words("jj git remote remove"))
			default:
				c.add(Read, Words("jj git remote "+ws[2]))
			}
		default:
			c.add(Read, Words("jj git "+ws[1]))
		}
	case "log", "st", "status", "diff", "show", "evolog", "obslog", "files", "file", "cat", "root", "help", "version", "--version", "config", "interdiff", "operation", "op", "util", "":
		if (ws[0] == "op" || ws[0] == "operation") && ws[1] == "abandon" {
			// jj op abandon drops operations from the log: what they
			// held cannot be restored or undone (jj op abandon --help).
			c.add(Destructive, Words("jj op abandon drops operations, and the undo they allow, for good"))
			return
		}
		if ws[0] == "util" && ws[1] == "gc" {
			c.add(Destructive, Words("jj util gc drops commits and operations nothing refers to, as git gc --prune=now does"))
			return
		}
		if (ws[0] == "op" || ws[0] == "operation") && (ws[1] == "restore" || ws[1] == "revert" || ws[1] == "undo") {
			c.add(LocalWrite, Words("jj op "+ws[1]))
			return
		}
		if ws[0] == "config" && (ws[1] == "set" || ws[1] == "edit" || ws[1] == "unset") {
			c.add(LocalWrite, Words("jj config "+ws[1]))
			return
		}
		if ws[0] == "file" && ws[1] != "list" && ws[1] != "show" && ws[1] != "annotate" {
			c.add(LocalWrite, Words("jj file "+ws[1]))
			return
		}
		c.add(Read, Words("jj "+ws[0]))
	case "abandon":
		// jj abandon drops commits and rebases their descendants, as
		// git branch -D and hg strip drop theirs.
		c.add(Destructive, Words("jj abandon drops commits"))
	default:
		c.add(LocalWrite, Words("jj "+ws[0]+" changes the local repository"))
		c.cwdWrite()
	}
}

// remoteNamed: a push to a URL rather than a named remote is a new remote.
func (c *cmd) remoteNamed() {
	for _, w := range c.args {
		if strings.Contains(w.Value, "://") || strings.HasPrefix(w.Value, "--remote=") && strings.Contains(w.Value, ":") {
			c.add(NewRemote, Words(c.name+" pushes to a URL: "+w.Raw))
		}
	}
}

func hg(c *cmd) {
	v := c.verb()
	switch v {
	case "push", "outgoing-push":
		if c.has("-f", "--force") {
			c.add(ForceRemote, Words("hg push --force"))
			return
		}
		c.add(RemoteWrite, Words("hg push"))
		c.remoteNamed()
	case "status", "st", "log", "diff", "show", "summary", "sum", "heads", "branches", "branch", "bookmarks", "paths", "id", "identify",
		"annotate", "blame", "cat", "files", "locate", "grep", "help", "version", "--version", "incoming", "in", "outgoing", "out", "tip", "parents", "root", "config", "showconfig", "":
		if v == "config" && c.has("-e", "--edit") {
			c.add(LocalWrite, Words("hg config --edit"))
			return
		}
		c.add(Read, Words("hg "+v))
	case "purge", "clean", "strip", "debugstrip", "prune", "obsolete", "rollback":
		c.add(Destructive, Words("hg "+v+" discards work"))
	case "histedit":
		// hg histedit drops and folds changesets, stripping them as hg
		// strip does (hg help histedit); --abort, --continue and
		// --edit-plan only steer one under way.
		if c.has("--abort", "--continue", "--edit-plan", "--outgoing", "-o") {
			c.add(LocalWrite, Words("hg histedit "+c.args[len(c.args)-1].Value))
			return
		}
		c.add(Destructive, Words("hg histedit rewrites history, stripping what it drops"))
	case "update", "up", "checkout", "co", "revert":
		if c.has("-C", "--clean", "--all") || v == "revert" && c.has("-a", "--all") {
			c.add(Destructive, Words("hg "+v+" discards changes"))
			return
		}
		c.add(LocalWrite, Words("hg "+v))
		c.cwdWrite()
	case "serve":
		c.add(Network, Words("hg serve serves the repository"))
	default:
		c.add(LocalWrite, Words("hg "+v))
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
		c.add(RemoteWrite, Words("svn "+v+" writes to the repository"))
	case "copy", "cp", "mkdir", "move", "mv", "rename", "ren", "propset", "ps", "propdel", "pd", "propedit", "pe":
		if urls || c.has("--revprop") {
			c.add(RemoteWrite, Words("svn "+v+" on the repository"))
			return
		}
		c.add(LocalWrite, Words("svn "+v))
	case "delete", "del", "remove", "rm":
		if urls {
			c.add(Destructive, Words("svn "+v+" deletes from the repository"))
			c.add(RemoteWrite, Words("svn "+v+" deletes from the repository"))
			return
		}
		c.add(LocalWrite, Words("svn "+v))
	case "revert":
		c.add(Destructive, Words("svn revert discards changes"))
	case "relocate":
		c.add(NewRemote, Words("svn relocate points the working copy at another repository"))
	case "switch", "sw":
		if c.has("--relocate") {
			c.add(NewRemote, Words("svn switch --relocate"))
			return
		}
		c.add(LocalWrite, Words("svn switch"))
	case "status", "st", "log", "diff", "di", "info", "list", "ls", "cat", "blame", "praise", "annotate", "ann", "proplist", "pl",
		"propget", "pg", "help", "--version", "mergeinfo", "":
		c.add(Read, Words("svn "+v))
	default:
		c.add(LocalWrite, Words("svn "+v))
		c.cwdWrite()
	}
}

// tea is Gitea's CLI.
func tea(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[0] == "login" || ws[0] == "logins" || ws[0] == "logout":
		if ws[1] == "list" || ws[1] == "ls" || ws[1] == "" && ws[0] == "logins" {
			c.add(Read, Words("tea logins"))
			return
		}
		c.add(Secret, Words("tea "+ws[0]+" handles a token"))
	case ws[1] == "merge" || ws[0] == "merge":
		c.add(Merge, Words("tea "+ws[0]+" merge"))
	case ws[0] == "release" || ws[0] == "releases" || ws[0] == "r":
		switch ws[1] {
		case "create", "edit":
			c.add(Publish, Words("tea release "+ws[1]))
		case "delete":
			c.add(Destructive, Words("tea release delete"))
		default:
			c.add(Read, Words("tea releases"))
		}
	case ws[1] == "delete" || ws[1] == "rm":
		c.add(Destructive, Words("tea "+ws[0]+" "+ws[1]))
	case ws[0] == "comment" || ws[0] == "c" || ws[1] == "create" || ws[1] == "c" || ws[1] == "edit" || ws[1] == "close" || ws[1] == "reopen" ||
		ws[1] == "approve" || ws[1] == "reject" || ws[1] == "review" || ws[0] == "open" && false:
		c.add(RemoteWrite, Words("tea "+ws[0]+" "+ws[1]))
	case ws[1] == "checkout" || ws[1] == "clean" || ws[0] == "clone":
		c.add(LocalWrite, Words("tea "+ws[0]+" "+ws[1]))
		c.cwdWrite()
	default:
		c.add(Read, Words("tea "+ws[0]+" "+ws[1]))
	}
}

// graphite is Graphite's gt: submit pushes a stack with force-with-lease.
func graphite(c *cmd) {
	v := c.verb()
	switch v {
	case "submit", "ss", "s":
		c.add(RemoteWrite, Words("gt "+v+" pushes the stack and opens pull requests"))
		c.add(ForceRemote, Words("gt "+v+" force-pushes the stack's branches"))
	case "merge":
		c.add(Merge, Words("gt merge merges pull requests"))
	case "auth":
		c.add(Secret, Words("gt auth stores a token"))
	case "log", "ls", "ll", "info", "status", "branch-info", "parent", "children", "trunk", "--version", "help", "dash", "":
		c.add(Read, Words("gt "+v))
	case "sync", "get":
		c.add(LocalWrite, Words("gt "+v+" pulls the trunk and cleans merged branches"))
		c.cwdWrite()
	default:
		c.add(LocalWrite, Words("gt "+v))
		c.cwdWrite()
	}
}

func otherVCS(c *cmd) {
	v := c.verb()
	switch v {
	case "push", "send", "sync", "commit", "ci", "autosync":
		if c.name == "fossil" && v == "commit" && !c.has("--no-autosync") || v != "commit" && v != "ci" || c.name == "darcs" && v == "send" {
			c.add(RemoteWrite, Words(c.name+" "+v+" writes to the remote"))
			return
		}
		c.add(LocalWrite, Words(c.name+" "+v))
	case "status", "log", "diff", "info", "timeline", "whatsnew", "changes", "help", "version", "":
		c.add(Read, Words(c.name+" "+v))
	case "revert", "obliterate", "unrecord", "clean", "purge", "scrub":
		c.add(Destructive, Words(c.name+" "+v+" discards work"))
	default:
		c.add(LocalWrite, Words(c.name+" "+v))
		c.cwdWrite()
	}
}

func glab(c *cmd) {
	ws := c.words(2)
	switch ws[0] {
	case "mr":
		c.args = append([]shell.Word{{Raw: "pr", Value: "pr", Literal: true}}, c.args[1:]...)
		if ws[1] == "note" {
			c.add(RemoteWrite, Words("glab mr note comments on the merge request"))
			return
		}
		gh(c)
	case "ci", "pipeline":
		switch ws[1] {
		case "run", "retry", "trigger", "cancel":
			c.add(RemoteWrite, Words("glab "+ws[0]+" "+ws[1]))
		case "delete":
			c.add(Destructive, Words("glab "+ws[0]+" delete"))
		default:
			c.add(Read, Words("glab "+ws[0]+" "+ws[1]))
		}
	default:
		gh(c)
	}
}

func goreleaser(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "release", "":
		if c.has("--snapshot", "--skip=publish", "--skip-publish") {
			c.add(LocalWrite, Words("goreleaser release --snapshot builds without publishing"))
			return
		}
		c.add(Publish, Words("goreleaser release publishes a release"))
	case "check", "healthcheck", "--version", "jsonschema":
		c.add(Read, Words("goreleaser "+v))
	default:
		c.add(LocalWrite, Words("goreleaser "+v))
	}
}

func publishVerb(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "publish", "unpublish":
		c.add(Publish, Words(c.name+" "+v+" publishes to the marketplace"))
	case "login", "create-publisher":
		c.add(Secret, Words(c.name+" "+v))
	default:
		c.add(LocalWrite, Words(c.name+" "+v))
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
		c.add(DownloadExec, Words("gh extension "+ws[1]+" runs a program fetched from "+ws[2]))
		return true
	}
	return false
}
