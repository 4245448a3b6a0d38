// Package hook plugs sayso into the agents' own hooks: the client's
// adapter (package client) reads the JSON the client sends into a step or
// an event, and writes a decision back in that client's own format.
//
// The decision itself is one injected function, a Decider, so the
// in-process decider, a store-backed one and the gateway plug in without
// touching the adapters. Every failure — malformed JSON, an unknown event,
// a decider error, a panic, a timeout — ends in the client's own deny with a
// short reason: each client silently runs the command on a crash, a timeout
// or the other clients' format, so Run never returns without a valid answer.
//
// The package also writes the hook definitions into each client's settings
// (Install, Uninstall) and keeps SHA-256 pins of the binary and of each
// definition; a broken pin makes every step ask. It does not print: the cli
// package writes what Run returns.
package hook
