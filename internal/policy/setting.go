package policy

import (
	"time"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/sayso-dev/sayso/internal/risk"
)

// settingKey is one top-level key of the person's policy file: read reads
// it into the file's own settings and says whether it was well formed;
// keep passes it on to the policy once the whole file has parsed.
type settingKey struct {
	read func(f *fileParser, s *Policy, at unstable.Range, key string, v *unstable.Node) bool
	keep func(p, s *Policy)
}

// settingKeys are the top-level keys of the person's file, each read and
// kept in one place.
var settingKeys = map[string]settingKey{
	"default_mode":      named(ParseMode, func(p *Policy) *Mode { return &p.DefaultMode }),
	"controller":        named(ParseController, func(p *Policy) *Controller { return &p.Controller }),
	"owner_words_max":   plain((*fileParser).count, func(p *Policy) *int { return &p.OwnerWordsMax }),
	"max_parallel":      plain((*fileParser).count, func(p *Policy) *int { return &p.MaxParallel }),
	"breaker.denials":   plain((*fileParser).count, func(p *Policy) *int { return &p.Breaker.Denials }),
	"breaker.declined":  plain((*fileParser).count, func(p *Policy) *int { return &p.Breaker.Declined }),
	"breaker.window":    {readWindow, func(p, s *Policy) { p.Breaker.Window = s.Breaker.Window }},
	"protected_paths":   {plainRead((*fileParser).strs, func(p *Policy) *[]string { return &p.ProtectedPaths }), func(p, s *Policy) { p.ProtectedPaths = append(p.ProtectedPaths, s.ProtectedPaths...) }},
	"trusted_hosts":     plain((*fileParser).strs, func(p *Policy) *[]string { return &p.TrustedHosts }),
	"approved_writes":   plain((*fileParser).strs, func(p *Policy) *[]string { return &p.ApprovedWrites }),
	"projects_base":     plain((*fileParser).str, func(p *Policy) *string { return &p.ProjectsBase }),
	"auto_without_wall": plain((*fileParser).boolean, func(p *Policy) *bool { return &p.AutoWithoutWall }),
	"show_each_time":    {readShowEachTime, func(p, s *Policy) { p.ShowEachTime = s.ShowEachTime }},
}

// plain is a key whose value is read as it is, with one of the file
// parser's readers, and kept by replacing what the policy had.
func plain[T any](read func(*fileParser, unstable.Range, string, *unstable.Node) (T, bool), field func(*Policy) *T) settingKey {
	return settingKey{plainRead(read, field), func(p, s *Policy) { *field(p) = *field(s) }}
}

// plainRead reads a key's value as it is, with one of the file parser's
// readers.
func plainRead[T any](read func(*fileParser, unstable.Range, string, *unstable.Node) (T, bool), field func(*Policy) *T) func(*fileParser, *Policy, unstable.Range, string, *unstable.Node) bool {
	return func(f *fileParser, s *Policy, at unstable.Range, key string, v *unstable.Node) (ok bool) {
		*field(s), ok = read(f, at, key, v)
		return ok
	}
}

// named is a key whose string names a value of a typed enum.
func named[T any](parse func(string) (T, error), field func(*Policy) *T) settingKey {
	read := func(f *fileParser, s *Policy, at unstable.Range, key string, v *unstable.Node) bool {
		str, ok := f.str(at, key, v)
		if !ok {
			return false
		}
		x, err := parse(str)
		if err != nil {
			f.problem(at, "%s: %v, ignored", key, err)
		}
		*field(s) = x
		return err == nil
	}
	return settingKey{read, func(p, s *Policy) { *field(p) = *field(s) }}
}

func readWindow(f *fileParser, s *Policy, at unstable.Range, key string, v *unstable.Node) bool {
	str, ok := f.str(at, key, v)
	if !ok {
		return false
	}
	d, err := time.ParseDuration(str)
	if ok = err == nil && d > 0; !ok {
		f.problem(at, "breaker.window: %q is not a duration, ignored", str)
	}
	s.Breaker.Window = d
	return ok
}

func readShowEachTime(f *fileParser, s *Policy, at unstable.Range, key string, v *unstable.Node) bool {
	names, ok := f.strs(at, key, v)
	if !ok {
		return false
	}
	s.ShowEachTime = 0
	for _, n := range names {
		c, err := risk.ParseClass(n)
		if err != nil {
			f.problem(at, "show_each_time: %v, ignored", err)
			continue
		}
		s.ShowEachTime = s.ShowEachTime.Add(c)
	}
	return true
}
