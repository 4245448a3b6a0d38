package risk

import (
	"path"
	"strconv"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// Paths are judged after the expansions bash would do, in bash's order
// (bash(1), EXPANSION): braces, then the tilde forms, the parameters sayso
// can know ($HOME, $PWD, a loop's variable, a variable the step surely
// sets to one value before) and the substitutions that name the working
// folder, its parent or the project's top ($(pwd), $(dirname "$PWD"),
// $(git rev-parse --show-toplevel)), then quote removal; /proc/self/cwd
// and /proc/PID/root are followed. Whatever else a word holds leaves it
// unknown, and an unknown path is unknown to every check: it is never in
// scope, never proven free of secrets, never proven clear of sayso's files.

// maxExpansions bounds the words one brace word may stand for; past it the
// path is unknown.
const maxExpansions = 64

// expandWord returns the texts w stands for in folder cwd, each a path
// relative to cwd or absolute, or nil when it cannot be known. cwd is ""
// when the folder is unknown.
func (a *assessor) expandWord(w shell.Word, cwd string) []string {
	if w.Plain() {
		return []string{w.Value}
	}
	if a.depth > 4 {
		return nil // a loop's words naming another loop's variable, and so on
	}
	a.depth++
	defer func() { a.depth-- }()
	raws := []string{w.Raw}
	if w.Brace {
		raws = braces(w.Raw, 0)
		if raws == nil {
			return nil
		}
	}
	var out []string
	for _, r := range raws {
		vs := a.expandText(r, cwd)
		if vs == nil || len(out)+len(vs) > maxExpansions {
			return nil
		}
		out = append(out, vs...)
	}
	return out
}

// expandText expands one word's source text after brace expansion into
// the texts it may stand for: more than one when it holds a loop's
// variable.
func (a *assessor) expandText(raw, cwd string) []string {
	outs := []string{""}
	add := func(s string) {
		for k := range outs {
			outs[k] += s
		}
	}
	// addAll appends each of vs to each text so far.
	addAll := func(vs []string) bool {
		if len(vs) == 1 {
			add(vs[0])
			return true
		}
		if len(outs)*len(vs) > maxExpansions {
			return false
		}
		next := make([]string, 0, len(outs)*len(vs))
		for _, o := range outs {
			for _, v := range vs {
				next = append(next, o+v)
			}
		}
		outs = next
		return true
	}
	// split: an unquoted expansion is split into words and globbed; one
	// that would be split is unknown.
	split := func(vs []string, dbl bool) bool {
		for _, v := range vs {
			if !dbl && strings.ContainsAny(v, " \t\n") {
				return false
			}
		}
		return true
	}
	i := 0
	if strings.HasPrefix(raw, "~") {
		end := strings.IndexByte(raw, '/')
		if end < 0 {
			end = len(raw)
		}
		prefix := raw[1:end]
		if strings.ContainsAny(prefix, `'"\$`+"`") {
			return nil // a quoted tilde prefix: bash would not expand it
		}
		home, ok := a.tilde(prefix, cwd)
		if !ok {
			return nil
		}
		add(home)
		i = end
	}
	dbl := false
	for i < len(raw) {
		c := raw[i]
		switch {
		case c == '"':
			dbl = !dbl
			i++
		case c == '\'' && !dbl:
			j := strings.IndexByte(raw[i+1:], '\'')
			if j < 0 {
				return nil
			}
			add(raw[i+1 : i+1+j])
			i += j + 2
		case c == '\\':
			if i+1 >= len(raw) {
				return nil
			}
			n := raw[i+1]
			if dbl && !strings.ContainsRune("$`\"\\", rune(n)) {
				add("\\")
			}
			if n != '\n' {
				add(string(n))
			}
			i += 2
		case c == '$' && strings.HasPrefix(raw[i:], "$("):
			j := strings.IndexByte(raw[i:], ')')
			if j < 0 {
				return nil
			}
			v, ok := a.substitution(raw[i+2:i+j], cwd)
			if !ok || !split([]string{v}, dbl) {
				return nil
			}
			add(v)
			i += j + 1
		case c == '`':
			j := strings.IndexByte(raw[i+1:], '`')
			if j < 0 {
				return nil
			}
			v, ok := a.substitution(raw[i+1:i+1+j], cwd)
			if !ok || !split([]string{v}, dbl) {
				return nil
			}
			add(v)
			i += j + 2
		case c == '$' && special(raw[i:]) != nil:
			vs, n := special(raw[i:]), specialLen(raw[i:])
			if !addAll(vs) {
				return nil
			}
			i += n
		case c == '$':
			name, n := paramName(raw[i:])
			if n == 0 {
				return nil
			}
			vs := a.param(name, cwd)
			if vs == nil || !split(vs, dbl) || !addAll(vs) {
				return nil
			}
			i += n
		default:
			add(string(c))
			i++
		}
	}
	if dbl {
		return nil
	}
	return outs
}

// tilde expands a tilde prefix: ~ and ~user of the home's owner, ~root,
// ~+ (the working folder); ~- (the previous one) and other users stay
// unknown.
func (a *assessor) tilde(prefix, cwd string) (string, bool) {
	home := a.ctx.Home
	switch {
	case prefix == "":
		return home, home != ""
	case prefix == "+":
		return cwd, cwd != ""
	case prefix == "root":
		return "/root", true
	case home != "" && prefix == path.Base(home):
		return home, true
	}
	return "", false
}

// special is the values bash gives the special parameter at the start of
// s (bash(1), Special Parameters), or nil when s starts with another
// expansion: $$ and $? are a number, $# and ${#NAME} (a length) too; $!
// is a number, or nothing before a job ran in the background; $- is the
// shell's flags, letters that may be none. Each stands for one value of
// each shape it may take: a number is never a folder's name that climbs
// (.., /), and an empty value is judged as one ($HOME/$! is the home).
// $0, $_, $@, $* and the positional parameters are what the step hands
// the shell or ran last (bash -c 'rm -rf "$0"' /, ls /; rm -rf "$_"):
// they stay unknown.
func special(s string) []string {
	switch n := specialLen(s); {
	case n == 0:
		return nil
	case strings.ContainsAny(s[:n], "!"):
		return []string{"", "1"}
	case strings.ContainsAny(s[:n], "-") && !strings.HasPrefix(s, "${#"):
		return []string{"", "hB"}
	}
	return []string{"1"}
}

// specialLen is the length of the special parameter at the start of s,
// in braces or not; 0 when none.
func specialLen(s string) int {
	if len(s) < 2 || s[0] != '$' {
		return 0
	}
	if strings.ContainsRune("$!?#-", rune(s[1])) {
		return 2
	}
	if len(s) >= 4 && s[1] == '{' && strings.ContainsRune("$!?#-", rune(s[2])) && s[3] == '}' {
		return 4
	}
	if strings.HasPrefix(s, "${#") {
		if j := strings.IndexByte(s, '}'); j > 3 && validName(s[3:j]) {
			return j + 1
		}
	}
	return 0
}

// paramName reads $NAME or ${NAME} at the start of s and returns the name
// and the length read; 0 when it is another expansion.
func paramName(s string) (string, int) {
	if strings.HasPrefix(s, "${") {
		j := strings.IndexByte(s, '}')
		if j < 0 || !validName(s[2:j]) {
			return "", 0
		}
		return s[2:j], j + 1
	}
	j := 1
	for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || j > 1 && s[j] >= '0' && s[j] <= '9') {
		j++
	}
	if j == 1 {
		return "", 0
	}
	return s[1:j], j
}

func validName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// param is the values a parameter sayso can know may hold: $HOME, $PWD,
// and a variable the step sets: a loop's variable is each of its words, an
// assigned one its value. Where it may also hold something sayso does not
// know (a value from before the step, one read from input, two values of
// which sayso does not follow which holds), the values are still judged,
// and a.partial says the rest is unknown. $OLDPWD and variables the step
// does not set hold what they held before the step: nil.
func (a *assessor) param(name, cwd string) []string {
	switch name {
	case "HOME":
		if a.ctx.Home == "" {
			return nil
		}
		return []string{a.ctx.Home}
	case "PWD":
		if cwd == "" {
			return nil
		}
		return []string{cwd}
	case "TMPDIR":
		// What the client's environment holds, unless the step sets it.
		if t := a.ctx.TempDir; path.IsAbs(t) && a.cur >= 0 && a.cur < len(a.script.Segments) && a.untouched(name) {
			return []string{path.Clean(t)}
		}
	}
	if a.cur < 0 || a.cur >= len(a.script.Segments) {
		return nil
	}
	vals, sure := a.stepVar(name, cwd)
	if !sure {
		a.partial = true
	}
	return vals
}

// stepVar returns the values the step gives name, and whether they are
// all it may hold where segment a.cur runs. They are: inside a loop that
// binds it, when nothing else in the step sets it; elsewhere, when every
// assignment of it gives one value, one of them stands alone (or after
// export) and surely runs before (not after && or ||, in a branch, loop,
// function, subshell or pipeline), and nothing else sets it (a word naming
// it: read, printf -v, unset, declare -n; ${v=…}; a sourced file, an eval
// of built text).
func (a *assessor) stepVar(name, cwd string) ([]string, bool) {
	key := name + "\x00" + cwd
	f, ok := a.varFacts[key]
	if !ok {
		if a.inVar[name] {
			return nil, false // a variable whose value holds itself
		}
		if a.inVar == nil {
			a.inVar = map[string]bool{}
		}
		a.inVar[name] = true
		f = a.facts(name, cwd)
		delete(a.inVar, name)
		if a.varFacts == nil {
			a.varFacts = map[string]varFacts{}
		}
		a.varFacts[key] = f
	}
	if len(f.vals) == 0 {
		return nil, false
	}
	inLoop := false
	for _, v := range a.script.Segments[a.cur].Vars {
		if v.Name == name {
			inLoop = true
		}
	}
	sure := !f.partial
	if inLoop {
		sure = sure && !f.assigned
	} else {
		sure = sure && !f.looped && f.firstSure >= 0 && f.firstSure < a.cur && len(f.vals) == 1
	}
	return f.vals, sure
}

// untouched reports whether nothing in the step sets name: it holds what
// it held before the step.
func (a *assessor) untouched(name string) bool {
	return len(a.varIndex()[name]) == 0 && !a.setElsewhere(name) && !a.unreadCode
}

// varFacts is what the whole step does to one variable.
type varFacts struct {
	vals      []string // every value a loop or an assignment gives it
	partial   bool     // it may hold something else too
	assigned  bool     // an assignment sets it
	looped    bool     // a loop binds it
	firstSure int      // the first segment that surely sets it, standing alone; -1 when none
}

func (a *assessor) facts(name, cwd string) varFacts {
	f := varFacts{partial: a.setElsewhere(name) || a.unreadCode, firstSure: -1}
	expand := func(w shell.Word) []string {
		saved := a.partial
		a.partial = false
		vs := a.expandWord(w, cwd)
		if a.partial {
			f.partial = true // a variable its value holds may hold more
		}
		a.partial = saved
		return vs
	}
	add := func(vs []string) {
		if vs == nil {
			f.partial = true
		}
		for _, v := range vs {
			if !contains(f.vals, v) {
				if len(f.vals) >= maxExpansions {
					f.partial = true
					return
				}
				f.vals = append(f.vals, v)
			}
		}
	}
	for _, b := range a.varIndex()[name] {
		seg := &a.script.Segments[b.seg]
		if b.loop != nil {
			f.looped = true
			if !b.loop.Known {
				f.partial = true
			}
			for _, it := range b.loop.Items {
				add(expand(it))
			}
			continue
		}
		as := b.assign
		f.assigned = true
		alone := len(seg.Args) == 0 || len(seg.Args) == 1 && seg.Args[0].Value == "export"
		if f.firstSure < 0 && alone && !seg.Maybe && len(seg.Wrappers) == 0 {
			f.firstSure = b.seg
		}
		if as.Array || as.Append {
			f.partial = true
			continue
		}
		w := as.Value
		w.Brace, w.Glob = false, false // an assignment is not brace-expanded or globbed
		if w.Literal && !w.Tilde {
			add([]string{w.Value})
		} else {
			add(expand(w))
		}
	}
	return f
}

// binding is one place the step sets a variable: a loop or an assignment.
type binding struct {
	seg    int
	loop   *shell.Var
	assign *shell.Assign
}

// varIndex lists, per variable, the loops and assignments of the step
// that set it, in order; built once.
func (a *assessor) varIndex() map[string][]binding {
	if a.vars != nil {
		return a.vars
	}
	a.vars = map[string][]binding{}
	var last []shell.Var
	for i := range a.script.Segments {
		seg := &a.script.Segments[i]
		// Segments of one loop share its slice of variables.
		if len(seg.Vars) > 0 && (len(last) != len(seg.Vars) || &last[0] != &seg.Vars[0]) {
			for k := range seg.Vars {
				if !sameVar(last, seg.Vars, k) {
					v := &seg.Vars[k]
					a.vars[v.Name] = append(a.vars[v.Name], binding{seg: i, loop: v})
				}
			}
			last = seg.Vars
		}
		for k := range seg.Assigns {
			as := &seg.Assigns[k]
			a.vars[as.Name] = append(a.vars[as.Name], binding{seg: i, assign: as})
		}
	}
	return a.vars
}

// sameVar reports whether loop variable k of vars is the one of last.
func sameVar(last, vars []shell.Var, k int) bool {
	return k < len(last) && last[k].Name == vars[k].Name && len(last[k].Items) == len(vars[k].Items) &&
		(len(vars[k].Items) == 0 || &last[k].Items[0] == &vars[k].Items[0])
}

// setElsewhere reports whether the step may set name other than by an
// assignment: a word naming it (read, printf -v, unset, declare -n…) or
// ${name=…}. assigned records the names the step assigns.
func (a *assessor) setElsewhere(name string) bool {
	if a.setVars == nil {
		a.setVars = map[string]bool{}
		a.assigned = map[string]bool{}
		for i := range a.script.Segments {
			seg := &a.script.Segments[i]
			if n := seg.Name(); n == "source" || n == "." || n == "eval" && !seg.Inline || len(seg.Args) > 0 && !seg.Args[0].Literal {
				a.unreadCode = true
			}
			for _, as := range seg.Assigns {
				a.assigned[as.Name] = true
			}
			for _, w := range seg.Args {
				if w.Literal {
					a.setVars[w.Value] = true
				}
				if strings.Contains(w.Raw, "=") {
					for _, p := range w.Params {
						a.setVars[p] = true
					}
				}
			}
			for _, r := range seg.Redirs {
				if strings.Contains(r.Target.Raw, "=") {
					for _, p := range r.Target.Params {
						a.setVars[p] = true
					}
				}
			}
		}
		if len(a.script.Opaque) > 0 {
			a.unreadCode = true
		}
	}
	return a.setVars[name]
}

// substitution is the output of the command substitutions that name the
// working folder or its parent.
func (a *assessor) substitution(code, cwd string) (string, bool) {
	code = strings.TrimSpace(code)
	if cwd == "" {
		return "", false
	}
	switch code {
	case "pwd", "pwd -L", "pwd -P", "realpath .", "readlink -f .":
		return cwd, true
	case `dirname "$PWD"`, "dirname $PWD", `dirname "${PWD}"`, "dirname ${PWD}":
		return path.Dir(cwd), true
	case "git rev-parse --show-toplevel":
		// The project's root is the top of its repository.
		return a.ctx.Root, a.ctx.Root != "" && within(cwd, a.ctx.Root)
	}
	if listsHere(code) {
		// Files below the working folder, whatever their names.
		return cwd + "/*", true
	}
	return "", false
}

// listsHere reports whether code only lists files below the working
// folder: git ls-files or git diff --name-only without a path that leaves
// it, find from a folder below it without following links.
func listsHere(code string) bool {
	if strings.ContainsAny(code, "|;&<>$`\\(){}") || strings.Contains(code, "..") {
		return false
	}
	f := strings.Fields(code)
	for _, w := range f {
		if strings.HasPrefix(strings.Trim(w, `'"`), "/") || strings.HasPrefix(w, "~") {
			return false
		}
	}
	switch {
	case len(f) >= 2 && f[0] == "git" && f[1] == "ls-files":
		return true
	case len(f) >= 3 && f[0] == "git" && f[1] == "diff" && (contains(f, "--name-only") || contains(f, "--name-status")):
		return true
	case len(f) >= 2 && f[0] == "find" && !strings.HasPrefix(f[1], "-") &&
		!contains(f, "-L") && !contains(f, "-H") && !contains(f, "-follow") &&
		!contains(f, "-exec") && !contains(f, "-execdir") && !contains(f, "-delete") && !contains(f, "-ok") && !contains(f, "-fprint"):
		return true
	}
	return false
}

// braces performs bash's brace expansion on the source text of a word: a
// comma list {a,b} or a sequence {a..e}, {1..10}, {01..10..2}, outside
// quotes and not after $. nil when it would make more than maxExpansions
// words or the text cannot be read.
func braces(raw string, depth int) []string {
	if depth > 8 {
		return nil
	}
	open, close, items := braceAt(raw)
	if open == -2 {
		return nil
	}
	if open < 0 {
		return []string{raw}
	}
	pre, post := raw[:open], raw[close+1:]
	var out []string
	for _, it := range items {
		rests := braces(it+post, depth+1)
		if rests == nil {
			return nil
		}
		for _, rest := range rests {
			if len(out) >= maxExpansions {
				return nil
			}
			out = append(out, pre+rest)
		}
	}
	return out
}

// braceAt finds the first brace expression of raw that bash expands and
// returns its bounds and items; open is -1 when there is none, -2 when one
// makes more words than sayso follows.
func braceAt(raw string) (int, int, []string) {
	quote := byte(0)
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == '{' && (i == 0 || raw[i-1] != '$'):
			if j, items := braceItems(raw, i); j > 0 {
				return i, j, items
			} else if j < 0 {
				return -2, -2, nil
			}
		}
	}
	return -1, -1, nil
}

// braceItems reads the brace expression opening at raw[open]: its closing
// index and its items, 0 when bash would leave it as it is, -1 when it
// makes more words than sayso follows.
func braceItems(raw string, open int) (int, []string) {
	depth, start := 0, open+1
	var items []string
	quote := byte(0)
	for i := open + 1; i < len(raw); i++ {
		c := raw[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == '{':
			depth++
		case c == '}' && depth > 0:
			depth--
		case c == ',' && depth == 0:
			items = append(items, raw[start:i])
			start = i + 1
		case c == '}':
			if items != nil {
				return i, append(items, raw[start:i])
			}
			seq, over := sequence(raw[open+1 : i])
			if over {
				return -1, nil
			}
			if seq != nil {
				return i, seq
			}
			return 0, nil
		}
	}
	return 0, nil
}

// sequence expands the body of {x..y[..incr]}: letters or integers. over
// is true when it makes more than maxExpansions words.
func sequence(body string) (out []string, over bool) {
	parts := strings.Split(body, "..")
	if len(parts) < 2 || len(parts) > 3 {
		return nil, false
	}
	incr := 1
	if len(parts) == 3 {
		n, err := strconv.Atoi(parts[2])
		if err != nil {
			return nil, false
		}
		if n < 0 {
			n = -n
		}
		if n != 0 {
			incr = n
		}
	}
	x, y := parts[0], parts[1]
	if len(x) == 1 && len(y) == 1 && letter(x[0]) && letter(y[0]) {
		step := incr
		if x[0] > y[0] {
			step = -incr
		}
		for c := int(x[0]); step > 0 && c <= int(y[0]) || step < 0 && c >= int(y[0]); c += step {
			if len(out) >= maxExpansions {
				return nil, true
			}
			out = append(out, string(rune(c)))
		}
		return out, false
	}
	a, err1 := strconv.Atoi(x)
	b, err2 := strconv.Atoi(y)
	if err1 != nil || err2 != nil {
		return nil, false
	}
	width := 0
	if len(x) > 1 && (x[0] == '0' || strings.HasPrefix(x, "-0")) || len(y) > 1 && (y[0] == '0' || strings.HasPrefix(y, "-0")) {
		width = max(len(x), len(y))
	}
	step := incr
	if a > b {
		step = -incr
	}
	for n := a; step > 0 && n <= b || step < 0 && n >= b; n += step {
		if len(out) >= maxExpansions {
			return nil, true
		}
		s := strconv.Itoa(n)
		for len(s) < width {
			if n < 0 {
				s = "-0" + s[1:]
			} else {
				s = "0" + s
			}
		}
		out = append(out, s)
	}
	return out, false
}

func letter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// procPath follows what a path through /proc names: /proc/self/cwd (and
// thread-self) is the working folder, /proc/PID/root and /proc/*/root the
// root, as another process of this machine sees it. It reads the path one
// name at a time, as the kernel does, so that .. after a link leaves the
// folder the link names. ok is false for a path through another process's
// cwd, a descriptor (/proc/*/fd/N) or /proc/*/exe: sayso cannot know where
// they go.
func procPath(p, cwd string) (string, bool) {
	if !strings.HasPrefix(p, "/proc/") && p != "/proc" {
		return p, true
	}
	var stack []string
	names := strings.Split(p, "/")
	for i := 0; i < len(names); i++ {
		n := names[i]
		switch n {
		case "", ".":
			continue
		case "..":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		}
		stack = append(stack, n)
		if len(stack) == 3 && stack[0] == "proc" {
			self := stack[1] == "self" || stack[1] == "thread-self"
			pid := self || isNumber(stack[1]) || strings.ContainsAny(stack[1], "*?[")
			switch {
			case !pid:
			case n == "root":
				stack = stack[:0]
			case n == "cwd" && self:
				if cwd == "" {
					return "", false
				}
				stack = strings.Split(strings.TrimPrefix(cwd, "/"), "/")
			case n == "cwd" || n == "exe" || n == "fd" || n == "map_files" || n == "task":
				if i < len(names)-1 {
					return "", false
				}
			}
		}
	}
	return "/" + strings.Join(stack, "/"), true
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
