// Package cli is sayso's command line: it parses subcommands and flags,
// runs them, and is the only package that prints. Results go to stdout;
// errors and hints go to stderr as "sayso: error: …" and "sayso: hint: …",
// lowercase, without a trailing period.
package cli
