package gateway_test

import (
	"net/http"
	"testing"
	"time"
)

// The page and the API share one listener: each answers its own routes.
func TestOneListener(t *testing.T) {
	f := startGateway(t, 10*time.Second)
	if _, code := f.get(webClient(), "/", nil); code != http.StatusUnauthorized {
		t.Errorf("GET / logged out: status %d, want the page's 401", code)
	}
	code, body := f.api("GET", "/api/v1/nope", f.addHost("chat", false), nil, nil)
	if code != http.StatusNotFound || body["error"] == nil {
		t.Errorf("GET /api/v1/nope: status %d %v, want a JSON 404", code, body)
	}
}
