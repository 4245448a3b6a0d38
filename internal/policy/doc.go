// Package policy decides a step: allow, ask the person, or deny.
//
// Evaluate runs the tiers of sayso's decision in order and returns the
// decision with a diagnostic that names every tier it consulted and why.
// It is pure: everything it needs — the mode, the scope, and later the
// session's state, leases and rules — arrives in the Request. It never
// touches a disk, a network or a clock.
package policy
