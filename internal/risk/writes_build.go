package risk

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// Build tools, formatters, converters and compressors that write files
// named by an option, their last operand, or their operands in place.
// Read from each tool's --help or manual: prettier, black, ruff, rustfmt,
// clang-format, eslint, isort, autopep8, yapf, shfmt, goimports,
// dos2unix, openssl, pandoc, esbuild, tsc, webpack, rollup, vite, swc,
// babel, protoc, magick, ffmpeg, gzip, bzip2, xz, zstd, lz4, 7z, cpio.

// writeSpec says which files a program writes.
type writeSpec struct {
	out      []string // options whose value is a file or folder written
	attached []string // short options whose value may be attached
	inPlace  []string // options that make it rewrite its operands; nil: never, "*": always
	unless   []string // options that make it only check or print
	last     bool     // its last operand is written
}

var writeSpecs = map[string]writeSpec{
	"prettier":     {inPlace: []string{"--write", "-w"}, unless: []string{"--check", "-c", "--list-different", "-l"}},
	"black":        {inPlace: []string{"*"}, unless: []string{"--check", "--diff", "-c", "--code"}},
	"rustfmt":      {inPlace: []string{"*"}, unless: []string{"--check", "--emit=stdout"}},
	"clang-format": {inPlace: []string{"-i"}},
	"eslint":       {inPlace: []string{"--fix"}, out: []string{"-o", "--output-file"}},
	"isort":        {inPlace: []string{"*"}, unless: []string{"--check-only", "--check", "-c", "--diff", "--stdout", "-d"}},
	"autopep8":     {inPlace: []string{"-i", "--in-place"}},
	"yapf":         {inPlace: []string{"-i", "--in-place"}},
	"shfmt":        {inPlace: []string{"-w", "--write"}},
	"goimports":    {inPlace: []string{"-w"}},
	"dos2unix":     {inPlace: []string{"*"}, out: []string{"-n", "--newfile"}},
	"unix2dos":     {inPlace: []string{"*"}, out: []string{"-n", "--newfile"}},
	"openssl":      {out: []string{"-out", "-keyout"}},
	"pandoc":       {out: []string{"-o", "--output", "--extract-media"}, attached: []string{"-o"}},
	"esbuild":      {out: []string{"--outfile", "--outdir", "--metafile"}},
	"tsc":          {out: []string{"--outDir", "--outFile", "--declarationDir", "--tsBuildInfoFile", "--outdir", "--outfile"}},
	"webpack":      {out: []string{"-o", "--output-path"}},
	"rollup":       {out: []string{"-o", "--file", "-d", "--dir"}},
	"vite":         {out: []string{"--outDir"}},
	"swc":          {out: []string{"-o", "--out-file", "-d", "--out-dir"}},
	"babel":        {out: []string{"-o", "--out-file", "-d", "--out-dir"}},
	"magick":       {last: true},
	"convert":      {last: true},
	"ffmpeg":       {last: true},
	"wkhtmltopdf":  {last: true},
	"mogrify":      {inPlace: []string{"*"}},
	"protoc":       {},
	"buf":          {out: []string{"-o", "--output"}},
	"cmake":        {out: []string{"-B", "--install-prefix"}, attached: []string{"-B"}},
	"pdftoppm":     {last: true},
	"pdftotext":    {last: true},
	"sphinx-build": {last: true},
	"mkdocs":       {out: []string{"-d", "--site-dir"}},
	"hugo":         {out: []string{"-d", "--destination"}},
	"jekyll":       {out: []string{"-d", "--destination"}},
	"wasm-pack":    {out: []string{"-d", "--out-dir"}},
	"javac":        {out: []string{"-d", "-s", "-h"}},
	"kotlinc":      {out: []string{"-d"}},
	"swiftc":       {out: []string{"-o"}},
	"zig":          {out: []string{"-femit-bin"}},
	"rustc":        {out: []string{"-o", "--out-dir"}},
	"ld":           {out: []string{"-o"}, attached: []string{"-o"}},
	"strip":        {inPlace: []string{"*"}, out: []string{"-o"}},
	"objcopy":      {last: true},
	"age":          {out: []string{"-o", "--output"}},
	"rage":         {out: []string{"-o", "--output"}},
	"plantuml":     {out: []string{"-o", "-output"}},
	"mmdc":         {out: []string{"-o", "--output"}},
	"pyinstaller":  {out: []string{"--distpath", "--workpath", "--specpath"}},
	"ruff":         {},
	"php-cs-fixer": {},
	"rubocop":      {inPlace: []string{"-a", "-A", "--autocorrect", "--autocorrect-all", "--fix-layout", "-x"}},
	"standard":     {inPlace: []string{"--fix"}},
	"stylelint":    {inPlace: []string{"--fix"}, out: []string{"-o", "--output-file"}},
	"markdownlint": {inPlace: []string{"--fix"}, out: []string{"-o", "--output"}},
}

// specWrites records what a program of writeSpecs writes, and takes the
// option values it consumed out of the operands.
func (c *cmd) specWrites(sp writeSpec) {
	var rest []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		if len(sp.out) > 0 {
			if v, next, ok := optValue(c.args, i, sp.out, sp.attached); ok {
				c.write(v)
				if next {
					i++
				}
				continue
			}
		}
		if c.name == "protoc" && w.Literal && strings.HasPrefix(w.Value, "--") {
			if name, v, ok := strings.Cut(w.Value, "="); ok && strings.HasSuffix(name, "_out") {
				if j := strings.LastIndexByte(v, ':'); j >= 0 {
					v = v[j+1:]
				}
				c.write(shell.Word{Raw: v, Value: v, Literal: true})
				continue
			}
		}
		rest = append(rest, w)
	}
	c.args = rest
	ops := c.operands()
	sub := ""
	switch c.name {
	case "ruff":
		if len(ops) > 0 {
			sub, ops = ops[0].Value, ops[1:]
		}
		switch {
		case sub == "format" && !c.has("--check", "--diff"), sub == "check" && c.has("--fix", "--unsafe-fixes") && !c.has("--diff"):
			sp.inPlace = []string{"*"}
		}
	case "php-cs-fixer":
		if len(ops) > 0 && ops[0].Value == "fix" && !c.has("--dry-run") {
			sp.inPlace, ops = []string{"*"}, ops[1:]
		}
	}
	if c.has(sp.unless...) {
		return
	}
	if len(sp.inPlace) > 0 && (sp.inPlace[0] == "*" || c.has(sp.inPlace...)) {
		for _, w := range ops {
			c.write(w)
		}
		if len(ops) == 0 {
			c.writesUnderCwd()
		}
	}
	if sp.last && len(ops) > 1 && ops[len(ops)-1].Value != "-" {
		c.write(ops[len(ops)-1])
	}
}

// formatterFamily: formatters and converters of writeSpecs with no
// classifier of their own: local work in the files they name.
func formatterFamily() family {
	return family{names: []string{"clang-format", "shfmt", "autopep8", "yapf", "isort", "dos2unix", "unix2dos",
		"mogrify", "objcopy", "stylelint", "standard", "pyinstaller"}, classify: formatter}
}

func formatter(c *cmd) {
	c.add(LocalWrite, ChangesProject.By(c.name, "", ""))
	c.specWrites(writeSpecs[c.name])
	c.readSecrets()
	c.cwdWrite()
}

// compressSuffixes maps a compressor to the suffix it adds.
var compressSuffixes = map[string]string{
	"gzip": ".gz", "gunzip": ".gz", "bzip2": ".bz2", "bunzip2": ".bz2", "xz": ".xz", "unxz": ".xz",
	"zstd": ".zst", "unzstd": ".zst", "lz4": ".lz4", "unlz4": ".lz4", "lzma": ".lzma", "unlzma": ".lzma",
}

// compressorFamily: gzip and its kin.
func compressorFamily() family {
	return family{names: []string{"gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "unlz4",
		"lzma", "unlzma"}, classify: compressor}
}

// compressor: gzip and its kin replace each file with its compressed or
// decompressed form (zstd and lz4 keep the source unless told to remove
// it), or write -o FILE; -c, -l and -t write nothing.
func compressor(c *cmd) {
	decompress := strings.HasPrefix(c.name, "un") || c.name == "gunzip" || c.has("-d", "--decompress", "--uncompress") || c.shortFlag('d')
	c.add(LocalWrite, ChangesProject.By(c.name, "", ""))
	if c.has("-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test") || c.shortFlag('c') && !strings.HasPrefix(c.name, "zstd") {
		c.readOperands()
		return
	}
	keeps := c.name == "zstd" || c.name == "unzstd" || c.name == "lz4" || c.name == "unlz4"
	if c.has("-k", "--keep") || c.shortFlag('k') {
		keeps = true
	}
	if c.has("--rm") {
		keeps = false
	}
	var ops []shell.Word
	wroteOut := false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		if (c.name == "zstd" || c.name == "unzstd" || c.name == "lz4") && w.Literal && (w.Value == "-o" || w.Value == "--output-dir-flat") {
			if i+1 < len(c.args) {
				c.write(c.args[i+1])
				wroteOut = true
				i++
			}
			continue
		}
		switch {
		case w.Literal && (w.Value == "-S" || w.Value == "--suffix" || w.Value == "-T" || w.Value == "--threads" || w.Value == "-D" || w.Value == "--memory"):
			i++
		case w.Literal && strings.HasPrefix(w.Value, "-") && w.Value != "-":
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) == 0 {
		return // from input to output
	}
	suffix := compressSuffixes[c.name]
	for _, w := range ops {
		if !keeps {
			// replaced by its new form, not destroyed: written, not deleted
			c.write(w)
		} else {
			c.path(OpRead, w)
		}
		if wroteOut {
			continue
		}
		v := w.Value
		switch {
		case !decompress:
			v += suffix
		case strings.HasSuffix(v, ".tgz"):
			v = strings.TrimSuffix(v, ".tgz") + ".tar"
		default:
			v = strings.TrimSuffix(strings.TrimSuffix(v, suffix), ".z")
			if v == w.Value {
				v = strings.TrimSuffix(v, path.Ext(v))
			}
		}
		c.write(shell.Word{Raw: v, Value: v, Literal: w.Literal, Tilde: w.Tilde})
	}
}

func sevenZipFamily() family {
	return family{names: []string{"7z", "7za", "7zz"}, classify: sevenZip}
}

// sevenZip: 7z x and e extract into -oDIR or the working folder (the
// members it names, or all), a, u, d and rn write the archive (7z --help).
func sevenZip(c *cmd) {
	var dest *shell.Word
	var ops []shell.Word
	for _, w := range c.args {
		switch {
		case w.Literal && strings.HasPrefix(w.Value, "-o") && len(w.Value) > 2:
			d := valueWord(w, "-o")
			dest = &d
		case w.Literal && strings.HasPrefix(w.Value, "-") && len(w.Value) > 1:
			// a switch: -y, -si, -so…
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) == 0 {
		c.add(Read, OnlyReads.By(c.name, "", ""))
		return
	}
	verb := ops[0].Value
	ops = ops[1:]
	switch verb {
	case "x", "e":
		c.add(LocalWrite, ChangesProject.By(c.name, verb, ""))
		if c.has("-so") {
			return
		}
		if len(ops) > 0 {
			c.path(OpRead, ops[0])
			ops = ops[1:]
		}
		if verb == "e" {
			for i, m := range ops {
				if m.Literal && !m.Glob {
					b := path.Base(m.Value)
					ops[i] = shell.Word{Raw: b, Value: b, Literal: true}
				}
			}
		}
		c.extracts(dest, ops, false)
	case "a", "u", "d", "rn":
		c.add(LocalWrite, ChangesProject.By(c.name, verb, ""))
		if len(ops) > 0 {
			c.write(ops[0])
			c.readSecrets()
		}
	case "l", "t", "h", "i", "b":
		c.add(Read, OnlyReads.By(c.name, verb, ""))
		c.readOperands()
	default:
		// 7z's commands are single letters (7z --help); a variable or
		// another word is none sayso knows.
		c.add(Opaque, UnknownVerb.By(c.name, verb, ""))
	}
}

func cpioFamily() family { return family{names: []string{"cpio"}, classify: cpio} }

// cpio -i extracts what it reads into -D DIR or the working folder,
// keeping absolute names unless --no-absolute-filenames; -p copies into
// the folder it names; -o writes the archive to its output (cpio(1)).
func cpio(c *cmd) {
	extract := c.has("-i", "--extract") || c.shortFlag('i')
	pass := c.has("-p", "--pass-through") || c.shortFlag('p')
	var dest *shell.Word
	var ops []shell.Word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		if v, next, ok := optValue(c.args, i, []string{"-D", "--directory"}, []string{"-D"}); ok {
			dest = &v
			if next {
				i++
			}
			continue
		}
		if v, next, ok := optValue(c.args, i, []string{"-F", "--file", "-O", "-E", "--pattern-file", "-H", "--format", "-R", "--owner", "-M", "--message", "-C", "--io-size", "--rsh-command"}, nil); ok {
			if w.Value == "-O" {
				c.write(v)
			}
			if w.Value == "-F" || w.Value == "--file" {
				c.path(OpRead, v)
			}
			if next {
				i++
			}
			continue
		}
		if w.Literal && strings.HasPrefix(w.Value, "-") {
			continue
		}
		ops = append(ops, w)
	}
	switch {
	case extract:
		c.add(LocalWrite, ChangesProject.By("cpio", "-i", ""))
		if c.has("-t", "--list") || c.shortFlag('t') || c.has("--to-stdout") {
			return
		}
		c.extracts(dest, ops, false)
		if !c.has("--no-absolute-filenames") {
			c.unknownWrite("cpio -i extracts members with absolute names where they say")
			c.add(InstructionPatch, RunsLater.By("cpio", "-i", ""))
		}
	case pass:
		c.add(LocalWrite, ChangesProject.By("cpio", "-p", ""))
		if len(ops) > 0 {
			c.writesUnder(ops[len(ops)-1])
		}
	default:
		c.add(LocalWrite, ChangesProject.By("cpio", "", ""))
	}
}

// pyModuleWrites: python3 -m zipfile and tarfile extract into the folder
// they name with -e and write the archive they name with -c; venv writes
// the folders it names.
func pyModuleWrites(c *cmd, m string, rest []shell.Word) {
	c.add(LocalWrite, LocalWork.By(c.name, "-m "+m, ""))
	var ops []shell.Word
	mode := ""
	for _, w := range rest {
		switch v := w.Value; {
		case v == "-e" || v == "--extract" || v == "-c" || v == "--create" || v == "-l" || v == "--list" || v == "-t" || v == "--test":
			mode = v
		case strings.HasPrefix(v, "-") && w.Literal:
		default:
			ops = append(ops, w)
		}
	}
	switch {
	case m == "venv":
		for _, w := range ops {
			c.writesUnder(w)
		}
	case mode == "-e" || mode == "--extract":
		if len(ops) > 0 {
			c.path(OpRead, ops[0])
		}
		if len(ops) > 1 {
			c.writesUnder(ops[1])
		} else {
			c.writesUnderCwd()
		}
	case mode == "-c" || mode == "--create":
		if len(ops) > 0 {
			c.write(ops[0])
			c.args = ops[1:]
			c.readSecrets()
		}
	}
}
