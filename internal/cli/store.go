package cli

import (
	"context"
	"path/filepath"
	"time"

	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/store"
)

// storeTimeout bounds how long a person's command waits for the database.
const storeTimeout = 30 * time.Second

// openStore opens the database in the state folder, making the folder
// private first.
func openStore() (*store.DB, context.Context, context.CancelFunc, error) {
	dir, err := paths.StateDir()
	if err != nil {
		return nil, nil, nil, err
	}
	if err := paths.Private(dir); err != nil {
		return nil, nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	db, err := store.Open(ctx, filepath.Join(dir, store.FileName))
	if err != nil {
		cancel()
		return nil, nil, nil, err
	}
	return db, ctx, cancel, nil
}

// withStore runs f with the database open, and closes it after.
func withStore(f func(ctx context.Context, db *store.DB) error) error {
	db, ctx, cancel, err := openStore()
	if err != nil {
		return err
	}
	defer cancel()
	defer db.Close()
	return f(ctx, db)
}
