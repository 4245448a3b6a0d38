package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
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

// person holds the person's key, the login tokens not yet used and the
// browser sessions with their tabs' keys, all in memory: a restart
// forgets them.
//
// The session is the cookie: a browser sends it by itself, to this page
// and to anything else listening on 127.0.0.1 (cookies are not kept apart
// by port). So the cookie alone opens nothing: each tab also holds a key
// of its own, handed to it in the fragment of the login link's redirect
// (never sent to any server, never written in a page), kept in the tab's
// sessionStorage and sent by the page's script as TabHeader.
type person struct {
	key []byte // fresh at each start; signs nothing that outlives it

	mu       sync.Mutex
	logins   map[[sha256.Size]byte]time.Time     // token hash → when it stops working
	sessions map[[sha256.Size]byte]*browserState // session hash → its end and tabs
}

// browserState is one browser's session: when it ends and its tabs' keys.
type browserState struct {
	until time.Time
	tabs  map[[sha256.Size]byte]bool // tab key hash
}

func newPerson() (*person, error) {
	key := make([]byte, keySize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return &person{
		key:      key,
		logins:   map[[sha256.Size]byte]time.Time{},
		sessions: map[[sha256.Size]byte]*browserState{},
	}, nil
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

func (p *person) logout(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.sessions, hash(s))
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

// csrf is the session's anti-CSRF token: a MAC of the session under the key.
func (p *person) csrf(session string) string {
	m := hmac.New(sha256.New, p.key)
	m.Write([]byte("csrf\x00" + session))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func (p *person) csrfOK(session, token string) bool {
	want := p.csrf(session)
	return token != "" && subtle.ConstantTimeCompare([]byte(want), []byte(token)) == 1
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
