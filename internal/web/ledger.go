package web

import (
	"net/http"

	"github.com/sayso-dev/sayso/internal/risk"
)

// ledgerLimit is how many rows the page shows at most.
const ledgerLimit = 500

func (s *Server) ledgerPage(w http.ResponseWriter, r *http.Request, session string) {
	ctx := r.Context()
	q := r.URL.Query()
	f := LedgerFilter{Session: q.Get("session"), Class: q.Get("class"), Decision: q.Get("decision"), Text: q.Get("text"), Limit: ledgerLimit}
	rows, err := s.backend.Ledger(ctx, f)
	if err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	list, err := s.backend.Sessions(ctx)
	if err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	s.render(w, r, http.StatusOK, "ledger", session, view{Title: "Ledger", Nav: "ledger", Ledger: rows, Filter: f, Sessions: list, Names: sessionNames(list), Classes: classNames()})
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
