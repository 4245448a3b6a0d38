package web

import (
	"strings"
	"testing"
)

// TestWarningsOnEveryPage: what the person turned off that keeps sayso
// from holding is on every page, as long as it is so.
func TestWarningsOnEveryPage(t *testing.T) {
	f := newFixture(t, nil)
	var warn []string
	f.srv.opts.Warnings = func() []string { return warn }
	c, _ := f.login()
	for _, path := range []string{"/", "/sessions", "/rules", "/settings"} {
		if body, _ := f.get(c, path, nil); strings.Contains(body, "auto_without_wall") {
			t.Errorf("%s warns with nothing to warn about", path)
		}
	}
	warn = []string{"auto_without_wall = true in your policy file: there is no wall here"}
	for _, path := range []string{"/", "/sessions", "/rules", "/leases", "/ledger", "/note", "/settings"} {
		if body, code := f.get(c, path, nil); !strings.Contains(body, "auto_without_wall = true in your policy file") {
			t.Errorf("%s (%d) does not show the warning", path, code)
		}
	}
}
