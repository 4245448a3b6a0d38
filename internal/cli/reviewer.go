package cli

import (
	"os"
	"path/filepath"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/review"
)

// personReviewer builds the reviewer the person's policy file names in
// its [reviewer] table, or nil when it names none. Its API key is read
// from this process's environment: the person's terminal for sayso serve,
// the client's for a hook that decides without the gateway. A reviewer
// that cannot be built is no reviewer: auto asks.
func personReviewer(configDir string) (*review.Reviewer, error) {
	pol := policy.Load(policy.Files{Person: filepath.Join(configDir, "policy.toml"), ReadFile: os.ReadFile})
	r := pol.Reviewer
	if r.Kind == "" {
		return nil, nil
	}
	kind, err := review.ParseKind(r.Kind)
	if err != nil {
		return nil, err
	}
	return review.New(review.Config{Kind: kind, BaseURL: r.BaseURL, Model: r.Model, KeyEnv: r.KeyEnv, Timeout: r.Timeout, Command: r.Command}, os.Getenv)
}
