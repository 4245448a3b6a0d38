// Package review is sayso's optional reviewer: a judge that reads the
// person's own words and says whether they asked for a step.
//
// A Reviewer sends one request to one backend — an Anthropic Messages
// endpoint, an OpenAI-compatible chat completions endpoint, or a local
// command that reads JSON on stdin and writes JSON on stdout — and returns a
// Verdict. The only Verdict that lets a step through is Allow with a quote
// found verbatim in the owner words, whole words long enough to carry
// meaning that name what the step does or its target; a timeout, an HTTP error, a refusal, a
// malformed or oversized answer, or a quote the person never said is Ask.
//
// What the reviewer reads is an Input: the step, its classes, the diagnostic
// so far, the owner words in order (marked when inherited from a parent
// session), the environment note, the agent and the cwd. There is no place in
// it for tool output, file contents, a task's own prompt or a guest's words.
// Each piece is sent inside its own fence as data, closed by a random
// boundary the content does not contain.
//
// May is the gate: a pure function that says whether the reviewer may be
// asked about a step at all. Cache keeps verdicts per step and epoch, so a
// new person message is a new question. The package prints nothing.
package review
