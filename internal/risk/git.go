package risk

import (
	"path"
	"strconv"
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/shell"
)

// gitFamily is git: the classifier of its global options and subcommands
// (buildGitSubcommands), the settings and options that make it run
// programs, and the files its subcommands write.
func gitFamily() family {
	return family{names: []string{"git"}, traits: program.RunsArgs, classify: git}
}

// protectedBranch reports whether a branch name is one a team protects.
func protectedBranch(b string) bool {
	b = strings.TrimPrefix(b, "refs/heads/")
	switch b {
	case "main", "master", "trunk", "develop", "production", "prod", "stable", "live", "gh-pages":
		return true
	}
	return strings.HasPrefix(b, "release/") || strings.HasPrefix(b, "release-") || strings.HasPrefix(b, "hotfix/")
}

// git understands git as git does: global options, then the subcommand,
// with aliases and program-valued settings from -c and GIT_CONFIG_*.
func git(c *cmd) {
	args := c.args
	config := map[string]string{}
	var gitDirs []shell.Word // --git-dir, GIT_DIR, GIT_COMMON_DIR
	i := 0
	for i < len(args) {
		w := args[i]
		if !w.Literal {
			c.add(Opaque, BuiltAtRunTime.By("git", "option", w.Raw))
			return
		}
		v := w.Value
		if !strings.HasPrefix(v, "-") {
			break
		}
		name, val, hasVal := strings.Cut(v, "=")
		switch name {
		case "-c":
			if i+1 >= len(args) {
				return
			}
			i++
			if !args[i].Literal {
				c.add(Opaque, BuiltAtRunTime.By("git", "-c value", ""))
				return
			}
			k, val, _ := strings.Cut(args[i].Value, "=")
			config[strings.ToLower(k)] = val
		case "-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--list-cmds", "--attr-source":
			if !hasVal {
				if i+1 >= len(args) {
					return
				}
				i++
				val = args[i].Value
				if !args[i].Literal {
					c.add(Opaque, BuiltAtRunTime.By("git", name, ""))
				}
			}
			if name == "--config-env" {
				k, _, _ := strings.Cut(val, "=")
				config[strings.ToLower(k)] = "\x00env"
			}
			if name == "-C" || name == "--git-dir" || name == "--work-tree" {
				dir := shell.Word{Raw: val, Value: val, Literal: args[i].Literal || hasVal, Tilde: strings.HasPrefix(val, "~")}
				c.foreignRepo(name, dir)
				if name != "-C" {
					c.a.actsInWord(c.i, dir)
				}
				if name == "--git-dir" {
					gitDirs = append(gitDirs, dir)
				}
				if name == "-C" {
					saved := c.a.cwds
					if c.a.cwds = c.a.resolve(dir); c.a.cwds == nil {
						c.a.cwds = []string{""}
					}
					defer func() { c.a.cwds = saved }()
				}
			}
		case "--exec-path":
			if hasVal {
				c.add(Opaque, RunsUnread.By("git", "--exec-path", val))
			}
		}
		i++
	}
	for _, name := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR"} {
		if v, ok := c.a.env[name]; ok {
			dir := shell.Word{Raw: v, Value: v, Literal: !strings.HasPrefix(v, "\x00"), Tilde: strings.HasPrefix(v, "~")}
			c.foreignRepo(name, dir)
			c.a.actsInWord(c.i, dir)
			if name != "GIT_WORK_TREE" {
				gitDirs = append(gitDirs, dir)
			}
		}
	}
	// GIT_CONFIG_COUNT/KEY_n/VALUE_n in the step's environment.
	if n, err := strconv.Atoi(c.a.env["GIT_CONFIG_COUNT"]); err == nil {
		for k := 0; k < n && k < 100; k++ {
			key := c.a.env["GIT_CONFIG_KEY_"+strconv.Itoa(k)]
			config[strings.ToLower(key)] = c.a.env["GIT_CONFIG_VALUE_"+strconv.Itoa(k)]
		}
	}
	if v, ok := c.a.env["GIT_CONFIG_PARAMETERS"]; ok {
		config["\x00parameters"] = v
	}
	for k, v := range config {
		if why := gitConfigRuns(k); why != "" && !harmlessGitConfig(k, v) {
			c.add(Opaque, RunsSettingProgram.By("git", "", k))
		}
		if strings.HasPrefix(k, "alias.") && strings.HasPrefix(v, "!") {
			c.add(Opaque, RunsAlias.By("git", "", k))
		}
	}
	c.repos(gitDirs)
	if i >= len(args) {
		c.add(Read, PrintsHelp.By("git", "", ""))
		return
	}
	sub := args[i]
	rest := args[i+1:]
	if sub.Quoted || sub.Escaped {
		c.add(Opaque, HidesVerb.By("git", "", sub.Raw))
	}
	name := sub.Value
	if a, ok := config["alias."+strings.ToLower(name)]; ok {
		c.add(Opaque, RunsAlias.By("git subcommand", name, ""))
		if strings.HasPrefix(a, "!") {
			return
		}
		fields := strings.Fields(a)
		if len(fields) == 0 {
			return
		}
		name = fields[0]
		extra := make([]shell.Word, 0, len(fields)-1+len(rest))
		for _, f := range fields[1:] {
			extra = append(extra, shell.Word{Raw: f, Value: f, Literal: true})
		}
		rest = append(extra, rest...)
	}
	for _, w := range rest {
		v := w.Value
		switch {
		case strings.HasPrefix(v, "ext::") || strings.HasPrefix(v, "fd::"):
			c.add(Opaque, RunsOptionProgram.By("git", v, ""))
		case v == "--help" || v == "-h":
			c.add(Read, PrintsHelp.By("git", name+" --help", ""))
			return
		case programOption(v) || v == "-u" && (name == "clone" || name == "fetch" || name == "ls-remote" || name == "pull" || name == "archive"):
			c.add(Opaque, RunsOptionProgram.By("git", name+" "+v, ""))
		case (v == "--config" || v == "-c") && name == "clone":
			c.add(Opaque, RunsOptionProgram.By("git", "clone --config", ""))
		}
	}
	g := &cmd{a: c.a, i: c.i, seg: c.seg, name: "git " + name, args: gitLongOptions(name, rest)}
	fn, ok := gitSubcommand(name)
	if !ok {
		if strings.HasPrefix(name, "-") {
			c.add(Read, ExitsOnError.By("git", "", "an unknown option"))
			return
		}
		c.add(Opaque, UnknownVerb.By("git", name, ""))
		return
	}
	if name != "config" && gitWritesConfig(name, g) {
		g.gitConfigWrite()
	}
	fn(g)
}

// gitWritesConfig reports a git command that may write the repository's
// configuration with git's own keys: a branch's upstream, a rename's
// section, a remote, a submodule's entry. It may say so of a command that
// in the end writes none.
func gitWritesConfig(name string, g *cmd) bool {
	switch name {
	case "branch", "checkout", "switch", "submodule":
		return true
	case "push", "pull", "fetch":
		return g.has("-u", "--set-upstream")
	case "remote":
		switch g.words(1)[0] {
		case "add", "rename", "rm", "remove", "set-url", "set-branches", "set-head":
			return true
		}
	}
	return false
}

// gitConfigWrite records that git, not the step's own code, writes the
// configuration of the repository it finds from the folders it runs in.
func (c *cmd) gitConfigWrite() {
	for _, d := range c.a.cwds {
		c.a.out.GitConfig = append(c.a.out.GitConfig, PathUse{Op: OpWrite, Path: d, Raw: ".", Segment: c.i})
	}
}

// gitLongs are the long options of the git commands whose classifiers
// read long options by their full names; git accepts any unambiguous
// prefix of them (gitcli(7)), so git reset --har is git reset --hard.
var gitLongs = map[string]optSpec{
	"reset":    {abbrev: true, long: []string{"hard", "soft", "mixed", "merge", "keep", "quiet", "patch", "recurse-submodules", "no-refresh", "refresh", "pathspec-from-file=", "pathspec-file-nul", "intent-to-add"}},
	"clean":    {abbrev: true, long: []string{"force", "dry-run", "quiet", "exclude=", "interactive"}},
	"checkout": {abbrev: true, long: []string{"force", "ours", "theirs", "merge", "detach", "track", "orphan=", "overwrite-ignore", "ignore-other-worktrees", "patch", "quiet", "progress", "conflict=", "ignore-skip-worktree-bits", "overlay", "pathspec-from-file=", "pathspec-file-nul", "guess", "recurse-submodules"}},
	"switch":   {abbrev: true, long: []string{"create=", "force-create=", "detach", "guess", "force", "discard-changes", "merge", "conflict=", "quiet", "progress", "track", "orphan=", "ignore-other-worktrees", "recurse-submodules"}},
	"restore":  {abbrev: true, long: []string{"source=", "patch", "worktree", "staged", "quiet", "progress", "ours", "theirs", "merge", "conflict=", "ignore-unmerged", "ignore-skip-worktree-bits", "recurse-submodules", "overlay", "pathspec-from-file=", "pathspec-file-nul"}},
	"tag":      {abbrev: true, long: []string{"annotate", "sign", "local-user=", "force", "delete", "verify", "list", "sort=", "contains", "no-contains", "merged", "no-merged", "points-at=", "message=", "file=", "cleanup=", "create-reflog", "column", "format=", "ignore-case", "color"}},
	"stash":    {abbrev: true, long: []string{"patch", "staged", "keep-index", "include-untracked", "all", "quiet", "message=", "pathspec-from-file=", "index"}},
	"gc":       {abbrev: true, long: []string{"aggressive", "auto", "prune", "quiet", "force", "keep-largest-pack", "cruft"}},
	"worktree": {abbrev: true, long: []string{"force", "detach", "checkout", "lock", "reason=", "orphan", "quiet", "track", "guess-remote", "expire="}},
	"fetch":    {abbrev: true, long: []string{"all", "append", "atomic", "depth=", "deepen=", "shallow-since=", "shallow-exclude=", "unshallow", "update-shallow", "dry-run", "force", "keep", "multiple", "prune", "prune-tags", "tags", "no-tags", "refmap=", "recurse-submodules", "jobs=", "set-upstream", "upload-pack=", "quiet", "verbose", "progress", "server-option=", "ipv4", "ipv6", "update-head-ok", "write-fetch-head"}},
	"pull":     {abbrev: true, long: []string{"rebase", "ff", "ff-only", "squash", "commit", "edit", "strategy=", "strategy-option=", "verify", "autostash", "all", "force", "prune", "upload-pack=", "depth=", "quiet", "verbose", "progress", "tags", "no-tags", "recurse-submodules", "set-upstream"}},
	"commit":   {abbrev: true, long: []string{"all", "patch", "reuse-message=", "reedit-message=", "fixup=", "squash=", "reset-author", "short", "branch", "porcelain", "long", "null", "file=", "author=", "date=", "message=", "template=", "signoff", "no-verify", "verify", "allow-empty", "allow-empty-message", "cleanup=", "edit", "amend", "no-post-rewrite", "include", "only", "pathspec-from-file=", "untracked-files", "verbose", "quiet", "dry-run", "status", "gpg-sign"}},
	"push":     pushSpec,
	"rebase":   rebaseSpec,
	"branch":   branchSpec,
}

// gitLongOptions rewrites the abbreviated long options of a git command
// to their full names, so that its classifier reads them as git does.
func gitLongOptions(name string, args []shell.Word) []shell.Word {
	if spec, ok := gitLongs[name]; ok {
		return canonLongs(spec, args)
	}
	return args
}

// programOption reports whether a long option of a git command names a
// program git runs, written in full or as the unambiguous prefix git
// accepts (gitcli(7)): --upload-pa= is --upload-pack=. --exec counts
// only with its value attached; rebase and push read it apart.
func programOption(v string) bool {
	name, _, hasVal := strings.Cut(strings.TrimPrefix(v, "--"), "=")
	if !strings.HasPrefix(v, "--") || len(name) < 2 {
		return false
	}
	canon, _ := programSpec.longName(name)
	switch canon {
	case "upload-pack", "receive-pack", "template":
		return true
	case "exec":
		return hasVal
	}
	return false
}

var programSpec = optSpec{abbrev: true, long: []string{"upload-pack", "receive-pack", "exec", "template"}}

// foreignRepo: git run on a repository outside the project reads that
// repository's configuration, which can name programs git runs (a
// core.fsmonitor planted in /tmp/x/.git/config runs on git status).
func (c *cmd) foreignRepo(opt string, w shell.Word) {
	ps := c.a.resolve(w)
	if ps == nil {
		c.add(Opaque, BuiltAtRunTime.By("git", opt, ""))
		return
	}
	for _, p := range ps {
		if !c.a.ctx.InScope(p) {
			c.add(Opaque, OtherRepository.By("git", opt+" "+w.Raw, ""))
			return
		}
	}
}

// repos records where this git segment finds its repository: the git
// folders it names, else the folders it runs in.
func (c *cmd) repos(gitDirs []shell.Word) {
	add := func(p, raw string) {
		c.a.out.Repos = append(c.a.out.Repos, PathUse{Op: OpRead, Path: p, Raw: raw, Segment: c.i})
	}
	if len(gitDirs) > 0 {
		for _, w := range gitDirs {
			for _, p := range c.a.resolve(w) {
				add(p, w.Raw)
			}
		}
		return
	}
	for _, d := range c.a.cwds {
		if d != "" {
			add(d, ".")
		}
	}
}

const runsProgram = "makes git run a program"

// gitConfigRuns says how a configuration key makes git run a program or
// change where it sends things, or "" when it does neither.
func gitConfigRuns(k string) string {
	switch {
	case k == "core.pager" || k == "core.sshcommand" || k == "core.fsmonitor" || k == "core.hookspath" ||
		k == "core.editor" || k == "core.askpass" || k == "core.gitproxy" || k == "diff.external" ||
		k == "sequence.editor" || k == "gpg.program" || k == "credential.helper" || k == "uploadpack.packobjectshook" ||
		k == "include.path" || strings.HasPrefix(k, "includeif.") || strings.HasPrefix(k, "pager.") ||
		strings.HasPrefix(k, "filter.") || strings.HasPrefix(k, "merge.") && strings.HasSuffix(k, ".driver") ||
		strings.HasPrefix(k, "diff.") && (strings.HasSuffix(k, ".textconv") || strings.HasSuffix(k, ".command")) ||
		strings.HasPrefix(k, "gpg.") && strings.HasSuffix(k, ".program") || strings.HasPrefix(k, "credential.") && strings.HasSuffix(k, ".helper") ||
		strings.HasPrefix(k, "remote.") && (strings.HasSuffix(k, ".receivepack") || strings.HasSuffix(k, ".uploadpack") || strings.HasSuffix(k, ".proxy")) ||
		strings.HasPrefix(k, "difftool.") || strings.HasPrefix(k, "mergetool.") || k == "web.browser" || strings.HasPrefix(k, "browser.") ||
		k == "core.worktree" || k == "protocol.ext.allow" || k == "protocol.allow" || k == "\x00parameters" ||
		strings.HasPrefix(k, "trailer.") && (strings.HasSuffix(k, ".cmd") || strings.HasSuffix(k, ".command")) ||
		k == "init.templatedir" || k == "gpg.ssh.program" || k == "gpg.ssh.defaultkeycommand" ||
		k == "sendemail.tocmd" || k == "sendemail.cccmd" || k == "sendemail.smtpserver" || k == "sendemail.sendmailcmd" ||
		k == "core.alternaterefscommand" || k == "interactive.difffilter" || k == "imap.tunnel" ||
		strings.HasPrefix(k, "submodule.") && strings.HasSuffix(k, ".update") ||
		strings.HasPrefix(k, "man.") && (strings.HasSuffix(k, ".cmd") || strings.HasSuffix(k, ".path")) ||
		strings.HasPrefix(k, "tar.") && strings.HasSuffix(k, ".command") || strings.HasPrefix(k, "hook.") ||
		strings.HasPrefix(k, "guitool.") || strings.HasPrefix(k, "lfs.customtransfer.") || k == "lfs.standalonetransferagent" ||
		strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".vcs"):
		return runsProgram
	case strings.HasPrefix(k, "url.") || strings.HasPrefix(k, "remote.") && (strings.HasSuffix(k, ".url") || strings.HasSuffix(k, ".pushurl")) ||
		k == "remote.pushdefault" || strings.HasPrefix(k, "branch.") && (strings.HasSuffix(k, ".pushremote") || strings.HasSuffix(k, ".remote")):
		return "changes where git sends and fetches"
	}
	return ""
}

// buildGitSubcommands makes the table of git's subcommands and their
// classifiers.
func buildGitSubcommands() map[string]func(*cmd) {
	read := func(c *cmd) { c.add(Read, OnlyReads.By(c.name, "", "")) }
	lw := func(c *cmd) { c.add(LocalWrite, ChangesRepository.By(c.name, "", "")); c.cwdWrite() }
	return map[string]func(*cmd){
		"push": gitPush, "remote": gitRemote, "config": gitConfig, "reset": gitReset, "clean": gitClean,
		"checkout": gitCheckout, "switch": gitSwitch, "restore": gitRestore, "stash": gitStashWrites,
		"branch": gitBranch, "tag": gitTag, "worktree": gitWorktree, "reflog": gitReflog,
		"rebase": gitRebase, "submodule": gitSubmodule, "filter-branch": gitFilterBranch, "filter-repo": gitFilterBranch,
		"difftool": gitDifftool, "mergetool": gitDifftool, "send-email": gitSendEmail, "credential": gitCredential,
		"credential-store": gitCredential, "credential-cache": gitCredential, "lfs": gitLFS, "archive": gitArchive,
		"update-ref": gitUpdateRef, "rm": gitRm, "gc": gitGC, "prune": gitPrune, "bisect": gitBisect, "notes": lw, "commit": gitCommit,
		"merge": gitMerge, "pull": lw, "fetch": lw, "clone": gitCloneUnpacks, "init": gitInit, "add": lw, "mv": gitMv,
		"cherry-pick": lw, "revert": lw, "am": gitAm, "apply": gitApply, "format-patch": gitFormatPatch, "sparse-checkout": lw,
		"maintenance": lw, "commit-graph": lw, "repack": gitRepack, "pack-refs": lw, "replace": lw, "update-index": gitUpdateIndex,
		"read-tree": gitReadTree, "write-tree": read, "commit-tree": lw, "hash-object": lw, "mktag": lw, "mktree": lw,
		"fast-import": lw, "bundle": gitBundle, "rerere": lw, "checkout-index": gitCheckoutIndex, "merge-file": lw, "unpack-objects": lw,
		"status": read, "log": gitDiffOutput, "show": gitDiffOutput, "diff": gitDiffOutput, "blame": read, "annotate": read, "rev-parse": read,
		"rev-list": read, "ls-files": read, "ls-tree": read, "ls-remote": read, "cat-file": read, "describe": read,
		"shortlog": read, "grep": gitGrep, "whatchanged": gitDiffOutput, "name-rev": read, "merge-base": read, "for-each-ref": read,
		"show-ref": read, "symbolic-ref": gitSymbolicRef, "count-objects": read, "fsck": read, "version": read,
		"help": read, "check-ignore": read, "check-attr": read, "check-mailmap": read, "var": read, "cherry": read,
		"range-diff": gitDiffOutput, "diff-tree": gitDiffOutput, "diff-index": gitDiffOutput, "diff-files": gitDiffOutput, "verify-commit": read,
		"verify-tag": read, "show-branch": read, "request-pull": read, "instaweb": lw, "daemon": lw,
		"fast-export": read, "get-tar-commit-id": read, "interpret-trailers": read, "stripspace": read,
		"column": read, "check-ref-format": read, "patch-id": read, "verify-pack": read, "show-index": read,
		"citool": lw, "gui": lw, "gitk": read, "svn": gitSVN, "p4": gitSVN, "subtree": gitSubtree,
	}
}

// gitCloneUnpacks classifies git clone: what the clone holds is
// downloaded code, and a runner or a script of it run later in the step
// runs that code.
func gitCloneUnpacks(c *cmd) {
	gitClone(c)
	c.a.unpacked = true
}

func gitCommit(c *cmd) {
	c.add(LocalWrite, ChangesRepository.By("git", "commit", ""))
	c.cwdWrite()
	for _, w := range c.args {
		if w.Value == "--amend" {
			c.add(LocalWrite, ChangesRepository.By("git", "commit --amend", ""))
		}
	}
}

func gitMerge(c *cmd) {
	if b := c.a.branch; b != "" && protectedBranch(b) && !c.has("--abort", "--quit", "--continue") {
		c.add(Merge, MergesProtected.By("git", "merge", b))
	}
	c.add(LocalWrite, ChangesRepository.By("git", "merge", ""))
	c.cwdWrite()
}

func gitSubtree(c *cmd) {
	if ops := c.operands(); len(ops) > 0 && ops[0].Value == "push" {
		c.add(RemoteWrite, Pushes.By("git", "subtree push", ""))
		return
	}
	c.add(LocalWrite, LocalWork.By("git", "subtree", ""))
}

// switchesTo remembers the branch a checkout or switch moves to, so that a
// later merge in the same step knows where it lands.
func (c *cmd) switchesTo(ops []shell.Word) {
	if len(ops) == 1 && ops[0].Literal {
		c.a.branch = ops[0].Value
	}
}

// gitPush classifies a push by its options, its repository and each refspec.
// pushSpec is how git push reads its options (git-push(1), gitcli(7)).
var pushSpec = optSpec{short: "o", abbrev: true, same: map[string]string{"-f": "force", "-d": "delete", "-n": "dry-run", "-u": "set-upstream", "-q": "quiet", "-v": "verbose"}, long: []string{
	"all", "branches", "mirror", "tags", "follow-tags", "atomic", "dry-run", "porcelain", "delete", "prune",
	"force", "force-with-lease", "force-if-includes", "repo=", "receive-pack=", "exec=", "push-option=",
	"recurse-submodules", "signed", "set-upstream", "thin", "quiet", "verbose", "progress", "verify",
	"ipv4", "ipv6",
}}

func gitPush(c *cmd) {
	force, del, dry := false, false, false
	o, pos := readOpts(c.args, pushSpec)
	for _, x := range o {
		switch x.name {
		case "":
			c.add(Opaque, BuiltAtRunTime.By("git", "push option", ""))
		case "--force", "--force-with-lease", "--force-if-includes", "-f":
			force = true
		case "--mirror", "--prune":
			force = true
			c.add(ForceRemote, PushesDelete.By("git push", x.name, ""))
		case "--delete", "-d":
			del = true
		case "--dry-run", "-n":
			dry = true
		case "--receive-pack", "--exec":
			c.add(Opaque, RunsOptionProgram.By("git push", x.name, ""))
		case "--repo":
			if x.val != nil {
				pos = append([]shell.Word{*x.val}, pos...)
			}
		}
	}
	if dry {
		c.add(Read, DryRun.By("git", "push --dry-run", ""))
		return
	}
	if force {
		c.add(ForceRemote, PushesForce.By("git", "push --force", ""))
	}
	if del {
		c.add(ForceRemote, PushesDelete.By("git", "push --delete", ""))
	}
	if len(pos) == 0 {
		c.add(RemoteWrite, Pushes.By("git", "push", ""))
		return
	}
	repo := pos[0]
	switch {
	case !repo.Literal:
		c.add(RemoteWrite, Pushes.By("git", "push", ""))
		c.add(Opaque, BuiltAtRunTime.By("git", "push", repo.Raw))
	case isURL(repo.Value):
		c.add(NewRemote, PushesToURL.By("git", "push", repo.Raw))
	}
	refs := pos[1:]
	if len(refs) == 0 {
		c.add(RemoteWrite, Pushes.By("git", "push", repo.Raw))
	}
	for _, r := range refs {
		if !r.Literal {
			c.add(RemoteWrite, Pushes.By("git", "push", ""))
			c.add(Opaque, BuiltAtRunTime.By("git", "push", r.Raw))
			continue
		}
		v := r.Value
		switch {
		case v == "--all" || v == "--tags":
			c.add(RemoteWrite, Pushes.By("git push", v, ""))
		case strings.HasPrefix(v, "+"):
			c.add(ForceRemote, PushesForce.By("git push", v, ""))
		case v == ":":
			c.add(RemoteWrite, Pushes.By("git", "push", ""))
		case strings.HasPrefix(v, ":"):
			c.add(ForceRemote, PushesDelete.By("git push", v, ""))
		case strings.Contains(v, ":"):
			src, dst, _ := strings.Cut(v, ":")
			if protectedBranch(dst) && src != dst {
				c.add(Merge, PushesProtected.By("git push", v, dst))
			} else {
				c.add(RemoteWrite, Pushes.By("git push", v, ""))
			}
		case protectedBranch(v):
			c.add(RemoteWrite, PushesProtected.By("git", "push", v))
		default:
			c.add(RemoteWrite, Pushes.By("git push", v, ""))
		}
	}
}

// isURL reports whether a push or remote target is a URL or a path rather
// than the name of a configured remote.
func isURL(v string) bool {
	if strings.Contains(v, "://") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, ".") || strings.HasPrefix(v, "~") {
		return true
	}
	at, colon := strings.IndexByte(v, '@'), strings.IndexByte(v, ':')
	return colon > 0 && (at >= 0 && at < colon || strings.Contains(v[:colon], "."))
}

func gitRemote(c *cmd) {
	ops := c.operands()
	if len(ops) == 0 {
		c.add(Read, OnlyReads.By("git", "remote", ""))
		return
	}
	switch ops[0].Value {
	case "add", "set-url":
		c.add(NewRemote, PointsAtNewRemote.By("git remote", ops[0].Value, ""))
	case "show", "get-url":
		c.add(Read, OnlyReads.By("git remote", ops[0].Value, ""))
	case "remove", "rm", "rename", "prune", "set-head", "set-branches", "update":
		c.add(LocalWrite, LocalWork.By("git remote", ops[0].Value, ""))
	default:
		c.add(Read, OnlyReads.By("git remote", ops[0].Value, ""))
	}
}

func gitConfig(c *cmd) {
	// A variable before the key may be the key (core.pager, an alias),
	// the command (set) or an option (--global, --file).
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if a.Value == "--get" || a.Value == "--get-all" || a.Value == "--get-regexp" || a.Value == "get" {
			break // git config --get "$KEY" reads whichever key
		}
		if !a.Literal {
			c.add(Opaque, UnknownVerb.By("git config", a.Raw, ""))
			return
		}
		if a.Value == "--file" || a.Value == "-f" || a.Value == "--blob" || a.Value == "--type" || a.Value == "--default" ||
			a.Value == "--comment" || a.Value == "--value" || a.Value == "--url" {
			i++
			continue
		}
		if !strings.HasPrefix(a.Value, "-") && a.Value != "get" && a.Value != "set" && a.Value != "unset" && a.Value != "list" {
			break // the key: what follows is its value
		}
	}
	vals := c.vals()
	write, edit, file, renames, reads := false, false, false, false, false
	var key string
	var pos []string
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		switch {
		case v == "--get" || v == "--get-all" || v == "--get-regexp" || v == "-l" || v == "--list" || v == "--get-urlmatch":
		case v == "--unset" || v == "--unset-all" || v == "--add" || v == "--replace-all" || v == "--rename-section" || v == "--remove-section" || v == "-e" || v == "--edit":
			write = true
			renames = renames || v == "--rename-section"
			edit = edit || v == "-e" || v == "--edit"
		case v == "--file" || v == "-f" || v == "--blob" || v == "--type" || v == "--default" || v == "--comment" || v == "--value" || v == "--url":
			if v == "--file" || v == "-f" {
				write, file = true, true
				if i+1 < len(c.args) {
					c.path(OpWrite, c.args[i+1])
				}
			}
			i++
		case strings.HasPrefix(v, "-"):
		case (v == "get" || v == "list") && len(pos) == 0 && !write:
			reads = true // git config get|list: the subcommand, not a key
		case v == "set" || v == "unset" || v == "edit" || v == "rename-section" || v == "remove-section":
			if len(pos) == 0 {
				write = true
				edit = edit || v == "edit"
				renames = renames || v == "rename-section"
				continue
			}
			pos = append(pos, v)
		default:
			pos = append(pos, v)
		}
	}
	if len(pos) > 0 {
		key = strings.ToLower(pos[0])
	}
	if len(pos) >= 2 && !reads {
		write = true
	}
	if !write || reads {
		c.add(Read, OnlyReads.By("git", "config", ""))
		return
	}
	c.add(LocalWrite, ChangesLocalSettings.By("git", "config", ""))
	switch {
	case c.has("--global"):
		// git writes ~/.gitconfig, or the XDG file when only it exists.
		for _, f := range []string{"~/.gitconfig", "~/.config/git/config"} {
			c.path(OpWrite, shell.Word{Raw: f, Value: f, Literal: true, Tilde: true})
		}
	case c.has("--system"):
		c.path(OpWrite, shell.Word{Raw: "/etc/gitconfig", Value: "/etc/gitconfig", Literal: true})
	case key != "" && !edit && !file:
		c.gitConfigWrite()
	}
	if why := gitConfigRuns(key); why != "" {
		c.add(InstructionPatch, RunsLater.By("git config", key, ""))
		c.add(Opaque, RunsSettingProgram.By("git", "config", key))
	} else if renames {
		c.add(InstructionPatch, RunsLater.By("git", "config", ""))
		c.add(Opaque, RunsUnread.By("git", "config --rename-section", ""))
	} else if key != "" && !inertGitConfig(key) {
		c.add(InstructionPatch, RunsLater.By("git config", key, ""))
	}
	if strings.HasPrefix(key, "alias.") {
		c.add(InstructionPatch, RunsLater.By("git config", key, ""))
	}
	if strings.HasPrefix(key, "remote.") && strings.HasSuffix(key, "url") || strings.HasPrefix(key, "url.") {
		c.add(NewRemote, PointsAtNewRemote.By("git config", key, ""))
	}
}

func gitReset(c *cmd) {
	if c.has("--hard") {
		c.add(Destructive, DiscardsWork.By("git", "reset --hard", ""))
		return
	}
	c.add(LocalWrite, ChangesRepository.By("git", "reset", ""))
}

func gitClean(c *cmd) {
	if c.has("-n", "--dry-run") || c.shortFlag('n') {
		c.add(Read, DryRun.By("git", "clean --dry-run", ""))
		return
	}
	c.add(Destructive, Destroys.By("git", "clean", ""))
}

func gitCheckout(c *cmd) {
	ops := c.operands()
	afterDash := false
	for _, w := range c.args {
		if w.Value == "--" {
			afterDash = true
		}
	}
	switch {
	case c.has("-f", "--force") || c.shortFlag('f'):
		c.add(Destructive, DiscardsWork.By("git", "checkout --force", ""))
	case c.has("-b", "-B", "--orphan") || c.shortFlag('b'):
		c.add(LocalWrite, ChangesRepository.By("git", "checkout -b", ""))
	case afterDash || len(ops) > 1 || len(ops) == 1 && (ops[0].Value == "." || ops[0].Glob || strings.Contains(ops[0].Value, "/") && strings.Contains(ops[0].Value, ".")):
		c.add(Destructive, DiscardsWork.By("git", "checkout", ""))
		c.gitPaths(afterDash, ops)
	default:
		c.add(LocalWrite, ChangesRepository.By("git", "checkout", ""))
		c.switchesTo(ops)
	}
	c.cwdWrite()
}

func gitSwitch(c *cmd) {
	if c.has("--discard-changes", "-f", "--force") {
		c.add(Destructive, DiscardsWork.By("git", "switch --discard-changes", ""))
		return
	}
	c.add(LocalWrite, ChangesRepository.By("git", "switch", ""))
	c.switchesTo(c.operands())
	c.cwdWrite()
}

func gitRestore(c *cmd) {
	staged := c.has("--staged", "-S")
	worktree := c.has("--worktree", "-W")
	if staged && !worktree {
		c.add(LocalWrite, ChangesRepository.By("git", "restore --staged", ""))
		return
	}
	c.add(Destructive, DiscardsWork.By("git", "restore", ""))
	c.gitPaths(false, c.operands())
}

// gitPaths records the paths a checkout or restore rewrites: after "--",
// or every operand but a leading revision.
func (c *cmd) gitPaths(afterDash bool, ops []shell.Word) {
	if afterDash {
		dash := false
		for _, w := range c.args {
			if dash {
				c.path(OpWrite, w)
			}
			dash = dash || w.Value == "--"
		}
		return
	}
	for _, w := range ops {
		c.path(OpWrite, w)
	}
}

func gitStash(c *cmd) {
	ops := c.operands()
	if len(ops) == 0 {
		c.add(LocalWrite, ChangesRepository.By("git", "stash", ""))
		return
	}
	if !ops[0].Literal {
		c.add(Opaque, UnknownVerb.By("git stash", ops[0].Raw, ""))
		return
	}
	switch ops[0].Value {
	case "list", "show":
		c.add(Read, OnlyReads.By("git stash", ops[0].Value, ""))
	case "drop", "clear":
		c.add(Destructive, DiscardsWork.By("git stash", ops[0].Value, ""))
	default:
		c.add(LocalWrite, LocalWork.By("git stash", ops[0].Value, ""))
	}
}

// branchSpec is how git branch reads its options (git-branch(1)).
var branchSpec = optSpec{short: "u", abbrev: true, long: []string{
	"delete", "force", "move", "copy", "set-upstream-to=", "unset-upstream", "edit-description", "list",
	"contains", "no-contains", "merged", "no-merged", "points-at=", "track", "no-track", "all", "remotes",
	"verbose", "quiet", "column", "sort=", "format=", "show-current", "create-reflog", "recurse-submodules",
	"ignore-case", "abbrev", "color", "omit-empty",
}}

func gitBranch(c *cmd) {
	o, ops := readOpts(c.args, branchSpec)
	switch {
	case o.has("-D") || o.has("-d", "--delete") && o.has("-f", "--force"):
		c.add(Destructive, DeletesUnmerged.By("git", "branch -D", ""))
	case o.has("-d", "--delete", "-m", "-M", "-c", "-C", "--move", "--copy", "-u", "--set-upstream-to", "--unset-upstream", "--edit-description", "-f", "--force"):
		c.add(LocalWrite, ChangesRepository.By("git", "branch", ""))
	case len(ops) > 0 && !o.has("--list", "-l", "--contains", "--merged", "--no-merged", "--points-at", "--no-contains"):
		c.add(LocalWrite, ChangesRepository.By("git", "branch", ""))
	default:
		c.add(Read, OnlyReads.By("git", "branch", ""))
	}
}

func gitTag(c *cmd) {
	ops := c.operands()
	switch {
	case c.has("-d", "--delete"):
		c.add(LocalWrite, ChangesRepository.By("git", "tag -d", ""))
	case len(ops) > 0 && !c.has("-l", "--list", "--contains", "--merged", "--points-at", "-v", "--verify"):
		c.add(LocalWrite, ChangesRepository.By("git", "tag", ""))
	default:
		c.add(Read, OnlyReads.By("git", "tag", ""))
	}
}

func gitWorktree(c *cmd) {
	ops := c.operands()
	if len(ops) == 0 {
		c.add(Read, OnlyReads.By("git", "worktree", ""))
		return
	}
	switch ops[0].Value {
	case "list":
		c.add(Read, OnlyReads.By("git", "worktree list", ""))
	case "remove":
		if c.has("--force", "-f") {
			c.add(Destructive, DiscardsWork.By("git", "worktree remove --force", ""))
			return
		}
		c.add(LocalWrite, LocalWork.By("git", "worktree remove", ""))
	case "add":
		c.add(LocalWrite, LocalWork.By("git", "worktree add", ""))
		if len(ops) > 1 {
			c.write(ops[1])
			c.writesUnder(ops[1])
		}
	default:
		c.add(LocalWrite, LocalWork.By("git worktree", ops[0].Value, ""))
	}
}

func gitReflog(c *cmd) {
	ops := c.operands()
	if len(ops) > 0 && !ops[0].Literal {
		// A ref to show, or expire or delete.
		c.add(Opaque, UnknownVerb.By("git reflog", ops[0].Raw, ""))
		return
	}
	if len(ops) > 0 && (ops[0].Value == "expire" || ops[0].Value == "delete") {
		c.add(Destructive, Destroys.By("git reflog", ops[0].Value, ""))
		return
	}
	c.add(Read, OnlyReads.By("git", "reflog", ""))
}

// rebaseSpec is how git rebase reads its options (git-rebase(1)).
var rebaseSpec = optSpec{short: "xsX", abbrev: true, long: []string{
	"exec=", "onto=", "strategy=", "strategy-option=", "empty=", "whitespace=", "interactive", "root",
	"autosquash", "keep-base", "update-refs", "continue", "abort", "skip", "quit", "edit-todo",
	"show-current-patch", "rebase-merges", "reschedule-failed-exec", "autostash", "signoff", "gpg-sign",
	"committer-date-is-author-date", "ignore-date", "reset-author-date", "fork-point", "apply", "merge",
	"verbose", "quiet", "stat", "verify", "keep-empty", "ignore-whitespace", "force-rebase", "no-ff",
}}

func gitRebase(c *cmd) {
	if o, _ := readOpts(c.args, rebaseSpec); o.has("-x", "--exec") {
		c.add(Opaque, RunsUnread.By("git", "rebase --exec", ""))
	}
	c.add(LocalWrite, ChangesRepository.By("git", "rebase", ""))
	c.cwdWrite()
}

func gitSubmodule(c *cmd) {
	ops := c.operands()
	if len(ops) > 0 && ops[0].Value == "foreach" {
		c.add(Opaque, RunsUnread.By("git", "submodule foreach", ""))
		return
	}
	if len(ops) == 0 || ops[0].Value == "status" || ops[0].Value == "summary" {
		c.add(Read, OnlyReads.By("git", "submodule status", ""))
		return
	}
	c.add(LocalWrite, LocalWork.By("git submodule", ops[0].Value, ""))
	if ops[0].Value == "add" && len(ops) > 1 {
		c.clonesTo(ops[1:])
	}
}

func gitFilterBranch(c *cmd) {
	c.add(Destructive, DropsHistory.By(c.name, "", ""))
	if c.name == "git filter-branch" {
		c.add(Opaque, RunsUnread.By("git", "filter-branch", ""))
	}
}

func gitDifftool(c *cmd) {
	c.add(Opaque, RunsOptionProgram.By(c.name, "", ""))
}

func gitSendEmail(c *cmd) { c.add(Exfil, SendsData.By("git", "send-email", "")) }

func gitCredential(c *cmd) { c.add(Secret, StoresCredential.By(c.name, "", "")) }

func gitLFS(c *cmd) {
	ops := c.operands()
	if len(ops) > 0 && ops[0].Value == "push" {
		c.add(RemoteWrite, Pushes.By("git", "lfs push", ""))
		return
	}
	c.add(LocalWrite, LocalWork.By("git", "lfs", ""))
}

func gitArchive(c *cmd) {
	if c.has("--remote") {
		c.add(Network, ReachesHost.By("git", "archive --remote", ""))
	}
	c.add(LocalWrite, ChangesProject.By("git", "archive", ""))
	for i, w := range c.args {
		if (w.Value == "-o" || w.Value == "--output") && i+1 < len(c.args) {
			c.write(c.args[i+1])
		}
	}
}

func gitRm(c *cmd) {
	recursive := c.has("-r") || c.shortFlag('r')
	if c.has("--cached") {
		c.add(LocalWrite, ChangesRepository.By("git", "rm --cached", ""))
		return
	}
	for _, w := range c.operands() {
		c.del(w, recursive)
	}
	c.add(LocalWrite, ChangesProject.By("git", "rm", ""))
}

func gitUpdateRef(c *cmd) {
	if c.has("-d") {
		c.add(Destructive, Destroys.By("git", "update-ref -d", ""))
		return
	}
	c.add(LocalWrite, ChangesRepository.By("git", "update-ref", ""))
}

func gitGC(c *cmd) {
	if c.has("--prune=now", "--prune=all") {
		c.add(Destructive, DropsHistory.By("git", "gc --prune=now", ""))
		return
	}
	c.add(LocalWrite, LocalWork.By("git", "gc", ""))
}

// gitPrune: git prune with no --expire drops every unreachable loose
// object at once (git-prune(1)), what git gc --prune=now does; an expiry
// in the past keeps the recent ones, as plain git gc does.
func gitPrune(c *cmd) {
	if c.has("-n", "--dry-run") {
		c.add(Read, DryRun.By("git", "prune --dry-run", ""))
		return
	}
	for _, w := range c.args {
		if v, ok := strings.CutPrefix(w.Value, "--expire="); ok && v != "now" && v != "all" && w.Literal {
			c.add(LocalWrite, ChangesRepository.By("git", "prune --expire", v))
			return
		}
		if w.Value == "--expire" {
			c.add(LocalWrite, ChangesRepository.By("git", "prune --expire", ""))
			return
		}
	}
	c.add(Destructive, DropsHistory.By("git", "prune", ""))
}

// gitRepack: repack -a -d drops the unreachable objects of the packs it
// replaces; -A keeps them loose, for gc's expiry (git-repack(1)).
func gitRepack(c *cmd) {
	if c.shortFlag('a') && c.shortFlag('d') && !c.shortFlag('A') && !c.has("--keep-unreachable", "--cruft") {
		c.add(Destructive, DropsHistory.By("git", "repack -a -d", ""))
		return
	}
	c.add(LocalWrite, LocalWork.By("git", "repack", ""))
}

func gitBisect(c *cmd) {
	ops := c.operands()
	if len(ops) > 0 && ops[0].Value == "run" {
		c.add(LocalWrite, RunsProject.By("git", "bisect run", ""))
	}
	c.add(LocalWrite, LocalWork.By("git", "bisect", ""))
}

func gitSymbolicRef(c *cmd) {
	if len(c.operands()) >= 2 || c.has("-d", "--delete") {
		c.add(LocalWrite, ChangesRepository.By("git", "symbolic-ref", ""))
		return
	}
	c.add(Read, OnlyReads.By("git", "symbolic-ref", ""))
}

func gitSVN(c *cmd) {
	ops := c.operands()
	if len(ops) > 0 && (ops[0].Value == "dcommit" || ops[0].Value == "submit") {
		c.add(RemoteWrite, Pushes.By(c.name, ops[0].Value, ""))
		return
	}
	c.add(LocalWrite, ChangesRepository.By(c.name, "", ""))
}

// GitConfigKnownInert reports a key of a repository's configuration
// (lower case) set to v that sayso knows to run nothing: a setting a step
// writes day to day, what a clone or init writes (the format, a remote's
// address and refspec, a branch's upstream, extensions, a submodule's
// address), or a program setting whose value is harmless (core.pager =
// less). Any other key may make a later git run a program.
func GitConfigKnownInert(k, v string) bool {
	if inertGitConfig(k) || gitConfigRuns(k) == runsProgram && harmlessGitConfig(k, v) {
		return true
	}
	switch k {
	case "core.repositoryformatversion", "core.bare", "lfs.repositoryformatversion":
		return true
	}
	section, rest, _ := strings.Cut(k, ".")
	sub, name := "", rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		sub, name = rest[:i], rest[i+1:]
	}
	switch section {
	case "extensions":
		return sub == ""
	case "remote":
		return sub != "" && (name == "url" || name == "fetch" || name == "pushurl" || name == "tagopt" || name == "prune")
	case "branch":
		return sub != "" && name == "remote"
	case "submodule":
		return sub != "" && (name == "url" || name == "active" || name == "branch")
	}
	return false
}

// inertGitConfig reports a repository setting (lower case) that runs no
// program and sends nothing elsewhere, whatever its value: the settings a
// step writes day to day. Any other key may, or may in a later git (a
// hook set in configuration, a git-lfs transfer agent), so writing it is
// the person's to approve.
func inertGitConfig(k string) bool {
	if inertGitKeys[k] {
		return true
	}
	section, rest, _ := strings.Cut(k, ".")
	sub, name := "", rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		sub, name = rest[:i], rest[i+1:]
	}
	switch section {
	case "user", "color", "advice", "column", "i18n", "status", "log", "blame", "rerere", "format", "versionsort":
		return sub == "" || section == "color"
	case "branch":
		return sub != "" && (name == "merge" || name == "rebase" || name == "description")
	}
	return false
}

var inertGitKeys = map[string]bool{
	"core.autocrlf": true, "core.eol": true, "core.filemode": true, "core.ignorecase": true, "core.safecrlf": true,
	"core.quotepath": true, "core.longpaths": true, "core.symlinks": true, "core.whitespace": true,
	"core.precomposeunicode": true, "core.logallrefupdates": true, "core.abbrev": true, "core.compression": true,
	"core.untrackedcache": true, "core.preloadindex": true, "core.commentchar": true, "core.commentstring": true,
	"init.defaultbranch": true, "pull.rebase": true, "pull.ff": true, "pull.twohead": true,
	"push.default": true, "push.autosetupremote": true, "push.followtags": true, "push.gpgsign": true,
	"fetch.prune": true, "fetch.prunetags": true, "fetch.parallel": true, "fetch.writecommitgraph": true,
	"rebase.autostash": true, "rebase.autosquash": true, "rebase.updaterefs": true, "rebase.stat": true,
	"merge.ff": true, "merge.conflictstyle": true, "merge.log": true, "merge.autostash": true,
	"diff.algorithm": true, "diff.colormoved": true, "diff.renames": true, "diff.mnemonicprefix": true, "diff.noprefix": true,
	"diff.submodule": true, "status.submodulesummary": true, "submodule.recurse": true, "checkout.defaultremote": true,
	"commit.gpgsign": true, "commit.verbose": true, "commit.cleanup": true, "tag.gpgsign": true, "tag.sort": true,
	"gpg.format": true, "gc.auto": true, "maintenance.auto": true,
	"branch.autosetupmerge": true, "branch.autosetuprebase": true, "branch.sort": true, "feature.manyfiles": true,
	"index.version": true, "pack.threads": true, "http.postbuffer": true, "http.version": true, "protocol.version": true,
}

// The git commands that write files the person did not name as a
// redirect: the log family's --output, format-patch's folder, git mv,
// read-tree -u and checkout-index, clone's folder, bundle files, and the
// patches apply and am read (git-log(1), git-diff(1), git-format-patch(1),
// git-mv(1), git-read-tree(1), git-checkout-index(1), git-clone(1),
// git-bundle(1), git-apply(1), git-am(1)).
//
// The commands that replace tracked files with the repository's own
// (checkout of a branch, switch, stash pop and apply, merge, cherry-pick,
// revert, pull, rebase) write files whose names sayso cannot know without
// the repository: they write below the working folder, which holds them to
// scope, and inside the project the wall keeps the client's settings,
// instruction files and git hooks out of their reach.

// gitDiffOutput: the log and diff family read, unless --output names a
// file for what they print.
func gitDiffOutput(c *cmd) {
	c.add(Read, OnlyReads.By(c.name, "", ""))
	c.outputs([]string{"--output"}, nil)
}

// gitFormatPatch writes its patches in the working folder, in -o DIR, or
// to the one file --output names.
func gitFormatPatch(c *cmd) {
	c.add(LocalWrite, ChangesProject.By("git", "format-patch", ""))
	n := len(c.a.out.Paths)
	c.outputs([]string{"-o", "--output-directory", "--output"}, []string{"-o"})
	if c.has("--stdout") {
		return
	}
	if len(c.a.out.Paths) == n {
		c.cwdWrite()
	}
}

// gitMv moves its sources to the target, or into it when it is a folder:
// each source is deleted and the file it becomes is written.
func gitMv(c *cmd) {
	c.add(LocalWrite, ChangesProject.By("git", "mv", ""))
	ops := c.operands()
	if len(ops) < 2 {
		c.cwdWrite()
		return
	}
	target := ops[len(ops)-1]
	c.write(target)
	for _, w := range ops[:len(ops)-1] {
		c.del(w, true)
		c.createsIn(target, w)
	}
}

// gitReadTree writes the working files only with -u: below --prefix, or
// the whole tree.
func gitReadTree(c *cmd) {
	c.add(LocalWrite, ChangesRepository.By("git", "read-tree", ""))
	if !c.has("-u") {
		return
	}
	c.checksOut(true)
}

// gitCheckoutIndex writes the files it names from the index, or every
// file with -a, below --prefix when given.
func gitCheckoutIndex(c *cmd) {
	c.add(LocalWrite, ChangesRepository.By("git", "checkout-index", ""))
	c.checksOut(c.has("-a", "--all") || c.has("--stdin"))
	prefix, hasPrefix := c.prefix()
	for _, w := range c.operands() {
		if hasPrefix {
			w = shell.Word{Raw: prefix.Raw + w.Raw, Value: prefix.Value + w.Value, Literal: prefix.Literal && w.Literal}
		}
		c.write(w)
	}
}

// prefix is the value of --prefix=, the text prepended to every file
// written (a folder when it ends in /).
func (c *cmd) prefix() (shell.Word, bool) {
	for _, w := range c.args {
		if strings.HasPrefix(w.Value, "--prefix=") || !w.Literal && strings.HasPrefix(w.Raw, "--prefix=") {
			return valueWord(w, "--prefix="), true
		}
	}
	return shell.Word{}, false
}

// checksOut records files of unknown names written below --prefix, or
// below the working folder, when all is set.
func (c *cmd) checksOut(all bool) {
	if !all {
		return
	}
	if p, ok := c.prefix(); ok {
		dir := p
		if !strings.HasSuffix(p.Value, "/") {
			// --prefix=x makes files x<name>: below x's folder.
			d := path.Dir(p.Value)
			dir = shell.Word{Raw: d, Value: d, Literal: p.Literal}
		}
		c.writesUnder(dir)
		return
	}
	c.writesUnderCwd()
}

// cloneOptsWithValue are git clone's options that take the next word.
var cloneOptsWithValue = map[string]bool{
	"-b": true, "--branch": true, "-o": true, "--origin": true, "--depth": true, "--reference": true,
	"--reference-if-able": true, "--separate-git-dir": true, "-j": true, "--jobs": true, "--filter": true,
	"--shallow-since": true, "--shallow-exclude": true, "--bundle-uri": true, "--server-option": true,
	"--revision": true, "--ref-format": true, "-c": true, "--config": true, "--template": true, "-u": true, "--upload-pack": true,
}

// gitClone writes the repository into the folder it names, or a folder
// named after the repository in the working folder.
func gitClone(c *cmd) {
	c.add(LocalWrite, ChangesRepository.By("git", "clone", ""))
	var ops []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		switch {
		case w.Literal && w.Value == "--":
			ops = append(ops, c.args[i+1:]...)
			i = len(c.args)
		case w.Literal && cloneOptsWithValue[w.Value]:
			if w.Value == "--separate-git-dir" && i+1 < len(c.args) {
				c.writesUnder(c.args[i+1])
			}
			i++
		case w.Literal && strings.HasPrefix(w.Value, "--separate-git-dir="):
			c.writesUnder(valueWord(w, "--separate-git-dir="))
		case w.Literal && strings.HasPrefix(w.Value, "-"):
		default:
			ops = append(ops, w)
		}
	}
	c.clonesTo(ops)
}

// clonesTo records what a clone of ops[0] writes: the folder ops[1], or
// a folder named after the repository in the working folder.
func (c *cmd) clonesTo(ops []shell.Word) {
	switch {
	case len(ops) >= 2:
		c.writesUnder(ops[1])
	case len(ops) == 1 && ops[0].Literal:
		name := strings.TrimSuffix(path.Base(strings.TrimSuffix(ops[0].Value, "/")), ".git")
		if i := strings.LastIndexByte(name, ':'); i >= 0 {
			name = name[i+1:]
		}
		if name == "" || name == "." || name == ".." || name == "/" {
			c.writesUnderCwd()
			return
		}
		c.writesUnder(shell.Word{Raw: name, Value: name, Literal: true})
	default:
		c.writesUnderCwd()
	}
}

// gitBundle: create writes the bundle file it names.
func gitBundle(c *cmd) {
	ops := c.operands()
	if len(ops) > 0 && (ops[0].Value == "list-heads" || ops[0].Value == "verify") {
		c.add(Read, OnlyReads.By("git bundle", ops[0].Value, ""))
		return
	}
	c.add(LocalWrite, LocalWork.By("git", "bundle", ""))
	if len(ops) > 1 && ops[0].Value == "create" {
		c.write(ops[1])
		return
	}
	c.cwdWrite()
}

// gitStashWrites: pop and apply write the stashed files back.
func gitStashWrites(c *cmd) {
	gitStash(c)
	if ops := c.operands(); len(ops) > 0 && (ops[0].Value == "pop" || ops[0].Value == "apply" || ops[0].Value == "branch") {
		c.cwdWrite()
	}
}

// gitApply applies a patch to the working files (and the index), or with
// --cached to the index alone; --check, --stat and the like only read it.
func gitApply(c *cmd) {
	if c.has("--check", "--stat", "--numstat", "--summary") && !c.has("--apply") {
		c.add(Read, OnlyReads.By("git", "apply", ""))
		return
	}
	c.add(LocalWrite, ChangesProject.By("git", "apply", ""))
	// With --cached the patch lands in the index alone; the next checkout
	// writes what it names, so the names count the same.
	c.patchArgs("--build-fake-ancestor")
}

// gitAm applies the patches of mailboxes to the working files.
func gitAm(c *cmd) {
	c.add(LocalWrite, ChangesRepository.By("git", "am", ""))
	if c.has("--abort", "--quit", "--show-current-patch") {
		return
	}
	if c.has("--continue", "--skip", "--resolved", "-r") {
		c.writesUnderCwd()
		return
	}
	c.patchArgs("--patch-format")
}

// patchArgs reads git apply's and git am's words — the strip level (-p),
// the folder the patch applies below (--directory), the options that take
// a value (those two share, and one more each) — and reports the files
// the patches named there will write.
func (c *cmd) patchArgs(alsoTakesValue string) {
	strip := 1
	var dir shell.Word
	hasDir := false
	var files []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		switch v := w.Value; {
		case v == "-p" && i+1 < len(c.args):
			strip = atoiOr(c.args[i+1].Value, -1)
			i++
		case strings.HasPrefix(v, "-p") && len(v) > 2:
			strip = atoiOr(v[2:], -1)
		case strings.HasPrefix(v, "--directory="):
			dir, hasDir = valueWord(w, "--directory="), true
		case v == "--directory" && i+1 < len(c.args):
			dir, hasDir = c.args[i+1], true
			i++
		case v == "--include" || v == "--exclude" || v == "-C" || v == "--whitespace" || v == alsoTakesValue:
			i++
		case strings.HasPrefix(v, "-") && v != "-":
		default:
			files = append(files, w)
		}
	}
	c.patchWrites(files, []int{strip}, dir, hasDir)
}

func atoiOr(s string, bad int) int {
	n := 0
	if s == "" || len(s) > 3 {
		return bad
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return bad
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// gitInit writes the repository in the folder it names, or the working
// folder.
func gitInit(c *cmd) {
	c.add(LocalWrite, ChangesRepository.By("git", "init", ""))
	ops := c.operands()
	var dirs []shell.Word
	for i := 0; i < len(c.args); i++ {
		if v, next, ok := optValue(c.args, i, []string{"--separate-git-dir"}, nil); ok {
			dirs = append(dirs, v)
			if next {
				ops = removeWord(ops, v)
				i++
			}
		} else if w := c.args[i]; w.Literal && (w.Value == "-b" || w.Value == "--initial-branch" || w.Value == "--object-format" || w.Value == "--ref-format" || w.Value == "--template" || w.Value == "--shared") && i+1 < len(c.args) {
			ops = removeWord(ops, c.args[i+1])
			i++
		}
	}
	if len(ops) > 0 {
		dirs = append(dirs, ops[0])
	}
	if len(dirs) == 0 {
		c.cwdWrite()
	}
	for _, d := range dirs {
		c.writesUnder(d)
	}
}

// gitUpdateIndex: an entry added with --cacheinfo names a file the next
// checkout writes; the path counts as written now (git-update-index(1)).
func gitUpdateIndex(c *cmd) {
	c.add(LocalWrite, ChangesRepository.By("git", "update-index", ""))
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		if !w.Literal || w.Value != "--cacheinfo" || i+1 >= len(c.args) {
			continue
		}
		if parts := strings.Split(c.args[i+1].Value, ","); len(parts) == 3 {
			c.path(OpWrite, lit(parts[2]))
			i++
			continue
		}
		if i+3 < len(c.args) {
			c.path(OpWrite, c.args[i+3])
			i += 3
		}
	}
	if c.has("--index-info") {
		c.unknownWrite("git update-index --index-info: the entries on its input")
	}
}

// gitGrep reads, unless -O/--open-files-in-pager names a program: git runs
// it through the shell on the files that match.
func gitGrep(c *cmd) {
	for _, w := range c.args {
		v := w.Value
		switch {
		case !w.Literal && strings.HasPrefix(w.Raw, "-"):
			c.add(Opaque, BuiltAtRunTime.By("git", "grep", w.Raw))
			return
		case v == "--":
			c.add(Read, OnlyReads.By("git", "grep", ""))
			return
		case strings.HasPrefix(v, "--"):
			name, _, hasVal := strings.Cut(v[2:], "=")
			if hasVal && len(name) >= 2 && strings.HasPrefix("open-files-in-pager", name) {
				c.add(Opaque, RunsOptionProgram.By("git grep", v, ""))
				return
			}
		case strings.HasPrefix(v, "-"):
			for i := 1; i < len(v); i++ {
				if strings.IndexByte("efABCm", v[i]) >= 0 {
					break // the rest is this option's value
				}
				if v[i] == 'O' && i+1 < len(v) {
					c.add(Opaque, RunsOptionProgram.By("git grep", v, ""))
					return
				}
			}
		}
	}
	c.add(Read, OnlyReads.By("git", "grep", ""))
}

// gitGlobalTakes are git's global options that take the next word as
// their value (git(1)).
var gitGlobalTakes = map[string]bool{
	"-C": true, "-c": true, "--git-dir": true, "--work-tree": true, "--namespace": true,
	"--super-prefix": true, "--config-env": true, "--list-cmds": true, "--attr-source": true,
}

// harmlessGitConfig reports a git -c setting that names a program which
// does nothing but accept or show (core.editor=true, core.pager=cat), or
// turns hooks off (core.hooksPath=/dev/null).
func harmlessGitConfig(k, v string) bool {
	switch {
	case k == "core.editor" || k == "sequence.editor" || k == "core.pager" || strings.HasPrefix(k, "pager."):
		return harmlessProgram(v) || k != "core.editor" && k != "sequence.editor" && (v == "false" || v == "true" && strings.HasPrefix(k, "pager."))
	case k == "core.hookspath":
		return v == "/dev/null"
	}
	return false
}
