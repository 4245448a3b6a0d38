package web

import (
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/policy"
)

// TestBrowserSettingsFiles: the settings page names, in real Chromium,
// each policy file sayso looked for and whether it is there; with none
// there it shows where to start one and the entry to start it with, the
// same entry 'sayso policy check' suggests; with one there it does not.
func TestBrowserSettingsFiles(t *testing.T) {
	b := newBrowser(t)
	f := newFixture(t, time.Now)
	person := "/home/p/.config/sayso/policy.toml"
	f.mem.SetSettings(Settings{Looked: []policy.Look{{Path: person, Whose: "person"}}})

	b.Open("log in", f.srv.LoginURL())
	b.Open("settings page, no file", f.base+"/settings")
	files := b.Text("#policy-files")
	for _, want := range []string{person + " (yours, for every project: not there)", "To start yours, write in " + person, "sayso policy check", policy.ProjectFile} {
		if !strings.Contains(files, want) {
			t.Errorf("with no policy file, the settings page does not say %q; it says:\n%s", want, files)
		}
	}
	if got, want := b.Text("#policy-files pre.starter"), strings.TrimSpace(policy.Starter); got != want {
		t.Errorf("the entry to start with reads %q, want policy.Starter %q", got, want)
	}
	b.Screenshot("settings-no-file.png")
	b.Axe("/settings with no policy file")

	f.mem.SetSettings(Settings{Looked: []policy.Look{{Path: person, Whose: "person", Exists: true}}})
	b.Open("settings page, a file", f.base+"/settings")
	files = b.Text("#policy-files")
	if !strings.Contains(files, person+" (yours, for every project: there)") {
		t.Errorf("with a policy file, the settings page does not say it is there; it says:\n%s", files)
	}
	if strings.Contains(files, "To start yours") || b.Eval(`document.querySelector("#policy-files pre.starter") !== null`) {
		t.Errorf("with a policy file, the settings page still says how to start one:\n%s", files)
	}
}
