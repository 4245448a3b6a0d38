package web

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/sayso-dev/sayso/internal/policy"
	"github.com/sayso-dev/sayso/internal/risk"
)

// settingsView is the policy file, as the settings page shows it.
type settingsView struct {
	Looked   []lookView
	Start    string // where to start a policy file, when none is there
	Starter  string // the entry to start it with
	Project  string // where a project's own file lies below its root
	Items    []settingItem
	Entries  []entryView
	Autonomy []policy.Row
	Problems []string
}

// lookView is one policy file looked for, as the page says it.
type lookView struct {
	Path  string
	Whose string
	There string
}

type settingItem struct {
	Key   string
	Value string
	Help  string
}

type entryView struct {
	Effect string
	What   string
	From   string
}

func newSettingsView(st Settings) settingsView {
	p := st.Policy
	if p == nil {
		p = policy.Defaults()
	}
	hosts := "the package registries and the project's git remotes"
	if p.TrustedHosts != nil {
		hosts = strings.Join(p.TrustedHosts, ", ")
		if hosts == "" {
			hosts = "none"
		}
	} else if len(risk.DefaultTrustedHosts) > 0 {
		hosts = strings.Join(risk.DefaultTrustedHosts, ", ") + ", and the project's git remotes"
	}
	b := p.Breaker
	if b.Denials <= 0 {
		b.Denials = policy.DefaultBreaker.Denials
	}
	if b.Declined <= 0 {
		b.Declined = policy.DefaultBreaker.Declined
	}
	if b.Window <= 0 {
		b.Window = policy.DefaultBreaker.Window
	}
	v := settingsView{
		Project: policy.ProjectFile,
		Items: []settingItem{
			{"default_mode", p.DefaultMode.String(), "the mode a new session starts in"},
			{"controller", p.Controller.String(), "any: parallel sessions keep working; latest: only the session of your newest message takes non-read steps"},
			{"trusted_hosts", hosts, "hosts a plain fetch may reach without asking"},
			{"owner_words_max", fmt.Sprintf("%d characters", p.OwnerWordsMax), "a session with more of your words hands none on to its tasks"},
			{"max_parallel", fmt.Sprint(p.MaxParallel), "sub-agents a session may run at once"},
			{"breaker", fmt.Sprintf("%d denied steps or %d declined cards within %s", b.Denials, b.Declined, b.Window), "when a session is held by its circuit breaker"},
			{"approved_writes", orNone(strings.Join(p.ApprovedWrites, ", ")), "folders a step you approved may write beside the project and what its card names"},
			{"protected_paths", orNone(strings.Join(p.ProtectedPaths, ", ")), "more files no assistant tool may read or write, beside sayso's own"},
			{"show_each_time", orNone(strings.ReplaceAll(p.ShowEachTime.String(), ",", ", ")), "classes you see each time: no card offers \"always allow\" for them and no kept rule lifts them"},
		},
		Autonomy: p.Autonomy,
	}
	there := false
	for _, l := range st.Looked {
		lv := lookView{Path: l.Path, Whose: "yours, for every project", There: "not there"}
		if l.Whose != "person" {
			lv.Whose = "a project's"
		}
		if l.Exists {
			lv.There, there = "there", true
		}
		if l.Whose == "person" && v.Start == "" {
			v.Start = l.Path
		}
		v.Looked = append(v.Looked, lv)
	}
	if there {
		v.Start = ""
	} else if v.Start != "" {
		v.Starter = strings.TrimSpace(policy.Starter)
	}
	for _, e := range p.Entries {
		what := e.Command
		switch {
		case e.ByClass:
			what = "class " + e.Class.String()
		case what == "":
			what = "tool " + e.Tool
		case e.Tool != "":
			what = e.Tool + ": " + what
		}
		v.Entries = append(v.Entries, entryView{Effect: e.Effect.String(), What: what, From: e.Source.String()})
	}
	for _, pr := range p.Problems {
		v.Problems = append(v.Problems, pr.String())
	}
	return v
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func (s *Server) settingsPage(w http.ResponseWriter, r *http.Request, session string) {
	st, err := s.backend.Settings(r.Context())
	if err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	s.render(w, r, http.StatusOK, "settings", session, view{Title: "Settings", Nav: "settings", Settings: newSettingsView(st)})
}
