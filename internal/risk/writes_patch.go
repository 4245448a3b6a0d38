package risk

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// Patches: git apply, git am and patch write the files their patch names.
// When the patch is literal in the step (a here-doc, a here-string, or a
// here-doc piped from cat) sayso reads the names from it; a patch read
// from a file or from a program's output names files sayso cannot know.

// patchWrites records the files a patch writes. files are the patch files
// the command reads (none: its input); strips are the path components
// taken off each name (-p; a negative one keeps only the base name); the
// names are read from dir when hasDir.
func (c *cmd) patchWrites(files []shell.Word, strips []int, dir shell.Word, hasDir bool) {
	for _, f := range files {
		c.path(OpRead, f)
		c.unknownWrite(c.name + " writes the files the patch " + f.Raw + " names")
	}
	if len(files) > 0 {
		return
	}
	text, ok := c.stdinText()
	if !ok {
		c.unknownWrite(c.name + " writes the files the patch on its input names")
	}
	for _, name := range patchNames(text) {
		for _, n := range stripName(name, strips) {
			w := shell.Word{Raw: n, Value: n, Literal: true}
			if hasDir && !path.IsAbs(n) {
				w = joinWord(dir, n)
			}
			c.path(OpWrite, w)
		}
	}
}

// unknownWrite records a write whose path cannot be known: it is out of
// every scope.
func (c *cmd) unknownWrite(raw string) {
	c.a.out.Paths = append(c.a.out.Paths, PathUse{Op: OpWrite, Raw: raw, Segment: c.i})
}

// stdinText is what the segment reads on its input when the step holds
// it literally: a here-doc or here-string, or the here-doc of a cat in
// the pipeline stage before it. ok is false when the input cannot be read.
func (c *cmd) stdinText() (string, bool) {
	text, ok, found := inputOf(c.seg)
	if found {
		return text, ok
	}
	if c.seg.Pipeline == 0 || c.seg.Stage == 0 {
		return "", false
	}
	stages := c.a.stages[c.seg.Pipeline]
	for _, j := range stages {
		prev := &c.a.script.Segments[j]
		if prev.Stage != c.seg.Stage-1 {
			continue
		}
		if prev.Name() != "cat" || len(prev.Args) > 1 {
			return "", false
		}
		text, ok, found := inputOf(prev)
		return text, ok && found
	}
	return "", false
}

// inputOf reads a segment's here-doc or here-string: found when it has
// one, ok when its text is exact. A later redirect of the input wins.
func inputOf(seg *shell.Segment) (text string, ok, found bool) {
	for _, r := range seg.Redirs {
		switch {
		case r.Input() && (r.Fd == "" || r.Fd == "0"):
			text, ok, found = r.Body, r.BodyLiteral, true
		case r.Reads() && (r.Fd == "" || r.Fd == "0"):
			text, ok, found = "", false, true
		}
	}
	return text, ok, found
}

// patchNames reads the file names a unified or git diff names: the "---"
// and "+++" lines, "diff --git" lines, and git's rename and copy lines
// (those already without their a/ and b/, marked with a leading "\x00").
func patchNames(text string) []string {
	var out []string
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		line = strings.TrimSuffix(line, "\r")
		switch {
		case strings.HasPrefix(line, "+++ ") || strings.HasPrefix(line, "--- "):
			name := line[4:]
			if i := strings.IndexByte(name, '\t'); i >= 0 {
				name = name[:i]
			}
			if name = unquoteName(name); name != "/dev/null" && name != "" {
				out = append(out, name)
			}
		case strings.HasPrefix(line, "diff --git "):
			rest := line[len("diff --git "):]
			if a, b, ok := strings.Cut(rest, " b/"); ok && strings.HasPrefix(a, "a/") {
				out = append(out, unquoteName(a), "b/"+unquoteName(b))
			} else {
				for _, f := range strings.Fields(rest) {
					out = append(out, unquoteName(f))
				}
			}
		case strings.HasPrefix(line, "rename from ") || strings.HasPrefix(line, "rename to ") ||
			strings.HasPrefix(line, "copy from ") || strings.HasPrefix(line, "copy to "):
			_, name, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(line, "rename "), "copy "), " ")
			out = append(out, "\x00"+unquoteName(name))
		}
	}
	return out
}

// unquoteName takes the quotes off a name git quoted ("a/x y").
func unquoteName(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return strings.ReplaceAll(s[1:len(s)-1], `\"`, `"`)
	}
	return s
}

// stripName gives the names a patch tool may write for name, one per
// strip count: n leading components taken off, or the base name when n
// is negative. Names marked "\x00" are already stripped.
func stripName(name string, strips []int) []string {
	if rest, ok := strings.CutPrefix(name, "\x00"); ok {
		return []string{rest}
	}
	out := make([]string, 0, len(strips))
	for _, n := range strips {
		s := name
		switch {
		case n < 0:
			s = path.Base(name)
		default:
			for k := 0; k < n && s != ""; k++ {
				i := strings.IndexByte(s, '/')
				if i < 0 {
					s = ""
					break
				}
				s = s[i+1:]
			}
		}
		if s != "" && !containsString(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func patchCmdFamily() family {
	return family{names: []string{"patch"}, classify: patchCmd}
}

// patchCmd classifies GNU patch: it writes the file it is given, the -o
// file, a reject file, or else the files the patch names (patch(1)).
func patchCmd(c *cmd) {
	if c.has("--dry-run", "-C", "--check") {
		c.add(Read, DryRun.By("patch", "--dry-run", ""))
		return
	}
	c.add(LocalWrite, ChangesProject.By("patch", "", ""))
	strips := []int{0, 1, -1}
	var dir shell.Word
	hasDir, wroteOut := false, false
	var input []shell.Word
	var ops []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		v := w.Value
		if v == "--" {
			ops = append(ops, c.args[i+1:]...)
			break
		}
		if val, next, ok := optValue(c.args, i, []string{"-o", "--output"}, []string{"-o"}); ok {
			c.write(val)
			wroteOut = true
			if next {
				i++
			}
			continue
		}
		if val, next, ok := optValue(c.args, i, []string{"-r", "--reject-file"}, []string{"-r"}); ok {
			c.write(val)
			if next {
				i++
			}
			continue
		}
		if val, next, ok := optValue(c.args, i, []string{"-i", "--input"}, []string{"-i"}); ok {
			input = append(input, val)
			if next {
				i++
			}
			continue
		}
		if val, next, ok := optValue(c.args, i, []string{"-d", "--directory"}, []string{"-d"}); ok {
			dir, hasDir = val, true
			if next {
				i++
			}
			continue
		}
		if val, next, ok := optValue(c.args, i, []string{"-p", "--strip"}, []string{"-p"}); ok {
			strips = []int{atoiOr(val.Value, 0)}
			if next {
				i++
			}
			continue
		}
		switch {
		case v == "-B" || v == "--prefix" || v == "-z" || v == "--suffix" || v == "-Y" || v == "--basename-prefix" ||
			v == "-D" || v == "--ifdef" || v == "-F" || v == "--fuzz" || v == "-V" || v == "--version-control" ||
			v == "-g" || v == "--get" || v == "--quoting-style" || v == "--reject-format" || v == "--read-only":
			i++
		case strings.HasPrefix(v, "-") && v != "-":
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) >= 2 {
		input = append(input, ops[1])
	}
	if len(ops) >= 1 {
		// patch ORIGINAL: the file given is the one patched.
		if !wroteOut {
			if hasDir && !ops[0].Tilde && !path.IsAbs(ops[0].Value) {
				c.write(joinWord(dir, ops[0].Value))
			} else {
				c.write(ops[0])
			}
		}
		for _, f := range input {
			c.path(OpRead, f)
		}
		return
	}
	if wroteOut {
		for _, f := range input {
			c.path(OpRead, f)
		}
		return
	}
	c.patchWrites(input, strips, dir, hasDir)
}
