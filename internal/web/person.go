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
	keySize    = 32
)

// person holds the person's key, the login tokens not yet used and the
// browser sessions, all in memory: a restart forgets them.
type person struct {
	key []byte // fresh at each start; signs nothing that outlives it

	mu       sync.Mutex
	logins   map[[sha256.Size]byte]time.Time // token hash → when it stops working
	sessions map[[sha256.Size]byte]time.Time // session hash → when it ends
}

func newPerson() (*person, error) {
	key := make([]byte, keySize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return &person{
		key:      key,
		logins:   map[[sha256.Size]byte]time.Time{},
		sessions: map[[sha256.Size]byte]time.Time{},
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

// login spends a login token and returns a new session, or "" when the
// token is unknown, spent or expired.
func (p *person) login(token string, now time.Time) string {
	if token == "" {
		return ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	h := hash(token)
	until, ok := p.logins[h]
	delete(p.logins, h)
	if !ok || !now.Before(until) {
		return ""
	}
	s := secret()
	p.sessions[hash(s)] = now.Add(SessionTTL)
	return s
}

// valid reports whether s is a live session.
func (p *person) valid(s string, now time.Time) bool {
	if s == "" {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	until, ok := p.sessions[hash(s)]
	return ok && now.Before(until)
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
	for h, t := range p.sessions {
		if !now.Before(t) {
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
