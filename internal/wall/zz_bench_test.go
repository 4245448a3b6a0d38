package wall

import (
	"os"
	"testing"
)

func BenchmarkZZFingerprint(b *testing.B) {
	home, _ := os.UserHomeDir()
	in := Inputs{Hosts: []string{"proxy.golang.org"}, Session: "/tmp/x.sock", Home: home, Root: b.TempDir(), Scope: Local}
	p := For(in)
	b.Logf("paths: %d", len(p.Write)+len(p.ReadOnly)+len(p.Hidden)+len(p.Make)+len(p.Kept)+len(p.Overlay)+len(p.Absent))
	for i := 0; i < b.N; i++ {
		fingerprint(p, nil)
	}
}
