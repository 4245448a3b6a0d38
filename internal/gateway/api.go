package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/sayso-dev/sayso/internal/store"
)

// API is the hosts' HTTP API, /api/v1/…: an agent host other than the
// three clients submits steps and messages and polls its cards with the
// token the person made for it (sayso host add). A host is trusted for
// exactly that: its steps are decided like a hook's, in sessions of its
// own; it labels its messages' sources, never the person's unless the
// person said so; it answers no card and changes no setting.
type API struct {
	Decider *Decider
	Addr    string // 127.0.0.1:PORT: the only Host it answers to

	// base is done once the gateway stops; nil is never.
	base context.Context
	// deciding counts the decisions under way, which outlive their
	// requests; the gateway's shutdown refuses new ones and waits.
	deciding inflight
	once     sync.Once
	mux      *http.ServeMux
	mu       sync.Mutex
	steps    map[string]*hostStep // by card id
}

const maxAPIBody = 1 << 20

func (a *API) routes() {
	m := http.NewServeMux()
	m.HandleFunc("POST /api/v1/steps", a.host(a.submitStep))
	m.HandleFunc("POST /api/v1/messages", a.host(a.submitMessage))
	m.HandleFunc("POST /api/v1/tasks", a.host(a.submitTask))
	m.HandleFunc("POST /api/v1/tasks/end", a.host(a.endTask))
	m.HandleFunc("GET /api/v1/cards/{id}", a.host(a.card))
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		apiError(w, http.StatusNotFound, "no such route: see docs/api.md")
	})
	a.mux = m
}

// ServeHTTP checks the Host and that no browser sent the request, then
// routes.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.once.Do(a.routes)
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	if !a.hostOK(r.Host) {
		apiError(w, http.StatusMisdirectedRequest, "the API answers only at "+a.Addr)
		return
	}
	if r.Header.Get("Origin") != "" {
		apiError(w, http.StatusForbidden, "refused: the API is for hosts, not for pages in a browser")
		return
	}
	a.mux.ServeHTTP(w, r)
}

// hostOK is the DNS-rebinding defence, as on the page.
func (a *API) hostOK(host string) bool {
	_, port, err := net.SplitHostPort(strings.TrimPrefix(a.Addr, "http://"))
	return err == nil && (host == "127.0.0.1:"+port || host == "localhost:"+port)
}

// host wraps a route that needs a host's token.
func (a *API) host(h func(w http.ResponseWriter, r *http.Request, host store.Host)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="sayso"`)
			apiError(w, http.StatusUnauthorized, "refused: send the host's token as Authorization: Bearer TOKEN (sayso host add NAME)")
			return
		}
		host, err := a.Decider.DB.HostOf(r.Context(), strings.TrimSpace(token))
		if errors.Is(err, store.ErrNotFound) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="sayso", error="invalid_token"`)
			apiError(w, http.StatusUnauthorized, "refused: this token names no host; it may have been removed")
			return
		}
		if err != nil && a.base != nil && a.base.Err() != nil {
			apiError(w, http.StatusServiceUnavailable, "refused: sayso serve is stopping; send the request again once it runs")
			return
		}
		if err != nil {
			serverError(w, "read its hosts", err)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxAPIBody)
		h(w, r, host)
	}
}

// decode reads a JSON body strictly: unknown fields and trailing data are
// refused.
func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the body is not the JSON this route takes: %v", err)
	}
	if dec.More() {
		return errors.New("the body holds more than one JSON value")
	}
	return nil
}

func apiJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// apiError is every refusal's body: {"error": "…"}.
func apiError(w http.ResponseWriter, code int, msg string) {
	apiJSON(w, code, struct {
		Error string `json:"error"`
	}{msg})
}

// seeLog is where a host is sent for an error the API does not show.
const seeLog = "sayso serve logged why on its standard error"

// serverError logs err on sayso serve's standard error and tells the host
// that sayso could not do what; the error itself stays in the log.
func serverError(w http.ResponseWriter, what string, err error) {
	slog.Error("api: "+what, "err", err)
	apiError(w, http.StatusInternalServerError, "sayso could not "+what+"; "+seeLog)
}
