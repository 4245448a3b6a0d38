// Package place is the table of the places sayso knows by their name in
// a home: where the person keeps credentials — keys, tokens, password
// stores — and which variables of an environment hold a secret. The
// engine (risk) calls a read of one "secret"; the wall (wall) hides the
// same places from what it walls, and strips the same variables. Both
// read this one table, so they cannot disagree.
//
// Package place is pure data: no I/O, no imports beyond the standard
// library's strings.
package place
