package risk

import (
	"fmt"
	"math/bits"
	"strings"
)

// Class is the risk class of a step. The zero value is Opaque: an unknown
// class is risky.
type Class uint8

const (
	Opaque Class = iota
	Read
	LocalWrite
	Network
	RemoteWrite
	Merge
	ForceRemote
	NewRemote
	Publish
	Deploy
	Destructive
	ContainerRemove
	Privilege
	InstructionPatch
	Parallelize
	DownloadExec
	Secret
	Exfil
	Money
	Browser
	Count
	Protected
	numClasses
)

var names = [numClasses]string{
	Opaque: "opaque", Read: "read", LocalWrite: "local-write", Network: "network",
	RemoteWrite: "remote-write", Merge: "merge", ForceRemote: "force-remote",
	NewRemote: "new-remote", Publish: "publish", Deploy: "deploy",
	Destructive: "destructive", ContainerRemove: "container-remove",
	Privilege: "privilege", InstructionPatch: "instruction-patch",
	Parallelize: "parallelize", DownloadExec: "download-exec", Secret: "secret",
	Exfil: "exfil", Money: "money", Browser: "browser", Count: "count",
	Protected: "protected",
}

// bySeverity lists the classes most severe first.
var bySeverity = [numClasses]Class{
	Protected, Secret, Money, Browser, ForceRemote, NewRemote, Deploy, Publish,
	Exfil, DownloadExec, Privilege, InstructionPatch, Destructive, ContainerRemove,
	Merge, RemoteWrite, Parallelize, Count, Opaque, Network, LocalWrite, Read,
}

// rank is a class's severity: the higher, the more severe.
var rank = func() (r [numClasses]int) {
	for i, c := range bySeverity {
		r[c] = len(bySeverity) - i
	}
	return r
}()

func (c Class) String() string {
	if c < numClasses {
		return names[c]
	}
	return fmt.Sprintf("class(%d)", uint8(c))
}

// MarshalText implements encoding.TextMarshaler.
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler; unknown text is an error.
func (c *Class) UnmarshalText(b []byte) error { return unmarshalText(c, b, ParseClass) }

// unmarshalText sets *v to the value parse reads in b, or leaves it and
// returns parse's error.
func unmarshalText[T any](v *T, b []byte, parse func(string) (T, error)) error {
	x, err := parse(string(b))
	if err != nil {
		return err
	}
	*v = x
	return nil
}

// ParseClass returns the class named s.
func ParseClass(s string) (Class, error) {
	for i, n := range names {
		if n == s {
			return Class(i), nil
		}
	}
	return Opaque, fmt.Errorf("unknown class %q", s)
}

// Severity orders classes: higher is more severe.
func (c Class) Severity() int { return rank[c] }

// Kind is how far a class may go on its own.
type Kind uint8

const (
	KindRisky   Kind = iota // asks unless the mode or a rule lets it through
	KindSafe                // read: allowed in scope in every mode
	KindLocal               // local-write: allowed in scope in auto
	KindCeiling             // no mode approves it; only the person, per step
	KindSevere              // a ceiling for which no "always" is ever offered
	KindNever               // nothing lifts it
)

// Kind returns how far c may go; a class past the table is a ceiling.
func (c Class) Kind() Kind {
	if c >= numClasses {
		return KindCeiling
	}
	return classTable[c].kind
}

// Ceiling reports whether no mode approves c by itself.
func (c Class) Ceiling() bool { k := c.Kind(); return k == KindCeiling || k == KindSevere }

// classTraits are how far a class goes by itself and what may let it
// through besides the person's answer: the one table every package reads
// them from (its severity is its place in bySeverity).
type classTraits struct {
	kind     Kind
	liftable bool // a kept rule or an allow entry may cover it
	waivable bool // the reviewer may waive it, from the person's own words
	leasable bool // a lease may be granted for it
}

var classTable = [numClasses]classTraits{
	Opaque:           {kind: KindRisky, liftable: true, waivable: true},
	Read:             {kind: KindSafe, liftable: true, waivable: true},
	LocalWrite:       {kind: KindLocal, liftable: true, waivable: true},
	Network:          {kind: KindRisky, liftable: true, waivable: true},
	RemoteWrite:      {kind: KindCeiling, liftable: true, waivable: true, leasable: true},
	Merge:            {kind: KindCeiling, liftable: true, waivable: true, leasable: true},
	ForceRemote:      {kind: KindSevere, waivable: true, leasable: true},
	NewRemote:        {kind: KindSevere, waivable: true, leasable: true},
	Publish:          {kind: KindSevere, waivable: true, leasable: true},
	Deploy:           {kind: KindSevere, waivable: true, leasable: true},
	Destructive:      {kind: KindCeiling, liftable: true, waivable: true, leasable: true},
	ContainerRemove:  {kind: KindCeiling, liftable: true, waivable: true, leasable: true},
	Privilege:        {kind: KindCeiling, waivable: true, leasable: true},
	InstructionPatch: {kind: KindCeiling, liftable: true, waivable: true},
	Parallelize:      {kind: KindCeiling, liftable: true, waivable: true},
	DownloadExec:     {kind: KindCeiling, waivable: true},
	Secret:           {kind: KindCeiling},
	Exfil:            {kind: KindCeiling, waivable: true},
	Money:            {kind: KindCeiling},
	Browser:          {kind: KindCeiling},
	Count:            {kind: KindRisky},
	Protected:        {kind: KindNever},
}

// Liftable reports whether a kept rule or an allow entry may cover a step
// of class c: never a severe or never class, count, privilege, secret,
// money, browser, download-exec or exfil.
func (c Class) Liftable() bool { return c < numClasses && classTable[c].liftable }

// Waivable reports whether the reviewer may waive a step of class c:
// never secret, money, browser, count or a never class.
func (c Class) Waivable() bool { return c < numClasses && classTable[c].waivable }

// Leasable reports whether a lease may be granted for class c.
func (c Class) Leasable() bool { return c < numClasses && classTable[c].leasable }

// Leasable is every class a lease may be granted for.
func Leasable() Set {
	var s Set
	for c := Class(0); c < numClasses; c++ {
		if c.Leasable() {
			s = s.Add(c)
		}
	}
	return s
}

// Set is a set of classes.
type Set uint32

// Of returns the set holding cs.
func Of(cs ...Class) Set {
	var s Set
	for _, c := range cs {
		s = s.Add(c)
	}
	return s
}

func (s Set) Add(c Class) Set     { return s | 1<<c }
func (s Set) Has(c Class) bool    { return s&(1<<c) != 0 }
func (s Set) Union(o Set) Set     { return s | o }
func (s Set) Empty() bool         { return s == 0 }
func (s Set) Len() int            { return bits.OnesCount32(uint32(s)) }
func (s Set) Without(c Class) Set { return s &^ (1 << c) }

// Top is the most severe class in s; an empty set is Opaque.
func (s Set) Top() Class {
	for _, c := range bySeverity {
		if s.Has(c) {
			return c
		}
	}
	return Opaque
}

// Classes lists s most severe first.
func (s Set) Classes() []Class {
	out := make([]Class, 0, s.Len())
	for _, c := range bySeverity {
		if s.Has(c) {
			out = append(out, c)
		}
	}
	return out
}

// Liftable reports whether a kept rule or an allow entry may cover a step
// of every class in s.
func (s Set) Liftable() bool {
	for _, c := range s.Classes() {
		if !c.Liftable() {
			return false
		}
	}
	return true
}

// Waivable reports whether the reviewer may waive a step of every class
// in s.
func (s Set) Waivable() bool {
	for _, c := range s.Classes() {
		if !c.Waivable() {
			return false
		}
	}
	return true
}

// Any reports whether s holds a class of kind k.
func (s Set) Any(k Kind) bool {
	for c := Class(0); c < numClasses; c++ {
		if s.Has(c) && c.Kind() == k {
			return true
		}
	}
	return false
}

func (s Set) String() string {
	cs := s.Classes()
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, ",")
}
