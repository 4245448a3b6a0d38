package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestActivity: a session's folder is where its latest step ran; it has
// ended once its agent says so, and is live again when it goes on (a
// resumed conversation). A task ends with its parent. An ended session
// takes no lease.
func TestActivity(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	clock := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { clock = clock.Add(time.Second); return clock }
	act := func(id string) Activity {
		t.Helper()
		a, err := db.Activity(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		// Every session's at once, as the sessions page reads them,
		// says the same.
		all, err := db.Activities(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if all[id] != a {
			t.Errorf("Activities()[%s] = %+v, Activity = %+v", id, all[id], a)
		}
		return a
	}
	person(t, db, "s", "push it")
	if a := act("s"); a.Ended || a.Folder != "" || a.Last.IsZero() {
		t.Errorf("a session with a message only: %+v, want live, no folder, active", a)
	}
	decide(t, db, step("s", "/home/p/shop"), RemoteWrite)
	decide(t, db, step("s", "/home/p/shop/web"), RemoteWrite)
	if a := act("s"); a.Ended || a.Folder != "/home/p/shop/web" {
		t.Errorf("after two steps: %+v, want live in /home/p/shop/web", a)
	}
	if _, err := db.CreateTask(ctx, NewTask{ID: "s-task", Parent: "s", Prompt: "go"}); err != nil {
		t.Fatal(err)
	}
	if a := act("s-task"); a.Ended {
		t.Errorf("a task just made: %+v, want live", a)
	}
	if err := db.EndSession(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	a := act("s")
	if !a.Ended || a.EndedAt.IsZero() || a.Folder != "/home/p/shop/web" {
		t.Errorf("after its end: %+v, want ended, keeping its folder", a)
	}
	if a := act("s-task"); !a.Ended {
		t.Errorf("a task after its parent ended: %+v, want ended", a)
	}
	_, err := db.GrantLease(ctx, Grant{Category: RemoteWrite, Session: "s", Cwd: "/home/p/shop"})
	if !errors.Is(err, ErrSessionEnded) {
		t.Errorf("a lease for an ended session: %v, want ErrSessionEnded", err)
	}
	if ls, _ := db.Leases(ctx, true); len(ls) != 0 {
		t.Errorf("leases after the refused grant: %+v", ls)
	}

	// Resumed: a new message makes it live, and a lease may be granted.
	person(t, db, "s", "go on")
	if a := act("s"); a.Ended {
		t.Errorf("after a resume: %+v, want live", a)
	}
	if _, err := db.GrantLease(ctx, Grant{Category: RemoteWrite, Session: "s", Cwd: "/home/p/shop"}); err != nil {
		t.Errorf("a lease for the resumed session: %v", err)
	}
	if _, err := db.Activity(ctx, "nobody"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the activity of an unknown session: %v", err)
	}
}
