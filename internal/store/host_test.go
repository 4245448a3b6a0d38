package store

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestHosts(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	h, token, err := db.AddHost(ctx, NewHost{Name: "chat"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(token, TokenPrefix) || len(token) < 40 || h.Person {
		t.Fatalf("AddHost = %+v, %q", h, token)
	}
	var kept string
	if err := db.db.QueryRowContext(ctx, "SELECT token_sha256 FROM hosts").Scan(&kept); err != nil || kept != tokenHash(token) || strings.Contains(kept, token) {
		t.Errorf("kept %q (%v), want only the token's SHA-256", kept, err)
	}
	if got, err := db.HostOf(ctx, token); err != nil || got.Name != "chat" {
		t.Errorf("HostOf = %+v, %v", got, err)
	}
	for _, bad := range []string{"", token + "x", TokenPrefix, strings.TrimPrefix(token, TokenPrefix), tokenHash(token)} {
		if _, err := db.HostOf(ctx, bad); !errors.Is(err, ErrNotFound) {
			t.Errorf("HostOf(%q) = %v, want not found", bad, err)
		}
	}
	if _, _, err := db.AddHost(ctx, NewHost{Name: "chat"}); !errors.Is(err, ErrHostExists) {
		t.Errorf("second chat: %v", err)
	}
	for _, name := range []string{"", "Chat", "claude", "login", "1chat", "a b", "chat/x", strings.Repeat("a", 41)} {
		if _, _, err := db.AddHost(ctx, NewHost{Name: name, Agents: []string{"claude"}}); err == nil {
			t.Errorf("AddHost(%q) = nil error", name)
		}
	}
	if _, _, err := db.AddHost(ctx, NewHost{Name: "orchestrator-2", Person: true}); err != nil {
		t.Fatal(err)
	}
	hs, err := db.Hosts(ctx)
	if err != nil || len(hs) != 2 || hs[0].Name != "chat" || !hs[1].Person {
		t.Errorf("Hosts = %+v, %v", hs, err)
	}
	if err := db.RemoveHost(ctx, "chat"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.HostOf(ctx, token); !errors.Is(err, ErrNotFound) {
		t.Errorf("removed host's token: %v", err)
	}
	if err := db.RemoveHost(ctx, "chat"); !errors.Is(err, ErrNotFound) {
		t.Errorf("remove twice: %v", err)
	}
	rows, _ := db.Log(ctx, LogFilter{})
	var kinds []string
	for _, r := range rows {
		kinds = append(kinds, r.Kind)
		if strings.Contains(r.Summary+string(r.Detail), strings.TrimPrefix(token, TokenPrefix)) {
			t.Errorf("the ledger holds the token: %s", r.Detail)
		}
	}
	if strings.Join(kinds, " ") != "host-added host-added host-removed" {
		t.Errorf("ledger kinds = %v", kinds)
	}
}
