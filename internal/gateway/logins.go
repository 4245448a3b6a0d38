package gateway

import (
	"context"
	"crypto/sha256"
	"time"

	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/web"
)

// logins keeps the page's browser sessions in the store, by hash, so that
// a tab stays logged in across a restart of sayso serve. The store lives
// in the state folder, which the wall hides from every walled step, and
// holds only the SHA-256 of each cookie and tab key: what an agent's step
// could read there lets nobody in.
type logins struct{ db *store.DB }

var _ web.Logins = logins{}

func (l logins) PageLogins(ctx context.Context) ([]web.Login, error) {
	kept, err := l.db.PageLogins(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]web.Login, 0, len(kept))
	for _, k := range kept {
		out = append(out, web.Login{Session: k.Session, Until: k.Until, Tabs: k.Tabs})
	}
	return out, nil
}

func (l logins) KeepPageLogin(ctx context.Context, session, tab [sha256.Size]byte, until time.Time) error {
	return l.db.KeepPageLogin(ctx, session, tab, until)
}

func (l logins) ForgetPageLogin(ctx context.Context, session [sha256.Size]byte) error {
	return l.db.ForgetPageLogin(ctx, session)
}
