package risk

import "github.com/sayso-dev/sayso/internal/shell"

// role is what a segment does with its stdin and the network, for the
// checks that span a pipeline or a substitution.
type role uint8

const (
	roleFetch  role = 1 << iota // prints what it downloads
	roleDecode                  // turns its input into other text (base64 -d)
	roleCode                    // runs its stdin as code
	roleSend                    // sends its stdin to a host
	roleInline                  // runs inline code, which may run what it reads
)

func (a *assessor) mark(i int, r role) {
	if a.roles == nil {
		a.roles = make(map[int]role)
	}
	a.roles[i] |= r
}

func (a *assessor) is(i int, r role) bool { return a.roles[i]&r != 0 }

// stagesOf lists the segments of each pipeline of s.
func stagesOf(s *shell.Script) map[int][]int {
	stages := map[int][]int{}
	for i := range s.Segments {
		if p := s.Segments[i].Pipeline; p != 0 {
			stages[p] = append(stages[p], i)
		}
	}
	return stages
}

// pipelines classifies what flows between the stages of each pipeline and
// into the substitutions a program runs as code.
func (a *assessor) pipelines() {
	segs := a.script.Segments
	for i := range segs {
		s := &segs[i]
		if a.is(i, roleCode) {
			switch fetched, decoded := a.upstream(i); {
			case fetched:
				a.add(i, DownloadExec, FetchesCodeThatRuns.By("", "", ""))
			case decoded:
				a.add(i, Opaque, RunsDecoded.By("", "", ""))
			case s.Pipeline != 0 && s.Stage > 0:
				a.add(i, Opaque, RunsInput.By("", "", ""))
			default:
				a.add(i, Opaque, RunsUnread.By("", "", ""))
			}
		}
		if a.is(i, roleInline) {
			a.inlineInput(i)
		}
		if a.is(i, roleSend) && s.Pipeline != 0 && s.Stage > 0 {
			a.add(i, Exfil, SendsData.By("", "", ""))
		}
		// A program given code through a substitution: bash <(curl …),
		// bash -c "$(curl …)", eval "$(wget …)".
		if a.is(i, roleCode) || a.is(i, roleInline) || s.Name() == "eval" || s.Name() == "source" || s.Name() == "." || s.Inline || len(s.Opaque) > 0 {
			words := s.Args
			for _, r := range s.Redirs {
				if !r.Writes() {
					words = append(words[:len(words):len(words)], r.Target) // python3 - <<< "$(curl …)"
				}
			}
			for _, w := range words {
				for _, j := range w.Subst {
					if a.is(j, roleFetch) || a.fetchedBefore(j) {
						a.add(i, DownloadExec, FetchesCodeThatRuns.By("", "", ""))
					}
				}
			}
		}
	}
}

// inlineInput: inline code reads its input as data, and may run it
// (exec(sys.stdin.read())), and its code may be built from a substitution:
// a download or a decoding fed to it — through a pipe, a redirect, a
// substitution in its words — is code that runs.
func (a *assessor) inlineInput(i int) {
	fetched, decoded := a.upstream(i)
	s := &a.script.Segments[i]
	words := s.Args
	for _, r := range s.Redirs {
		if !r.Writes() {
			words = append(words[:len(words):len(words)], r.Target)
		}
	}
	for _, w := range words {
		for _, j := range w.Subst {
			_, dec := a.upstream(j)
			fetched = fetched || a.is(j, roleFetch) || a.fetchedBefore(j)
			decoded = decoded || a.is(j, roleDecode) || dec
		}
	}
	switch {
	case fetched:
		a.add(i, DownloadExec, FetchesCodeThatRuns.By("", "", ""))
	case decoded:
		a.add(i, Opaque, RunsDecoded.By("", "", ""))
	}
}

// upstream reports whether an earlier stage of segment i's pipeline
// downloads or decodes what it passes on.
func (a *assessor) upstream(i int) (fetched, decoded bool) {
	s := &a.script.Segments[i]
	if s.Pipeline == 0 {
		return false, false
	}
	for _, j := range a.stages[s.Pipeline] {
		if a.script.Segments[j].Stage < s.Stage {
			fetched = fetched || a.is(j, roleFetch)
			decoded = decoded || a.is(j, roleDecode)
		}
	}
	return fetched, decoded
}

// fetchedBefore reports whether segment j's pipeline fetches before it.
func (a *assessor) fetchedBefore(j int) bool {
	f, _ := a.upstream(j)
	return f
}
