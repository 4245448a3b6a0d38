package hubserver

import (
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/passkey"
)

// The person's page at the hub: the cards waiting on any of the person's
// nodes, answered with their passkey. It routes; it approves nothing. A
// yes posted here is taken by a node only when it carries the person's
// own passkey signature over exactly that node's card and verdict, made
// by a passkey the person pinned on that node from the node's own page.
// A deny needs none.
//
// It has the local page's guarantees, over TLS: a browser gets in only
// with a one-time login link ('sayso hub login', kept by its SHA-256);
// the session's cookie is Secure, HttpOnly and SameSite=Strict, and
// alone opens nothing: each tab also holds a key of its own, handed over
// in the login redirect's fragment (which no server sees) and sent by
// the page's script as PageTabHeader, which a cross-site request cannot
// set, so it is the page's anti-CSRF token as well; a change needs this
// page's Origin; a request at a Host not the hub's own name is refused;
// the page's headers forbid framing, inline script and any other origin.
//
// A passkey signs only on a page of its own relying party: the pages
// where the person enrolled it (the node's, at localhost). So the page is
// answered at https://localhost:PORT, through a tunnel when the hub runs
// elsewhere; it refuses any Host that is an IP address.

//go:embed page
var pageFS embed.FS

// Lifetimes of the page's logins.
const (
	PageLoginTTL   = 10 * time.Minute // a login link works once, within this
	PageSessionTTL = 12 * time.Hour
	// PageTabHeader carries the tab's key on every request of the page's
	// script.
	PageTabHeader = "X-Sayso-Tab"
	pageCookie    = "sayso_hub"
	maxAnswer     = 16 << 10
	maxChange     = 16 << 10 // a change's bytes: a rule, or a note of at most 2000 characters
)

// bell is the page's doorbell: the hub's listener rings a person at each
// card of theirs written or closed, and every person at each
// (re)connection, after which it may have missed some. A page's script
// waits on its person's ring for its next read, and hears no other
// person's.
type bell struct {
	mu    sync.Mutex
	epoch string           // this process's: a generation of another hub process is none of this one's
	all   uint64           // rings of every person
	gen   map[int64]uint64 // rings of one person
	ch    map[int64]chan struct{}
}

// now is person's generation of rings and a channel closed at their next.
func (b *bell) now(person int64) (string, <-chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.init()
	c := b.ch[person]
	if c == nil {
		c = make(chan struct{})
		b.ch[person] = c
	}
	return b.epoch + "." + strconv.FormatUint(b.all, 10) + "." + strconv.FormatUint(b.gen[person], 10), c
}

func (b *bell) init() {
	if b.epoch != "" {
		return
	}
	var r [8]byte
	_, _ = rand.Read(r[:])
	b.epoch = hex.EncodeToString(r[:])
	b.gen, b.ch = map[int64]uint64{}, map[int64]chan struct{}{}
}

// ring rings person, or every person for 0.
func (b *bell) ring(person int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.init()
	if person == 0 {
		b.all++
		for p, c := range b.ch {
			close(c)
			delete(b.ch, p)
		}
		return
	}
	if _, waited := b.ch[person]; !waited && b.gen[person] == 0 {
		return // a person no page of this hub waited for
	}
	b.gen[person]++
	if c := b.ch[person]; c != nil {
		close(c)
		delete(b.ch, person)
	}
}

// pageRoutes adds the person's page to mux.
func (s *Server) pageRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /.well-known/webauthn", s.wellKnown)
	mux.Handle("GET /login", s.pageGuard(http.HandlerFunc(s.pageLogin)))
	mux.Handle("GET /{$}", s.pageGuard(pageFile("page/index.html", "text/html; charset=utf-8")))
	mux.Handle("GET /page.js", s.pageGuard(pageFile("page/page.js", "text/javascript; charset=utf-8")))
	mux.Handle("GET /page/cards", s.pageGuard(http.HandlerFunc(s.pageCards)))
	mux.Handle("POST /page/cards/{id}/answer", s.pageGuard(http.HandlerFunc(s.pageAnswer)))
	mux.Handle("GET /page/ledger", s.pageGuard(http.HandlerFunc(s.pageLedger)))
	mux.Handle("POST /page/logout", s.pageGuard(http.HandlerFunc(s.pageLogout)))
	mux.Handle("GET /page/changes", s.pageGuard(http.HandlerFunc(s.pageChanges)))
	mux.Handle("POST /page/changes/{id}/sign", s.pageGuard(http.HandlerFunc(s.pageSign)))
}

func pageFile(name, ctype string) http.Handler {
	b, err := pageFS.ReadFile(name)
	if err != nil {
		panic("hubserver: " + err.Error())
	}
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", ctype)
		_, _ = w.Write(b)
	})
}

// pageGuard sets the page's security headers and refuses a Host that is
// not the hub's own name. No Strict-Transport-Security: at localhost it
// would send the node's own page, plain HTTP on loopback, to TLS.
func (s *Server) pageGuard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Cross-Origin-Opener-Policy", "same-origin")
		hd.Set("Cross-Origin-Resource-Policy", "same-origin")
		hd.Set("Cache-Control", "no-store")
		if !slices.Contains(s.pageNames(), hostName(r.Host)) {
			http.Error(w, "sayso hub: the person's page answers only at https://localhost:PORT", http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// hostName is the name in a request's Host, with or without its port
// (none at 443).
func hostName(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return host
}

// wellKnown lists the origins of the nodes' own pages at
// passkey.EnrolHost, on each port in NodePagePorts, as WebAuthn's related
// origins of the hub's name (served at https://NAME/.well-known/webauthn,
// so port 443): there a node's page makes the person a passkey for the
// hub's name, which then signs at the hub's page from any device. It lets
// those pages make and use passkeys of the hub's name and nothing more:
// a node takes a yes only when it was signed at the hub's page's origin.
func (s *Server) wellKnown(w http.ResponseWriter, r *http.Request) {
	host := hostName(r.Host)
	if host == "localhost" || !slices.Contains(s.pageNames(), host) || len(s.NodePagePorts) == 0 {
		http.NotFound(w, r)
		return
	}
	origins := make([]string, len(s.NodePagePorts))
	for i, p := range s.NodePagePorts {
		origins[i] = "http://" + net.JoinHostPort(passkey.EnrolHost, strconv.Itoa(p))
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, map[string][]string{"origins": origins})
}

// pageNames are the host names the page answers at: localhost, and the
// hub's own names. Never an IP address: a passkey's relying party is a
// domain.
func (s *Server) pageNames() []string {
	out := []string{"localhost"}
	for _, n := range s.Names {
		if net.ParseIP(n) == nil {
			out = append(out, n)
		}
	}
	return out
}

// pageLogin spends a one-time link, sets the browser's cookie and hands
// the new tab its key in the redirect's fragment.
func (s *Server) pageLogin(w http.ResponseWriter, r *http.Request) {
	person, name, err := s.Hub.SpendLogin(r.Context(), r.URL.Query().Get("token"))
	if errors.Is(err, hub.ErrLogin) {
		http.Error(w, "sayso hub: this login link was already used or has expired; ask for a new one (sayso hub login)", http.StatusUnauthorized)
		return
	}
	if err != nil {
		slog.Error("hub page: login", "err", err)
		http.Error(w, "sayso hub: the hub failed to answer; it is logged at the hub", http.StatusInternalServerError)
		return
	}
	session, tab, err := s.Hub.StartSession(r.Context(), person, PageSessionTTL)
	if err != nil {
		slog.Error("hub page: login", "err", err)
		http.Error(w, "sayso hub: the hub failed to answer; it is logged at the hub", http.StatusInternalServerError)
		return
	}
	slog.Info("hub page: logged in", "person", name)
	http.SetCookie(w, &http.Cookie{Name: pageCookie, Value: session, Path: "/", MaxAge: int(PageSessionTTL / time.Second),
		Secure: true, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	w.Header().Set("Location", "/#tab="+tab)
	w.WriteHeader(http.StatusSeeOther)
}

// person is the page's session of r; without one it tells the browser
// to log in (a change, which is every route but a GET, is "refused") and
// is false.
func (s *Server) person(w http.ResponseWriter, r *http.Request) (hub.Session, bool) {
	p, ok := s.who(r)
	if !ok {
		why := "sayso hub: log in with a link from sayso hub login"
		if r.Method != http.MethodGet {
			why = "sayso hub: refused: log in with a link from sayso hub login"
		}
		http.Error(w, why, http.StatusUnauthorized)
	}
	return p, ok
}

// who is the person of a request of the page's script: its session's
// cookie and that session's tab's key, as the hub's database holds their
// hashes; false for anything else, a failure to read them included.
func (s *Server) who(r *http.Request) (hub.Session, bool) {
	c, err := r.Cookie(pageCookie)
	if err != nil {
		return hub.Session{}, false
	}
	p, err := s.Hub.Session(r.Context(), c.Value, r.Header.Get(PageTabHeader))
	if err != nil {
		if !errors.Is(err, hub.ErrSession) {
			slog.Error("hub page: session", "err", err)
		}
		return hub.Session{}, false
	}
	return p, true
}

// sameOrigin reports whether a change came from the page itself.
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	return o != "" && o == "https://"+r.Host
}

// pageLogout ends the session: its row is deleted, and the cookie with it.
func (s *Server) pageLogout(w http.ResponseWriter, r *http.Request) {
	if !sameOrigin(r) {
		http.Error(w, "sayso hub: refused: this change did not come from the hub's page", http.StatusForbidden)
		return
	}
	if _, ok := s.person(w, r); !ok {
		return
	}
	c, _ := r.Cookie(pageCookie)
	if err := s.Hub.EndSession(r.Context(), c.Value); err != nil {
		reply(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: pageCookie, Value: "", Path: "/", MaxAge: -1, Secure: true, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	w.WriteHeader(http.StatusNoContent)
}

// pageCard is a card as the page's script gets it: the node's very bytes,
// which the passkey signs over, to show and to hash.
type pageCard struct {
	ID   string `json:"id"`
	Node int64  `json:"node"`
	Body []byte `json:"body"`
	// Confirm is the node's challenge for the second confirmation of a
	// severe, ceiling or never step, once it took the first yes.
	Confirm []byte `json:"confirm,omitempty"`
}

// pageCards answers the page's script with the person's open cards and
// the ring's generation they were read at. Asked with ?wait=GEN, it first
// waits for the next ring after GEN, or PageWait: the script asks again
// at once, so the page reads when a card comes or goes, not on a clock.
// The tables are the truth: the listener rings on every reconnection, and
// PageWait bounds what a ring lost any other way costs.
func (s *Server) pageCards(w http.ResponseWriter, r *http.Request) {
	p, ok := s.person(w, r)
	if !ok {
		return
	}
	gen, rung := s.rung.now(p.Person)
	if v := r.URL.Query().Get("wait"); v != "" && v == gen {
		t := time.NewTimer(s.pageWait())
		select {
		case <-rung:
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
		t.Stop()
		gen, _ = s.rung.now(p.Person)
		// The session may have ended while the request waited.
		if p, ok = s.person(w, r); !ok {
			return
		}
	}
	cs, err := s.Hub.OpenCards(r.Context(), p.Person)
	if err != nil {
		reply(w, r, err)
		return
	}
	out := make([]pageCard, len(cs))
	for i, c := range cs {
		out[i] = pageCard{ID: c.ID, Node: c.Node, Body: c.Body, Confirm: c.Confirm}
	}
	writeJSON(w, map[string]any{"person": p.Name, "cards": out, "gen": gen})
}

// pageAnswerBody is an answer the page's script posts: the verdict and,
// for a yes, the passkey's assertion as the browser gave it.
type pageAnswerBody struct {
	Verdict   string          `json:"verdict"`
	Assertion json.RawMessage `json:"assertion,omitempty"`
}

// pageAnswer records the person's answer to one of their open cards.
// The hub checks no signature: the node does, against its own card.
func (s *Server) pageAnswer(w http.ResponseWriter, r *http.Request) {
	if !sameOrigin(r) {
		http.Error(w, "sayso hub: refused: this change did not come from the hub's page", http.StatusForbidden)
		return
	}
	p, ok := s.person(w, r)
	if !ok {
		return
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxAnswer))
	var a pageAnswerBody
	if err != nil || json.Unmarshal(raw, &a) != nil {
		http.Error(w, "sayso hub: refused: the answer could not be read", http.StatusBadRequest)
		return
	}
	said, err := card.ParseAnswer(a.Verdict)
	switch {
	case a.Verdict == passkey.VerdictConfirm, err == nil && said.Allows():
		if len(a.Assertion) == 0 {
			http.Error(w, "sayso hub: refused: a yes carries the passkey's signature", http.StatusBadRequest)
			return
		}
	case err == nil && said == card.Deny:
		a.Assertion = nil
	default: // unknown, or a deny-hold: the hub holds no session
		http.Error(w, "sayso hub: refused: unknown verdict", http.StatusBadRequest)
		return
	}
	id := r.PathValue("id")
	cs, err := s.Hub.OpenCards(r.Context(), p.Person)
	if err != nil {
		reply(w, r, err)
		return
	}
	if !slices.ContainsFunc(cs, func(c hub.Card) bool { return c.ID == id }) {
		http.Error(w, "sayso hub: refused: no open card of yours is "+id, http.StatusNotFound)
		return
	}
	if err := s.Hub.AddAnswer(r.Context(), id, a.Verdict, a.Assertion); err != nil {
		if errors.Is(err, hub.ErrClosed) {
			http.Error(w, "sayso hub: the card is no longer waiting", http.StatusGone)
			return
		}
		reply(w, r, err)
		return
	}
	slog.Info("hub page: answer", "person", p.Name, "card", id, "verdict", a.Verdict)
	w.WriteHeader(http.StatusNoContent)
}

// pageChange is a change offered for the person, as the page's script
// gets it: the node's very bytes, which the passkey signs over.
type pageChange struct {
	ID   int64  `json:"id"`
	Node int64  `json:"node"`
	Body []byte `json:"body"`
}

// pageChanges lists the changes to the person's rules and note that their
// nodes offered and no one signed yet: rules kept on one machine only,
// until the person signs them for all.
func (s *Server) pageChanges(w http.ResponseWriter, r *http.Request) {
	p, ok := s.person(w, r)
	if !ok {
		return
	}
	cs, err := s.Hub.OfferedChanges(r.Context(), p.Person)
	if err != nil {
		reply(w, r, err)
		return
	}
	keys, err := s.Hub.PasskeyIDs(r.Context(), p.Person)
	if err != nil {
		reply(w, r, err)
		return
	}
	out := make([]pageChange, len(cs))
	for i, c := range cs {
		out[i] = pageChange{ID: c.ID, Node: c.Node, Body: c.Body}
	}
	// keys: a node pins the passkeys enrolled on its own page, so the
	// page asks for a signature by each, and each node finds its own.
	writeJSON(w, map[string]any{"changes": out, "keys": keys})
}

// pageSign records the person's passkey signatures of one change offered
// for them, one by each passkey their nodes pinned. The hub checks no signature: each node does, against its own
// pins and the change's bytes.
func (s *Server) pageSign(w http.ResponseWriter, r *http.Request) {
	if o := r.Header.Get("Origin"); o == "" || o != "https://"+r.Host {
		http.Error(w, "sayso hub: refused: this change did not come from the hub's page", http.StatusForbidden)
		return
	}
	p, ok := s.person(w, r)
	if !ok {
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		http.Error(w, "sayso hub: refused: no change of yours is "+r.PathValue("id"), http.StatusNotFound)
		return
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 16*maxAnswer))
	var a struct {
		Assertions []json.RawMessage `json:"assertions"`
	}
	if err != nil || json.Unmarshal(raw, &a) != nil || len(a.Assertions) == 0 || len(a.Assertions) > 16 {
		http.Error(w, "sayso hub: refused: signatures are the passkeys' assertions, 1 to 16 of them", http.StatusBadRequest)
		return
	}
	as := make([][]byte, len(a.Assertions))
	for i, x := range a.Assertions {
		if len(x) == 0 {
			http.Error(w, "sayso hub: refused: an empty signature", http.StatusBadRequest)
			return
		}
		as[i] = x
	}
	if err := s.Hub.SignChange(r.Context(), p.Person, id, as); err != nil {
		if errors.Is(err, hub.ErrNotFound) {
			http.Error(w, "sayso hub: refused: no change of yours is "+r.PathValue("id"), http.StatusNotFound)
			return
		}
		reply(w, r, err)
		return
	}
	slog.Info("hub page: change signed", "person", p.Name, "change", id)
	w.WriteHeader(http.StatusNoContent)
}
