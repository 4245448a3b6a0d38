package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// refuseBroad stands in for the rule package's validator.
func refuseBroad(r Rule) error {
	if first := strings.Fields(r.Pattern); len(first) < 2 || first[0] == "bash" {
		return errors.New("too broad")
	}
	return nil
}

func TestBackupRestore(t *testing.T) {
	ctx := context.Background()
	src := openTest(t)
	src.SetNote(ctx, "my hosts are build1 and build2; prod is the fly app acme-prod")
	src.AddRule(ctx, Rule{Tool: "Bash", Unit: "command", Pattern: "git push origin feature/*", Cwd: "/w"})
	person(t, src, "s1", "push")
	src.GrantLease(ctx, Grant{Category: RemoteWrite, Session: "s1", Cwd: "/w"})
	b, err := src.Backup(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	json.NewEncoder(&buf).Encode(b)
	if strings.Contains(buf.String(), "lease") || strings.Contains(buf.String(), "s1") {
		t.Errorf("backup carries leases or sessions: %s", buf.String())
	}
	// A hand-made file adds a broad rule and a lease.
	var raw map[string]any
	json.Unmarshal(buf.Bytes(), &raw)
	raw["rules"] = append(raw["rules"].([]any), map[string]any{"tool": "Bash", "unit": "command", "pattern": "bash *", "cwd": "/w"})
	raw["leases"] = []any{map[string]any{"category": "deploy"}}
	forged, _ := json.Marshal(raw)
	nb, err := ReadBackup(bytes.NewReader(forged))
	if err != nil {
		t.Fatal(err)
	}

	dst := openTest(t)
	dst.AddRule(ctx, Rule{Tool: "Bash", Unit: "command", Pattern: "make lint", Cwd: "/old"})
	cur, _ := dst.Backup(ctx)
	var lines []string
	for _, c := range Preview(cur, nb, refuseBroad) {
		lines = append(lines, c.String())
	}
	want := []string{
		"auto-environment: my hosts are build1 and build2; prod is …",
		"auto-never-asks: run git push origin feature/* (in /w)",
		"refused: run bash * (in /w): too broad",
		"forget: run make lint (in /old)",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("preview:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	res, err := dst.Restore(ctx, nb, refuseBroad)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Kept) != 1 || len(res.Refused) != 1 || len(res.Forgotten) != 1 {
		t.Errorf("restored %+v", res)
	}
	rules, _ := dst.Rules(ctx)
	if len(rules) != 1 || rules[0].Pattern != "git push origin feature/*" {
		t.Errorf("rules after restore = %+v", rules)
	}
	if n, _ := dst.Note(ctx); n != b.Note {
		t.Errorf("note after restore = %q", n)
	}
	if ls, _ := dst.Leases(ctx, true); len(ls) != 0 {
		t.Errorf("a restore brought leases: %+v", ls)
	}
	if ss, _ := dst.Sessions(ctx); len(ss) != 0 {
		t.Errorf("a restore brought sessions: %+v", ss)
	}
}

func TestRestoreWithoutValidatorKeepsNoRule(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	res, err := db.Restore(ctx, &Backup{Format: BackupFormat, Rules: []Rule{{Tool: "Bash", Unit: "command", Pattern: "go test ./...", Cwd: "/w"}}}, nil)
	if err != nil || len(res.Kept) != 0 || len(res.Refused) != 1 {
		t.Errorf("restore with no validator: %+v, %v", res, err)
	}
}

func TestReadBackupRefuses(t *testing.T) {
	for _, in := range []string{`{}`, `{"sayso_backup": 2}`, `not json`, `{"sayso_backup": 1, "environment_note": "` + strings.Repeat("a", 2001) + `"}`} {
		if _, err := ReadBackup(strings.NewReader(in)); err == nil {
			t.Errorf("ReadBackup(%.40q) succeeded", in)
		}
	}
}

func TestRules(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	r, err := db.AddRule(ctx, Rule{Tool: "Bash", Pattern: "go test ./...", Cwd: "/w"})
	if err != nil || r.ID == 0 || r.Unit != "command" {
		t.Fatalf("AddRule = %+v, %v", r, err)
	}
	again, _ := db.AddRule(ctx, Rule{Tool: "Bash", Pattern: "go test ./...", Cwd: "/w"})
	if again.ID != r.ID {
		t.Errorf("the same rule kept twice: %d and %d", r.ID, again.ID)
	}
	if err := db.ForgetRule(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.ForgetRule(ctx, r.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("forgetting a forgotten rule: %v", err)
	}
	if rs, _ := db.Rules(ctx); len(rs) != 0 {
		t.Errorf("rules = %+v", rs)
	}
}
