package hubserver

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/bundle"
	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hubapi"
)

// Server answers nodes over the hub's database.
type Server struct {
	Hub *hub.Hub
	Now func() time.Time // nil is the wall clock
	// Names are the hub's own host names (its certificate's): the
	// person's page answers at them and at localhost.
	Names []string
	// NodePagePorts are the ports the nodes' own pages answer on: the
	// hub lists their origins at passkey.EnrolHost as related origins of
	// its names, where a node's page makes passkeys for them.
	NodePagePorts []int
	// PageWait is how long the page's script waits for a ring before it
	// reads the person's cards all the same; 0 is 25 seconds.
	PageWait time.Duration
	// ListenRetry is how long the listener waits before it connects
	// again; 0 is a second.
	ListenRetry time.Duration

	rung bell // rung by the listener (page.go)
}

func (s *Server) pageWait() time.Duration {
	if s.PageWait > 0 {
		return s.PageWait
	}
	return 25 * time.Second
}

// Listen rings the page's scripts of a card's person at each card the
// hub's database notifies, until ctx ends. A broken connection is made again after
// ListenRetry, and the new one rings at once: the scripts read the
// tables, whatever was notified in between.
func (s *Server) Listen(ctx context.Context) {
	retry := s.ListenRetry
	if retry <= 0 {
		retry = time.Second
	}
	for {
		err := s.Hub.ListenCards(ctx, s.rung.ring)
		if ctx.Err() != nil {
			return
		}
		slog.Warn("hub listener: connection lost; connecting again", "err", err, "in", retry)
		select {
		case <-ctx.Done():
			return
		case <-time.After(retry):
		}
	}
}

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// handler is a route's work for the node that signed the request.
type handler func(ctx context.Context, n hub.Node, body []byte, w http.ResponseWriter, r *http.Request) error

// Handler routes the API. Every route under /v1/node/ is checked by
// signed before its handler runs: it is how a route is registered.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+hubapi.PathJoin, s.join)
	node := func(pattern string, h handler) { mux.Handle(pattern, s.signed(h)) }
	node("GET "+hubapi.PathBundle, s.bundle)
	node("GET "+hubapi.PathHead, s.head)
	node("POST "+hubapi.PathLedger, s.ledger)
	node("POST "+hubapi.PathCards, s.postCard)
	node("POST "+hubapi.PathCards+"/{id}/close", s.closeCard)
	node("GET "+hubapi.PathCards+"/{id}/answers", s.answers)
	node("POST "+hubapi.PathCards+"/{id}/confirm", s.askConfirm)
	node("POST "+hubapi.PathChanges, s.offerChange)
	node("GET "+hubapi.PathChanges, s.signedChanges)
	node("POST "+hubapi.PathPasskeys, s.passkeys)
	node("POST "+hubapi.PathLeave, s.leave)
	node("POST "+hubapi.PathLog, s.log)
	s.pageRoutes(mux)
	return mux
}

// Serve answers on ln over TLS with cert until ctx ends.
func (s *Server) Serve(ctx context.Context, ln net.Listener, cert Cert) error {
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		TLSConfig:         &tls.Config{MinVersion: tls.VersionTLS13, Certificates: []tls.Certificate{cert.TLS}},
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ErrorLog:          slog.NewLogLogger(slog.Default().Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.ServeTLS(ln, "", "") }()
	lctx, lcancel := context.WithCancel(ctx)
	listening := make(chan struct{})
	go func() { s.Listen(lctx); close(listening) }()
	defer func() { lcancel(); <-listening }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shut)
	return nil
}

// status is an error with the HTTP status a node is told.
type status struct {
	code int
	err  error
}

func (e status) Error() string { return e.err.Error() }
func (e status) Unwrap() error { return e.err }

func refuse(code int, format string, a ...any) error {
	return status{code, fmt.Errorf(format, a...)}
}

// reply writes err as a refusal: the status it carries, or what the
// hub's errors mean; anything else is the hub's own failure, logged and
// told as such.
func reply(w http.ResponseWriter, r *http.Request, err error) {
	code := http.StatusInternalServerError
	var st status
	switch {
	case errors.As(err, &st):
		code = st.code
	case errors.Is(err, hubapi.ErrChain):
		code = http.StatusConflict
	case errors.Is(err, hub.ErrNotFound):
		code = http.StatusNotFound
	case errors.Is(err, hub.ErrToken):
		code = http.StatusForbidden
	case errors.Is(err, hub.ErrNameTaken):
		code = http.StatusConflict
	}
	why := err.Error()
	switch code {
	case http.StatusInternalServerError:
		slog.Error("hub request", "method", r.Method, "path", r.URL.Path, "err", err)
		why = "the hub failed to answer; it is logged at the hub"
	case http.StatusNotFound: // no bundle yet, a card closed: no refusal
		slog.Debug("hub found nothing", "method", r.Method, "path", r.URL.Path, "why", why)
	default:
		slog.Warn("hub refused", "method", r.Method, "path", r.URL.Path, "status", code, "why", why)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(hubapi.Problem{Error: why})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, hubapi.MaxBodySize+1))
	if err != nil {
		return nil, refuse(http.StatusBadRequest, "read the request: %v", err)
	}
	if len(b) > hubapi.MaxBodySize {
		return nil, refuse(http.StatusRequestEntityTooLarge, "the request is larger than %d bytes", hubapi.MaxBodySize)
	}
	return b, nil
}

func decode(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return refuse(http.StatusBadRequest, "read the request: %v", err)
	}
	return nil
}

// signed checks a node's request before h: the node exists and has not
// left, the signature over this very request is its key's, the time is
// near the hub's, and the nonce is new. Anything else is refused with 401
// and nothing of h runs.
func (s *Server) signed(h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := readBody(r)
		if err != nil {
			reply(w, r, err)
			return
		}
		claim, err := hubapi.Claim(r)
		if err != nil {
			reply(w, r, status{http.StatusUnauthorized, err})
			return
		}
		n, err := s.Hub.NodeByID(r.Context(), claim.Node)
		if errors.Is(err, hub.ErrNotFound) || err == nil && n.Left {
			reply(w, r, status{http.StatusUnauthorized, fmt.Errorf("%w: no node %d in this hub", hubapi.ErrUnsigned, claim.Node)})
			return
		}
		if err != nil {
			reply(w, r, err)
			return
		}
		now := s.now()
		if err := hubapi.Check(r, claim, ed25519.PublicKey(n.Key), body, now); err != nil {
			reply(w, r, status{http.StatusUnauthorized, err})
			return
		}
		fresh, err := s.fresh(r.Context(), claim, now)
		if err != nil {
			reply(w, r, err)
			return
		}
		if !fresh {
			reply(w, r, status{http.StatusUnauthorized, fmt.Errorf("%w: the request was sent before (a replay)", hubapi.ErrUnsigned)})
			return
		}
		if err := h(r.Context(), n, body, w, r); err != nil {
			reply(w, r, err)
		}
	})
}

// fresh keeps a request's nonce in the hub's database for as long as its
// time is accepted, and reports whether it is new: a request replayed
// after the hub restarts is refused as one replayed while it runs.
func (s *Server) fresh(ctx context.Context, c hubapi.Signed, now time.Time) (bool, error) {
	return s.Hub.Nonce(ctx, c.Node, c.Nonce, c.At.Add(hubapi.Skew+time.Second), now)
}

// join redeems a one-time token for a new node and its key.
func (s *Server) join(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r)
	if err != nil {
		reply(w, r, err)
		return
	}
	var req hubapi.JoinRequest
	if err := decode(body, &req); err != nil {
		reply(w, r, err)
		return
	}
	req.Name = strings.TrimSpace(req.Name)
	if req.Name == "" || len(req.Name) > 200 || len(req.Key) != ed25519.PublicKeySize {
		reply(w, r, refuse(http.StatusBadRequest, "a join names the node and gives its ed25519 public key"))
		return
	}
	n, err := s.Hub.Join(r.Context(), req.Token, req.Name, req.Key)
	if err != nil {
		reply(w, r, err)
		return
	}
	slog.Info("node joined", "node", n.ID, "name", n.Name, "person", n.PersonName, "ci", n.CI)
	writeJSON(w, hubapi.JoinReply{Node: n.ID, Person: n.PersonName, CI: n.CI})
}

func (s *Server) bundle(ctx context.Context, _ hub.Node, _ []byte, w http.ResponseWriter, _ *http.Request) error {
	b, err := s.Hub.LatestBundle(ctx)
	if err != nil {
		return err
	}
	writeJSON(w, bundle.Signed{Body: b.Body, Signature: b.Signature})
	return nil
}

func (s *Server) head(ctx context.Context, n hub.Node, _ []byte, w http.ResponseWriter, _ *http.Request) error {
	seq, hash, err := s.Hub.Head(ctx, n.ID)
	if err != nil {
		return err
	}
	writeJSON(w, hubapi.Head{Seq: seq, Hash: hash})
	return nil
}

// ledger appends rows to the signing node's own chain: a node ships no
// other's rows, whatever it claims in them.
func (s *Server) ledger(ctx context.Context, n hub.Node, body []byte, w http.ResponseWriter, _ *http.Request) error {
	var rows []hubapi.Row
	if err := decode(body, &rows); err != nil {
		return err
	}
	if len(rows) == 0 || len(rows) > 1000 {
		return refuse(http.StatusBadRequest, "a batch holds 1 to 1000 rows, not %d", len(rows))
	}
	if err := s.Hub.Append(ctx, n.ID, rows); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) postCard(ctx context.Context, n hub.Node, body []byte, w http.ResponseWriter, _ *http.Request) error {
	var c hubapi.Card
	if err := decode(body, &c); err != nil {
		return err
	}
	if c.ID == "" || len(c.ID) > 100 || len(c.Body) == 0 {
		return refuse(http.StatusBadRequest, "a card has an id and a body")
	}
	if err := s.Hub.PostCard(ctx, n.ID, c.ID, c.Body); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// own checks that card waits on node n: a node reads and closes only its
// own cards. Another node's card is as good as none.
func (s *Server) own(ctx context.Context, n hub.Node, card string) error {
	on, err := s.Hub.CardNode(ctx, card)
	if err != nil {
		return err
	}
	if on != n.ID {
		return fmt.Errorf("card %s of node %d: %w", card, n.ID, hub.ErrNotFound)
	}
	return nil
}

func (s *Server) closeCard(ctx context.Context, n hub.Node, _ []byte, w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	if err := s.own(ctx, n, id); err != nil {
		return err
	}
	if err := s.Hub.CloseCard(ctx, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// askConfirm records the signing node's challenge for the second
// confirmation of one of its cards (none withdraws it).
func (s *Server) askConfirm(ctx context.Context, n hub.Node, body []byte, w http.ResponseWriter, r *http.Request) error {
	var c hubapi.Confirm
	if err := decode(body, &c); err != nil {
		return err
	}
	if len(c.Challenge) > 64 {
		return refuse(http.StatusBadRequest, "a challenge of at most 64 bytes, not %d", len(c.Challenge))
	}
	id := r.PathValue("id")
	if err := s.own(ctx, n, id); err != nil {
		return err
	}
	if len(c.Challenge) == 0 {
		c.Challenge = nil
	}
	if err := s.Hub.AskConfirm(ctx, n.ID, id, c.Challenge); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) answers(ctx context.Context, n hub.Node, _ []byte, w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	if err := s.own(ctx, n, id); err != nil {
		return err
	}
	as, err := s.Hub.Answers(ctx, id)
	if err != nil {
		return err
	}
	if as == nil {
		as = []hubapi.Answer{}
	}
	writeJSON(w, as)
	return nil
}

// offerChange records a change the signing node offers for its own
// person to sign: a node offers for no one else.
func (s *Server) offerChange(ctx context.Context, n hub.Node, body []byte, w http.ResponseWriter, _ *http.Request) error {
	var c hubapi.Change
	if err := decode(body, &c); err != nil {
		return err
	}
	if len(c.Body) == 0 || len(c.Body) > maxChange || c.ID != 0 || c.Signature != 0 || len(c.Assertion) != 0 {
		return refuse(http.StatusBadRequest, "a node offers a change's bytes alone, at most %d of them", maxChange)
	}
	if err := s.Hub.OfferChange(ctx, n.ID, c.Body); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// signedChanges hands the signing node the changes its person signed,
// after the signature it names: the node checks each against its pins.
func (s *Server) signedChanges(ctx context.Context, n hub.Node, _ []byte, w http.ResponseWriter, r *http.Request) error {
	after, err := strconv.ParseInt(r.URL.Query().Get("after"), 10, 64)
	if err != nil || after < 0 {
		return refuse(http.StatusBadRequest, "after names the last signature read, a number")
	}
	cs, err := s.Hub.SignedChanges(ctx, n.Person, after)
	if err != nil {
		return err
	}
	out := make([]hubapi.Change, len(cs))
	for i, c := range cs {
		out[i] = hubapi.Change{ID: c.ID, Body: c.Body, Signature: c.Signature, Assertion: c.Assertion}
	}
	writeJSON(w, out)
	return nil
}

// passkeys records the passkeys the signing node pins, for its own
// person, the whole set, for routing only: the page asks for a signature
// by each that one of the person's nodes pins.
func (s *Server) passkeys(ctx context.Context, n hub.Node, body []byte, w http.ResponseWriter, _ *http.Request) error {
	var ks []hubapi.Passkey
	if err := decode(body, &ks); err != nil {
		return err
	}
	if len(ks) > 100 {
		return refuse(http.StatusBadRequest, "at most 100 passkeys, not %d", len(ks))
	}
	for _, k := range ks {
		if len(k.CredentialID) == 0 || len(k.CredentialID) > 1024 || len(k.PublicKey) == 0 || len(k.PublicKey) > 1024 {
			return refuse(http.StatusBadRequest, "a passkey is a credential id and a public key")
		}
	}
	if err := s.Hub.SetPasskeys(ctx, n.ID, ks); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// leave ends the signing node's standing: no request it signs is taken
// from then on.
func (s *Server) leave(ctx context.Context, n hub.Node, _ []byte, w http.ResponseWriter, _ *http.Request) error {
	if err := s.Hub.Leave(ctx, n.ID); err != nil {
		return err
	}
	slog.Info("node left", "node", n.ID, "name", n.Name)
	w.WriteHeader(http.StatusNoContent)
	return nil
}
