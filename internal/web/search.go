package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// result is one thing ⌘K finds.
type result struct {
	Kind   string `json:"kind"` // card, step, setting, rule or session
	Title  string `json:"title"`
	Detail string `json:"detail"`
	URL    string `json:"url"`
}

const maxResults = 20

// findLedger is how many steps Find takes from the ledger: the newest
// that hold every word of the search.
const findLedger = 2 * maxResults

// find searches the waiting cards and the ledger's steps (by the words
// of the command, its class and its session's agent and project), then
// settings, rules and sessions (by name), for every word of q.
func (s *Server) find(ctx context.Context, q string) ([]result, error) {
	words := strings.Fields(strings.ToLower(q))
	if len(words) == 0 {
		return nil, nil
	}
	sessions, err := s.backend.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	cards, err := s.backend.Cards(ctx)
	if err != nil {
		return nil, err
	}
	withFolders(sessions, cards)
	names := sessionNames(sessions)
	folders := map[string]string{}
	for _, se := range sessions {
		folders[se.ID] = se.Cwd
		for _, t := range se.Tasks {
			folders[t.ID] = se.Cwd
		}
	}
	var all []result
	for _, c := range cards {
		if c.Answered {
			continue
		}
		v := newCardView(c, time.Time{})
		who := names[c.Session]
		if who == "" {
			who = sessionName(c.Agent, c.Cwd, time.Time{})
		}
		all = append(all, result{"card", c.Step, dotted(v.Headline, strings.Join(c.Classes, " "), who, c.Cwd, "waiting"), "/#card-" + c.ID})
	}
	rows, err := s.findSteps(ctx, words, sessions, names)
	if err != nil {
		return nil, err
	}
	for _, e := range rows {
		detail := dotted(strings.TrimSpace(e.Decision+" "+e.Outcome), e.Class, names[e.Session], folders[e.Session])
		all = append(all, result{"step", e.Summary, detail, "/ledger?text=" + url.QueryEscape(firstWords(e.Summary)) + "#entry-" + e.ID})
	}
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
	for _, se := range sessions {
		state, page := se.Mode.String()+held(se.Held), "/sessions"
		if se.Ended {
			state, page = "ended", "/sessions?ended=1"
		}
		all = append(all, result{"session", names[se.ID], dotted(state, se.Cwd, se.ID), page + "#session-" + se.ID})
		for _, t := range se.Tasks {
			all = append(all, result{"session", names[t.ID], dotted(t.Mode.String()+held(t.Held), t.ID), page + "#session-" + t.ID})
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

// findSteps asks the ledger for the newest steps that may hold every
// word, so that a keystroke reads no more of it than it must. A word of
// a session's name (its agent, its project) is no word of its steps'
// rows: it picks the sessions, whose steps the ledger is asked for, by
// the other words. find checks every word on what it shows.
func (s *Server) findSteps(ctx context.Context, words []string, sessions []Session, names map[string]string) ([]Entry, error) {
	var own, named []string
	for _, w := range words {
		inName := false
		for _, n := range names {
			inName = inName || strings.Contains(strings.ToLower(n), w)
		}
		if inName {
			named = append(named, w)
		} else {
			own = append(own, w)
		}
	}
	f := LedgerFilter{Kind: "decision", Text: strings.Join(own, " "), Limit: findLedger}
	if len(named) == 0 {
		return s.backend.Ledger(ctx, f)
	}
	var picked []string
	for _, se := range sessions {
		for _, id := range append([]string{se.ID}, taskIDs(se)...) {
			if containsAll(strings.ToLower(names[id]+" "+se.Cwd), named) && len(picked) < findSessions {
				picked = append(picked, id)
			}
		}
	}
	// The word may be a step's too ("git" in a project named git-tools):
	// the steps of every session that hold every word come as well.
	out, err := s.backend.Ledger(ctx, LedgerFilter{Kind: "decision", Text: strings.Join(words, " "), Limit: findLedger})
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, e := range out {
		seen[e.ID] = true
	}
	for _, id := range picked {
		f.Session = id
		rows, err := s.backend.Ledger(ctx, f)
		if err != nil {
			return nil, err
		}
		for _, e := range rows {
			if !seen[e.ID] {
				seen[e.ID] = true
				out = append(out, e)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return b.At.Compare(a.At) })
	return out, nil
}

// findSessions bounds how many sessions Find reads the steps of when a
// word names sessions.
const findSessions = 10

func taskIDs(se Session) []string {
	var out []string
	for _, t := range se.Tasks {
		out = append(out, t.ID)
	}
	return out
}

// dotted joins the parts that are not empty with " · ".
func dotted(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " · ")
}

// firstWords is the start of a ledger row's summary, for the ledger's
// own words filter: enough to find the row again.
func firstWords(s string) string {
	f := strings.Fields(s)
	if len(f) > 6 {
		f = f[:6]
	}
	return strings.Join(f, " ")
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
