package gateway_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Deleting a namespace, a cluster or a bucket, or destroying
// infrastructure, is severe as a force-push is: the card a real hook waits
// on offers no "Always allow" and says why, and a deny keeps no rule.
func TestBrowserSevereClusterCard(t *testing.T) {
	b := newBrowser(t)
	f := startGateway(t, 40*time.Second)
	login(b, f)
	for i, step := range []string{
		"kubectl --context prod delete namespace payments",
		"gcloud container clusters delete prod --region us-east1",
		"terraform destroy -auto-approve",
	} {
		p := f.block("s-cluster", step)
		sel := showCard(b, p)
		if len(p.card.Offer) != 0 || !strings.Contains(p.card.NoOffer, "severe") {
			t.Errorf("%s: the card offers %v (no offer: %q), want none because it is severe", step, p.card.Offer, p.card.NoOffer)
		}
		if b.Eval(`document.querySelector("` + sel + ` button[value=always]") !== null`) {
			t.Errorf("%s: the card offers Always allow", step)
		}
		if got := b.Text(sel + " .badge"); !strings.Contains(strings.ToLower(got), "severe") {
			t.Errorf("%s: the badge reads %q, want severe", step, got)
		}
		if got := b.Text(sel + " .no-offer"); !strings.Contains(got, "No “Always allow” here") || !strings.Contains(got, "severe") {
			t.Errorf("%s: the card says %q", step, got)
		}
		if i == 0 {
			b.Screenshot("gateway-card-severe-cluster.png")
			b.Axe("/ with a severe cluster card")
		}
		b.Submit("deny "+step, `document.querySelector("`+sel+`") === null`, chromedp.Click(chromedp.CSS(sel+" button[value=deny]")))
		if got := p.result(t); got != "deny" {
			t.Errorf("%s: the hook returned %q after Deny, want deny", step, got)
		}
	}
	if rs := f.rules(); len(rs) != 0 {
		t.Errorf("rules after the severe cards: %q", rs)
	}
	b.Clean()
}
