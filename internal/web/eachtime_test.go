package web

import (
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// Seed 000 §3: the classes the person marked "show each time" are on the
// settings page.
func TestSeed000s3ShowEachTimeOnSettings(t *testing.T) {
	f := newFixture(t, nil)
	p := policy.Defaults()
	p.ShowEachTime = risk.Of(risk.Network, risk.RemoteWrite)
	f.mem.SetSettings(Settings{Looked: []policy.Look{{Path: "/home/p/.config/sayso/policy.toml", Whose: "person", Exists: true}}, Policy: p})
	c, _ := f.login()
	body, code := f.get(c, "/settings", nil)
	if !strings.Contains(body, "show_each_time") || !strings.Contains(body, "network") || !strings.Contains(body, "remote-write") {
		t.Errorf("/settings (%d) does not show the classes shown each time", code)
	}
}
