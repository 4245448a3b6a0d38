package gateway

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/web"
)

// TestLeaseForAnEndedSession: the page's grant of a lease for a session
// whose agent said it ended is refused as the person's mistake, with why,
// and keeps nothing.
func TestLeaseForAnEndedSession(t *testing.T) {
	ctx := context.Background()
	db := openTestStore(t)
	if _, err := db.AddMessage(ctx, store.NewSession{ID: "s1", Agent: "claude"}, store.NewMessage{Source: store.SourcePerson, Text: "push"}); err != nil {
		t.Fatal(err)
	}
	if err := db.EndSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	b := &Backend{DB: db}
	_, err := b.GrantLease(ctx, web.Grant{Category: "remote-write", Session: "s1", Cwd: "/proj", TTL: 5 * time.Minute})
	if !errors.Is(err, web.ErrInvalid) || !strings.Contains(err.Error(), "the session has ended") {
		t.Errorf("a lease for an ended session: %v, want it refused as invalid, saying why", err)
	}
	if ls, _ := db.Leases(ctx, true); len(ls) != 0 {
		t.Errorf("leases kept: %+v", ls)
	}
}
