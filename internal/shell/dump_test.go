package shell

import (
	"fmt"
	"os"
	"testing"
)

func TestDump(t *testing.T) {
	src := os.Getenv("DUMP")
	if src == "" {
		t.Skip()
	}
	s := Parse(src)
	for _, o := range s.Opaque {
		fmt.Printf("OPAQUE %v %s\n", o.Pos, o.Why)
	}
	for i, g := range s.Segments {
		fmt.Printf("%d: args=%q assigns=%d redirs=%+v wrappers=%v via=%v many=%v loop=%v inline=%v pipe=%d/%d opaque=%v\n", i, Words(g.Args), len(g.Assigns), g.Redirs, g.Wrappers, g.Via, g.Many, g.Loop, g.Inline, g.Pipeline, g.Stage, g.Opaque)
	}
}
