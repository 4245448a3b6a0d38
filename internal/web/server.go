package web

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
	"github.com/sayso-dev/sayso/internal/passkey"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Options configure a Server.
type Options struct {
	// Addr is the address the page is served on: 127.0.0.1:PORT or
	// localhost:PORT (a leading http:// is allowed). Any other host is
	// refused: the page is for loopback only.
	Addr string
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// Notify, when set, is called by Watch once for each new card.
	Notify func(card.Card)
	// Warnings, when set, are shown at the top of every page, each time
	// it is drawn: what the person turned off that keeps sayso from
	// holding (auto_without_wall).
	Warnings func() []string
	// Logins keeps the browser sessions and tabs let in, by hash, so
	// that they outlive a restart; nil keeps them in memory only.
	Logins Logins
	// Enroller, when set, pins the passkeys enrolled on this page
	// (enrol.go); nil refuses every enrolment.
	Enroller Enroller
}

// Server is the person's page. It is an http.Handler.
type Server struct {
	backend Backend
	opts    Options
	port    string
	origin  string // http://127.0.0.1:PORT
	person  *person
	pages   *pages
	mux     *http.ServeMux
	cop     *http.CrossOriginProtection

	confirmKey []byte // see confirm.go
	enrol      enrolments

	done     chan struct{} // closed by Close: event streams end
	doneOnce sync.Once
}

// New returns the person's page over b. Only LoginURL's links let a new
// browser in; one that logged in before a restart stays in when
// opts.Logins kept it.
func New(b Backend, opts Options) (*Server, error) {
	if b == nil {
		return nil, errors.New("web: no backend")
	}
	addr := strings.TrimPrefix(opts.Addr, "http://")
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("web: address %q: %w", opts.Addr, err)
	}
	if host != "127.0.0.1" && host != "localhost" {
		return nil, fmt.Errorf("web: address %q is not loopback (want 127.0.0.1:PORT)", opts.Addr)
	}
	if p, err := net.LookupPort("tcp", port); err != nil || p == 0 {
		return nil, fmt.Errorf("web: address %q has no port", opts.Addr)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	p := newPerson(opts.Logins, opts.Now())
	pg, err := parsePages()
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	s := &Server{
		backend: b,
		opts:    opts,
		port:    port,
		origin:  "http://" + host + ":" + port,
		person:  p,
		pages:   pg,
		cop:     http.NewCrossOriginProtection(),

		confirmKey: newConfirmKey(),
		done:       make(chan struct{}),
	}
	s.routes()
	return s, nil
}

func (s *Server) now() time.Time { return s.opts.Now() }

// LoginURL mints a one-time login link: it works once, within LoginTTL.
func (s *Server) LoginURL() string {
	return s.origin + "/login?token=" + url.QueryEscape(s.person.mintLogin(s.now()))
}

// Close ends the event streams the page holds open.
func (s *Server) Close() { s.doneOnce.Do(func() { close(s.done) }) }

func (s *Server) routes() {
	m := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	m.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	m.HandleFunc("GET /icon/{n}", s.icon)
	m.HandleFunc("GET /login", s.login)
	m.HandleFunc("POST /logout", s.change(s.logout))
	m.HandleFunc("GET /enrol", s.enrolStart)
	m.HandleFunc("POST /enrol/options", s.enrolOptions)
	m.HandleFunc("POST /enrol", s.enrolFinish)

	m.HandleFunc("GET /{$}", s.page(s.cardsPage))
	m.HandleFunc("GET /cards", s.data(s.cardsFragment))
	m.HandleFunc("GET /events", s.data(s.events))
	m.HandleFunc("POST /cards/{id}/answer", s.change(s.answer))

	m.HandleFunc("GET /sessions", s.page(s.sessionsPage))
	m.HandleFunc("POST /sessions/{id}/mode", s.change(s.setMode))
	m.HandleFunc("POST /sessions/{id}/release", s.change(s.release))

	m.HandleFunc("GET /rules", s.page(s.rulesPage))
	m.HandleFunc("POST /rules/{id}/forget", s.change(s.forgetRule))

	m.HandleFunc("GET /leases", s.page(s.leasesPage))
	m.HandleFunc("POST /leases", s.change(s.grantLease))
	m.HandleFunc("POST /leases/{id}/revoke", s.change(s.revokeLease))

	m.HandleFunc("GET /note", s.page(s.notePage))
	m.HandleFunc("POST /note", s.change(s.setNote))

	m.HandleFunc("GET /ledger", s.page(s.ledgerPage))
	m.HandleFunc("GET /settings", s.page(s.settingsPage))
	m.HandleFunc("GET /search", s.page(s.searchPage))
	m.HandleFunc("GET /search.json", s.data(s.searchJSON))
	s.mux = m
}

// ServeHTTP sets the security headers, refuses a foreign Host and routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	if !s.hostOK(r.Host) {
		http.Error(w, "sayso: this page answers only at 127.0.0.1:"+s.port+", localhost:"+s.port+" or "+passkey.EnrolHost+":"+s.port, http.StatusMisdirectedRequest)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// hostOK is the DNS-rebinding defence: a name that resolves to 127.0.0.1
// is still not this page's name. passkey.EnrolHost is a loopback name the
// browser resolves itself, never through DNS.
func (s *Server) hostOK(host string) bool {
	return host == "127.0.0.1:"+s.port || host == "localhost:"+s.port || host == passkey.EnrolHost+":"+s.port
}

// originOK reports whether a state change comes from the page itself: the
// Origin must be present and equal the origin the request was served at.
func (s *Server) originOK(r *http.Request) bool {
	o := r.Header.Get("Origin")
	return o != "" && o == "http://"+r.Host && s.cop.Check(r) == nil
}

// page wraps a GET handler of a page the browser navigates to. It needs
// the person's session and the tab's key. A navigation carries the cookie
// but cannot carry the key: it gets the page's shell, which holds nothing
// of sayso's state, and the script in it fetches the page again with the
// key.
func (s *Server) page(h func(w http.ResponseWriter, r *http.Request, session string)) http.HandlerFunc {
	return s.read(h, true)
}

// data wraps a GET handler that only the page's script calls: the cards
// to swap in, the event stream, the finder's results. It needs the
// person's session and the tab's key.
func (s *Server) data(h func(w http.ResponseWriter, r *http.Request, session string)) http.HandlerFunc {
	return s.read(h, false)
}

// read is page, or with shell false data: a request without the tab's
// key gets the page's shell, or is refused.
func (s *Server) read(h func(w http.ResponseWriter, r *http.Request, session string), shell bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		session := s.sessionOf(r)
		if session == "" {
			s.render(w, r, http.StatusUnauthorized, "login", "", view{Title: "Log in"})
			return
		}
		if _, sent := r.Header[TabHeader]; shell && !sent {
			s.render(w, r, http.StatusOK, "shell", "", view{Title: "sayso", Shell: true})
			return
		}
		if !s.tabOK(r, session) {
			s.fail(w, r, "", http.StatusForbidden, tabRefused)
			return
		}
		h(w, r, session)
	}
}

const tabRefused = "refused: this tab holds no key of this session; open a fresh login link (press Enter where sayso serve runs, or run sayso login)"

// tabOK reports whether the request carries a key of one of the
// session's tabs.
func (s *Server) tabOK(r *http.Request, session string) bool {
	return s.person.tabOK(session, r.Header.Get(TabHeader), s.now())
}

const maxForm = 64 << 10

// change wraps a handler that changes state: it needs the Origin, the
// person's session, the tab's key and the session's anti-CSRF token, in
// that order.
func (s *Server) change(h func(w http.ResponseWriter, r *http.Request, session string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.originOK(r) {
			s.fail(w, r, "", http.StatusForbidden, "refused: this change did not come from sayso's page")
			return
		}
		session := s.sessionOf(r)
		if session == "" {
			s.fail(w, r, "", http.StatusUnauthorized, "refused: log in with the link sayso serve printed")
			return
		}
		if !s.tabOK(r, session) {
			s.fail(w, r, "", http.StatusForbidden, tabRefused)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxForm)
		if err := r.ParseForm(); err != nil {
			s.fail(w, r, session, http.StatusBadRequest, "refused: the form could not be read")
			return
		}
		token := r.PostForm.Get(csrfField)
		if token == "" {
			token = r.Header.Get(csrfHeader)
		}
		if !s.person.csrfOK(session, r.Header.Get(TabHeader), token) {
			s.fail(w, r, session, http.StatusForbidden, "refused: the form's token is not this session's; reload the page")
			return
		}
		h(w, r, session)
	}
}

// login spends a one-time token, sets the person's cookie and hands the
// new tab its key in the redirect's fragment, which the browser keeps
// for the page's script and sends to no server.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	session, tab := s.person.login(r.URL.Query().Get("token"), s.sessionOf(r), s.now())
	if session == "" {
		s.render(w, r, http.StatusUnauthorized, "login", "", view{Title: "Log in", Error: "This login link was already used or has expired. Press Enter where sayso serve runs, or run sayso login, for a new one."})
		return
	}
	s.setCookie(w, session, int(SessionTTL/time.Second))
	w.Header().Set("Location", "/#tab="+tab)
	w.WriteHeader(http.StatusSeeOther)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request, session string) {
	if err := s.person.logout(session); err != nil {
		// Logged out here; what keeps the session could not forget it, so
		// the cookie, dropped below, would still open it after a restart.
		logFailure(r, err)
	}
	s.setCookie(w, "", -1)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// status maps a backend error to an HTTP status and what the page says.
func status(err error) (int, string) {
	switch {
	case errors.Is(err, ErrNotFound):
		return http.StatusNotFound, "not found: it may have been answered, forgotten or removed"
	case errors.Is(err, card.ErrAnswered):
		return http.StatusConflict, "refused: the card was already answered; nothing more was kept"
	case errors.Is(err, card.ErrExpired):
		return http.StatusGone, "refused: the card expired or its agent stopped waiting; nothing was kept"
	case errors.Is(err, card.ErrNoOffer):
		return http.StatusConflict, "refused: this card offers no rule, so none was kept"
	case errors.Is(err, ErrInvalid), errors.Is(err, card.ErrUnknownAnswer):
		return http.StatusBadRequest, err.Error()
	}
	return http.StatusInternalServerError, "sayso could not do this; sayso serve logged why on its standard error, where it runs"
}

// logFailure logs an error the page does not show on sayso serve's
// standard error, where the page sends the person to read it.
func logFailure(r *http.Request, err error) {
	slog.Error("page: "+r.Method+" "+r.URL.Path, "err", err)
}

func (s *Server) backendFail(w http.ResponseWriter, r *http.Request, session string, err error) {
	code, msg := status(err)
	if code == http.StatusInternalServerError {
		logFailure(r, err)
	}
	s.fail(w, r, session, code, msg)
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, session string, code int, msg string) {
	s.render(w, r, code, "error", session, view{Title: "Refused", Error: msg})
}

// back redirects to the page a change was made from.
func back(w http.ResponseWriter, r *http.Request, path string) {
	http.Redirect(w, r, path, http.StatusSeeOther)
}
