package store

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestRunning holds seed 004 §1 (parallelize) in the store: what runs is
// counted from the spawn let through to the task's end or its session's.
func TestRunning(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	clock := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return clock }
	spawn := func(session string, allow bool) int {
		t.Helper()
		var n int
		d := DecisionAsk
		if allow {
			d = DecisionAllow
		}
		if _, err := db.Decide(ctx, Step{Session: NewSession{ID: session}, Cwd: "/p", Tool: "Agent", Summary: "Agent", Spawn: true}, func(st *State) Outcome {
			n = st.Running
			return Outcome{Decision: d}
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	task := func(id string) {
		t.Helper()
		if _, err := db.CreateTask(ctx, NewTask{ID: id, Parent: "s", Prompt: "go"}); err != nil {
			t.Fatal(err)
		}
	}
	if n := spawn("s", true); n != 0 {
		t.Fatalf("a fresh session runs %d", n)
	}
	if n := spawn("s", false); n != 1 {
		t.Errorf("a spawn let through holds no place: %d", n)
	}
	task("a") // claims the spawn: still one
	if n := spawn("s", false); n != 1 {
		t.Errorf("after the task started: %d, want 1", n)
	}
	if n := spawn("a", false); n != 1 {
		t.Errorf("a task's own spawn counts in its parent's tree: %d, want 1", n)
	}
	if err := db.EndTask(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if n := spawn("s", true); n != 0 {
		t.Errorf("after the task ended: %d, want 0", n)
	}
	clock = clock.Add(SpawnLapse + time.Second)
	if n := spawn("s", true); n != 0 {
		t.Errorf("a spawn whose task never started holds its place past the lapse: %d", n)
	}
	task("b")
	if n := spawn("s", false); n != 2 {
		t.Errorf("a running task and an open spawn: %d, want 2", n)
	}
	if err := db.EndSession(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	if n := spawn("s", false); n != 0 {
		t.Errorf("after the session ended: %d, want 0", n)
	}
	if err := db.EndTask(ctx, "nobody"); err == nil {
		t.Error("ending a task sayso never saw: no error")
	}
}

// TestEndSpawn holds seed 004 §1 for a client that reports no sub-agent's
// start or end, only the spawning tool's end (Gemini CLI's AfterTool): that
// end frees one place at once, not after SpawnLapse.
func TestEndSpawn(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	clock := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return clock }
	spawn := func() int {
		t.Helper()
		var n int
		if _, err := db.Decide(ctx, Step{Session: NewSession{ID: "g", Agent: "gemini"}, Cwd: "/p", Tool: "invoke_agent", Summary: "invoke_agent", Spawn: true}, func(st *State) Outcome {
			n = st.Running
			return Outcome{Decision: DecisionAllow}
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	spawn()
	if n := spawn(); n != 1 {
		t.Fatalf("a spawn let through holds no place: %d", n)
	}
	clock = clock.Add(time.Second)
	if err := db.EndSpawn(ctx, "g"); err != nil {
		t.Fatal(err)
	}
	if n := spawn(); n != 1 {
		t.Errorf("after one of two sub-agents ended: %d running, want 1", n)
	}
	for range 3 {
		if err := db.EndSpawn(ctx, "g"); err != nil {
			t.Fatal(err)
		}
	}
	if n := spawn(); n != 0 {
		t.Errorf("after every sub-agent ended: %d running, want 0", n)
	}
	if err := db.EndSpawn(ctx, "nobody"); err == nil {
		t.Error("ending a sub-agent of a session sayso never saw: no error")
	}
}

// TestSpawnsRace: spawns decided at once each see the places the others
// took; exactly max of them find room.
func TestSpawnsRace(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	const max, racers = 2, 8
	var wg sync.WaitGroup
	for range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := db.Decide(ctx, Step{Session: NewSession{ID: "s"}, Cwd: "/p", Tool: "Agent", Summary: "Agent", Spawn: true}, func(st *State) Outcome {
				if st.Running+1 > max {
					return Outcome{Decision: DecisionAsk}
				}
				return Outcome{Decision: DecisionAllow}
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var n int
	db.Decide(ctx, Step{Session: NewSession{ID: "s"}, Cwd: "/p", Summary: "Agent", Spawn: true}, func(st *State) Outcome {
		n = st.Running
		return Outcome{Decision: DecisionAsk}
	})
	if n != max {
		t.Errorf("%d places taken by %d racing spawns, want %d", n, racers, max)
	}
}
