package web

import "context"

// Watch calls Options.Notify once for each card it sees waiting — those
// waiting when it starts, then each new one — until ctx is done. Without a
// Notify it returns at once.
func (s *Server) Watch(ctx context.Context) {
	if s.opts.Notify == nil {
		return
	}
	seen := map[string]bool{}
	scan := func() {
		cards, err := s.backend.Cards(ctx)
		if err != nil {
			return
		}
		now := map[string]bool{}
		for _, c := range cards {
			if c.Answered {
				continue
			}
			now[c.ID] = true
			if !seen[c.ID] {
				s.opts.Notify(c)
			}
		}
		seen = now
	}
	changed := s.backend.WatchCards(ctx)
	scan()
	for range changed {
		scan()
	}
}
