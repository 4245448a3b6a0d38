// Package rule holds the person's "always allow" rules: what one press on a
// card keeps, whether a kept rule covers a step, and where rules count.
//
// A rule of unit command (the default) is exactly the command the person
// read: its words match the step's words one for one, with nothing after
// them, and only the last word may end in *, after a name that pins it down
// (git push origin feature/*). A rule of unit verb keeps one pattern per
// segment: the verb and its subcommand with any arguments (npm test *), or
// the segment exactly. Validate refuses what is never kept: anything around
// or inside the words, and anything that runs whatever a file says (shells,
// interpreters, wrappers, rm, curl, wget, ssh, scp, script runners, a
// program by its path, a program alone). Matching works on the words of
// package shell's parse, never on text.
//
// Offer computes the one offer a card may carry; only the person's press
// keeps it. A Set holds the kept rules, validated again as they are read:
// one sayso refuses today is ignored and reported.
//
// The decision calls one line where a question would otherwise reach the
// person, in auto or autopilot (tiers 6 and 8), with the step's assessment:
//
//	found := rules.Lookup(rule.Step{Tool: tool, Command: req.Command, Assessment: a, Cwd: req.Context.Cwd, Held: held, Guest: guest, EachTime: eachTime})
//
// found.Allow says a rule covers the step, found.Rules which, found.Lines
// what the diagnostic shows. Lookup itself refuses what no rule covers: a
// step that is not a shell step, outside the rule's folder, severe, never,
// held, a count, of a class no words lift or one the person sees each time,
// in a session with guest words; and a verb rule never lifts a ceiling.
//
// The package is pure: no disk, network or clock. The time a rule is kept
// is given by the caller.
package rule
