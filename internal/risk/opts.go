package risk

import (
	"strconv"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// Options are read as the program reads them. Most programs parse theirs
// with getopt_long (GNU tools, getopt(3)) or git's parse-options
// (gitcli(7)): short options in clusters (-df is -d -f), a short option's
// value attached (-x'make', -ojson) or in the next word, a long option's
// value after = or in the next word, options among the operands until
// "--", and — in both — an unambiguous prefix of a long option standing
// for it (--exe= is --exec=, --upload-pa= is --upload-pack=).

// optSpec says how one program reads its options.
type optSpec struct {
	short string   // short options that take a value
	long  []string // long options, without dashes; a trailing "=" when it takes a value
	// abbrev: an unambiguous prefix of a long option stands for it. A
	// prefix of several is refused by the program; it is read as the
	// first, so that a refusal is never read as less than an option.
	abbrev bool
	// same: a short option that is another name of a long one ("-f" →
	// "force"), so that a reading names both alike.
	same map[string]string
}

// option is one option as the program reads it.
type option struct {
	name string      // "-x" or "--exec": abbreviations and clusters resolved
	val  *shell.Word // its value, when it takes one
	dyn  bool        // an option word built at run time: it may be any option
}

// opts are the options of a command, as read.
type opts []option

// has reports whether any of names was given, or an option built at run
// time that may be one of them.
func (set opts) has(names ...string) bool {
	for _, o := range set {
		if o.dyn {
			return true
		}
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

// value returns the value of the last of names given, or nil.
func (set opts) value(names ...string) *shell.Word {
	var v *shell.Word
	for _, o := range set {
		for _, n := range names {
			if o.name == n && o.val != nil {
				v = o.val
			}
		}
	}
	return v
}

// readOpts reads args as a getopt_long program does and returns its
// options and its operands.
func readOpts(args []shell.Word, spec optSpec) (opts, []shell.Word) {
	var out opts
	var operands []shell.Word
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case !w.Literal && strings.HasPrefix(w.Raw, "-"):
			out = append(out, option{dyn: true})
			continue
		case !w.Literal || len(v) < 2 || v[0] != '-':
			operands = append(operands, w)
			continue
		case v == "--":
			return out, append(operands, args[i+1:]...)
		case strings.HasPrefix(v, "--"):
			name, val, hasVal := strings.Cut(v[2:], "=")
			canon, takes := spec.longName(name)
			o := option{name: "--" + canon}
			switch {
			case hasVal:
				o.val = &shell.Word{Raw: val, Value: val, Literal: true, Tilde: strings.HasPrefix(val, "~")}
			case takes && i+1 < len(args):
				i++
				o.val = &args[i]
			}
			out = append(out, o)
			continue
		}
		for j := 1; j < len(v); j++ {
			o := option{name: "-" + v[j:j+1]}
			if strings.IndexByte(spec.short, v[j]) >= 0 {
				if j+1 < len(v) {
					rest := v[j+1:]
					o.val = &shell.Word{Raw: rest, Value: rest, Literal: true, Tilde: strings.HasPrefix(rest, "~")}
				} else if i+1 < len(args) {
					i++
					o.val = &args[i]
				}
				out = append(out, o)
				break
			}
			out = append(out, o)
		}
	}
	return out, operands
}

// longName resolves a long option's name, abbreviations included, and
// says whether it takes a value.
func (spec optSpec) longName(name string) (string, bool) {
	first := ""
	takes := false
	for _, l := range spec.long {
		n, val := strings.CutSuffix(l, "=")
		if n == name {
			return n, val
		}
		if spec.abbrev && first == "" && name != "" && strings.HasPrefix(n, name) && !strings.HasPrefix(name, "no-") {
			first, takes = n, val
		}
	}
	if first != "" {
		return first, takes
	}
	return name, false
}

// setuidMode reports whether a mode, as chmod(1), install(1) or mkdir(1)
// read it, sets the set-user-ID or set-group-ID bit: an octal mode of any
// width whose value holds 04000 or 02000 (4755, 04755, 2755), or a
// symbolic one that adds s (u+s, g=rwxs, +s).
func setuidMode(v string) bool {
	if v != "" && isOctal(v) {
		n, err := strconv.ParseUint(v, 8, 32)
		return err != nil || n&06000 != 0
	}
	for _, clause := range strings.Split(v, ",") {
		if i := strings.IndexAny(clause, "+="); i >= 0 && strings.Contains(clause[i:], "s") {
			return true
		}
	}
	return false
}

// gnuLongs are the long options of GNU programs that read theirs with
// getopt_long or argp, which take any unambiguous prefix of a long option
// (getopt(3)); each list is the program's own, from its manual, so that a
// prefix is resolved against all of them. curl, rsync and find are not
// here: they take whole names only.
var gnuLongs = map[string]optSpec{
	"rm":    {abbrev: true, same: map[string]string{"-f": "force", "-i": "interactive", "-r": "recursive", "-R": "recursive", "-d": "dir", "-v": "verbose"}, long: []string{"force", "interactive", "one-file-system", "no-preserve-root", "preserve-root", "recursive", "dir", "verbose", "help", "version"}},
	"cp":    {abbrev: true, same: map[string]string{"-a": "archive", "-f": "force", "-i": "interactive", "-r": "recursive", "-R": "recursive", "-n": "no-clobber", "-v": "verbose"}, long: []string{"archive", "attributes-only", "backup", "copy-contents", "dereference", "force", "interactive", "link", "no-clobber", "no-dereference", "preserve", "no-preserve", "parents", "recursive", "reflink", "remove-destination", "sparse", "strip-trailing-slashes", "symbolic-link", "suffix=", "target-directory=", "no-target-directory", "update", "verbose", "one-file-system", "context", "debug", "keep-directory-symlink", "help", "version"}},
	"mv":    {abbrev: true, same: map[string]string{"-f": "force", "-i": "interactive", "-n": "no-clobber", "-v": "verbose"}, long: []string{"backup", "exchange", "force", "interactive", "no-clobber", "no-copy", "strip-trailing-slashes", "suffix=", "target-directory=", "no-target-directory", "update", "verbose", "context", "debug", "help", "version"}},
	"sed":   {abbrev: true, short: "efl", same: map[string]string{"-i": "in-place", "-e": "expression", "-f": "file", "-n": "quiet", "-E": "regexp-extended", "-r": "regexp-extended", "-s": "separate", "-u": "unbuffered", "-z": "null-data", "-l": "line-length"}, long: []string{"in-place", "expression=", "file=", "quiet", "silent", "debug", "follow-symlinks", "line-length=", "null-data", "zero-terminated", "posix", "regexp-extended", "separate", "sandbox", "unbuffered", "binary", "help", "version"}},
	"sort":  {abbrev: true, long: []string{"ignore-leading-blanks", "dictionary-order", "ignore-case", "general-numeric-sort", "ignore-nonprinting", "month-sort", "human-numeric-sort", "numeric-sort", "random-sort", "random-source=", "reverse", "sort=", "version-sort", "batch-size=", "check", "compress-program=", "debug", "files0-from=", "key=", "merge", "output=", "stable", "buffer-size=", "field-separator=", "temporary-directory=", "parallel=", "unique", "zero-terminated", "help", "version"}},
	"tee":   {abbrev: true, long: []string{"append", "ignore-interrupts", "output-error", "help", "version"}},
	"chmod": {abbrev: true, long: []string{"changes", "silent", "quiet", "verbose", "no-preserve-root", "preserve-root", "reference=", "recursive", "help", "version"}},
	"chown": {abbrev: true, long: []string{"changes", "silent", "quiet", "verbose", "dereference", "no-dereference", "from=", "no-preserve-root", "preserve-root", "reference=", "recursive", "help", "version"}},
	"ln":    {abbrev: true, long: []string{"backup", "directory", "force", "interactive", "logical", "no-dereference", "physical", "relative", "symbolic", "suffix=", "target-directory=", "no-target-directory", "verbose", "help", "version"}},
	"grep":  {abbrev: true, long: []string{"extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp", "regexp=", "file=", "ignore-case", "no-ignore-case", "word-regexp", "line-regexp", "null-data", "no-messages", "invert-match", "version", "help", "max-count=", "byte-offset", "line-number", "no-line-number", "line-buffered", "with-filename", "no-filename", "label=", "only-matching", "quiet", "silent", "binary-files=", "text", "directories=", "devices=", "recursive", "dereference-recursive", "include=", "exclude=", "exclude-from=", "exclude-dir=", "files-without-match", "files-with-matches", "count", "initial-tab", "null", "before-context=", "after-context=", "context=", "color", "colour", "binary"}},
	"tar":   {abbrev: true, short: "bCfFgHIKLNTVX", same: map[string]string{"-x": "extract", "-c": "create", "-t": "list", "-r": "append", "-u": "update", "-d": "diff", "-A": "concatenate", "-f": "file", "-C": "directory", "-z": "gzip", "-j": "bzip2", "-J": "xz", "-v": "verbose", "-O": "to-stdout", "-T": "files-from", "-X": "exclude-from", "-k": "keep-old-files", "-p": "preserve-permissions", "-P": "absolute-names", "-h": "dereference", "-I": "use-compress-program", "-F": "info-script", "-g": "listed-incremental", "-W": "verify", "-U": "unlink-first"}, long: []string{"remove-files", "to-command=", "use-compress-program=", "checkpoint-action=", "info-script=", "new-volume-script=", "rsh-command=", "rmt-command=", "directory=", "file=", "extract", "create", "append", "update", "list", "delete", "diff", "compare", "get", "concatenate", "catenate", "test-label", "absolute-names", "overwrite", "overwrite-dir", "unlink-first", "recursive-unlink", "keep-old-files", "skip-old-files", "keep-newer-files", "keep-directory-symlink", "to-stdout", "gzip", "gunzip", "ungzip", "bzip2", "xz", "zstd", "lzma", "lzip", "lzop", "compress", "uncompress", "auto-compress", "verbose", "exclude=", "exclude-from=", "files-from=", "transform=", "xform=", "strip-components=", "one-file-system", "preserve-permissions", "same-permissions", "same-owner", "no-same-owner", "numeric-owner", "owner=", "group=", "mode=", "mtime=", "wildcards", "sparse", "totals", "warning=", "checkpoint", "index-file=", "blocking-factor=", "record-size=", "listed-incremental=", "incremental", "dereference", "hard-dereference", "ignore-failed-read", "null", "verify", "show-transformed-names", "force-local", "label=", "multi-volume", "tape-length=", "interactive", "confirmation", "preserve-order", "same-order", "no-recursion", "recursion", "anchored", "no-anchored", "ignore-case", "exclude-vcs", "exclude-caches", "help", "usage", "version", "quiet", "format=", "posix", "old-archive", "portability", "acls", "selinux", "xattrs", "no-acls", "no-selinux", "no-xattrs", "atime-preserve", "delay-directory-restore", "no-overwrite-dir", "suffix=", "backup", "newer=", "after-date=", "newer-mtime=", "occurrence", "level=", "seek", "no-seek", "utc", "full-time", "block-number", "check-links", "no-null", "unquote", "no-unquote", "starting-file=", "volno-file=", "sort=", "hole-detection=", "check-device", "no-check-device", "add-file=", "no-wildcards", "wildcards-match-slash", "no-wildcards-match-slash", "exclude-backups", "exclude-caches-all", "exclude-caches-under", "exclude-ignore=", "exclude-ignore-recursive=", "exclude-tag=", "exclude-tag-all=", "exclude-tag-under=", "ignore-zeros", "ignore-command-error", "no-ignore-command-error", "no-same-permissions", "no-auto-compress", "record-size=", "restrict", "show-defaults", "show-omitted-dirs", "show-snapshot-field-ranges", "set-mtime-format=", "clamp-mtime", "pax-option=", "owner-map=", "group-map=", "numeric-owner", "one-top-level", "read-full-records", "no-delay-directory-restore", "skip-old-files"}},
	"wget":  {abbrev: true, long: []string{"post-file=", "post-data=", "body-file=", "body-data=", "method=", "output-document=", "output-file=", "append-output=", "input-file=", "directory-prefix=", "execute=", "header=", "user=", "password=", "http-user=", "http-password=", "quiet", "verbose", "no-verbose", "continue", "timestamping", "recursive", "level=", "mirror", "page-requisites", "convert-links", "no-check-certificate", "certificate=", "private-key=", "ca-certificate=", "load-cookies=", "save-cookies=", "keep-session-cookies", "tries=", "timeout=", "spider", "server-response", "user-agent=", "referer=", "no-parent", "accept=", "reject=", "domains=", "span-hosts", "background", "config=", "use-askpass=", "no-clobber", "backups=", "show-progress", "progress=", "limit-rate=", "wait=", "no-directories", "force-directories", "no-host-directories", "cut-dirs=", "adjust-extension", "content-disposition", "trust-server-names", "help", "version", "debug", "inet4-only", "inet6-only", "no-proxy", "quota=", "bind-address=", "no-cache", "no-cookies", "header=", "max-redirect=", "proxy-user=", "proxy-password=", "save-headers", "auth-no-challenge", "https-only", "secure-protocol=", "warc-file=", "delete-after", "backup-converted", "follow-ftp", "ignore-case", "no-glob", "passive-ftp", "retr-symlinks", "ftp-user=", "ftp-password=", "no-remove-listing", "preserve-permissions", "start-pos=", "ignore-length", "local-encoding=", "remote-encoding=", "unlink", "xattr", "hsts-file=", "no-hsts", "rejected-log=", "input-metalink=", "metalink-over-http", "preferred-location=", "no-iri", "restrict-file-names=", "prefer-family=", "retry-connrefused", "retry-on-http-error=", "dns-timeout=", "connect-timeout=", "read-timeout=", "random-wait", "waitretry="}},
}

// canonLongs writes out in full each long option of args that the
// program, reading its options as spec says, takes as an abbreviation, so
// that classifiers read whole names. Options after "--" are operands.
func canonLongs(spec optSpec, args []shell.Word) []shell.Word {
	var out []shell.Word
	for i, w := range args {
		v := w.Value
		if w.Literal && v == "--" {
			break
		}
		if !strings.HasPrefix(w.Raw, "--") || !strings.HasPrefix(v, "--") {
			continue
		}
		// The name is plain text even when the value is built at run
		// time (--post-fi=$HOME/x): only the name is rewritten.
		n, _, hasVal := strings.Cut(w.Raw[2:], "=")
		if !hasVal && !w.Literal || strings.ContainsAny(n, "$`'\"\\{*?[~") {
			continue
		}
		canon, _ := spec.longName(n)
		if canon == n {
			continue
		}
		if out == nil {
			out = append([]shell.Word(nil), args...)
		}
		nw := w
		nw.Raw = "--" + canon + w.Raw[2+len(n):]
		nw.Value = "--" + canon + v[2+len(n):]
		out[i] = nw
	}
	if out == nil {
		return args
	}
	return out
}
