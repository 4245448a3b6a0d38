package client

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSeed002PinHoldsWhatSaysoWrote guards seed 002 §6 (trusted hook
// definitions are pinned) against the client's own writes: on its first
// start the Codex TUI adds [tui] and [projects] tables to config.toml and
// moves sayso's closing comment below them, as recorded here from Codex
// 0.169. That must not break the pin; any change to sayso's own
// [hooks.state] entries still does, and uninstall still removes exactly
// them.
func TestSeed002PinHoldsWhatSaysoWrote(t *testing.T) {
	eachPinStore(t, testSeed002PinHolds)
}

func testSeed002PinHolds(t *testing.T, pins func(path string) PinStore) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	codex := filepath.Join(home, ".codex")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(codex, 0o755))
	bin := filepath.Join(dir, "sayso")
	must(os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))
	config := filepath.Join(codex, "config.toml")
	const mine = "model = \"fake-model\"\n\n[analytics]\nenabled = false\n"
	must(os.WriteFile(config, []byte(mine), 0o600))
	store := pins(filepath.Join(dir, "pins.json"))
	target := Target{Agent: "codex", Scope: "user", Home: home, Getenv: func(string) string { return "" },
		Binary: bin, StateDir: filepath.Join(dir, "state"), ConfigDir: filepath.Join(dir, "config")}
	if _, err := Install(target, store); err != nil {
		t.Fatal(err)
	}
	installed, err := os.ReadFile(config)
	must(err)
	if probs := CheckPins(store, "codex"); len(probs) != 0 {
		t.Fatalf("fresh install: %v", probs)
	}

	// What the Codex TUI did to the file on its first start.
	tui := strings.Replace(string(installed), trustEnd,
		"\n[tui]\nscreen_reader_detection_done = true\n\n[tui.model_availability_nux]\n\"gpt-6.1-sol\" = 1\n\n[projects.\"/w/repo\"]\ntrust_level = \"trusted\"\n"+trustEnd, 1)
	if tui == string(installed) {
		t.Fatal("the installed file has no closing comment")
	}
	must(os.WriteFile(config, []byte(tui), 0o600))
	if probs := CheckPins(store, "codex"); len(probs) != 0 {
		t.Errorf("the client's own tables broke the pin: %v", probs)
	}

	// Changes to sayso's entries break it.
	hash := func(s string) string {
		i := strings.Index(s, "trusted_hash = \"sha256:")
		return s[i+len("trusted_hash = \"sha256:") : i+len("trusted_hash = \"sha256:")+64]
	}(tui)
	for name, broken := range map[string]string{
		"hash changed":      strings.Replace(tui, hash, strings.Repeat("0", 64), 1),
		"hook switched off": strings.Replace(tui, "trusted_hash = \"sha256:"+hash+"\"\n", "trusted_hash = \"sha256:"+hash+"\"\nenabled = false\n", 1),
		"entry removed":     strings.Replace(tui, "trusted_hash = \"sha256:"+hash+"\"\n", "", 1),
		"dotted override":   tui + "\n[hooks]\nstate.\"x\".trusted_hash = \"sha256:0\"\n",
		"not TOML":          tui + "\n[tui]\n",
	} {
		must(os.WriteFile(config, []byte(broken), 0o600))
		if probs := CheckPins(store, "codex"); len(probs) != 1 || !strings.Contains(probs[0].What, "no longer trusts") {
			t.Errorf("%s: problems %v, want the trust pin broken", name, probs)
		}
	}

	// Install again and uninstall find sayso's tables where Codex left
	// them, and keep the client's.
	must(os.WriteFile(config, []byte(tui), 0o600))
	if _, err := Install(target, store); err != nil {
		t.Fatalf("install over the client's edits: %v", err)
	}
	if probs := CheckPins(store, "codex"); len(probs) != 0 {
		t.Errorf("install again: %v", probs)
	}
	if _, missing, err := Uninstall("codex", store); err != nil || len(missing) != 0 {
		t.Fatalf("uninstall: missing %v, %v", missing, err)
	}
	left, err := os.ReadFile(config)
	must(err)
	if strings.Contains(string(left), "hooks.state") || strings.Contains(string(left), "sayso") {
		t.Errorf("uninstall left sayso's entries:\n%s", left)
	}
	for _, keep := range []string{mine, "screen_reader_detection_done = true", `trust_level = "trusted"`} {
		if !strings.Contains(string(left), keep) {
			t.Errorf("uninstall lost %q:\n%s", keep, left)
		}
	}
}
