package cli

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/bundle"
)

const orgPolicyUsage = `
usage: sayso policy check --org PATH
       sayso policy keygen KEYFILE
       sayso policy sign --key KEYFILE --org NAME --seq N [--expires 720h] PATH

check --org reads the org's policy file (PATH, or PATH/org.toml in the
policy repository) as every node will: it may only narrow, so an allow
entry, an autonomy row, a reviewer, an answer or a key it does not know
refuses it whole. Run it in the policy repository's own CI. Exit status
0 when it is valid, 1 when it is refused.

keygen writes a new org key to KEYFILE (0600) and prints its public half:
the key nodes pin when they join.

sign checks the file and prints the signed bundle (JSON) for the hub:
sequence number N must be higher than any bundle before it, and the
bundle expires after --expires.
`

func runOrgPolicy(env *Env, verb string, args []string) error {
	switch verb {
	case "check":
		return runOrgCheck(env, args)
	case "keygen":
		if len(args) != 1 {
			return usagef("policy keygen: want one KEYFILE")
		}
		pub, priv, err := ed25519.GenerateKey(nil)
		if err != nil {
			return err
		}
		if err := os.WriteFile(args[0], []byte(base64.StdEncoding.EncodeToString(priv.Seed())+"\n"), 0o600); err != nil {
			return fmt.Errorf("write org key: %w", err)
		}
		fmt.Fprintln(env.Stdout, base64.StdEncoding.EncodeToString(pub))
		return nil
	case "sign":
		return runOrgSign(env, args)
	}
	return usagef("policy: want 'policy check', 'policy keygen' or 'policy sign'")
}

// orgFile reads the org's policy file at path, or path/org.toml.
func orgFile(path string) (string, []byte, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, bundle.File)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return path, nil, fmt.Errorf("read the org's policy file: %w", err)
	}
	return path, data, nil
}

func runOrgCheck(env *Env, args []string) error {
	fs := verbFlags("policy check")
	org := fs.String("org", "", "")
	if err := fs.Parse(args); err != nil || *org == "" || fs.NArg() > 0 {
		return usagef("policy check: want --org PATH")
	}
	name, data, err := orgFile(*org)
	if err != nil {
		return err
	}
	o, err := bundle.Parse(name, data)
	if err != nil {
		fmt.Fprintf(env.Stderr, "sayso: error: %v\n", err)
		return exitStatus(1)
	}
	deny, ask := 0, 0
	for _, e := range o.Entries {
		if e.Effect.String() == "deny" {
			deny++
		} else {
			ask++
		}
	}
	hosts := "the nodes' own"
	if o.TrustedHosts != nil {
		hosts = strings.Join(o.TrustedHosts, ", ")
		if hosts == "" {
			hosts = "none"
		}
	}
	fmt.Fprintf(env.Stdout, "%s: valid; it only narrows\n  %d deny and %d ask entries\n  mode cap: %s\n  %d more protected and secret paths\n  trusted hosts at most: %s\n  %d org tools put in classes\n",
		name, deny, ask, o.ModeCap, len(o.ProtectedPaths), hosts, len(o.Tools))
	return nil
}

func runOrgSign(env *Env, args []string) error {
	fs := verbFlags("policy sign")
	keyFile := fs.String("key", "", "")
	org := fs.String("org", "", "")
	seq := fs.Uint64("seq", 0, "")
	expires := fs.Duration("expires", 30*24*time.Hour, "")
	if err := fs.Parse(args); err != nil || *keyFile == "" || *org == "" || *seq == 0 || fs.NArg() != 1 {
		return usagef("policy sign: want --key KEYFILE --org NAME --seq N PATH")
	}
	b, err := os.ReadFile(*keyFile)
	if err != nil {
		return fmt.Errorf("read org key: %w", err)
	}
	seed, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(seed) != ed25519.SeedSize {
		return errors.New("read org key: not a key written by 'sayso policy keygen'")
	}
	_, data, err := orgFile(fs.Arg(0))
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	s, err := bundle.Sign(ed25519.NewKeyFromSeed(seed), bundle.Body{Org: *org, Seq: *seq, Issued: now, Expires: now.Add(*expires), Policy: string(data)})
	if err != nil {
		return err
	}
	return json.NewEncoder(env.Stdout).Encode(s)
}
