package web

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sayso-dev/sayso/internal/policy"
)

// view is what every template reads.
type view struct {
	Title    string
	Nav      string // the page the navigation marks current
	CSRF     string // set when the person is logged in
	Shell    bool   // the page's shell: the script fetches the page with the tab's key
	Error    string
	Flash    string
	Warnings []string // shown on every page until the person changes what they say
	Now      time.Time

	Autopilot policy.AutopilotList

	Cards      []cardView
	Sessions   []Session
	Waiting    map[string]int    // waiting cards by session
	Names      map[string]string // sessions' names by ID: agent · project · started, distinct
	ShowEnded  bool              // the sessions page lists ended sessions too
	EndedCount int               // ended sessions the sessions page hides
	Grant      Grant             // the lease form's defaults
	Modes      []policy.Mode
	Rules      []ruleView
	Leases     []Lease
	Categories []string
	Note       string
	NoteMax    int
	Ledger     []Entry
	Older      string // the next page of the ledger, when there may be one
	Filter     LedgerFilter
	Classes    []string
	Settings   settingsView
	Query      string
	Results    []result
}

// pages are the parsed templates, one set per page.
type pages struct {
	byName map[string]*template.Template
}

var funcs = template.FuncMap{
	"rfc":     func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"when":    when,
	"until":   until,
	"expired": func(now, t time.Time) bool { return !t.IsZero() && !now.Before(t) },
	"chars":   utf8.RuneCountInString,
	"sentence": func(s string) string {
		s = strings.TrimSpace(s)
		if s != "" && !strings.ContainsAny(s[len(s)-1:], ".!?") {
			s += "."
		}
		return s
	},
	"join":     strings.Join,
	"contains": strings.Contains,
	"plain":    unquote,
	"exact":    exact,
	"name":     func(s Session) string { return sessionName(s.Agent, s.Cwd, s.Created) },
	"list":     func(s ...string) []string { return s },
	"dict": func(kv ...any) (map[string]any, error) {
		if len(kv)%2 != 0 {
			return nil, fmt.Errorf("dict: odd arguments")
		}
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			k, ok := kv[i].(string)
			if !ok {
				return nil, fmt.Errorf("dict: key %v is not a string", kv[i])
			}
			m[k] = kv[i+1]
		}
		return m, nil
	},
}

func parsePages() (*pages, error) {
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	base := template.New("").Funcs(funcs)
	var own []string
	for _, n := range names {
		if strings.HasPrefix(n, "templates/_") {
			if _, err := base.ParseFS(templateFS, n); err != nil {
				return nil, fmt.Errorf("parse %s: %w", n, err)
			}
			continue
		}
		own = append(own, n)
	}
	p := &pages{byName: map[string]*template.Template{}}
	for _, n := range own {
		t, err := base.Clone()
		if err != nil {
			return nil, err
		}
		if _, err := t.ParseFS(templateFS, n); err != nil {
			return nil, fmt.Errorf("parse %s: %w", n, err)
		}
		name := strings.TrimSuffix(strings.TrimPrefix(n, "templates/"), ".html")
		p.byName[name] = t
	}
	return p, nil
}

// render writes page name inside the layout with status code.
func (s *Server) render(w http.ResponseWriter, r *http.Request, code int, name, session string, v view) {
	s.execute(w, r, code, name, "layout", session, v)
}

// execute writes one template of page name: the layout, or a fragment.
// Its forms carry the anti-CSRF token of the tab that asked.
func (s *Server) execute(w http.ResponseWriter, r *http.Request, code int, name, tmpl, session string, v view) {
	t := s.pages.byName[name]
	if t == nil {
		http.Error(w, "no page "+name, http.StatusInternalServerError)
		return
	}
	if session != "" {
		v.CSRF = s.person.csrf(session, r.Header.Get(TabHeader))
	}
	v.Now = s.now()
	if s.opts.Warnings != nil {
		v.Warnings = s.opts.Warnings()
	}
	v.Autopilot = policy.Autopilot
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, tmpl, v); err != nil {
		http.Error(w, "sayso could not draw this page", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	w.Write(buf.Bytes())
}

// exact is the one way the page writes an exact time, shown on hover.
func exact(t time.Time) string { return t.Local().Format("2006-01-02 15:04:05 MST") }

// relative says how long ago, or how soon, t is from now, in the page's
// one format; the script keeps it current.
func relative(now, t time.Time) string {
	d := t.Sub(now)
	future := d > 0
	if d < 0 {
		d = -d
	}
	var n string
	switch {
	case d < 10*time.Second:
		return "just now"
	case d < time.Minute:
		n = fmt.Sprintf("%d s", int(d/time.Second))
	case d < time.Hour:
		n = fmt.Sprintf("%d min", int(d/time.Minute))
	case d < 48*time.Hour:
		n = fmt.Sprintf("%d h", int(d/time.Hour))
	default:
		n = fmt.Sprintf("%d days", int(d/(24*time.Hour)))
	}
	if future {
		return "in " + n
	}
	return n + " ago"
}

// when is a moment as the page shows it: relative, the exact time on hover.
func when(now, t time.Time) template.HTML {
	if t.IsZero() {
		return "—"
	}
	return template.HTML(`<time class="rel" datetime="` + t.UTC().Format(time.RFC3339) + `" title="` +
		template.HTMLEscapeString(exact(t)) + `">` + template.HTMLEscapeString(relative(now, t)) + `</time>`)
}

// until is a card's countdown: the script counts it down each second.
func until(now, t time.Time) template.HTML {
	if t.IsZero() {
		return "no expiry known"
	}
	text := "expired"
	if d := t.Sub(now).Round(time.Second); d > 0 {
		text = "expires " + relative(now, t)
	}
	return template.HTML(`<time class="expires" datetime="` + t.UTC().Format(time.RFC3339) + `" title="` +
		template.HTMLEscapeString(exact(t)) + `">` + template.HTMLEscapeString(text) + `</time>`)
}
