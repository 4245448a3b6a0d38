// Package place is the one table of the places sayso knows by their name
// (Table): the home's, a project's and the machine's, each with its kind —
// an agent's instructions, settings, what runs later on its own (start-up),
// a credential, a build cache, a daemon's socket, sayso's own. The engine
// (risk) reads it to call a write of a place that acts later an
// instruction patch and a read of a credential a secret read; the wall
// (wall) reads the same table to keep the first read-only and hide the
// second, to let local work write the caches, and to keep the daemons out
// of reach. Both read this one table, so they cannot disagree:
// TestPlacesAgree fails the day they do. It also says which variables of
// an environment hold a secret.
//
// Package place is pure data: no I/O, no imports beyond the standard
// library's.
package place
