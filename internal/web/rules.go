package web

import (
	"net/http"

	"github.com/sayso-dev/sayso/internal/rule"
)

type ruleView struct {
	KeptRule
	Problem string // why sayso would refuse the rule today: it is ignored
}

func (s *Server) rulesPage(w http.ResponseWriter, r *http.Request, session string) {
	kept, err := s.backend.Rules(r.Context())
	if err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	views := make([]ruleView, len(kept))
	for i, k := range kept {
		views[i] = ruleView{KeptRule: k}
		if err := rule.Validate(k.Rule); err != nil {
			views[i].Problem = err.Error()
		}
	}
	s.render(w, r, http.StatusOK, "rules", session, view{Title: "Rules", Nav: "rules", Rules: views})
}

// forgetRule forgets a rule. No route adds one: only a press on a card's
// offer keeps a rule.
func (s *Server) forgetRule(w http.ResponseWriter, r *http.Request, session string) {
	if err := s.backend.ForgetRule(r.Context(), r.PathValue("id")); err != nil {
		s.backendFail(w, r, session, err)
		return
	}
	back(w, r, "/rules")
}
