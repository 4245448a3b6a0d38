package cli

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/bundle"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/team"
)

const teamUsage = `usage: sayso team join URL --org-key KEY [--ci]
       sayso team take BUNDLE
       sayso team leave

join makes this machine a node of the team whose hub is at URL: it pins
the org's key (KEY, as 'sayso policy keygen' printed it) and from then on
chains every ledger row for the hub. Until it takes a valid org bundle
the node runs with no auto. --ci marks a node no person sits at: what
would ask is denied. The decision stays on this machine; rules, leases
and sessions stay in its own store.

take installs a signed org bundle (the JSON 'sayso policy sign' prints)
once it opens against the pinned key and is no older than the one held.

leave ends team mode: the pinned key and bundle are removed and the
ledger stops chaining; the local rules, ledger and settings are kept.
`

func init() {
	register(command{"team", "join or leave a team's hub; take its org bundle", runTeam}, "join", "take", "leave")
	helpTopics["team"] = teamUsage
}

func runTeam(env *Env, args []string) error {
	if len(args) == 0 {
		return usagef("team: no verb given (join, take or leave)")
	}
	config, err := paths.ConfigDir()
	if err != nil {
		return err
	}
	if err := paths.Private(config); err != nil {
		return err
	}
	switch args[0] {
	case "join":
		fs := flag.NewFlagSet("team join", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		key := fs.String("org-key", "", "")
		ci := fs.Bool("ci", false, "")
		if len(args) < 2 || strings.HasPrefix(args[1], "-") {
			return usagef("team join: want URL --org-key KEY")
		}
		if err := fs.Parse(args[2:]); err != nil || *key == "" || fs.NArg() > 0 {
			return usagef("team join: want URL --org-key KEY")
		}
		u, err := url.Parse(args[1])
		if err != nil || u.Scheme != "https" && !(u.Scheme == "http" && (u.Hostname() == "127.0.0.1" || u.Hostname() == "localhost")) || u.Host == "" {
			return usagef("team join: %q is not an https URL", args[1])
		}
		pub, err := base64.StdEncoding.DecodeString(strings.TrimSpace(*key))
		if err != nil || len(pub) != ed25519.PublicKeySize {
			return usagef("team join: --org-key is not an org key printed by 'sayso policy keygen'")
		}
		if _, joined, _ := team.ReadState(config); joined {
			return errors.New("this machine is already in a team: sayso team leave first")
		}
		if err := team.WriteState(config, team.State{Hub: u.String(), OrgKey: pub, CI: *ci}); err != nil {
			return err
		}
		if err := setChain(true); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "joined %s; no auto until this node takes a valid org bundle (sayso team take)\n", u)
		return nil
	case "take":
		if len(args) != 2 {
			return usagef("team take: want one BUNDLE file")
		}
		b, err := os.ReadFile(args[1])
		if err != nil {
			return err
		}
		var s bundle.Signed
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("read bundle: %w", err)
		}
		body, err := team.Take(config, s, time.Now())
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "took org bundle %s #%d, valid until %s\n", body.Org, body.Seq, body.Expires.UTC().Format(time.RFC3339))
		return nil
	case "leave":
		if len(args) != 1 {
			return usagef("team leave: takes no arguments")
		}
		if _, joined, _ := team.ReadState(config); !joined {
			return errors.New("this machine is in no team")
		}
		if err := setChain(false); err != nil {
			return err
		}
		for _, f := range []string{team.BundleFile, team.StateFile} {
			if err := os.Remove(filepath.Join(config, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
		fmt.Fprintln(env.Stdout, "left the team; this machine decides on its own policy again, with its rules and ledger as they were")
		return nil
	}
	return usagef("team: unknown verb %q (join, take or leave)", args[0])
}

func setChain(on bool) error {
	db, ctx, cancel, err := openStore()
	if err != nil {
		return err
	}
	defer cancel()
	defer db.Close()
	return db.SetChain(ctx, on)
}
