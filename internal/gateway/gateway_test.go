package gateway_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// sayso login asks the gateway over the socket for a one-time link: it
// lets one browser in, once.
func TestLoginOverSocket(t *testing.T) {
	f := startGateway(t, 10*time.Second)
	r, err := f.ask("login", nil)
	if err != nil || r.Exit != 0 {
		t.Fatalf("login over the socket: %+v, %v", r, err)
	}
	link := strings.TrimSpace(string(r.Stdout))
	if !strings.HasPrefix(link, f.base+"/login?token=") {
		t.Fatalf("link %q is not the page's", link)
	}
	for i, want := range []int{http.StatusSeeOther, http.StatusUnauthorized} {
		res, err := client().Get(link)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("use %d of the link: status %d, want %d", i+1, res.StatusCode, want)
		}
	}
}

// The page and the API share one listener: each answers its own routes.
func TestOneListener(t *testing.T) {
	f := startGateway(t, 10*time.Second)
	if _, code := f.get(client(), "/", nil); code != http.StatusUnauthorized {
		t.Errorf("GET / logged out: status %d, want the page's 401", code)
	}
	code, body := f.api("GET", "/api/v1/nope", f.addHost("chat", false), nil, nil)
	if code != http.StatusNotFound || body["error"] == nil {
		t.Errorf("GET /api/v1/nope: status %d %v, want a JSON 404", code, body)
	}
}
