package gateway

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sayso-dev/sayso/internal/client"
	"github.com/sayso-dev/sayso/internal/hook"
)

// BenchmarkDecide times the gateway's share of one hook: the request
// built (the policy files, the kept rules, the project's packages, the
// repository and compose looks), the decision, and its ledger row in the
// store's transaction — for an everyday step in a git project.
//
//	go test -run '^$' -bench Decide -benchtime 2s ./internal/gateway/
func BenchmarkDecide(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	proj := filepath.Join(dir, "proj")
	if out, err := exec.Command("git", "init", "-q", proj).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v\n%s", err, out)
	}
	os.WriteFile(filepath.Join(proj, "package.json"), []byte(`{"scripts":{"test":"vitest"},"devDependencies":{"vitest":"1"}}`), 0o644)
	db := openTestStore(b)
	db.KeepStatements() // as New has the gateway's store do
	d := &Decider{DB: db, Home: dir, ConfigDir: dir, Walls: hook.Walls{Launcher: "/sayso-test/sayso-wall", Home: dir}}
	step := client.Step{Agent: "claude", Session: "s1", Turn: "t1", Cwd: proj, Kind: client.KindShell, Tool: "Bash", Command: "git status && npm test"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := d.Decide(ctx, step); err != nil {
			b.Fatal(err)
		}
	}
}
