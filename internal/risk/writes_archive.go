package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// zipFamily and tarFamily pack files into archives; an archive of the
// home is a secret leaving.
func zipFamily() family {
	return family{names: []string{"zip"}, classify: zipCmd, after: copiesHome}
}

func tarFamily() family {
	return family{names: []string{"tar", "gtar", "bsdtar"}, classify: tar, after: copiesHome}
}

// Archivers write where they unpack (tar -C, unzip -d, or the working
// folder), the members they are told to extract, and the archive they
// create; some delete what they archive (tar --remove-files, zip -m,
// rsync --remove-source-files). Read from tar(1), unzip(1), zip(1) and
// rsync(1).

// tarOptsWithValue are tar's options that take the next word.
var tarOptsWithValue = map[string]bool{
	"-f": true, "--file": true, "-C": true, "--directory": true, "-T": true, "--files-from": true,
	"-X": true, "--exclude-from": true, "-b": true, "--blocking-factor": true, "-H": true, "--format": true,
	"-g": true, "--listed-incremental": true, "-V": true, "--label": true, "-K": true, "--starting-file": true,
	"-N": true, "--newer": true, "--after-date": true, "-L": true, "--tape-length": true, "--owner": true, "--group": true,
	"--mode": true, "--mtime": true, "--exclude": true, "--transform": true, "--xform": true, "--strip-components": true,
	"-I": true, "--use-compress-program": true, "-F": true, "--info-script": true, "--new-volume-script": true,
	"--to-command": true, "--rsh-command": true, "--checkpoint-action": true,
}

// tarLettersWithValue are the letters of a short-option cluster that take
// a value: the rest of the cluster, or the next word.
const tarLettersWithValue = "fCTXbHgVKNLIF"

func tar(c *cmd) {
	create, extract, remove, toStdout, absolute := false, false, false, false, false
	var archive, dest *shell.Word
	var members []shell.Word
	fromList := false
	take := func(letter byte, val shell.Word) {
		switch letter {
		case 'f':
			archive = &val
		case 'C':
			dest = &val
		case 'T':
			fromList = true
		}
	}
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		if strings.HasPrefix(v, "--use-compress-program") || strings.HasPrefix(v, "--to-command") || strings.HasPrefix(v, "--checkpoint-action") ||
			strings.HasPrefix(v, "--info-script") || strings.HasPrefix(v, "--new-volume-script") || strings.HasPrefix(v, "--rsh-command") ||
			v == "-I" || v == "-F" {
			c.add(Opaque, RunsOptionProgram.By("tar", "", v))
		}
		switch {
		case !w.Literal && (strings.HasPrefix(v, "-") || i == 0):
			// The first word is tar's options however spelled (tar xf A).
			c.add(Opaque, BuiltAtRunTime.By("tar", "option", w.Raw))
			c.unknownWrite("tar " + w.Raw)
		case !w.Literal:
			members = append(members, w)
		case v == "--":
			members = append(members, c.args[i+1:]...)
			i = len(c.args)
		case strings.HasPrefix(v, "--"):
			name, _, hasVal := strings.Cut(v, "=")
			switch name {
			case "--create", "--append", "--update", "--concatenate", "--catenate":
				create = true
			case "--extract", "--get":
				extract = true
			case "--remove-files":
				remove = true
			case "--to-stdout":
				toStdout = true
			case "--absolute-names":
				absolute = true
			}
			var val shell.Word
			switch {
			case hasVal:
				val = valueWord(w, name+"=")
			case tarOptsWithValue[name] && i+1 < len(c.args):
				i++
				val = c.args[i]
			default:
				continue
			}
			switch name {
			case "--file":
				take('f', val)
			case "--directory":
				take('C', val)
			case "--files-from":
				take('T', val)
			}
		case i == 0 && !strings.HasPrefix(v, "-") || len(v) > 1 && v[0] == '-':
			// A cluster: -xzf x.tgz, or the old form xzf x.tgz as the
			// first word, whose values are the words that follow.
			old := v[0] != '-'
			letters := strings.TrimPrefix(v, "-")
			for k := 0; k < len(letters); k++ {
				l := letters[k]
				switch l {
				case 'c', 'r', 'u', 'A':
					create = true
				case 'x':
					extract = true
				case 'O':
					toStdout = true
				case 'P':
					absolute = true
				}
				if strings.IndexByte(tarLettersWithValue, l) < 0 {
					continue
				}
				if !old && k+1 < len(letters) {
					take(l, valueWord(w, v[:k+2]))
					break
				}
				if i+1 < len(c.args) {
					i++
					take(l, c.args[i])
				}
			}
		default:
			members = append(members, w)
		}
	}
	switch {
	case extract:
		c.add(LocalWrite, ChangesProject.By("tar", "", ""))
		if archive != nil && archive.Value != "-" {
			c.path(OpRead, *archive)
		}
		c.unpacks()
		if toStdout {
			return
		}
		c.extracts(dest, members, fromList || absolute)
		if absolute {
			c.unknownWrite("tar --absolute-names extracts members wherever their names say")
		}
	case create:
		c.add(LocalWrite, ChangesProject.By("tar", "", ""))
		if archive != nil && archive.Value != "-" {
			c.write(*archive)
		} else if archive == nil {
			c.cwdWrite()
		}
		c.readSecrets()
		for _, m := range members {
			if remove {
				c.del(m, true)
			}
		}
	default:
		c.add(Read, OnlyReads.By("tar", "", ""))
	}
}

// extracts records what an archiver unpacks into dest (the working folder
// when nil): the members it names, or files of unknown names below dest.
func (c *cmd) extracts(dest *shell.Word, members []shell.Word, unknown bool) {
	if dest != nil {
		c.write(*dest)
	}
	if len(members) == 0 || unknown {
		if dest != nil {
			c.writesUnder(*dest)
		} else {
			c.writesUnderCwd()
		}
	}
	for _, m := range members {
		if !m.Literal || m.Glob || strings.ContainsAny(m.Value, "*?[") {
			// A pattern: the members it matches are unknown.
			if dest != nil {
				c.writesUnder(*dest)
			} else {
				c.writesUnderCwd()
			}
			continue
		}
		if dest != nil {
			c.path(OpWrite, joinWord(*dest, m.Value))
		} else {
			c.path(OpWrite, m)
		}
	}
}

func zipCmd(c *cmd) {
	if c.has("-TT", "--unzip-command") {
		c.add(Opaque, RunsOptionProgram.By("zip", "", ""))
	}
	c.add(LocalWrite, ChangesProject.By("zip", "", ""))
	move := c.has("-m", "--move") || c.shortFlag('m')
	var ops []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		switch {
		case v == "-O" || v == "--output-file":
			if i+1 < len(c.args) {
				i++
				c.write(c.args[i])
			}
		case v == "-b" || v == "--temp-path" || v == "-n" || v == "--suffixes" || v == "-t" || v == "--from-date" ||
			v == "-tt" || v == "--before-date" || v == "-P" || v == "--password" || v == "-Z" || v == "--compression-method" ||
			v == "-s" || v == "--split-size" || v == "-TT" || v == "--unzip-command" || v == "-sp" || v == "-la" || v == "-lf" || v == "--logfile-path":
			i++
		case v == "-x" || v == "--exclude" || v == "-i" || v == "--include":
			// a list of patterns, up to the next option
			for i+1 < len(c.args) && !strings.HasPrefix(c.args[i+1].Value, "-") {
				i++
			}
		case v == "--" || v == "-":
		case strings.HasPrefix(v, "-") && w.Literal:
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) == 0 {
		c.cwdWrite()
		return
	}
	c.write(ops[0])
	for _, w := range ops[1:] {
		if move {
			c.del(w, true)
		}
	}
	c.readSecrets()
}

func unzipFamily() family {
	return family{names: []string{"unzip"}, classify: unzip}
}

func unzip(c *cmd) {
	if c.has("-l", "-v", "-t", "-Z", "-p", "-c", "-z") {
		c.add(Read, OnlyReads.By("unzip", "", ""))
		return
	}
	c.add(LocalWrite, ChangesProject.By("unzip", "", ""))
	c.unpacks()
	var dest *shell.Word
	var ops []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		if val, next, ok := optValue(c.args, i, []string{"-d"}, []string{"-d"}); ok {
			dest = &val
			if next {
				i++
			}
			continue
		}
		switch {
		case v == "-x":
			for i+1 < len(c.args) && !strings.HasPrefix(c.args[i+1].Value, "-") {
				i++
			}
		case v == "-P":
			i++
		case strings.HasPrefix(v, "-") && w.Literal:
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) > 0 {
		c.path(OpRead, ops[0])
		ops = ops[1:]
	}
	c.extracts(dest, ops, false)
}

// rsyncCreates records what rsync creates in dst: dst/name for a source
// without a trailing slash, files of unknown names below dst for one with
// it; --remove-source-files deletes the sources.
func rsyncCreates(c *cmd, srcs []shell.Word, dst shell.Word) {
	remove := c.has("--remove-source-files", "--remove-sent-files")
	for _, w := range srcs {
		if remoteSpec(w.Value) {
			c.writesUnder(dst)
			continue
		}
		if strings.HasSuffix(w.Value, "/") {
			c.writesUnder(dst)
		} else {
			c.createsIn(dst, w)
		}
		if remove {
			c.del(w, true)
		}
	}
}
