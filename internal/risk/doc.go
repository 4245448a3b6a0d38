// Package risk classifies a step into the classes of sayso's design: read,
// local-write, network, the ceilings, the severe classes, never, count and
// opaque.
//
// It reads the segments of package shell and knows the programs agents run:
// git as git understands itself (global options, injected aliases and
// program-valued settings, refspecs), gh, docker, kubectl, terraform, the
// cloud CLIs, package managers, curl and the file tools. It is pure: no disk,
// no network, no clock. Where a path matters it resolves the path lexically
// against the Context it is given; a step it cannot see through is opaque,
// never read.
package risk
