package wall

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestControlSocketsSpellings: a master connection whose ControlPath ssh
// reads through an Include, spells with $HOME or ${HOME}, with a comment
// after it or quotes inside it, is among the sockets hidden from walled
// steps.
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
	commented := listen(filepath.Join(tmp, "c", "0123abcd"))
	spaced := listen(filepath.Join(tmp, "d e", "0123abcd"))
	single := listen(filepath.Join(tmp, "s", "0123abcd"))
	must(t, os.WriteFile(filepath.Join(ssh, "config"), []byte(
		"Include config.d/*\n"+
			"Include \""+filepath.Join(tmp, "abs.conf")+"\"\n"+
			"Match host *\n\tControlPath ${HOME}/.cm/%C\n"+
			"Host x\n\tCONTROLPATH=$HOME/.cb/%h\n"+
			"Host y\n\tControlPath "+tmp+"/c/%C # shared\n"+
			"Host z\n\tControlPath "+tmp+"/\"d e\"/%C\n"+
			"Host w\n\tControlPath '"+tmp+"/s/%C'\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(ssh, "config.d", "work"), []byte("Host *\n ControlPath "+tmp+"/inc/%r@%h\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(tmp, "abs.conf"), []byte("ControlPath\t\""+tmp+"/q/%r@%h\"\n"), 0o600))
	got := controlSockets(home)
	for _, want := range []string{included, quoted, braces, bare, commented, spaced, single} {
		if !slices.Contains(got, want) {
			t.Errorf("controlSockets left out %s: %q", want, got)
		}
	}
}

// TestEgressMetadataSpellings: a name leading to a cloud's metadata
// service by an address other than 169.254.169.254 itself — the IPv6
// one of EC2's, the link-local one inside an IPv6 address (NAT64,
// IPv4-mapped, IPv4-compatible, 6to4), or a cloud's service that is not
// link-local (Alibaba's, Oracle's, Azure's wire server) — is not
// dialled.
func TestEgressMetadataSpellings(t *testing.T) {
	for _, s := range []string{"fd00:ec2::254", "64:ff9b::a9fe:a9fe", "64:ff9b::169.254.0.1",
		"::ffff:169.254.169.254", "::a9fe:a9fe", "2002:a9fe:a9fe::1", "169.254.0.23",
		"100.100.100.200", "192.0.0.192", "168.63.129.16", "::ffff:100.100.100.200", "2002:6464:64c8::"} {
		ip := net.ParseIP(s)
		dialled := ""
		e := &Egress{
			Hosts: []string{"git.example.org"},
			Lookup: func(ctx context.Context, host string) ([]net.IPAddr, error) {
				return []net.IPAddr{{IP: ip}}, nil
			},
			Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
				dialled = addr
				return nil, &net.OpError{Op: "dial", Net: network, Err: net.UnknownNetworkError("test")}
			},
		}
		e.dial(context.Background(), "git.example.org:80")
		if dialled != "" {
			t.Errorf("a name leading to %s: the proxy dialled %s", s, dialled)
		}
	}
}

// TestAttackControlMasterIncluded: a master connection whose ControlPath
// lies in a file ~/.ssh/config includes, a comment after it, is not
// reached from a wall.
func TestAttackControlMasterIncluded(t *testing.T) {
	need(t)
	w := newWorld(t)
	tmp := sessionTemp(t)
	must(t, os.MkdirAll(filepath.Join(w.home, ".ssh", "config.d"), 0o700))
	must(t, os.WriteFile(filepath.Join(w.home, ".ssh", "config"), []byte("Include config.d/*\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(w.home, ".ssh", "config.d", "work"),
		[]byte("Host *\n\tControlMaster auto\n\tControlPath "+tmp+"/cm-%C # shared\n"), 0o600))
	master := openDoor(t, "unix", filepath.Join(tmp, "cm-0123abcd"))
	env := []string{"HOME=" + w.home, "TMPDIR=" + tmp, "SSH_AUTH_SOCK="}
	step := `for s in "$TMPDIR"/cm-*; do ` + helperEnv + `=1 ` + quote(launcher(t)) + ` dial "$s" 2>/dev/null && echo "reached $s"; done; true`
	for name, p := range map[string]Profile{"read": w.profile(Read), "local": w.profile(Local)} {
		if r := client(t, w.root, p.Wrap(step, launcher(t)), "", env...); r.code != 0 || strings.Contains(r.stdout, "reached") {
			t.Errorf("%s: a walled step reached ssh's master connection: %+v", name, r)
		}
	}
	if len(reached(t, master)) > 0 {
		t.Error("ssh's master connection was reached from a wall")
	}
	plain := exec.Command("bash", "-c", step)
	plain.Env = append(os.Environ(), env...)
	if out, _ := plain.CombinedOutput(); !strings.Contains(string(out), "reached") {
		t.Fatalf("run plain, the loop did not reach the master connection (%q)", out)
	}
}
