package hubserver_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// pgConn is the database's owner, reading (or editing) by hand.
func pgConn(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}
