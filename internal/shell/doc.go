// Package shell reads a command line the way bash would, without running it.
//
// Parse turns a command into a flat list of segments: one per simple command,
// wherever it sits (a pipeline stage, a `bash -c` string, a `$(…)`, a here-doc
// fed to a shell, the command behind `sudo` or `xargs`). Each segment carries
// its literal words where it has them, its assignments and redirects, the
// wrappers peeled off it, and every construct that hides what runs, marked
// opaque with its position.
//
// Security posture: shell never executes, never expands with a live
// environment and never globs. Anything it cannot see through is reported as
// opaque, and a parse error is opaque too, never an error that lets a step
// through.
package shell
