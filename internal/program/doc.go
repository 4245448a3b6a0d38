// Package program is the registry of every program sayso knows, with its
// traits: whether it wraps another command, runs its arguments, is a shell
// or an interpreter, reads its arguments from stdin, runs the project's
// tasks, runs as another user, reaches other hosts, or has options and
// subcommands that run, page or name another program.
//
// The registry is closed: a program it does not list is unknown, and sayso
// does not take an unknown program for local work. Packages shell, risk and
// rule read these traits here instead of keeping lists of their own; each
// program's classifier lives in risk, keyed by the same names, and a test
// there fails the day the two disagree. A family's programs are registered
// in the file named like the file of risk that classifies them (git.go
// here and there); registry.go holds only the registry's machinery.
//
// Package program is pure data: no I/O, no imports beyond the standard
// library's strings.
package program
