package web

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// brokenSessions is a backend whose sessions cannot be read.
type brokenSessions struct{ *Memory }

func (brokenSessions) Sessions(context.Context) ([]Session, error) {
	return nil, errors.New("database is locked (5)")
}

// TestFailureIsLogged: an error the page does not show goes to sayso
// serve's log, and the page says where that is.
func TestFailureIsLogged(t *testing.T) {
	var log bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&log, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })

	f := newFixture(t, nil)
	srv, err := New(brokenSessions{f.mem}, Options{Addr: strings.TrimPrefix(f.base, "http://"), Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	f.srv = srv
	f.ts.Config.Handler = srv
	c, _ := f.login()
	body, code := f.get(c, "/leases", nil)
	if code != http.StatusInternalServerError || !strings.Contains(body, "standard error") || strings.Contains(body, "database is locked") {
		t.Errorf("GET /leases = %d:\n%s\nwant 500 naming the log, not the error", code, body)
	}
	if !strings.Contains(log.String(), "database is locked") || !strings.Contains(log.String(), "/leases") {
		t.Errorf("log = %q, want the error and the page", log.String())
	}
}
