package web

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/sayso-dev/sayso/internal/passkey"
)

// Enrolment pins the person's passkeys on this node, from this page and
// from nowhere else: the hub, which relays the person's answers, can
// never add a key that says yes.
//
// An enrolment link (Server.EnrolURL, which sayso team enrol asks of the
// person's socket) works once, within LoginTTL. Spending it starts an
// enrolment whose id the redirect hands the tab in its fragment, which
// no server sees; the page's script asks for the enrolment's challenge
// with that id, has the browser's authenticator make a passkey over it,
// and sends the credential back, with the Origin of this page. The node
// pins the passkey's public key and id for its person; the enrolment is
// spent whatever the outcome.
//
// A passkey belongs to the relying party ID of the page that made it: a
// domain, never an IP address. The passkeys of a node whose hub's page
// is at localhost (through a tunnel) are made for localhost, on this page
// at localhost. Those of a hub with a name of its own are made for that
// name, on this page at passkey.EnrolHost: the hub lists that page's origin among
// its related origins (https://NAME/.well-known/webauthn), which lets a
// page of another name make a passkey for it. localhost itself cannot be
// listed (a name with no label of its own); sayso.localhost, a loopback
// name browsers resolve themselves, can.

// Enroller pins passkeys on the node.
type Enroller interface {
	// Enrolling is the person whose passkeys the node pins, and the
	// relying party they are made for; an error when the node has no
	// person to pin them for.
	Enrolling() (person, rpID string, err error)
	// Pin keeps k, made for relying party rpID, among the node's pinned
	// passkeys.
	Pin(ctx context.Context, rpID string, k passkey.Key) error
}

// EnrolHeader carries the enrolment's id on the script's requests.
const EnrolHeader = "X-Sayso-Enrol"

// enrolHost is the name of this page that makes passkeys for rpID.
func enrolHost(rpID string) string {
	if rpID == "localhost" {
		return "localhost"
	}
	return passkey.EnrolHost
}

// enrolling asks the node's Enroller for the person and relying party.
func (s *Server) enrolling() (person, rpID string, err error) {
	if s.opts.Enroller == nil {
		return "", "", fmt.Errorf("%w: this node pins no passkeys: it is in no team", passkey.ErrNotEnrolled)
	}
	return s.opts.Enroller.Enrolling()
}

// enrolments are the enrolment links not yet used and the enrolments
// under way, by hash; in memory only.
type enrolments struct {
	mu    sync.Mutex
	links map[[32]byte]time.Time
	open  map[[32]byte]enrolment
}

type enrolment struct {
	nonce []byte
	until time.Time
}

func (e *enrolments) sweep(now time.Time) {
	for k, until := range e.links {
		if !now.Before(until) {
			delete(e.links, k)
		}
	}
	for k, o := range e.open {
		if !now.Before(o.until) {
			delete(e.open, k)
		}
	}
}

// EnrolURL mints a one-time enrolment link: it works once, within
// LoginTTL. The page is named by a name (a passkey's relying party is a
// domain): localhost, or EnrolHost for a hub's own name.
func (s *Server) EnrolURL() string {
	host := "localhost"
	if _, rp, err := s.enrolling(); err == nil {
		host = enrolHost(rp)
	}
	t := secret()
	now := s.now()
	s.enrol.mu.Lock()
	defer s.enrol.mu.Unlock()
	if s.enrol.links == nil {
		s.enrol.links, s.enrol.open = map[[32]byte]time.Time{}, map[[32]byte]enrolment{}
	}
	s.enrol.sweep(now)
	s.enrol.links[hash(t)] = now.Add(LoginTTL)
	return "http://" + host + ":" + s.port + "/enrol?token=" + url.QueryEscape(t)
}

// enrolStart spends an enrolment link and hands the tab the enrolment's
// id in the redirect's fragment.
func (s *Server) enrolStart(w http.ResponseWriter, r *http.Request) {
	now := s.now()
	token := r.URL.Query().Get("token")
	s.enrol.mu.Lock()
	until, ok := s.enrol.links[hash(token)]
	delete(s.enrol.links, hash(token))
	id := ""
	if ok && token != "" && now.Before(until) {
		id = secret()
		nonce := make([]byte, keySize)
		rand.Read(nonce) // never fails: see crypto/rand
		s.enrol.open[hash(id)] = enrolment{nonce: nonce, until: now.Add(LoginTTL)}
	}
	s.enrol.mu.Unlock()
	if id == "" {
		http.Error(w, "sayso: this enrolment link was already used or has expired; run sayso team enrol for a new one", http.StatusUnauthorized)
		return
	}
	w.Header().Set("Location", "/static/enrol.html#enrol="+id)
	w.WriteHeader(http.StatusSeeOther)
}

// enrolOptions are what the page's script hands navigator.credentials.create.
type enrolOptions struct {
	Challenge string `json:"challenge"` // base64url
	RPID      string `json:"rp_id"`
	Person    string `json:"person"`
}

// enrolCheck checks a request of the enrolment's script: from this page,
// at the name that makes the node's passkeys, for an enrolment under
// way. take spends the enrolment. It gives the enrolment, the person and
// the relying party.
func (s *Server) enrolCheck(w http.ResponseWriter, r *http.Request, take bool) (o enrolment, person, rpID string, ok bool) {
	if !s.originOK(r) {
		http.Error(w, "sayso: refused: this request did not come from sayso's page", http.StatusForbidden)
		return enrolment{}, "", "", false
	}
	person, rpID, err := s.enrolling()
	if err != nil {
		http.Error(w, "sayso: "+err.Error(), http.StatusConflict)
		return enrolment{}, "", "", false
	}
	host, _, err := net.SplitHostPort(r.Host)
	if want := enrolHost(rpID); err != nil || host != want {
		http.Error(w, "sayso: refused: a passkey for "+rpID+" is enrolled at "+want+", not at "+r.Host, http.StatusMisdirectedRequest)
		return enrolment{}, "", "", false
	}
	h := hash(r.Header.Get(EnrolHeader))
	s.enrol.mu.Lock()
	o, ok = s.enrol.open[h]
	if take {
		delete(s.enrol.open, h)
	}
	s.enrol.mu.Unlock()
	if !ok || r.Header.Get(EnrolHeader) == "" || !s.now().Before(o.until) {
		http.Error(w, "sayso: refused: no enrolment under way here; run sayso team enrol for a new link", http.StatusForbidden)
		return enrolment{}, "", "", false
	}
	return o, person, rpID, true
}

func (s *Server) enrolOptions(w http.ResponseWriter, r *http.Request) {
	o, person, rpID, ok := s.enrolCheck(w, r, false)
	if !ok {
		return
	}
	writeJSONTo(w, enrolOptions{Challenge: base64.RawURLEncoding.EncodeToString(passkey.EnrolChallenge(o.nonce)), RPID: rpID, Person: person})
}

// enrolFinish pins the passkey the authenticator made, once.
func (s *Server) enrolFinish(w http.ResponseWriter, r *http.Request) {
	o, person, rpID, ok := s.enrolCheck(w, r, true)
	if !ok {
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxForm))
	if err != nil {
		http.Error(w, "sayso: refused: the credential could not be read", http.StatusBadRequest)
		return
	}
	k, err := passkey.Register(person, body, passkey.EnrolChallenge(o.nonce), rpID, "http://"+r.Host)
	if err != nil {
		slog.Warn("page: refused a passkey", "err", err)
		http.Error(w, "sayso: refused: "+err.Error(), http.StatusBadRequest)
		return
	}
	if err := s.opts.Enroller.Pin(r.Context(), rpID, k); err != nil {
		code := http.StatusInternalServerError
		if errors.Is(err, passkey.ErrNotEnrolled) {
			code = http.StatusConflict
		}
		logFailure(r, err)
		http.Error(w, "sayso: the passkey was not pinned: "+err.Error(), code)
		return
	}
	slog.Info("page: pinned a passkey", "person", person, "rp", rpID, "credential", base64.RawURLEncoding.EncodeToString(k.CredentialID))
	writeJSONTo(w, map[string]string{"pinned": person})
}

func writeJSONTo(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
