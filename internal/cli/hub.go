package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/bundle"
	"github.com/sayso-dev/sayso/internal/hub"
	"github.com/sayso-dev/sayso/internal/hubserver"
	"github.com/sayso-dev/sayso/internal/paths"
)

const hubUsage = `usage: sayso hub [--db DSN] [--addr HOST:PORT] [--dir DIR] [--name HOST]... [--node-page-port PORT]... [--cert FILE --key FILE]
       sayso hub token --person NAME [--ci] [--ttl 24h] [--url URL] [--db DSN] [--dir DIR | --cert FILE]
       sayso hub login --person NAME [--url URL] [--ttl 10m] [--db DSN]
       sayso hub publish [--db DSN] BUNDLE
       sayso hub migrate [--db OWNER_DSN]

hub runs the team's hub: the API nodes speak to over TLS, on the
PostgreSQL database DSN (--db, or $SAYSO_HUB_DB). DSN logs in as the
hub's own role, a member of sayso_hub that owns nothing: the hub refuses
to serve as the tables' owner, a superuser, or a role that makes roles
or passes row-level security, and on a database that lacks a migration
of this sayso. It works as the role sayso_hub. Its certificate is
the one --cert and --key name, or its own: made self-signed in DIR
(default: the hub folder in sayso's state folder) on first start, for
localhost, 127.0.0.1 and each --name, and kept. Its first line says
where it listens and the certificate's fingerprint, which every node
pins when it joins. --addr defaults to 0.0.0.0:7475.

The person's page answers at each --name: nodes that joined the hub at
that name make their passkeys for it, on their own page at
sayso.localhost:PORT, which the hub lists as a related origin of its
names at https://NAME/.well-known/webauthn for each --node-page-port
(default 7474, the page's own default). Browsers fetch that file on
port 443: serve the hub there, or that one path from the web server at
NAME, with a certificate the person's devices trust.

token makes a one-time join token for the person NAME (added when new),
good for --ttl, and prints the command that joins a machine with it;
--ci makes the node that redeems it a CI node, which denies what would
ask. --url is the hub's address as nodes reach it. The fingerprint it
prints is the hub's own certificate's in DIR, or that of --cert when the
hub serves the admin's.

login prints a one-time link to the person NAME's page at the hub, good
for --ttl (at most an hour): the cards waiting on any of their nodes,
each answered there with the passkey they pinned on that node. URL is
the hub's page as the person's browser reaches it (default
https://localhost:7475): a passkey signs only on a page of the relying
party it was made for: the hub's name, for nodes that joined it by its
name, from any device; localhost for nodes that joined by an address,
through a tunnel to the hub (ssh -L 7475:HUB:7475). A yes sent there
counts on a node only when the passkey signed it; a severe step asks
twice, the second press signed over a challenge its node makes.

migrate applies the hub's migrations the database lacks, as the role
that is to own the hub's tables (--db, or $SAYSO_HUB_OWNER_DB): the
only role that can lift the ledger's triggers or row-level security,
and one the hub never logs in as.

publish keeps a signed org bundle (the JSON 'sayso policy sign' prints)
for the nodes to fetch. The hub does not open it: each node takes it only
under the org key it pinned, and only when newer than the one it holds.

The hub routes cards and answers and can deny; it holds no key that
approves a step on any node.
`

func init() {
	register(command{"hub", "run the team's hub; make join tokens; publish org bundles", runHub, hubUsage}, "token", "login", "publish", "migrate")
}

// DefaultHubAddr is where sayso hub listens.
const DefaultHubAddr = "0.0.0.0:7475"

type names []string

func (n *names) String() string     { return strings.Join(*n, ",") }
func (n *names) Set(v string) error { *n = append(*n, v); return nil }

// nodePagePorts are the ports of the nodes' own pages the hub lists as
// related origins of its names (--node-page-port): the page's default
// port when none is given.
func nodePagePorts(flagged names) ([]int, error) {
	if len(flagged) == 0 {
		_, p, _ := net.SplitHostPort(DefaultAddr)
		flagged = names{p}
	}
	out := make([]int, 0, len(flagged))
	for _, f := range flagged {
		p, err := strconv.Atoi(f)
		if err != nil || p < 1 || p > 65535 {
			return nil, usagef("hub: --node-page-port %q is not a port", f)
		}
		out = append(out, p)
	}
	return out, nil
}

func hubDSN(flagged string) (string, error) {
	if flagged != "" {
		return flagged, nil
	}
	if dsn := os.Getenv("SAYSO_HUB_DB"); dsn != "" {
		return dsn, nil
	}
	return "", usagef("hub: no database: give --db DSN or set SAYSO_HUB_DB")
}

// withHub runs f with the hub's database at dsn open, for one command of
// at most 30 seconds, and closes it after.
func withHub(env *Env, dsn string, f func(ctx context.Context, h *hub.Hub) error) error {
	ctx, cancel := context.WithTimeout(env.context(), 30*time.Second)
	defer cancel()
	h, err := hub.Open(ctx, dsn)
	if err != nil {
		return err
	}
	defer h.Close()
	return f(ctx, h)
}

func hubDir(flagged string) (string, error) {
	if flagged != "" {
		return flagged, nil
	}
	state, err := paths.StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(state, "hub"), nil
}

// hubVerbs run the verbs hub registered; without one, hub runs the hub.
var hubVerbs = map[string]func(*Env, []string) error{
	"token":   runHubToken,
	"publish": runHubPublish,
	"login":   runHubLogin,
	"migrate": runHubMigrate,
}

func runHub(env *Env, args []string) error {
	if len(args) > 0 && hubVerbs[args[0]] != nil {
		return hubVerbs[args[0]](env, args[1:])
	}
	fs := verbFlags("hub")
	db := fs.String("db", "", "")
	addr := fs.String("addr", DefaultHubAddr, "")
	dir := fs.String("dir", "", "")
	certFile := fs.String("cert", "", "")
	keyFile := fs.String("key", "", "")
	var hosts, pagePorts names
	fs.Var(&hosts, "name", "")
	fs.Var(&pagePorts, "node-page-port", "")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return usagef("hub: want [--db DSN] [--addr HOST:PORT] [--dir DIR] [--name HOST] [--node-page-port PORT] [--cert FILE --key FILE], or a verb: token, login, publish, migrate")
	}
	ports, err := nodePagePorts(pagePorts)
	if err != nil {
		return err
	}
	if (*certFile == "") != (*keyFile == "") {
		return usagef("hub: --cert and --key go together")
	}
	dsn, err := hubDSN(*db)
	if err != nil {
		return err
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(env.Stderr, nil)))
	ctx := env.context()
	var cert hubserver.Cert
	if *certFile != "" {
		cert, err = hubserver.LoadCert(*certFile, *keyFile)
	} else {
		var d string
		if d, err = hubDir(*dir); err == nil {
			if err = paths.Private(d); err == nil {
				cert, err = hubserver.OwnCert(d, hosts)
			}
		}
	}
	if err != nil {
		return err
	}
	h, err := hub.Open(ctx, dsn)
	if err != nil {
		return err
	}
	defer h.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("hub: listen on %s: %w", *addr, err)
	}
	fmt.Fprintf(env.Stdout, "sayso: hub ready on https://%s/ (certificate %s)\n", ln.Addr(), cert.Fingerprint)
	err = (&hubserver.Server{Hub: h, Names: hosts, NodePagePorts: ports}).Serve(ctx, ln, cert)
	fmt.Fprintln(env.Stderr, "sayso: hub stopped")
	return err
}

func runHubToken(env *Env, args []string) error {
	fs := verbFlags("hub token")
	db := fs.String("db", "", "")
	dir := fs.String("dir", "", "")
	person := fs.String("person", "", "")
	ci := fs.Bool("ci", false, "")
	ttl := fs.Duration("ttl", 24*time.Hour, "")
	base := fs.String("url", "", "")
	certFile := fs.String("cert", "", "")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || strings.TrimSpace(*person) == "" || *ttl <= 0 {
		return usagef("hub token: want --person NAME [--ci] [--ttl 24h] [--url URL]")
	}
	dsn, err := hubDSN(*db)
	if err != nil {
		return err
	}
	// The fingerprint the node pins is the one the hub serves: the
	// admin's certificate, or the hub's own, made now if the hub has not
	// started yet.
	var fingerprint string
	if *certFile != "" {
		fingerprint, err = hubserver.CertFingerprint(*certFile)
	} else {
		var d string
		if d, err = hubDir(*dir); err == nil {
			var cert hubserver.Cert
			cert, err = hubserver.OwnCert(d, nil)
			fingerprint = cert.Fingerprint
		}
	}
	if err != nil {
		return err
	}
	return withHub(env, dsn, func(ctx context.Context, h *hub.Hub) error {
		token, err := h.MakeToken(ctx, strings.TrimSpace(*person), *ci, *ttl)
		if err != nil {
			return err
		}
		u := *base
		if u == "" {
			u = "https://HUB:7475"
		} else if p, err := url.Parse(u); err != nil || p.Scheme != "https" || p.Host == "" {
			return usagef("hub token: --url %q is not an https URL", u)
		}
		fmt.Fprintln(env.Stdout, token)
		fmt.Fprintf(env.Stderr, "sayso: on the machine, within %s:\n  sayso team join %s --token %s --fingerprint %s --org-key ORG_KEY --org ORG\n", *ttl, u, token, fingerprint)
		return nil
	})
}

func runHubLogin(env *Env, args []string) error {
	fs := verbFlags("hub login")
	db := fs.String("db", "", "")
	person := fs.String("person", "", "")
	ttl := fs.Duration("ttl", hubserver.PageLoginTTL, "")
	base := fs.String("url", "https://localhost:7475", "")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || strings.TrimSpace(*person) == "" || *ttl <= 0 || *ttl > time.Hour {
		return usagef("hub login: want --person NAME [--url URL] [--ttl 10m]")
	}
	u, err := url.Parse(*base)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return usagef("hub login: --url %q is not an https URL", *base)
	}
	dsn, err := hubDSN(*db)
	if err != nil {
		return err
	}
	return withHub(env, dsn, func(ctx context.Context, h *hub.Hub) error {
		token, err := h.MakeLogin(ctx, strings.TrimSpace(*person), *ttl)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "https://%s/login?token=%s\n", u.Host, token)
		return nil
	})
}

func runHubPublish(env *Env, args []string) error {
	fs := verbFlags("hub publish")
	db := fs.String("db", "", "")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		return usagef("hub publish: want one BUNDLE file")
	}
	dsn, err := hubDSN(*db)
	if err != nil {
		return err
	}
	raw, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	var s bundle.Signed
	if err := json.Unmarshal(raw, &s); err != nil || len(s.Body) == 0 {
		return fmt.Errorf("read bundle: not a signed bundle (%v)", err)
	}
	// The hub reads the number and expiry to keep it in order; only the
	// nodes check the signature.
	var b bundle.Body
	if err := json.Unmarshal(s.Body, &b); err != nil || b.Seq == 0 {
		return errors.New("read bundle: no sequence number in its body")
	}
	return withHub(env, dsn, func(ctx context.Context, h *hub.Hub) error {
		if err := h.PublishBundle(ctx, hub.Bundle{Seq: int64(b.Seq), Body: s.Body, Signature: s.Signature, Expires: b.Expires}); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "published org bundle %s #%d, valid until %s\n", b.Org, b.Seq, b.Expires.UTC().Format(time.RFC3339))
		return nil
	})
}

// runHubMigrate applies the hub's migrations as the tables' owner. It is
// a command of its own so that the hub's process never holds the
// owner's way in: a hub taken over has only its own login, which cannot
// lift a trigger or row-level security.
func runHubMigrate(env *Env, args []string) error {
	fs := verbFlags("hub migrate")
	db := fs.String("db", "", "")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return usagef("hub migrate: want [--db OWNER_DSN]")
	}
	dsn := *db
	if dsn == "" {
		dsn = os.Getenv("SAYSO_HUB_OWNER_DB")
	}
	if dsn == "" {
		return usagef("hub migrate: no database: give --db OWNER_DSN or set SAYSO_HUB_OWNER_DB")
	}
	ctx, cancel := context.WithTimeout(env.context(), 5*time.Minute)
	defer cancel()
	if err := hub.Migrate(ctx, dsn); err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, "the hub's database is migrated; serve it as a login that is a member of "+hub.Role+" only")
	return nil
}
