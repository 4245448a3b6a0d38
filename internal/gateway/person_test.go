package gateway_test

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/cli"
	"github.com/sayso-dev/sayso/internal/gateway"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// An agent's step that reaches the hooks' socket asks it for a login link
// the way 'sayso-hook login' did: with the verb as the agent's name and no
// input. The hooks' socket answers decisions only: no link, in any form.
func TestIntruderLoginOverHooksSocket(t *testing.T) {
	f := startGateway(t, 30*time.Second)
	for _, agent := range []string{"login", "Login", "login\n", "person", "link", "serve"} {
		for _, in := range [][]byte{nil, []byte("{}"), []byte("login\n")} {
			r, err := f.ask(agent, in)
			if err != nil {
				t.Fatalf("ask as %q: %v", agent, err)
			}
			got := string(r.Stdout) + r.Stderr
			if strings.Contains(got, "/login?token=") || strings.Contains(got, "http://") {
				t.Errorf("the hooks' socket gave %q a link: %q", agent, got)
			}
			if !strings.Contains(got, "deny") {
				t.Errorf("agent %q: reply %q, want a deny", agent, got)
			}
		}
	}
	// The fast forwarder, as the agent would run it, gets no link either.
	hookBin := buildForwarder(t)
	cmd := exec.Command(hookBin, "login")
	cmd.Env = append(os.Environ(), "SAYSO_STATE_DIR="+f.state)
	cmd.Stdin = strings.NewReader("")
	out, _ := cmd.CombinedOutput()
	if bytes.Contains(out, []byte("/login?token=")) {
		t.Errorf("sayso-hook login printed a link: %s", out)
	}
}

// The person's own CLI gets a fresh link over the person's socket, each
// one working once.
func TestPersonSocketLogin(t *testing.T) {
	f := startGateway(t, 30*time.Second)
	var out, errb bytes.Buffer
	if code := cli.Main([]string{"login"}, &cli.Env{Stdout: &out, Stderr: &errb}); code != 0 {
		t.Fatalf("sayso login: exit %d: %s", code, errb.String())
	}
	link := strings.TrimSpace(out.String())
	if !strings.HasPrefix(link, f.base+"/login?token=") {
		t.Fatalf("sayso login printed %q", link)
	}
	again, err := gateway.AskLogin(f.personSocket)
	if err != nil || again == link {
		t.Fatalf("a second link: %q, %v (the first %q)", again, err, link)
	}
	c := webClient()
	res, err := c.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Errorf("the link from sayso login: status %d, want 303", res.StatusCode)
	}
	res, err = webClient().Get(link)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("the same link twice: status %d, want 401", res.StatusCode)
	}
}

// A caller in another user namespace — where the wall runs a step — is
// refused by the person's socket even when it reaches it.
func TestIntruderPersonSocketOtherNamespace(t *testing.T) {
	f := startGateway(t, 30*time.Second)
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		testenv.Missing(t, "unshare (util-linux) is missing: %v", err)
	}
	// socat-free: a tiny client is this test binary run as 'sayso login'
	// through the cli package is not possible across exec, so the built
	// sayso binary runs inside a new user namespace.
	bin := buildSayso(t)
	cmd := exec.Command(unshare, "--user", "--map-current-user", bin, "login")
	cmd.Env = append(os.Environ(), "SAYSO_STATE_DIR="+f.state)
	out, err := cmd.CombinedOutput()
	if bytes.Contains(out, []byte("/login?token=")) {
		t.Fatalf("a caller in another user namespace got a link: %s", out)
	}
	if err == nil || !bytes.Contains(out, []byte("another user namespace")) {
		if bytes.Contains(out, []byte("unshare failed")) || bytes.Contains(out, []byte("Operation not permitted")) {
			t.Fatalf("this kernel refuses an unprivileged user namespace: %s", out)
		}
		t.Errorf("sayso login in another user namespace: %v, %s; want refused", err, out)
	}
}
