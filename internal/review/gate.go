package review

import "github.com/sayso-dev/sayso/internal/risk"

// Situation is what the gate knows about a step and its session, beyond
// the Input itself. The zero value lets the reviewer be asked about
// nothing: the caller states each fact that opens the gate.
type Situation struct {
	Auto        bool // the session is in auto (policy.ModeAuto)
	WouldAsk    bool // without the reviewer the step is asked about (policy.Ask)
	ExplicitAsk bool // an ask entry of the policy file matched: only the person answers it
	Held        bool // the session is held
	Guest       bool // the session holds a guest's words
}

// May reports whether the reviewer may be asked about in, and why or why
// not. It is asked only in auto, only about a step that would otherwise
// ask, never about a class it cannot waive, a held session, a session with
// a guest's words, or with no owner words to read. It is pure.
func May(s Situation, in Input) (bool, string) {
	switch {
	case !s.Auto:
		return false, "the reviewer is asked only in auto"
	case !s.WouldAsk:
		return false, "the reviewer is asked only about a step that would otherwise ask"
	case s.ExplicitAsk:
		return false, "an ask entry in the policy file matched: only the person answers it"
	case s.Held:
		return false, "the session is held: the reviewer cannot release it"
	case in.Classes.Any(risk.KindNever):
		return false, "a never class: nothing lifts it"
	case !in.Classes.Waivable():
		return false, unwaivable(in.Classes).String() + ": the reviewer cannot waive it"
	case s.Guest:
		return false, "the session holds a guest's words: no owner words are read"
	}
	if err := in.check(); err != nil {
		return false, err.Error()
	}
	if in.Severe() {
		return true, "severe: the reviewer may let it through only if the person's words name it"
	}
	return true, "the reviewer reads the person's words"
}

// unwaivable are the classes of s no reviewer may let through, whatever
// the person said.
func unwaivable(s risk.Set) risk.Set {
	var out risk.Set
	for _, c := range s.Classes() {
		if !c.Waivable() {
			out = out.Add(c)
		}
	}
	return out
}
