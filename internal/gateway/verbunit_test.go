package gateway_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Seed 004 §6: "Always allow" of unit verb + subcommand, per segment, is
// an opt-in of the person's policy file for one agent. Its cards offer one
// pattern per segment; a press keeps them; the kept verb rules cover the
// next compound with the same verbs. A kept rule of either unit never
// lifts a write out of scope it does not name, nor a ceiling.
func TestSeed004s6VerbUnit(t *testing.T) {
	f := startGateway(t, 30*time.Second)
	person, csrf := f.login()
	press := func(session, command, answer string) (string, []string) {
		t.Helper()
		got := make(chan string, 1)
		go func() { got <- f.hook(session, command) }()
		c := f.waitCard(command)
		if answer == "always" && len(c.Offer) == 0 {
			f.post(person, "/cards/"+c.ID+"/answer", answerForm(csrf, "deny"), nil)
			<-got
			t.Fatalf("the card about %q offers no rule: %s", command, c.NoOffer)
		}
		if code, body := f.answer(person, c.ID, answerForm(csrf, answer)); code != http.StatusSeeOther {
			t.Fatalf("%s on %q: status %d %s", answer, command, code, body)
		}
		var offer []string
		for _, r := range c.Offer {
			offer = append(offer, r.Pattern)
		}
		return <-got, offer
	}

	// Without the opt-in, the card offers the whole command or nothing.
	const compound = "mytool build && ls src"
	if _, offer := press("s-cmd", compound, "deny"); len(offer) != 0 {
		t.Errorf("without rule_unit, the compound's card offers %q", offer)
	}

	if err := os.WriteFile(filepath.Join(f.config, "policy.toml"), []byte("[agents.claude]\nrule_unit = \"verb\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d, offer := press("s-verb", compound, "always")
	if d != "allow" || strings.Join(offer, "; ") != "mytool build *; ls src *" {
		t.Fatalf("the opted-in card: decision %q, offer %q; want allow and one verb pattern per segment", d, offer)
	}
	if got := f.hook("s-verb", "mytool build --release && ls src -la"); got != "allow" {
		t.Errorf("the kept verb rules do not cover the next compound with the same verbs: %q", got)
	}

	// A verb rule kept for a write out of scope lifts neither the next
	// write it does not name, nor a ceiling.
	if d, offer := press("s-verb", "touch /srv/sayso-out-a", "always"); d != "allow" || strings.Join(offer, "; ") != "touch *" {
		t.Fatalf("touch out of scope: decision %q, offer %q", d, offer)
	}
	got := make(chan string, 1)
	go func() { got <- f.hook("s-verb", "touch /srv/sayso-out-b") }()
	c := f.waitCard("touch /srv/sayso-out-b")
	if code, body := f.post(person, "/cards/"+c.ID+"/answer", answerForm(csrf, "deny"), nil); code != http.StatusSeeOther {
		t.Fatalf("deny: %d %s", code, body)
	}
	if d := <-got; d != "deny" {
		t.Errorf("a verb rule lifted a write out of scope it does not name: %q", d)
	}

	// A command rule names its own out-of-scope path: it lifts exactly it.
	if err := os.WriteFile(filepath.Join(f.config, "policy.toml"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if d, offer := press("s-cmd2", "touch /srv/sayso-out-c", "always"); d != "allow" || strings.Join(offer, "; ") != "touch /srv/sayso-out-c" {
		t.Fatalf("command unit: decision %q, offer %q", d, offer)
	}
	if got := f.hook("s-cmd2", "touch /srv/sayso-out-c"); got != "allow" {
		t.Errorf("a command rule does not lift the path it names: %q", got)
	}
}
