package review

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
)

// prompt is the system prompt every backend sends. It is part of the code:
// change it in a commit, with the tests.
//
//go:embed prompt.md
var prompt string

// PromptDigest names the prompt a verdict was judged under, for the ledger:
// the first 12 hex digits of its SHA-256.
func PromptDigest() string {
	sum := sha256.Sum256([]byte(prompt))
	return hex.EncodeToString(sum[:6])
}
