package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/card"
)

// confirmed presses an allow as the page does for a step that needs a
// confirm: the first press is refused and gives the confirm; the second,
// a moment later, sends it. It returns the second press's reply.
func (f *fixture) confirmed(c *http.Client, csrf string, cd card.Card, answer string) *http.Response {
	f.t.Helper()
	return f.confirmedForm(c, cd, answerForm(csrf, answer))
}

// confirmedForm is confirmed with the whole form the page sends.
func (f *fixture) confirmedForm(c *http.Client, cd card.Card, form url.Values) *http.Response {
	f.t.Helper()
	res, _ := f.post(c, "/cards/"+cd.ID+"/answer", form, nil)
	token := res.Header.Get(ConfirmHeader)
	if res.StatusCode != http.StatusPreconditionRequired || token == "" {
		f.t.Fatalf("the first press of %s on %s: status %d, confirm %q; want 428 with a confirm", form.Get("answer"), cd.Step, res.StatusCode, token)
	}
	f.wait(card.ConfirmAfter)
	form.Set("confirm", token)
	res, _ = f.post(c, "/cards/"+cd.ID+"/answer", form, nil)
	return res
}

// wait lets d pass on the fixture's clock.
func (f *fixture) wait(d time.Duration) {
	if f.clock != nil {
		f.clock.Add(d)
		return
	}
	// The server reads the real clock: the time itself must pass (a
	// confirm is due only ConfirmAfter after it was given, by design).
	time.Sleep(d)
}

// An intruder holds a tab of the person's page (its cookie, its key, its
// token: everything the page's script has) and tries to allow a severe
// step without the confirm the page asks the person for. Every try is
// refused and nothing is kept; the person's own two presses allow it.
func TestIntruderSevereWithoutConfirm(t *testing.T) {
	f := newFixture(t, nil)
	offering, severe := f.seed()
	c, csrf := f.login()
	other, otherCSRF := f.login() // a second tab of the same person
	try := func(what string, card card.Card, form url.Values, cl *http.Client) string {
		t.Helper()
		res, body := f.post(cl, "/cards/"+card.ID+"/answer", form, nil)
		if res.StatusCode != http.StatusPreconditionRequired || !strings.Contains(body, "allowed only once confirmed") {
			t.Errorf("%s: status %d, want 428 and the refusal:\n%s", what, res.StatusCode, body)
		}
		return res.Header.Get(ConfirmHeader)
	}
	with := func(answer, confirm string) url.Values {
		v := answerForm(csrf, answer)
		v.Set("confirm", confirm)
		return v
	}

	// One request, as one stray key would send it, with no confirm or a
	// made-up one.
	for _, a := range []string{"allow-once"} {
		try(a+" with no confirm", severe, answerForm(csrf, a), c)
		for _, fake := range []string{"1", "yes", "0.AAAA", "9999999999999.", "confirm"} {
			try(a+" with the confirm "+fake, severe, with(a, fake), c)
		}
	}
	try("always with no confirm on the ceiling card", offering, answerForm(csrf, "always"), c)
	try("allow-once with no confirm on the ceiling card", offering, answerForm(csrf, "allow-once"), c)

	// A confirm given a moment ago is not yet due: two requests sent at
	// once are one press.
	token := try("the first press", severe, answerForm(csrf, "allow-once"), c)
	if token == "" {
		t.Fatal("the refusal gave no confirm")
	}
	try("the confirm sent at once", severe, with("allow-once", token), c)
	f.wait(card.ConfirmAfter)

	// A due confirm serves only its card, its answer, its tab.
	once := try("allow-once on the ceiling card", offering, answerForm(csrf, "allow-once"), c)
	f.wait(card.ConfirmAfter)
	try("the severe card's confirm on the ceiling card", offering, with("allow-once", token), c)
	try("the allow-once confirm for always", offering, with("always", once), c)
	mine := answerForm(otherCSRF, "allow-once")
	mine.Set("confirm", token)
	try("the confirm from another tab", severe, mine, other)
	at, mac, _ := strings.Cut(token, ".")
	try("the confirm with its time moved", severe, with("allow-once", at+"1."+mac), c)

	// A confirm lapses.
	late := try("another first press", offering, answerForm(csrf, "always"), c)
	f.wait(card.ConfirmLapse + time.Second)
	try("a lapsed confirm", offering, with("always", late), c)
	f.nothingKept(offering, severe)

	// Deny needs no confirm; the person's two presses allow.
	if res := f.confirmed(c, csrf, severe, "allow-once"); res.StatusCode != http.StatusSeeOther {
		t.Errorf("the person's confirmed allow: status %d, want 303", res.StatusCode)
	}
	if got, _ := f.mem.Card(context.Background(), severe.ID); !got.Answered || got.Answer != card.AllowOnce {
		t.Errorf("after the confirmed allow the severe card: answered %v with %v", got.Answered, got.Answer)
	}
	if res, _ := f.post(c, "/cards/"+offering.ID+"/answer", answerForm(csrf, "deny"), nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("deny: status %d, want 303 with no confirm", res.StatusCode)
	}
}
