package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sayso-dev/sayso/internal/atomicfile"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/rule"
	"github.com/sayso-dev/sayso/internal/store"
)

const backupUsage = `usage: sayso backup FILE

Writes what you set to FILE (0600): the environment note, text logging,
your always-allow rules, and your policy file. Leases, epochs and
sessions are never backed up.
`

const restoreUsage = `usage: sayso restore --preview FILE
       sayso restore --apply FILE

--preview names everything restoring FILE would change in what sayso
trusts — the environment note (auto-environment: its first words), each
rule (auto-never-asks: run …), modes, autonomy rows and allow entries of
the policy file, and each deny or ask entry and row of today's policy
file that would vanish (lost-deny, lost-ask, lost-autonomy) — and each
rule sayso would refuse today. --apply keeps the replaced policy file as
policy.toml.sayso-backup. --apply does
it: every rule is validated again, refused ones are named and dropped,
and rules not in FILE are forgotten. Leases, epochs and sessions are
never restored.
`

func init() {
	register(command{"backup", "write what you set to a file", runBackup, backupUsage})
	register(command{"restore", "preview or apply a backup", runRestore, restoreUsage})
}

func policyPath() (string, error) {
	dir, err := paths.ConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "policy.toml"), nil
}

// readPolicyText reads the person's policy file; nil when there is none.
func readPolicyText() (*string, error) {
	p, err := policyPath()
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read policy file: %w", err)
	}
	s := string(b)
	return &s, nil
}

func runBackup(env *Env, args []string) error {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(env.Stdout, backupUsage)
		return nil
	}
	if len(args) != 1 {
		return usagef("backup: want one file")
	}
	var b *store.Backup
	err := withStore(func(ctx context.Context, db *store.DB) (err error) {
		b, err = backupNow(ctx, db)
		return err
	})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := printJSON(&buf, b); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(args[0], buf.Bytes(), 0o600); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "backed up the note, %d rules and %s to %s\n", len(b.Rules), policyWord(b.Policy), args[0])
	return nil
}

// backupNow is what a backup holds now: the store's note and rules, and
// the policy file.
func backupNow(ctx context.Context, db *store.DB) (*store.Backup, error) {
	b, err := db.Backup(ctx)
	if err != nil {
		return nil, err
	}
	b.Policy, err = readPolicyText()
	return b, err
}

func policyWord(p *string) string {
	if p == nil {
		return "no policy file"
	}
	return "the policy file"
}

func runRestore(env *Env, args []string) error {
	fs := verbFlags("restore")
	preview := fs.Bool("preview", false, "")
	apply := fs.Bool("apply", false, "")
	rest, done, err := parseArgs(env, fs, restoreUsage, args)
	if done || err != nil {
		return err
	}
	if *preview == *apply {
		return usagef("restore: want exactly one of --preview and --apply")
	}
	if len(rest) != 1 {
		return usagef("restore: want one file")
	}
	f, err := os.Open(rest[0])
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	next, err := store.ReadBackup(f)
	f.Close()
	if err != nil {
		return err
	}
	return withStore(func(ctx context.Context, db *store.DB) error {
		cur, err := backupNow(ctx, db)
		if err != nil {
			return err
		}
		changes := append(store.Preview(cur, next, validateRule), policyChanges(cur.Policy, next.Policy)...)
		if *preview {
			if len(changes) == 0 {
				fmt.Fprintln(env.Stdout, "nothing would change")
				return nil
			}
			for _, c := range changes {
				fmt.Fprintln(env.Stdout, c)
			}
			fmt.Fprintf(env.Stderr, "sayso: hint: run 'sayso restore --apply %s' to apply\n", rest[0])
			return nil
		}
		res, err := db.Restore(ctx, next, validateRule)
		if err != nil {
			return err
		}
		if next.Policy != nil && (cur.Policy == nil || *cur.Policy != *next.Policy) {
			p, err := policyPath()
			if err != nil {
				return err
			}
			if err := paths.Private(filepath.Dir(p)); err != nil {
				return err
			}
			if cur.Policy != nil {
				if err := atomicfile.WriteFile(p+".sayso-backup", []byte(*cur.Policy), 0o600); err != nil {
					return err
				}
				defer fmt.Fprintf(env.Stdout, "the replaced policy file is kept as %s\n", p+".sayso-backup")
			}
			if err := atomicfile.WriteFile(p, []byte(*next.Policy), 0o600); err != nil {
				return err
			}
		}
		for _, c := range changes {
			if c.Kind != "refused" {
				fmt.Fprintln(env.Stdout, c)
			}
		}
		for _, r := range res.Refused {
			fmt.Fprintf(env.Stdout, "refused: run %s (in %s): %s\n", r.Rule.Pattern, r.Rule.Cwd, r.Why)
		}
		fmt.Fprintf(env.Stdout, "restored: %d rules kept, %d refused, %d forgotten\n", len(res.Kept), len(res.Refused), len(res.Forgotten))
		return nil
	})
}

// validateRule checks a rule read back from a backup as sayso would before
// using it.
func validateRule(r store.Rule) error {
	u, err := rule.ParseUnit(r.Unit)
	if err != nil {
		return err
	}
	return rule.Validate(rule.Rule{Tool: r.Tool, Unit: u, Pattern: r.Pattern, Cwd: r.Cwd, CreatedAt: r.CreatedAt})
}

// policyChanges names what replacing the policy file cur with next would
// change in what sayso trusts: the default mode, the controller, autonomy
// rows and allow entries it adds.
func policyChanges(cur, next *string) []store.Change {
	if next == nil || (cur != nil && *cur == *next) {
		return nil
	}
	var c, n *policy.Policy
	if cur != nil {
		c = policy.Parse("policy.toml", []byte(*cur))
	} else {
		c = policy.Defaults()
	}
	n = policy.Parse("backup policy.toml", []byte(*next))
	out := []store.Change{{Kind: "policy-file", Text: fmt.Sprintf("replaced by the backup's (%d lines)", strings.Count(*next, "\n"))}}
	if c.DefaultMode != n.DefaultMode {
		out = append(out, store.Change{Kind: "mode", Text: fmt.Sprintf("default_mode %s → %s", c.DefaultMode, n.DefaultMode)})
	}
	if c.Controller != n.Controller {
		out = append(out, store.Change{Kind: "setting", Text: fmt.Sprintf("controller %s → %s", c.Controller, n.Controller)})
	}
	if c.OwnerWordsMax != n.OwnerWordsMax {
		out = append(out, store.Change{Kind: "setting", Text: fmt.Sprintf("owner_words_max %d → %d", c.OwnerWordsMax, n.OwnerWordsMax)})
	}
	for _, r := range n.Autonomy {
		if !hasRow(c.Autonomy, r) {
			out = append(out, store.Change{Kind: "autonomy", Text: fmt.Sprintf("[autonomy.%s] %q = %s", r.Agent, r.Pattern, r.Value)})
		}
	}
	// What the person holds back and the backup does not: each deny and
	// ask entry, each deny and require_approval row, that would vanish.
	for _, e := range c.Entries {
		if e.Effect != policy.Allow && !hasEntry(n.Entries, e) {
			out = append(out, store.Change{Kind: "lost-" + e.Effect.String(), Text: entryText(e) + " (" + e.Source.String() + ")"})
		}
	}
	for _, r := range c.Autonomy {
		if r.Value != policy.AutoApprove && !hasRow(n.Autonomy, r) {
			out = append(out, store.Change{Kind: "lost-autonomy", Text: fmt.Sprintf("[autonomy.%s] %q = %s (%s)", r.Agent, r.Pattern, r.Value, r.Source)})
		}
	}
	for _, e := range n.Entries {
		if e.Effect == policy.Allow && !hasEntry(c.Entries, e) {
			what := e.Command
			if e.ByClass {
				what = "class " + e.Class.String()
			}
			if e.Tool != "" {
				what = strings.TrimSpace(e.Tool + " " + what)
			}
			out = append(out, store.Change{Kind: "allow", Text: what})
		}
	}
	return out
}

// entryText is an entry as the policy file says it.
func entryText(e policy.Entry) string {
	parts := []string{"[[" + e.Effect.String() + "]]"}
	if e.Tool != "" {
		parts = append(parts, fmt.Sprintf("tool = %q", e.Tool))
	}
	if e.Command != "" {
		parts = append(parts, fmt.Sprintf("command = %q", e.Command))
	}
	if e.ByClass {
		parts = append(parts, "class = "+e.Class.String())
	}
	return strings.Join(parts, " ")
}

func hasRow(rows []policy.Row, r policy.Row) bool {
	for _, o := range rows {
		if o.Agent == r.Agent && o.Pattern == r.Pattern && o.Value == r.Value {
			return true
		}
	}
	return false
}

func hasEntry(es []policy.Entry, e policy.Entry) bool {
	for _, o := range es {
		if o.Effect == e.Effect && o.Tool == e.Tool && o.Command == e.Command && o.Class == e.Class && o.ByClass == e.ByClass {
			return true
		}
	}
	return false
}
