package web

import (
	"net/http"
	"net/url"

	"github.com/sayso-dev/sayso/internal/risk"
)

// ledgerLimit is how many rows one page of the ledger shows; the next
// page starts below the last.
const ledgerLimit = 100

func (s *Server) ledgerPage(w http.ResponseWriter, r *http.Request, session string) {
	ctx := r.Context()
	q := r.URL.Query()
	f := LedgerFilter{Session: q.Get("session"), Class: q.Get("class"), Decision: q.Get("decision"), Text: q.Get("text"), Before: q.Get("before"), Limit: ledgerLimit}
	rows, err := s.backend.Ledger(ctx, f)
	if err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	older := ""
	if len(rows) == ledgerLimit {
		next := url.Values{}
		for k, v := range map[string]string{"session": f.Session, "class": f.Class, "decision": f.Decision, "text": f.Text, "before": rows[len(rows)-1].ID} {
			if v != "" {
				next.Set(k, v)
			}
		}
		older = "/ledger?" + next.Encode()
	}
	list, err := s.backend.Sessions(ctx)
	if err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	s.render(w, r, http.StatusOK, "ledger", session, view{Title: "Ledger", Nav: "ledger", Ledger: rows, Older: older, Filter: f, Sessions: list, Names: sessionNames(list), Classes: classNames()})
}

func classNames() []string {
	var out []string
	for c := risk.Class(0); ; c++ {
		n := c.String()
		if _, err := risk.ParseClass(n); err != nil {
			return out
		}
		out = append(out, n)
	}
}
