package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
)

// result is one thing ⌘K finds.
type result struct {
	Kind   string `json:"kind"` // setting, rule or session
	Title  string `json:"title"`
	Detail string `json:"detail"`
	URL    string `json:"url"`
}

const maxResults = 20

// find searches settings, rules and sessions for every word of q.
func (s *Server) find(ctx context.Context, q string) ([]result, error) {
	words := strings.Fields(strings.ToLower(q))
	if len(words) == 0 {
		return nil, nil
	}
	var all []result
	st, err := s.backend.Settings(ctx)
	if err != nil {
		return nil, err
	}
	sv := newSettingsView(st)
	for _, it := range sv.Items {
		all = append(all, result{"setting", it.Key, it.Value + " — " + it.Help, "/settings#setting-" + it.Key})
	}
	all = append(all,
		result{"setting", "environment note", "What sayso should know about where you work", "/note"},
		result{"setting", "autopilot", "what autopilot releases, and what it never releases", "/settings#autopilot"},
		result{"setting", "leases", "grant or revoke a one-shot lease", "/leases"},
		result{"setting", "ledger", "every decision, answer, rule, lease and setting change", "/ledger"},
	)
	for _, e := range sv.Entries {
		all = append(all, result{"setting", e.Effect + " " + e.What, e.From, "/settings#settings-entries"})
	}
	rules, err := s.backend.Rules(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range rules {
		all = append(all, result{"rule", r.Rule.String(), "always allow in " + r.Cwd, "/rules#rule-" + r.ID})
	}
	sessions, err := s.backend.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	for _, se := range sessions {
		all = append(all, result{"session", se.ID, strings.TrimSpace(se.Agent + " " + se.Mode.String() + held(se.Held)), "/sessions#session-" + se.ID})
		for _, t := range se.Tasks {
			all = append(all, result{"session", t.ID, "task of " + se.ID + " " + t.Mode.String() + held(t.Held), "/sessions#session-" + t.ID})
		}
	}
	var out []result
	for _, r := range all {
		text := strings.ToLower(r.Kind + " " + r.Title + " " + r.Detail)
		if containsAll(text, words) {
			out = append(out, r)
			if len(out) == maxResults {
				break
			}
		}
	}
	return out, nil
}

func held(h bool) string {
	if h {
		return " held"
	}
	return ""
}

func containsAll(text string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

func (s *Server) searchPage(w http.ResponseWriter, r *http.Request, session string) {
	q := r.URL.Query().Get("q")
	res, err := s.find(r.Context(), q)
	if err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	s.render(w, r, http.StatusOK, "search", session, view{Title: "Find", Query: q, Results: res})
}

func (s *Server) searchJSON(w http.ResponseWriter, r *http.Request, session string) {
	res, err := s.find(r.Context(), r.URL.Query().Get("q"))
	if err != nil {
		code, msg := status(err)
		if code == http.StatusInternalServerError {
			logFailure(r, err)
		}
		http.Error(w, msg, code)
		return
	}
	if res == nil {
		res = []result{}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(res)
}
