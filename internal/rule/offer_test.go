package rule

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/risk"
)

// offerCase is one row of testdata/offer.jsonl: a command, the offer a card
// about it carries (a string, a list for unit verb, or null), and words of
// the reason.
type offerCase struct {
	Cmd   string          `json:"cmd"`
	Offer json.RawMessage `json:"offer"`
	Why   string          `json:"why"`
	Unit  string          `json:"unit"`
	Tool  *string         `json:"tool"`
	Cwd   *string         `json:"cwd"`
	Held  bool            `json:"held"`
	Each  []string        `json:"each"`
}

func (c offerCase) step(t testing.TB) Step {
	s := NewStep(c.Cmd, testCtx)
	if c.Tool != nil {
		s.Tool = *c.Tool
	}
	if c.Cwd != nil {
		s.Cwd = *c.Cwd
	}
	s.Held = c.Held
	for _, n := range c.Each {
		cl, err := risk.ParseClass(n)
		if err != nil {
			t.Fatal(err)
		}
		s.EachTime = s.EachTime.Add(cl)
	}
	return s
}

func (c offerCase) want(t testing.TB) []string {
	var one *string
	if err := json.Unmarshal(c.Offer, &one); err == nil {
		if one == nil {
			return nil
		}
		return []string{*one}
	}
	var many []string
	if err := json.Unmarshal(c.Offer, &many); err != nil {
		t.Fatalf("offer %s: %v", c.Offer, err)
	}
	return many
}

func TestOfferTable(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "offer.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	rows := 0
	for sc.Scan() {
		var c offerCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		rows++
		u := UnitCommand
		if c.Unit != "" {
			u, _ = ParseUnit(c.Unit)
		}
		s := c.step(t)
		rules, why := Offer(s, u)
		var got []string
		for _, r := range rules {
			got = append(got, r.Pattern)
		}
		want := c.want(t)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Offer(%q, %s) = %q (%s), want %q", c.Cmd, u, got, why, want)
			continue
		}
		if !strings.Contains(why, c.Why) {
			t.Errorf("Offer(%q, %s) why = %q, want it to say %q", c.Cmd, u, why, c.Why)
		}
		if len(want) == 0 && why == "" {
			t.Errorf("Offer(%q, %s) = none without a reason", c.Cmd, u)
		}
		for _, r := range rules {
			if err := Validate(r); err != nil {
				t.Errorf("Offer(%q) = %q, which Validate refuses: %v", c.Cmd, r.Pattern, err)
			}
		}
		if len(rules) > 0 && !NewSet(rules).Lookup(s).Allow && u == UnitCommand {
			t.Errorf("Offer(%q) = %q, which does not cover its own step", c.Cmd, got)
		}
	}
	if rows < 100 {
		t.Errorf("%d offer rows, want at least 100", rows)
	}
}
