package gateway

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/store"
)

func openTestStore(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestTaskFollowsHeldParent: a sub-agent's step that reaches sayso before
// its task was recorded is still the parent's task, and a held parent
// holds it.
func TestTaskFollowsHeldParent(t *testing.T) {
	ctx := context.Background()
	db := openTestStore(t)
	dir := t.TempDir()
	d := &Decider{DB: db, Home: dir, ConfigDir: dir, Walls: hook.Walls{Launcher: "/sayso-test/sayso-wall", Home: dir}}
	if _, err := db.EnsureSession(ctx, store.NewSession{ID: "parent", Agent: "claude"}); err != nil {
		t.Fatal(err)
	}
	if err := db.Hold(ctx, "parent", "the person stopped it"); err != nil {
		t.Fatal(err)
	}
	step := client.Step{Agent: "claude", Session: "parent", Task: "sub-1", Tool: "Bash", Kind: client.KindShell, Command: "touch x", Cwd: dir}
	dec, diag, err := d.Decide(ctx, step)
	if err != nil {
		t.Fatal(err)
	}
	if dec != policy.Deny {
		t.Errorf("a held parent's task step = %v, want deny: %v", dec, diag.Reasons)
	}
	s, err := db.Session(ctx, "sub-1")
	if err != nil || s.Parent != "parent" {
		t.Errorf("task = %+v, %v; want a task of parent", s, err)
	}
	// A later SubagentStart for the same task changes nothing.
	if err := d.Record(ctx, []client.Event{{Kind: client.EventTask, Agent: "claude", Session: "parent", Task: "sub-1", Text: "do it"}}); err != nil {
		t.Errorf("Record of a known task: %v", err)
	}
}

// TestLeaseConsumedOnce: a lease lets exactly one ceiling step through.
func TestLeaseConsumedOnce(t *testing.T) {
	ctx := context.Background()
	db := openTestStore(t)
	dir := t.TempDir()
	d := &Decider{DB: db, Home: dir, ConfigDir: dir, Walls: hook.Walls{Launcher: "/sayso-test/sayso-wall", Home: dir}}
	if _, err := db.AddMessage(ctx, store.NewSession{ID: "s", Agent: "claude"}, store.NewMessage{Source: store.SourcePerson, Turn: "t1", Text: "push it"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.GrantLease(ctx, store.Grant{Category: store.RemoteWrite, Session: "s", Cwd: dir}); err != nil {
		t.Fatal(err)
	}
	step := client.Step{Agent: "claude", Session: "s", Turn: "t1", Tool: "Bash", Kind: client.KindShell, Command: "git push origin feature/x", Cwd: dir}
	first, diag, err := d.Decide(ctx, step)
	if err != nil || first != policy.Allow {
		t.Fatalf("first push = %v, %v: %v; want allow by the lease", first, err, diag.Reasons)
	}
	second, _, err := d.Decide(ctx, step)
	if err != nil || second == policy.Allow {
		t.Fatalf("second push = %v, %v; want it not allowed: the lease is consumed", second, err)
	}
}
