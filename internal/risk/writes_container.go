package risk

import (
	"path"
	"strings"

	"github.com/sayso-dev/sayso/internal/shell"
)

// dockerWrites records the local files a container CLI writes: docker cp
// to a local destination, save and export -o, and build's and buildx
// build's --output (docker cp, save, export, build and buildx build
// --help; podman-cp(1)).
func dockerWrites(c *cmd, sub, verb string) {
	v := sub
	skip := 1
	switch sub {
	case "container", "image", "buildx", "builder":
		v, skip = verb, 2
	}
	switch v {
	case "cp":
		ops := c.operands()
		if len(ops) < skip+2 {
			return
		}
		src, dst := ops[skip], ops[len(ops)-1]
		if containerSpec(dst.Value) {
			return
		}
		c.write(dst)
		name := src.Value
		if containerSpec(name) {
			name = name[strings.IndexByte(name, ':')+1:]
		}
		if b := path.Base(name); src.Literal && b != "." && b != "/" && b != "" && !strings.HasSuffix(name, "/.") {
			if c.mayBeFolder(dst) {
				c.path(OpWrite, joinWord(dst, b))
			}
		} else {
			c.writesUnder(dst)
		}
	case "save", "export":
		c.outputs([]string{"-o", "--output"}, []string{"-o"})
	case "build", "bake":
		for i := 0; i < len(c.args); i++ {
			o, next, ok := optValue(c.args, i, []string{"-o", "--output"}, nil)
			if !ok {
				continue
			}
			if next {
				i++
			}
			dest := o.Value
			if strings.Contains(dest, "=") {
				dest = ""
				for _, kv := range strings.Split(o.Value, ",") {
					if k, val, _ := strings.Cut(kv, "="); k == "dest" {
						dest = val
					}
				}
			}
			if dest != "" && dest != "-" {
				c.writesUnder(shell.Word{Raw: dest, Value: dest, Literal: o.Literal})
			}
		}
	}
}

// containerSpec reports whether a docker cp operand names a path in a
// container (CONTAINER:PATH) rather than a local path.
func containerSpec(v string) bool {
	i := strings.IndexByte(v, ':')
	return i > 0 && !strings.Contains(v[:i], "/")
}
