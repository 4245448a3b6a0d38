package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// Lifetimes of what the person holds.
const (
	LoginTTL   = 5 * time.Minute // a login link works once, within this
	SessionTTL = 12 * time.Hour  // a browser session lasts at most this
)

const (
	cookieName = "sayso_person"
	csrfField  = "csrf"         // the hidden form field
	csrfHeader = "X-Sayso-Csrf" // the header fetch sends
	// TabHeader carries the tab's key: the page's script sends it on every
	// request, and the browser never sends it by itself.
	TabHeader = "X-Sayso-Tab"
	keySize   = 32
)

// Logins keeps the browser sessions the page let in and their tabs, by
// hash only, so that a tab stays logged in across a restart of sayso
// serve. The cookie and the tab's key stay in the person's browser (its
// cookie jar and the tab's sessionStorage): a hash read from where
// Logins keeps them lets nobody in, and nothing the page keeps is a key
// that could mint a login. sayso serve keeps them in its store, in the
// state folder the wall hides from every walled step.
type Logins interface {
	// PageLogins returns the browser sessions that have not ended.
	PageLogins(ctx context.Context) ([]Login, error)
	// KeepPageLogin keeps a browser session and one of its tabs.
	KeepPageLogin(ctx context.Context, session, tab [sha256.Size]byte, until time.Time) error
	// ForgetPageLogin forgets a browser session and its tabs.
	ForgetPageLogin(ctx context.Context, session [sha256.Size]byte) error
}

// Login is a browser session the page let in, by hash.
type Login struct {
	Session [sha256.Size]byte   // SHA-256 of the cookie
	Until   time.Time           // when it ends
	Tabs    [][sha256.Size]byte // SHA-256 of each tab's key
}

// person holds the login tokens not yet used and the browser sessions
// with their tabs' keys, by hash. Login tokens live in memory only: a
// restart forgets a link not yet used. Sessions and tabs are also kept
// in Logins, when set, and outlive a restart.
//
// The session is the cookie: a browser sends it by itself, to this page
// and to anything else listening on 127.0.0.1 (cookies are not kept apart
// by port). So the cookie alone opens nothing: each tab also holds a key
// of its own, handed to it in the fragment of the login link's redirect
// (never sent to any server, never written in a page), kept in the tab's
// sessionStorage and sent by the page's script as TabHeader.
type person struct {
	keep Logins // nil: in memory only

	mu       sync.Mutex
	logins   map[[sha256.Size]byte]time.Time     // token hash → when it stops working
	sessions map[[sha256.Size]byte]*browserState // session hash → its end and tabs
}

// browserState is one browser's session: when it ends and its tabs' keys.
type browserState struct {
	until time.Time
	tabs  map[[sha256.Size]byte]bool // tab key hash
}

// newPerson starts with the browser sessions keep holds. One it cannot
// read lets no browser in until it logs in again: sayso serve logs why.
func newPerson(keep Logins, now time.Time) *person {
	p := &person{
		keep:     keep,
		logins:   map[[sha256.Size]byte]time.Time{},
		sessions: map[[sha256.Size]byte]*browserState{},
	}
	if keep == nil {
		return p
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	kept, err := keep.PageLogins(ctx)
	if err != nil {
		slog.Error("page: read the browser sessions kept: every tab logs in again", "err", err)
		return p
	}
	for _, l := range kept {
		if !now.Before(l.Until) || l.Until.After(now.Add(SessionTTL)) {
			continue
		}
		b := &browserState{until: l.Until, tabs: map[[sha256.Size]byte]bool{}}
		for _, t := range l.Tabs {
			b.tabs[t] = true
		}
		p.sessions[l.Session] = b
	}
	return p
}

func secret() string {
	b := make([]byte, keySize)
	rand.Read(b) // never fails: see crypto/rand
	return base64.RawURLEncoding.EncodeToString(b)
}

func hash(s string) [sha256.Size]byte { return sha256.Sum256([]byte(s)) }

// mintLogin returns a new one-time login token.
func (p *person) mintLogin(now time.Time) string {
	t := secret()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sweep(now)
	p.logins[hash(t)] = now.Add(LoginTTL)
	return t
}

// login spends a login token and returns the browser's session — the
// live one it holds, else a new one — and a new tab key in it; "" when
// the token is unknown, spent or expired.
func (p *person) login(token, held string, now time.Time) (session, tab string) {
	if token == "" {
		return "", ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	h := hash(token)
	until, ok := p.logins[h]
	delete(p.logins, h)
	if !ok || !now.Before(until) {
		return "", ""
	}
	b := p.sessions[hash(held)]
	session = held
	if held == "" || b == nil || !now.Before(b.until) {
		session = secret()
		b = &browserState{until: now.Add(SessionTTL), tabs: map[[sha256.Size]byte]bool{}}
		p.sessions[hash(session)] = b
	}
	tab = secret()
	b.tabs[hash(tab)] = true
	if p.keep != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := p.keep.KeepPageLogin(ctx, hash(session), hash(tab), b.until); err != nil {
			slog.Error("page: keep a browser session: this tab logs in again after a restart", "err", err)
		}
	}
	return session, tab
}

// valid reports whether s is a live session.
func (p *person) valid(s string, now time.Time) bool {
	if s == "" {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	b, ok := p.sessions[hash(s)]
	return ok && now.Before(b.until)
}

// tabOK reports whether tab is a key of a tab of the live session s.
func (p *person) tabOK(s, tab string, now time.Time) bool {
	if s == "" || tab == "" {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	b, ok := p.sessions[hash(s)]
	return ok && now.Before(b.until) && b.tabs[hash(tab)]
}

// logout ends the session s in this process and in what keeps it.
func (p *person) logout(s string) error {
	p.mu.Lock()
	delete(p.sessions, hash(s))
	p.mu.Unlock()
	if p.keep == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return p.keep.ForgetPageLogin(ctx, hash(s))
}

// sweep drops what expired. p.mu is held.
func (p *person) sweep(now time.Time) {
	for h, t := range p.logins {
		if !now.Before(t) {
			delete(p.logins, h)
		}
	}
	for h, b := range p.sessions {
		if !now.Before(b.until) {
			delete(p.sessions, h)
		}
	}
}

// csrf is a tab's anti-CSRF token: a MAC of the session keyed by the
// tab's own key, so that it stays the same across a restart and only the
// page's script in that tab can compute it: a dev server on another port
// of 127.0.0.1 gets the cookie from the browser, but never the tab's key.
// What Logins keeps is the SHA-256 of each, from which it cannot be
// computed. Without a tab key there is no token.
func (p *person) csrf(session, tab string) string {
	if session == "" || tab == "" {
		return ""
	}
	m := hmac.New(sha256.New, []byte(tab))
	m.Write([]byte("sayso page csrf\x00" + session))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func (p *person) csrfOK(session, tab, token string) bool {
	want := p.csrf(session, tab)
	return token != "" && want != "" && subtle.ConstantTimeCompare([]byte(want), []byte(token)) == 1
}

// sessionOf returns the request's live session, or "".
func (s *Server) sessionOf(r *http.Request) string {
	c, err := r.Cookie(cookieName)
	if err != nil || !s.person.valid(c.Value, s.now()) {
		return ""
	}
	return c.Value
}

func (s *Server) setCookie(w http.ResponseWriter, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{
		Name:     cookieName,
		Value:    value,
		Path:     "/",
		MaxAge:   maxAge,
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
	})
}
