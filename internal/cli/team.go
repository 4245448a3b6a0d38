package cli

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sayso-dev/sayso/internal/bundle"
	"github.com/sayso-dev/sayso/internal/gateway"
	"github.com/sayso-dev/sayso/internal/hubapi"
	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/store"
	"github.com/sayso-dev/sayso/internal/team"
	"github.com/sayso-dev/sayso/internal/web"
)

const teamUsage = `usage: sayso team join URL --org-key KEY [--org ORG] [--token TOKEN --fingerprint FP] [--name NAME] [--page-name HOST] [--ci]
       sayso team enrol
       sayso team passkeys [remove ID]
       sayso team take BUNDLE
       sayso team leave

join makes this machine a node of the team whose hub is at URL: it pins
the org's key (KEY, as 'sayso policy keygen' printed it) and the org's
name (ORG, as 'sayso policy sign --org' names it; without --org, the
name of the first bundle it takes), takes no bundle of another name, and
from then on chains every ledger row for the hub. With --token (made by
'sayso hub token') it registers with the hub: it makes the node's own
key, which signs every request, pins the hub's certificate by its
fingerprint FP (as 'sayso hub' prints it) and speaks TLS to no other,
and takes the hub's org bundle when there is one. From then on 'sayso
serve' ships the ledger to the hub, posts its cards for the person and
fetches newer bundles; a yes from the hub counts only with the person's
passkey. NAME is the node's name at the hub (default: the host's name).
HOST is the name the person opens the hub's page at, which the node's
passkeys are made for (default: URL's host when it is a name; localhost,
through a tunnel, when it is an address).
Until it takes a valid org bundle the node runs with no auto. --ci marks
a node no person sits at: what would ask is denied (a CI token marks it
too). The decision stays on this machine; rules, leases and sessions
stay in its own store.

enrol prints a one-time link to this machine's own page (sayso serve
must run) where the person makes a passkey and this node pins it: from
then on a yes to this node's cards at the hub counts only when one of
the passkeys pinned here signs it. Only the person at this machine's
page can pin a key; the hub cannot.

passkeys lists the passkeys this node pinned: each one's id, when it
was pinned and the person it answers for. 'passkeys remove ID' un-pins
one (ID, or the first 8 or more characters of it, naming one key): from
the next second no yes it signs is taken from the hub. Removing only
narrows: the node's cards are still answered on its own page, and a key
is pinned again only from that page ('sayso team enrol').

take installs a signed org bundle (the JSON 'sayso policy sign' prints)
once it opens against the pinned key and is no older than the one held.

leave ends team mode: the pinned key and bundle are removed and the
ledger stops chaining; the local rules, ledger and settings are kept.
`

func init() {
	register(command{"team", "join or leave a team's hub; take its org bundle", runTeam, teamUsage}, "join", "enrol", "passkeys", "take", "leave")
}

func runTeam(env *Env, args []string) error {
	if len(args) == 0 {
		return usagef("team: no verb given (join, enrol, passkeys, take or leave)")
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
		fs := verbFlags("team join")
		key := fs.String("org-key", "", "")
		org := fs.String("org", "", "")
		ci := fs.Bool("ci", false, "")
		token := fs.String("token", "", "")
		pin := fs.String("fingerprint", "", "")
		name := fs.String("name", "", "")
		pageName := fs.String("page-name", "", "")
		if len(args) < 2 || strings.HasPrefix(args[1], "-") {
			return usagef("team join: want URL --org-key KEY")
		}
		if err := fs.Parse(args[2:]); err != nil || *key == "" || fs.NArg() > 0 {
			return usagef("team join: want URL --org-key KEY")
		}
		if (*token == "") != (*pin == "") {
			return usagef("team join: --token and --fingerprint go together, as 'sayso hub token' prints them")
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
		if *pageName != "" && !validPageName(*pageName) {
			return usagef("team join: --page-name %q is not a host name (the name the hub's page is opened at)", *pageName)
		}
		st := team.State{Hub: u.String(), OrgKey: pub, Org: strings.TrimSpace(*org), CI: *ci, PageName: strings.ToLower(*pageName)}
		if *token != "" {
			return joinHub(env, config, st, *token, *pin, *name)
		}
		if err := team.WriteState(config, st); err != nil {
			return err
		}
		if err := setChain(true); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "joined %s; no auto until this node takes a valid org bundle (sayso team take)\n", u)
		return nil
	case "enrol":
		if len(args) != 1 {
			return usagef("team enrol takes no arguments")
		}
		st, joined, err := team.ReadState(config)
		if !joined {
			return errors.New("this machine is in no team: sayso team join first")
		}
		if err != nil {
			return err
		}
		if st.Person == "" {
			return errors.New("this node joined with no hub to register with: it has no person to pin passkeys for")
		}
		link, err := askGateway(gateway.AskEnrol)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "open %s\nto make a passkey of %s and pin it on this node (the link works once, for %s)\n", link, st.Person, web.LoginTTL)
		return nil
	case "passkeys":
		return runTeamPasskeys(env, config, args[1:])
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
		st, joined, _ := team.ReadState(config)
		if !joined {
			return errors.New("this machine is in no team")
		}
		if st.Registered() {
			// The hub hears of it when it can; the node's key is removed
			// either way, and signs nothing more.
			if key, err := team.ReadNodeKey(config); err == nil {
				ctx, cancel := context.WithTimeout(env.context(), 15*time.Second)
				if err := hubapi.NewClient(st.Hub, st.HubPin, st.Node, key).Leave(ctx); err != nil {
					fmt.Fprintf(env.Stderr, "sayso: warning: tell the hub this node leaves: %v; its key is removed here all the same\n", err)
				}
				cancel()
			}
		}
		if err := setChain(false); err != nil {
			return err
		}
		for _, f := range []string{team.BundleFile, team.StateFile, team.KeyFile, team.CountersFile} {
			if err := os.Remove(filepath.Join(config, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
		fmt.Fprintln(env.Stdout, "left the team; this machine decides on its own policy again, with its rules and ledger as they were")
		return nil
	}
	return usagef("team: unknown verb %q (join, enrol, passkeys, take or leave)", args[0])
}

func setChain(on bool) error {
	return withStore(func(ctx context.Context, db *store.DB) error {
		return db.SetChain(ctx, on)
	})
}

// joinHub registers this machine with its hub: a key of its own, the
// token redeemed over TLS to the pinned certificate, then the hub's org
// bundle, taken only under the org key given on the command line.
func joinHub(env *Env, config string, st team.State, token, pin, name string) error {
	u, err := url.Parse(st.Hub)
	if err != nil || u.Scheme != "https" {
		return usagef("team join: a hub is reached over https, not %q", st.Hub)
	}
	if st.HubPin, err = hubapi.ParseFingerprint(pin); err != nil {
		return usagef("team join: --fingerprint: %v", err)
	}
	if name == "" {
		if name, err = os.Hostname(); err != nil {
			return fmt.Errorf("team join: no --name and no host name: %w", err)
		}
	}
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(env.context(), 30*time.Second)
	defer cancel()
	rep, err := hubapi.Join(ctx, st.Hub, st.HubPin, token, name, pub)
	if err != nil {
		return fmt.Errorf("join %s: %w", st.Hub, err)
	}
	st.Node, st.Person, st.CI = rep.Node, rep.Person, st.CI || rep.CI
	if err := team.WriteNodeKey(config, priv); err != nil {
		return fmt.Errorf("keep the node's key: %w", err)
	}
	if err := team.WriteState(config, st); err != nil {
		return err
	}
	if err := setChain(true); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "joined %s as node %d (%s) of %s\n", st.Hub, rep.Node, name, rep.Person)
	s, err := hubapi.NewClient(st.Hub, st.HubPin, st.Node, priv).Bundle(ctx)
	switch {
	case errors.Is(err, hubapi.ErrNoBundle):
		fmt.Fprintln(env.Stdout, "the hub holds no org bundle yet: no auto until this node takes one")
	case err != nil:
		fmt.Fprintf(env.Stderr, "sayso: warning: fetch the org bundle: %v; sayso serve fetches it again\n", err)
	default:
		body, err := team.Take(config, s, time.Now())
		if err != nil {
			fmt.Fprintf(env.Stderr, "sayso: warning: the hub's org bundle is refused: %v; no auto until this node takes a valid one\n", err)
			return nil
		}
		fmt.Fprintf(env.Stdout, "took org bundle %s #%d, valid until %s\n", body.Org, body.Seq, body.Expires.UTC().Format(time.RFC3339))
	}
	return nil
}

// runTeamPasskeys lists the node's pinned passkeys, or removes one. The
// person's own user may remove any, the last one too: it narrows what
// the node takes from the hub, and at worst (every key removed) the
// person answers on the node's own page. An agent's step that runs sayso
// touches a protected path and is denied.
func runTeamPasskeys(env *Env, config string, args []string) error {
	switch {
	case len(args) == 0:
		st, joined, err := team.ReadState(config)
		if !joined {
			return errors.New("this machine is in no team")
		}
		if err != nil {
			return err
		}
		if len(st.Pins.Keys) == 0 {
			fmt.Fprintln(env.Stdout, "no passkey pinned: the node's cards are answered on its own page only (sayso team enrol pins one)")
			return nil
		}
		w := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tPINNED\tPERSON")
		for _, k := range st.Pins.Keys {
			when := "-"
			if !k.Pinned.IsZero() {
				when = k.Pinned.UTC().Format(time.RFC3339)
			}
			fmt.Fprintf(w, "%s\t%s\t%s\n", team.KeyID(k), when, k.Person)
		}
		return w.Flush()
	case len(args) == 2 && args[0] == "remove":
		k, err := team.Unpin(config, args[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "removed passkey %s of %s: no yes it signs is taken from the hub\n", team.KeyID(k), k.Person)
		db, ctx, cancel, err := openStore()
		if err != nil {
			return fmt.Errorf("the passkey is removed, but its ledger row is not written: %w", err)
		}
		defer cancel()
		defer db.Close()
		if err := db.RecordPasskey(ctx, store.KindPasskeyRemoved, store.PasskeyChange{Person: k.Person, ID: team.KeyID(k)}); err != nil {
			return fmt.Errorf("the passkey is removed, but its ledger row is not written: %w", err)
		}
		return nil
	}
	return usagef("team passkeys: want no argument, or remove ID")
}

// validPageName reports whether name is a host name a passkey can belong
// to: dot-separated labels of letters, digits and hyphens, not an
// address.
func validPageName(name string) bool {
	if len(name) > 253 || net.ParseIP(name) != nil {
		return false
	}
	for _, l := range strings.Split(name, ".") {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, c := range l {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}
