package policy

import "time"

// MaxLeaseTTL is the longest a lease lives, and its default: the store,
// the CLI and the page all hold a grant to it.
const MaxLeaseTTL = 15 * time.Minute

// MaxNote is the most characters the environment note holds: the store
// refuses a longer one, the page says so, and the reviewer reads it whole.
const MaxNote = 2000
