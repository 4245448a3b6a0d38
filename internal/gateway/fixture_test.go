package gateway_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/cli"
	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/gateway"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/testenv"
	"github.com/sayso-dev/sayso/internal/web"
)

// The tests of this package run the real gateway in-process, as sayso
// serve builds it: the store in a temporary state folder, the hooks'
// socket, the person's page and the hosts' API on 127.0.0.1.

func TestMain(m *testing.M) {
	// Cards wait as long as clients wait, as in sayso serve.
	hook.Timeout = client.DecideTimeout * time.Second
	os.Exit(m.Run())
}

// gw is one running gateway over a state folder that outlives it.
type gw struct {
	t       *testing.T
	state   string
	config  string
	project string // a git project the steps run in
	socket  string
	// personSocket is where the person's CLI asks for a login link.
	personSocket string
	timeout      time.Duration

	db     *store.DB
	g      *gateway.Gateway
	base   string // http://127.0.0.1:PORT
	port   string
	cancel context.CancelFunc
	done   chan error
}

// startGateway makes a state folder and starts a gateway over it.
func startGateway(t *testing.T, cardTimeout time.Duration) *gw {
	t.Helper()
	root := t.TempDir()
	f := &gw{t: t, state: filepath.Join(root, "state"), config: filepath.Join(root, "config"), project: filepath.Join(root, "proj"), timeout: cardTimeout}
	for _, d := range []string{f.state, f.config, filepath.Join(f.project, ".git")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("SAYSO_STATE_DIR", f.state)
	t.Setenv("SAYSO_CONFIG_DIR", f.config)
	// The hooks run in-process, as 'sayso --state-dir … --config-dir …
	// hook claude' that sayso install writes: the folders are fixed for
	// every command this test runs, once, before any hook runs.
	if err := paths.Fix(f.state, f.config); err != nil {
		t.Fatal(err)
	}
	f.socket = filepath.Join(f.state, "sayso.sock")
	f.personSocket = filepath.Join(f.state, "person.sock")
	f.start()
	t.Cleanup(f.stop)
	return f
}

// start opens the store and serves, as sayso serve does.
func (f *gw) start() {
	t := f.t
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	db, err := store.Open(ctx, filepath.Join(f.state, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := gateway.Listen(f.socket)
	if err != nil {
		t.Fatal(err)
	}
	pln, err := gateway.Listen(f.personSocket)
	if err != nil {
		t.Fatal(err)
	}
	// A restart serves on the same address, as sayso serve --addr does:
	// the person's tab is an origin, port included.
	tcp, err := listenAgain("127.0.0.1:" + cmp.Or(f.port, "0"))
	if err != nil {
		t.Fatal(err)
	}
	// The decisions are under test here, not the launcher: its path is
	// never run.
	pins := client.FilePins{Path: filepath.Join(f.state, "pins.json")}
	d := &gateway.Decider{DB: db, Home: filepath.Dir(f.project), ConfigDir: f.config, Protected: paths.Protected(),
		Forwarders: &gateway.Forwarders{Pins: pins},
		Walls:      hook.Walls{Launcher: "/sayso-test/sayso-wall", Home: filepath.Dir(f.project)}}
	g, err := gateway.New(gateway.Config{Decider: d, Addr: tcp.Addr().String(), CardTimeout: f.timeout,
		Waits: func(agent, event string) time.Duration { return client.Waits(pins, agent, event) }})
	if err != nil {
		t.Fatal(err)
	}
	f.db, f.g, f.cancel, f.done = db, g, cancel, make(chan error, 1)
	f.base = "http://" + tcp.Addr().String()
	_, f.port, _ = net.SplitHostPort(tcp.Addr().String())
	go func() { f.done <- g.Serve(ctx, gateway.Listeners{Hooks: ln, Person: pln, Page: tcp}) }()
}

// listenAgain listens on addr, waiting a little for a port the last
// gateway's shutdown has just let go.
func listenAgain(addr string) (net.Listener, error) {
	var err error
	for deadline := time.Now().Add(testenv.Hang); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var ln net.Listener
		if ln, err = net.Listen("tcp", addr); err == nil {
			return ln, nil
		}
	}
	return nil, err
}

// stop shuts the gateway down and closes the store; start opens it again.
func (f *gw) stop() {
	if f.cancel == nil {
		return
	}
	f.cancel()
	if err := <-f.done; err != nil {
		f.t.Errorf("serve: %v", err)
	}
	f.db.Close()
	f.cancel = nil
}

// claudeInput is Claude Code's PreToolUse JSON for a Bash command.
func (f *gw) claudeInput(session, command string) []byte {
	b, _ := json.Marshal(map[string]any{
		"session_id":      session,
		"transcript_path": "/home/p/.claude/projects/x/" + session + ".jsonl",
		"cwd":             f.project,
		"prompt_id":       "turn-1",
		"permission_mode": "default",
		"hook_event_name": "PreToolUse",
		"tool_name":       "Bash",
		"tool_input":      map[string]string{"command": command, "description": "x"},
		"tool_use_id":     "toolu_1",
	})
	return b
}

// hook runs `sayso hook claude` in-process, as Claude Code would: it
// hands its input to the gateway over the socket. It returns the
// permission decision the client reads.
func (f *gw) hook(session, command string) string {
	var out, errb bytes.Buffer
	code := cli.Main([]string{"hook", "claude"}, &cli.Env{Stdin: bytes.NewReader(f.claudeInput(session, command)), Stdout: &out, Stderr: &errb})
	if code != 0 {
		return fmt.Sprintf("exit %d: %s", code, errb.String())
	}
	return permission(out.Bytes())
}

// ask sends a hook request straight to the socket, as answerHook does.
func (f *gw) ask(agent string, input []byte) (gateway.Reply, error) {
	return gateway.Ask(f.socket, gateway.Request{Agent: agent, Input: input}, 30*time.Second)
}

// permission is the decision in Claude Code's PreToolUse answer.
func permission(stdout []byte) string {
	var v struct {
		Out struct {
			Decision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(stdout, &v); err != nil {
		return "unreadable: " + string(stdout)
	}
	return v.Out.Decision
}

// waitCard waits for a card about step to wait on the gateway.
func (f *gw) waitCard(step string) card.Card {
	f.t.Helper()
	var card card.Card
	testenv.Wait(f.t, "a card for "+step, func() (bool, string) {
		cs := f.g.Cards.List()
		for _, c := range cs {
			if c.Step == step {
				card = c
				return true, ""
			}
		}
		return false, fmt.Sprintf("%d other cards", len(cs))
	})
	return card
}

// rules are the patterns of the rules kept.
func (f *gw) rules() []string {
	f.t.Helper()
	rs, err := f.db.Rules(context.Background())
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, r := range rs {
		out = append(out, r.Pattern)
	}
	return out
}

// answers are the ledger's answer rows.
func (f *gw) answers() []string {
	f.t.Helper()
	rows, err := f.db.Log(context.Background(), store.LogFilter{})
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		if r.Kind == store.KindAnswer || r.Kind == store.KindRuleKept || r.Kind == store.KindSessionHeld {
			out = append(out, r.Kind+" "+r.Summary)
		}
	}
	return out
}

// nothingKept fails when a rule, an answer or a hold reached the store.
func (f *gw) nothingKept() {
	f.t.Helper()
	if rs := f.rules(); len(rs) != 0 {
		f.t.Errorf("rules kept: %q", rs)
	}
	if as := f.answers(); len(as) != 0 {
		f.t.Errorf("the ledger holds: %q", as)
	}
}

// webClient is an HTTP client with cookies that follows no redirect.
func webClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// login is the person's client and the session's anti-CSRF token.
func (f *gw) login() (*http.Client, string) {
	f.t.Helper()
	c := webClient()
	res, err := c.Get(f.g.Page.LoginURL())
	if err != nil {
		f.t.Fatal(err)
	}
	res.Body.Close()
	_, tab, ok := strings.Cut(res.Header.Get("Location"), "#tab=")
	if !ok || tab == "" {
		f.t.Fatalf("the login redirect %q hands over no tab key", res.Header.Get("Location"))
	}
	c.Transport = tabTransport(tab)
	body, code := f.get(c, "/", nil)
	if code != http.StatusOK {
		f.t.Fatalf("after login GET / = %d", code)
	}
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(body)
	if m == nil {
		f.t.Fatal("no csrf field on the page")
	}
	return c, m[1]
}

// tabTransport sends the tab's key on every request that sets none, as
// the page's script does.
type tabTransport string

func (t tabTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if _, set := r.Header[web.TabHeader]; !set {
		r = r.Clone(r.Context())
		r.Header.Set(web.TabHeader, string(t))
	}
	return http.DefaultTransport.RoundTrip(r)
}

func (f *gw) get(c *http.Client, path string, hdr http.Header) (string, int) {
	f.t.Helper()
	req, _ := http.NewRequest("GET", f.base+path, nil)
	for k, v := range hdr {
		req.Header[k] = v
	}
	if h := hdr.Get("Host"); h != "" {
		req.Host = h
	}
	res, err := c.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b), res.StatusCode
}

// post sends a form as the page would, from the served origin, unless
// hdr says otherwise ("Origin": "" leaves the Origin out).
func (f *gw) post(c *http.Client, path string, form url.Values, hdr http.Header) (int, string) {
	f.t.Helper()
	code, body, _ := f.send(c, path, form, hdr)
	return code, body
}

// press answers card id as the page's first press does. An allow of a
// step that needs it confirmed is refused (428) with a confirm, which
// form then carries, due web.ConfirmAfter later; anything else is the
// answer's reply.
func (f *gw) press(c *http.Client, id string, form url.Values) (int, string) {
	f.t.Helper()
	code, body, h := f.send(c, "/cards/"+id+"/answer", form, nil)
	if confirm := h.Get(web.ConfirmHeader); code == http.StatusPreconditionRequired && confirm != "" {
		form.Set("confirm", confirm)
	}
	return code, body
}

// answer is the person's whole answer to card id on the page: pressed,
// and where the step needs it, confirmed a moment later.
func (f *gw) answer(c *http.Client, id string, form url.Values) (int, string) {
	f.t.Helper()
	code, body := f.press(c, id, form)
	if form.Get("confirm") == "" {
		return code, body
	}
	time.Sleep(card.ConfirmAfter)
	return f.post(c, "/cards/"+id+"/answer", form, nil)
}

func (f *gw) send(c *http.Client, path string, form url.Values, hdr http.Header) (int, string, http.Header) {
	f.t.Helper()
	req, _ := http.NewRequest("POST", f.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", f.base)
	for k, v := range hdr {
		req.Header[k] = v
	}
	if o, ok := hdr["Origin"]; ok && len(o) == 1 && o[0] == "" {
		req.Header.Del("Origin")
	}
	if h := hdr.Get("Host"); h != "" {
		req.Host = h
		req.Header.Del("Host")
	}
	res, err := c.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

// api calls the hosts' API with token ("" sends none).
func (f *gw) api(method, path, token string, body any, hdr http.Header) (int, map[string]any) {
	f.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, f.base+path, r)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	if h := hdr.Get("Host"); h != "" {
		req.Host = h
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	var v map[string]any
	b, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(b, &v); err != nil {
		f.t.Fatalf("%s %s: status %d, body not JSON: %s", method, path, res.StatusCode, b)
	}
	return res.StatusCode, v
}

func answerForm(csrf, answer string) url.Values {
	v := url.Values{"answer": {answer}}
	if csrf != "" {
		v.Set("csrf", csrf)
	}
	return v
}

func storeHost(name string) store.NewHost { return store.NewHost{Name: name} }
