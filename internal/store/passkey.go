package store

import (
	"context"
	"fmt"
)

// Ledger kinds of the passkeys this node pinned for its person: the keys
// whose signature makes a yes from the hub count here.
const (
	KindPasskeyPinned  = "passkey-pinned"
	KindPasskeyRemoved = "passkey-removed"
)

// PasskeyChange is a passkey pinned on this node, or removed from it.
type PasskeyChange struct {
	Person string `json:"person"`
	ID     string `json:"id"`           // the credential id, base64url
	RP     string `json:"rp,omitempty"` // the relying party it was made for
}

// RecordPasskey writes the ledger's row of a passkey pinned
// (KindPasskeyPinned) or removed (KindPasskeyRemoved).
func (db *DB) RecordPasskey(ctx context.Context, kind string, p PasskeyChange) error {
	what := map[string]string{KindPasskeyPinned: "pinned", KindPasskeyRemoved: "removed"}[kind]
	if what == "" {
		return fmt.Errorf("record passkey: unknown kind %q", kind)
	}
	return db.change(ctx, "record passkey "+p.ID, func(tx *tx) error {
		_, err := tx.appendLedger(ctx, kind, "", "passkey "+p.ID+" of "+p.Person+" "+what, p)
		return err
	})
}
