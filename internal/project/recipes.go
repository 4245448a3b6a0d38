package project

import (
	"os"
	"path/filepath"
	"strings"
)

// makeRecipes reads the project's Makefile into its targets' recipe
// lines; "" is the first target, make's default. It reads rules as make
// writes them plainly (target: prerequisites, then tab-led lines) and
// leaves what it cannot read out: the step then runs what it does not
// know of, and is judged by its name alone — unless the Makefile has
// rules sayso cannot read (an included file, another recipe prefix, a
// pattern or computed rule), marked by the key "%", no target's name.
func makeRecipes(root string) map[string][]string {
	var b []byte
	for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
		var err error
		if b, err = os.ReadFile(filepath.Join(root, name)); err == nil {
			break
		}
	}
	if len(b) == 0 || len(b) > 1<<20 {
		return nil
	}
	out := map[string][]string{}
	var current []string
	first := true
	lines := strings.Split(strings.ReplaceAll(string(b), "\\\n", " "), "\n")
	for _, line := range lines {
		if strings.HasPrefix(line, "\t") {
			for _, t := range current {
				out[t] = append(out[t], strings.TrimPrefix(line, "\t"))
			}
			continue
		}
		current = nil
		trim := strings.TrimSpace(line)
		for _, p := range []string{"include", "-include", "sinclude", ".RECIPEPREFIX", "define", "MAKEFILES"} {
			if strings.HasPrefix(trim, p+" ") || strings.HasPrefix(trim, p+"\t") || strings.HasPrefix(trim, p+"=") || strings.HasPrefix(trim, p+":") || strings.HasPrefix(trim, p+"+") || strings.HasPrefix(trim, p+"?") {
				out["%"] = nil
			}
		}
		if strings.Contains(line, "$(eval") || strings.Contains(line, "${eval") {
			out["%"] = nil
		}
		head, rest, ok := strings.Cut(line, ":")
		if !ok || strings.ContainsAny(head, "=#") || strings.HasPrefix(strings.TrimSpace(rest), "=") {
			continue
		}
		if strings.ContainsAny(head, "$%") {
			out["%"] = nil // a pattern or a computed rule: a target may run it
			continue
		}
		_, inline, hasInline := strings.Cut(rest, ";")
		for _, t := range strings.Fields(head) {
			if strings.HasPrefix(t, ".") {
				continue
			}
			current = append(current, t)
			if first {
				current = append(current, "")
				first = false
			}
		}
		if hasInline {
			for _, t := range current {
				out[t] = append(out[t], strings.TrimSpace(inline))
			}
		}
	}
	return out
}
