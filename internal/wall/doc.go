// Package wall builds and applies the wall a step sayso allows runs in:
// what the step may write, what it may not read, what it may not touch
// at all, and whom it may not signal or reach.
//
// For computes a Profile from the person's home, the project root, the
// paths sayso hides and the scope of the decision; Wrap turns a shell
// command into the line a client's shell runs instead, which runs the
// command under the launcher (cmd/sayso-wall) and carries its output,
// exit status and final working folder back unchanged; Probe says
// whether this machine can apply the wall at all.
//
// On Linux the launcher enters a new user and mount namespace, covers
// hidden paths with empty read-only mounts, binds protected paths
// read-only, then restricts itself with Landlock (writes by scope,
// reads of hidden files, signals and abstract unix sockets scoped to
// the wall) and no_new_privs before it runs bash. Every step can only
// narrow: Landlock domains stack, and a launcher run inside a wall can
// no longer mount anything. Any error in setting up the wall stops the
// step before it runs: the launcher never runs a command unwalled.
//
// The package is not a decision: what scope a step gets is the
// policy's answer, handed in as Inputs.Scope.
package wall
