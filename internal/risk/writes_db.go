package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// sqlite3 writes its database argument with any SQL that is not a read,
// and more: ATTACH and VACUUM INTO name other databases, writefile()
// writes any file, and the dot-commands write (.output, .once, .save,
// .backup, .clone, .log, .trace, .iotrace, .testcase), read (.import,
// .restore) or run programs (.shell, .system, .excel, .load, .read, .cd,
// .archive). Read from sqlite3 -help and .help. Dot-commands are matched
// by prefix, as sqlite3 does (.sh is .shell).

var (
	sqliteDotRuns   = []string{"shell", "system", "excel", "load", "read", "cd", "archive", "ar", "edit", "connection", "dbconfig", "filectrl", "unmodule", "nonce", "open"}
	sqliteDotWrites = []string{"output", "once", "save", "backup", "clone", "log", "trace", "iotrace", "testcase", "import", "restore"}
	sqliteDotReads  = []string{"tables", "schema", "dump", "mode", "headers", "header", "help", "indexes", "indices", "databases",
		"dbinfo", "show", "stats", "timer", "width", "separator", "nullvalue", "print", "prompt", "quit", "exit", "bail", "echo",
		"eqp", "explain", "fullschema", "lint", "parameter", "progress", "scanstats", "selftest", "sha3sum", "changes", "check",
		"expert", "limits", "timeout", "vfsinfo", "vfslist", "vfsname", "binary", "recover", "crnl", "auth", "imposter", "intck"}
)

// sqliteOptsWithValue are sqlite3's options that take the next word
// (-lookaside and -pagecache take two).
var sqliteOptsWithValue = map[string]int{
	"cmd": 1, "init": 1, "separator": 1, "newline": 1, "nullvalue": 1, "vfs": 1, "mmap": 1, "maxsize": 1,
	"nonce": 1, "escape": 1, "heap": 2, "lookaside": 2, "pagecache": 2, "c": 1, "s": 1,
}

func sqliteFamily() family {
	return family{names: []string{"sqlite3", "duckdb"}, classify: sqlite}
}

func sqlite(c *cmd) {
	var db *shell.Word
	var stmts []string
	readonly := false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		if !w.Literal && strings.HasPrefix(w.Raw, "-") {
			c.add(Opaque, BuiltAtRunTime.By(c.name, "option", w.Raw))
			continue
		}
		if strings.HasPrefix(v, "-") && len(v) > 1 {
			name := strings.TrimLeft(v, "-")
			switch name {
			case "version", "help":
				c.add(Read, OnlyReads.By(c.name, v, ""))
				return
			case "readonly":
				readonly = true
			case "A":
				c.sqliteArchive(db, c.args[i+1:])
				return
			case "init":
				c.add(Opaque, RunsUnread.By(c.name, "", ""))
			case "cmd", "c", "s":
				if name != "cmd" && c.name != "duckdb" {
					break
				}
				if i+1 < len(c.args) {
					if !c.args[i+1].Literal {
						c.add(Opaque, BuiltAtRunTime.By(c.name, "", ""))
					}
					stmts = append(stmts, c.args[i+1].Value)
				}
			}
			i += sqliteOptsWithValue[name]
			continue
		}
		if db == nil {
			d := w
			db = &d
			continue
		}
		if !w.Literal {
			c.add(Opaque, BuiltAtRunTime.By(c.name, "", ""))
		}
		stmts = append(stmts, v)
	}
	stmts, ok := c.sqlInput(stmts, true)
	if !ok {
		return
	}
	writes := false
	var attached []shell.Word
	for _, text := range stmts {
		var sql strings.Builder
		for _, line := range strings.Split(text, "\n") {
			if t := strings.TrimSpace(line); strings.HasPrefix(t, ".") {
				writes = c.sqliteDot(t) || writes
				continue
			}
			sql.WriteString(line)
			sql.WriteByte('\n')
		}
		q := sql.String()
		if strings.TrimSpace(q) == "" {
			continue
		}
		n := len(c.a.out.Findings)
		c.sql(q, true)
		for _, f := range c.a.out.Findings[n:] {
			if f.Class != Read {
				writes = true
			}
		}
		attached = append(attached, c.sqliteFiles(q)...)
	}
	if db != nil {
		if d := sqliteFile(*db); d.Value != "" {
			switch {
			case readonly:
				c.path(OpRead, d)
			case writes:
				c.write(d)
			default:
				// sqlite3 creates the database file, empty, when it is
				// missing, even to read from it: in the project, where a
				// walled step may write. Outside it the wall stops that
				// empty file, and reading is all the step does.
				c.path(OpRead, d)
				if !c.outOfScope(d) {
					c.path(OpWrite, d)
				}
			}
		}
	}
	for _, w := range attached {
		if writes {
			c.write(w)
		} else {
			c.path(OpRead, w)
		}
	}
}

// sqliteFile is the file a database argument names: a file: URI loses its
// scheme and query; :memory: and the empty name are none.
func sqliteFile(w shell.Word) shell.Word {
	v := w.Value
	if rest, ok := strings.CutPrefix(v, "file:"); ok {
		v, _, _ = strings.Cut(rest, "?")
		w = shell.Word{Raw: v, Value: v, Literal: w.Literal}
	}
	if v == ":memory:" || v == "" {
		return shell.Word{}
	}
	return w
}

// sqliteDot classifies one dot-command; it reports whether it writes the
// database.
func (c *cmd) sqliteDot(line string) bool {
	args := sqliteArgs(line[1:])
	if len(args) == 0 {
		return false
	}
	name := args[0]
	lit := func(v string) shell.Word { return shell.Word{Raw: v, Value: v, Literal: true} }
	// A name that is the prefix of several commands is read as the one
	// that does most: a program first, then a file written.
	for _, r := range sqliteDotRuns {
		if strings.HasPrefix(r, name) && r != "open" {
			c.add(Opaque, RunsOptionProgram.By(c.name, "."+r, ""))
			return false
		}
	}
	if w := c.sqliteDotWrite(name, args); w >= 0 {
		return w == 1
	}
	if strings.HasPrefix("open", name) {
		// The statements after it go to another database.
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") {
				c.path(OpWrite, lit(a))
				c.add(LocalWrite, LocalWork.By(c.name, ".open "+a, ""))
			}
		}
		return false
	}
	for _, r := range sqliteDotReads {
		if strings.HasPrefix(r, name) {
			return false
		}
	}
	c.add(Opaque, UnknownVerb.By(c.name, "."+name, ""))
	return false
}

// sqliteDotWrite classifies a dot-command that writes or reads a file:
// -1 when name is none of them, 1 when it writes the database, 0 if not.
func (c *cmd) sqliteDotWrite(name string, args []string) int {
	lit := func(v string) shell.Word { return shell.Word{Raw: v, Value: v, Literal: true} }
	for _, r := range sqliteDotWrites {
		if !strings.HasPrefix(r, name) {
			continue
		}
		var files []string
		for _, a := range args[1:] {
			if strings.HasPrefix(a, "-") && len(a) > 1 {
				if r == "once" || r == "output" {
					if a == "-x" || a == "-e" || strings.HasPrefix(a, "--x") {
						c.add(Opaque, RunsOptionProgram.By(c.name, r, a))
					}
				}
				continue
			}
			files = append(files, a)
		}
		if len(files) > 0 && strings.HasPrefix(files[0], "|") {
			c.add(Opaque, RunsOptionProgram.By(c.name, r, ""))
			return 0
		}
		switch r {
		case "import", "restore":
			if len(files) > 0 {
				f := files[0]
				if r == "restore" && len(files) > 1 {
					f = files[1]
				}
				c.path(OpRead, lit(f))
			}
			c.add(LocalWrite, ChangesDatabase.By(c.name, r, ""))
			return 1
		case "testcase":
			c.add(LocalWrite, ChangesProject.By(c.name, ".testcase", ""))
			c.cwdWrite()
			return 0
		}
		if len(files) == 0 {
			return 0
		}
		f := files[len(files)-1]
		switch f {
		case "off", "stdout", "stderr":
			return 0
		}
		c.write(lit(f))
		return 0
	}
	return -1
}

// sqliteArgs splits a dot-command's arguments as sqlite3 does: blanks
// separate them, quotes group them.
func sqliteArgs(s string) []string {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if q := s[0]; q == '\'' || q == '"' {
			end := strings.IndexByte(s[1:], q)
			if end < 0 {
				out = append(out, s[1:])
				break
			}
			out = append(out, s[1:end+1])
			s = s[end+2:]
			continue
		}
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

// sqliteFiles reads the files SQL names: ATTACH and VACUUM INTO name
// databases (returned); writefile() writes its file and readfile() reads
// its own, each named by a literal or else unknown; edit() runs an editor.
func (c *cmd) sqliteFiles(q string) []shell.Word {
	u := strings.ToUpper(q)
	var dbs []shell.Word
	for _, kw := range []string{"ATTACH", "INTO", "TO"} {
		for i := 0; ; {
			j := strings.Index(u[i:], kw)
			if j < 0 {
				break
			}
			j += i
			i = j + len(kw)
			if j > 0 && isWordByte(u[j-1]) || i < len(u) && isWordByte(u[i]) {
				continue
			}
			rest := strings.TrimLeft(q[i:], " \t\n")
			if kw == "ATTACH" && strings.HasPrefix(strings.ToUpper(rest), "DATABASE") {
				rest = strings.TrimLeft(rest[len("DATABASE"):], " \t\n")
			}
			if kw == "INTO" && !containsKeyword(u[:j], "VACUUM") || kw == "TO" && !containsKeyword(u[:j], "COPY") {
				continue
			}
			if kw == "TO" {
				// COPY … TO 'file' writes the file, whatever the database
				if name, ok := sqlString(rest); ok {
					c.write(lit(name))
				} else if !strings.HasPrefix(strings.ToUpper(rest), "STDOUT") {
					c.add(Opaque, BuiltAtRunTime.By(c.name, "COPY TO", ""))
				}
				continue
			}
			if name, ok := sqlString(rest); ok {
				if f := sqliteFile(shell.Word{Raw: name, Value: name, Literal: true}); f.Value != "" {
					dbs = append(dbs, f)
				}
			} else {
				c.add(Opaque, BuiltAtRunTime.By(c.name, kw, ""))
			}
		}
	}
	if c.name == "duckdb" && (containsKeyword(u, "LOAD") || containsKeyword(u, "INSTALL")) {
		c.add(Opaque, RunsUnread.By(c.name, "", ""))
	}
	for _, fn := range []string{"WRITEFILE", "READFILE", "EDIT", "LOAD_EXTENSION", "FTS3_TOKENIZER"} {
		for i := 0; ; {
			j := strings.Index(u[i:], fn)
			if j < 0 {
				break
			}
			j += i
			i = j + len(fn)
			if j > 0 && isWordByte(u[j-1]) {
				continue
			}
			rest := strings.TrimLeft(q[i:], " \t\n")
			if !strings.HasPrefix(rest, "(") {
				continue
			}
			name, ok := sqlString(strings.TrimLeft(rest[1:], " \t\n"))
			switch {
			case fn == "EDIT" || fn == "LOAD_EXTENSION" || fn == "FTS3_TOKENIZER":
				c.add(Opaque, RunsOptionProgram.By(c.name, strings.ToLower(fn), ""))
			case !ok:
				c.add(Opaque, BuiltAtRunTime.By(c.name, strings.ToLower(fn), ""))
			case fn == "WRITEFILE":
				c.write(shell.Word{Raw: name, Value: name, Literal: true})
			default:
				c.path(OpRead, shell.Word{Raw: name, Value: name, Literal: true})
			}
		}
	}
	return dbs
}

// sqlString reads the SQL string literal s starts with.
func sqlString(s string) (string, bool) {
	if !strings.HasPrefix(s, "'") {
		return "", false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] == '\'' {
			if i+1 < len(s) && s[i+1] == '\'' {
				b.WriteByte('\'')
				i++
				continue
			}
			return b.String(), true
		}
		b.WriteByte(s[i])
	}
	return "", false
}

// sqliteArchive: sqlite3 -A runs .archive: -x extracts into the working
// folder or -C DIR, -c, -u and -i write the database, -t lists.
func (c *cmd) sqliteArchive(db *shell.Word, args []shell.Word) {
	extract, write := false, false
	var dest *shell.Word
	var files []shell.Word
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case v == "-C" || v == "--directory":
			if i+1 < len(args) {
				d := args[i+1]
				dest = &d
				i++
			}
		case v == "-f" || v == "--file":
			if i+1 < len(args) {
				d := args[i+1]
				db = &d
				i++
			}
		case strings.HasPrefix(v, "--"):
			extract = extract || v == "--extract"
			write = write || v == "--create" || v == "--update" || v == "--insert"
		case strings.HasPrefix(v, "-"):
			extract = extract || strings.Contains(v, "x")
			write = write || strings.ContainsAny(v, "cui")
		case db == nil:
			d := w
			db = &d
		default:
			files = append(files, w)
		}
	}
	switch {
	case extract:
		c.add(LocalWrite, ChangesProject.By(c.name, "-A", ""))
		c.extracts(dest, files, false)
	case write:
		c.add(LocalWrite, ChangesProject.By(c.name, "-A", ""))
		if db != nil {
			c.write(*db)
		}
		c.readSecrets()
		return
	default:
		c.add(Read, OnlyReads.By(c.name, "-A", ""))
	}
	if db != nil {
		c.path(OpRead, *db)
	}
}

// psqlMeta reads psql's meta-commands (psql(1)): \o, \g, \w, \s and
// \lo_export write the file they name, \copy … to writes it and \copy …
// from reads it; a pipe to a program, \i and the editors run what sayso
// cannot read.
func (c *cmd) psqlMeta(q string) {
	for i := strings.IndexByte(q, '\\'); i >= 0; {
		rest := q[i+1:]
		j := 0
		for j < len(rest) && (rest[j] >= 'a' && rest[j] <= 'z' || rest[j] == '_') {
			j++
		}
		name := rest[:j]
		line := rest[j:]
		if k := strings.IndexAny(line, "\n"); k >= 0 {
			line = line[:k]
		}
		if k := strings.Index(line, `\\`); k >= 0 {
			line = line[:k]
		}
		args := sqliteArgs(line)
		file := func(op Op, f string) {
			switch {
			case f == "" || f == "stdout" || f == "stdin" || f == "pstdout" || f == "pstdin":
			case strings.HasPrefix(f, "|"):
				c.add(Opaque, RunsOptionProgram.By("psql", name, ""))
			case op == OpWrite:
				c.add(LocalWrite, WritesPath.By("psql", name, f))
				c.write(lit(f))
			default:
				c.path(OpRead, lit(f))
			}
		}
		switch name {
		case "o", "out", "g", "gx", "w", "write", "s":
			if len(args) > 0 {
				file(OpWrite, args[0])
			}
		case "lo_export":
			if len(args) > 1 {
				file(OpWrite, args[1])
			}
		case "lo_import":
			if len(args) > 0 {
				file(OpRead, args[0])
			}
		case "copy":
			for k, a := range args {
				if (strings.EqualFold(a, "to") || strings.EqualFold(a, "from")) && k+1 < len(args) {
					f := args[k+1]
					if strings.EqualFold(f, "program") {
						c.add(Opaque, RunsOptionProgram.By("psql", "\\copy", ""))
						break
					}
					if strings.EqualFold(a, "to") {
						file(OpWrite, f)
					} else {
						file(OpRead, f)
					}
					break
				}
			}
		case "i", "include", "ir", "include_relative", "e", "edit", "ef", "ev", "cd", "setenv":
			c.add(Opaque, RunsUnread.By("psql", name, ""))
		}
		n := strings.IndexByte(rest, '\\')
		if n < 0 {
			break
		}
		i = i + 1 + n
	}
}

// outOfScope reports whether every path w may name lies outside the
// folders a walled step may write (the project's, the temporary ones); a
// path sayso cannot know is not.
func (c *cmd) outOfScope(w shell.Word) bool {
	ps := c.a.resolve(w)
	for _, p := range ps {
		if c.a.ctx.InScope(p) || c.a.ctx.Scratch(p) {
			return false
		}
	}
	return len(ps) > 0
}
