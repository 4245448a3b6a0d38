package wall

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestControlSocketsSpellings: a master connection whose ControlPath ssh
// reads through an Include, or spells with $HOME or ${HOME}, is among the
// sockets hidden from walled steps.
func TestControlSocketsSpellings(t *testing.T) {
	home := t.TempDir()
	tmp := t.TempDir()
	ssh := filepath.Join(home, ".ssh")
	must(t, os.MkdirAll(filepath.Join(ssh, "config.d"), 0o700))
	listen := func(p string) string {
		must(t, os.MkdirAll(filepath.Dir(p), 0o700))
		ln, err := net.Listen("unix", p)
		must(t, err)
		t.Cleanup(func() { ln.Close() })
		return p
	}
	included := listen(filepath.Join(tmp, "inc", "git@github.com"))
	quoted := listen(filepath.Join(tmp, "q", "git@gitlab.com"))
	braces := listen(filepath.Join(home, ".cm", "a"))
	bare := listen(filepath.Join(home, ".cb", "b"))
	must(t, os.WriteFile(filepath.Join(ssh, "config"), []byte(
		"Include config.d/*\n"+
			"Include \""+filepath.Join(tmp, "abs.conf")+"\"\n"+
			"Match host *\n\tControlPath ${HOME}/.cm/%C\n"+
			"Host x\n\tCONTROLPATH=$HOME/.cb/%h\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(ssh, "config.d", "work"), []byte("Host *\n ControlPath "+tmp+"/inc/%r@%h\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(tmp, "abs.conf"), []byte("ControlPath\t\""+tmp+"/q/%r@%h\"\n"), 0o600))
	got := controlSockets(home)
	for _, want := range []string{included, quoted, braces, bare} {
		if !slices.Contains(got, want) {
			t.Errorf("controlSockets left out %s: %q", want, got)
		}
	}
}
