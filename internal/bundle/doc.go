// Package bundle reads, signs and verifies the org's policy bundle (DESIGN
// §14): the policy a team's nodes share, built from a reviewed policy
// repository and signed with the org's ed25519 key that each node pins
// when it joins.
//
// A bundle can only narrow: deny and ask entries, a mode cap, more
// protected and secret paths, a cap on trusted hosts (and so on a walled
// step's egress), and classes for the org's own tools. It has no way to
// allow a step, name a reviewer or answer for anyone: a file that tries is
// refused whole, as is a bundle that is unsigned, badly signed, expired,
// or older than the one the node holds. It is pure: no disk, no network,
// no clock (the caller hands in the time).
package bundle
