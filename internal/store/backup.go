package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// BackupFormat is the version of the backup file.
const BackupFormat = 1

// Backup is what a backup file holds: what the person set. Leases, epochs
// and sessions are never in it and never restored.
type Backup struct {
	Format    int       `json:"sayso_backup"`
	CreatedAt time.Time `json:"created_at"`
	Note      string    `json:"environment_note"`
	LogText   bool      `json:"log_text"`
	Rules     []Rule    `json:"rules"`
	Policy    *string   `json:"policy,omitempty"` // the policy file's text, when there is one
}

// Backup reads what the person set into a Backup.
func (db *DB) Backup(ctx context.Context) (*Backup, error) {
	return within(ctx, db.view, "back up", func(tx *tx) (*Backup, error) {
		return tx.backup(ctx)
	})
}

// backup reads what the person set: the note, text logging and the rules.
func (tx *tx) backup(ctx context.Context) (*Backup, error) {
	b := &Backup{Format: BackupFormat, CreatedAt: tx.now, Rules: []Rule{}}
	var err error
	if b.Note, err = tx.setting(ctx, settingNote); err != nil {
		return nil, err
	}
	lt, err := tx.setting(ctx, settingLogText)
	if err != nil {
		return nil, err
	}
	b.LogText = lt == "on"
	rules, err := tx.rules(ctx)
	if err != nil {
		return nil, err
	}
	b.Rules = append(b.Rules, rules...)
	return b, nil
}

// ReadBackup reads a backup file. Fields it does not know, such as leases
// or sessions a hand-made file might carry, are ignored.
func ReadBackup(r io.Reader) (*Backup, error) {
	var b Backup
	dec := json.NewDecoder(io.LimitReader(r, 16<<20))
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("read backup: %w", err)
	}
	if b.Format != BackupFormat {
		return nil, fmt.Errorf("read backup: format %d is not %d: not a sayso backup, or from another version", b.Format, BackupFormat)
	}
	if err := checkNote(b.Note); err != nil {
		return nil, fmt.Errorf("read backup: %w", err)
	}
	return &b, nil
}

// Change is one thing a restore would change in what sayso trusts.
type Change struct {
	Kind string `json:"kind"` // auto-environment, auto-never-asks, refused, forget, setting
	Text string `json:"text"`
}

func (c Change) String() string { return c.Kind + ": " + c.Text }

// Validate checks a rule as sayso would before using it; a non-nil error
// refuses the rule, and says why.
type Validate func(Rule) error

// Preview names everything restoring next over cur would change in what
// sayso trusts: the environment note by its first words, each rule it
// would keep ("run …") or refuse, each it would forget, and settings.
func Preview(cur, next *Backup, validate Validate) []Change {
	var out []Change
	if next.Note != cur.Note {
		text := firstWords(next.Note, 8)
		if next.Note == "" {
			text = "(cleared)"
		}
		out = append(out, Change{"auto-environment", text})
	}
	if next.LogText != cur.LogText {
		out = append(out, Change{"setting", fmt.Sprintf("text logging %s", onOff(next.LogText))})
	}
	for _, r := range next.Rules {
		if hasRule(cur.Rules, r) {
			continue
		}
		if err := checkRule(r, validate); err != nil {
			out = append(out, Change{"refused", fmt.Sprintf("run %s (in %s): %v", r.Pattern, r.Cwd, err)})
			continue
		}
		out = append(out, Change{"auto-never-asks", fmt.Sprintf("run %s (in %s)", r.Pattern, r.Cwd)})
	}
	for _, r := range cur.Rules {
		if !hasRule(next.Rules, r) {
			out = append(out, Change{"forget", fmt.Sprintf("run %s (in %s)", r.Pattern, r.Cwd)})
		}
	}
	return out
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func hasRule(rs []Rule, r Rule) bool {
	for _, o := range rs {
		if o.same(r) {
			return true
		}
	}
	return false
}

func checkRule(r Rule, validate Validate) error {
	if r.Unit != "command" && r.Unit != "verb" {
		return fmt.Errorf("unknown unit %q", r.Unit)
	}
	if validate == nil {
		return errors.New("no rule validator: nothing is restored unchecked")
	}
	return validate(r)
}

// Refused is a rule a restore dropped, and why.
type Refused struct {
	Rule Rule   `json:"rule"`
	Why  string `json:"why"`
}

// Restored is what a restore did.
type Restored struct {
	Changes   []Change  `json:"changes"`
	Kept      []Rule    `json:"kept"`
	Refused   []Refused `json:"refused"`
	Forgotten []Rule    `json:"forgotten"`
}

// Restore makes what the person set equal to b: the note, the settings
// and the rules, each rule re-validated (refused ones are named and
// dropped). Leases, epochs and sessions are left as they are.
func (db *DB) Restore(ctx context.Context, b *Backup, validate Validate) (Restored, error) {
	if err := checkNote(b.Note); err != nil {
		return Restored{}, fmt.Errorf("restore: %w", err)
	}
	var res Restored
	err := db.update(ctx, func(tx *tx) error {
		res = Restored{}
		cur, err := tx.backup(ctx)
		if err != nil {
			return err
		}
		res.Changes = Preview(cur, b, validate)
		if b.Note != cur.Note {
			if err := tx.setSetting(ctx, settingNote, b.Note, "environment note restored"); err != nil {
				return err
			}
		}
		if b.LogText != cur.LogText {
			if err := tx.setSetting(ctx, settingLogText, onOff(b.LogText), "text logging restored "+onOff(b.LogText)); err != nil {
				return err
			}
		}
		for _, r := range cur.Rules {
			if hasRule(b.Rules, r) {
				continue
			}
			if _, err := tx.ExecContext(ctx, "DELETE FROM rules WHERE id = ?", r.ID); err != nil {
				return err
			}
			if _, err := tx.appendLedger(ctx, KindRuleForgotten, "", fmt.Sprintf("rule %d forgotten by a restore: %s %q in %s", r.ID, r.Tool, r.Pattern, r.Cwd), r); err != nil {
				return err
			}
			res.Forgotten = append(res.Forgotten, r)
		}
		for _, r := range b.Rules {
			if hasRule(cur.Rules, r) {
				continue
			}
			if err := checkRule(r, validate); err != nil {
				res.Refused = append(res.Refused, Refused{r, err.Error()})
				continue
			}
			kept, err := tx.addRule(ctx, Rule{Tool: r.Tool, Unit: r.Unit, Pattern: r.Pattern, Cwd: r.Cwd}, "restored")
			if err != nil {
				return err
			}
			res.Kept = append(res.Kept, kept)
		}
		_, err = tx.appendLedger(ctx, KindRestore, "",
			fmt.Sprintf("restore: %d changes, %d rules kept, %d refused, %d forgotten", len(res.Changes), len(res.Kept), len(res.Refused), len(res.Forgotten)), res)
		return err
	})
	if err != nil {
		return Restored{}, fmt.Errorf("restore: %w", err)
	}
	return res, nil
}
