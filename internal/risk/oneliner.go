package risk

import (
	"regexp"
	"strings"
	"sync"
)

// A Python one-liner that only imports modules and prints names, their
// attributes and literals: python -c 'import django; print(django.VERSION)'.
// Importing runs the module's own code, as python -m does; nothing else
// runs, nothing is written or sent, and nothing that holds the environment
// is printed. The patterns are compiled the first time a one-liner is
// read, not at every start of a hook process.
var pyPatterns = sync.OnceValue(func() (p struct{ imports, fromImports, prints, pass, dunder *regexp.Regexp }) {
	p.imports = regexp.MustCompile(`^import\s+[A-Za-z_][\w.]*(\s+as\s+\w+)?(\s*,\s*[A-Za-z_][\w.]*(\s+as\s+\w+)?)*$`)
	p.fromImports = regexp.MustCompile(`^from\s+[A-Za-z_.][\w.]*\s+import\s+(\*|\w+(\s+as\s+\w+)?(\s*,\s*\w+(\s+as\s+\w+)?)*)$`)
	p.prints = regexp.MustCompile(`^print\(\s*([A-Za-z_][\w.]*|'[^'\\{}]*'|"[^"\\{}]*"|[0-9.]+)(\s*,\s*([A-Za-z_][\w.]*|'[^'\\{}]*'|"[^"\\{}]*"|[0-9.]+))*\s*\)$`)
	p.pass = regexp.MustCompile(`^(pass|None)$`)
	p.dunder = regexp.MustCompile(`__\w+__`)
	return p
})

// pyForbidden are names whose value or call reads secrets, runs programs,
// touches files or the network.
var pyForbidden = []string{"environ", "getenv", "environb", "open", "exec", "eval", "system", "popen", "spawn", "subprocess",
	"socket", "urllib", "request", "http", "shutil", "remove", "unlink", "rmtree", "compile", "globals", "locals", "vars",
	"setattr", "delattr", "input", "breakpoint", "write", "kill", "fork", "ctypes", "pty", "builtins", "importlib", "getpass",
	"keyring", "token", "secret", "password", "credential", "argv", "antigravity", "webbrowser", "idle", "turtle", "site"}

func importsAndPrints(code string) bool {
	if len(code) > 1000 || strings.ContainsAny(code, "\\`$") {
		return false
	}
	lower := strings.ToLower(code)
	for _, f := range pyForbidden {
		if strings.Contains(lower, f) {
			return false
		}
	}
	py := pyPatterns()
	for _, d := range py.dunder.FindAllString(code, -1) {
		switch d {
		case "__version__", "__file__", "__path__", "__name__", "__doc__":
		default:
			return false
		}
	}
	n := 0
	for _, st := range strings.FieldsFunc(code, func(r rune) bool { return r == ';' || r == '\n' }) {
		st = strings.TrimSpace(st)
		if st == "" {
			continue
		}
		if !py.imports.MatchString(st) && !py.fromImports.MatchString(st) && !py.prints.MatchString(st) && !py.pass.MatchString(st) {
			return false
		}
		n++
	}
	return n > 0
}
