package hubapi

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
)

// Genesis is the prev of a node's first ledger row.
var Genesis = make([]byte, sha256.Size)

// Chain is the hash of a ledger row: sha256(prev || body).
func Chain(prev, body []byte) []byte {
	h := sha256.New()
	h.Write(prev)
	h.Write(body)
	return h.Sum(nil)
}

// ErrChain is returned when rows do not continue a node's chain: a gap, an
// edited row, or one shipped twice.
var ErrChain = errors.New("ledger rows do not continue the node's chain")

// Verify checks that rows continue a chain whose last row is (seq, hash):
// numbered one after another, each prev the hash before, each hash its own.
func Verify(seq int64, hash []byte, rows []Row) error {
	for _, r := range rows {
		if r.Seq != seq+1 {
			return fmt.Errorf("%w: row %d after row %d", ErrChain, r.Seq, seq)
		}
		if !bytes.Equal(r.Prev, hash) {
			return fmt.Errorf("%w: row %d does not chain to row %d", ErrChain, r.Seq, seq)
		}
		if !bytes.Equal(r.Hash, Chain(r.Prev, r.Body)) {
			return fmt.Errorf("%w: row %d does not match its hash", ErrChain, r.Seq)
		}
		seq, hash = r.Seq, r.Hash
	}
	return nil
}
