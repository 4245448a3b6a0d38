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
//
// Each class it finds comes with a Finding whose Reason is a kind from one
// closed table (reason.go) and the operands its words need: the program,
// the verb, the object, what the object is. The words are a view, rendered
// from the kind's entry when asked; the ledger keeps the kind and the
// operands, and the page renders its own words from them.
package risk

// How a program reaches its classifier.
//
// A segment's program name (its base name, wrappers peeled by package
// shell) is looked up by classifier in registry.go in programs, the table
// of programs with a classifier of their own. It is built once, on first
// use (loadTables, registry.go), from the table of families (family.go):
// one entry per family of programs, in the file of its classifier, giving
// its names, the registry's traits it relies on, its classifier and the
// checks before and after it. The looks and builds families (looks.go,
// builds.go) take their names from package program's looks.go and
// builds.go: a fixed class, read or local work. Every program sayso
// knows is in exactly one family: there is no other way to a
// classifier.
//
// A name found nowhere is unknown. Package program's registry holds each
// program's traits, verbs, program- and work-options, state and
// credentials, built once when that package loads, each family's in the
// file named like its file here (program/git.go for git.go); a test holds
// the two name sets together, TestProgramFiles the two files.
//
// TestLayout (layout_test.go) holds the shape: a program name belongs to
// exactly one family, a family's names have the traits it
// states in the registry, and neither this package nor package program
// has an init function.
//
// git is one family, whole in git.go: its classifier, its subcommands'
// table (built with the others), its global options, the settings that
// make it run programs and the files its subcommands write. Its verbs,
// program options and credentials are the registry's, in program/git.go.
