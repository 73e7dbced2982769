package main

import (
	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// guardSettings maps the config's clip and onDiverge onto the guard every
// learner of a session is wrapped in (core.Guarded), as the CLI's -clip and
// -on-diverge do. Clip auto is on for ratings: the ratings demo, or a
// MovieLens file learned as regression.
func (s *session) guardSettings(t data.Task) core.GuardSettings {
	ratings := s.cfg.Source == "demo" && s.cfg.Demo == "ratings" ||
		s.stream != nil && s.stream.Format() == data.FormatMovieLens ||
		s.cfg.Format == string(data.FormatMovieLens)
	return core.GuardFor(s.cfg.Clip, s.cfg.OnDiverge, ratings && t == data.Regression)
}

// inner returns the learner a player's guard wraps, for the views that
// inspect the model.
func (p *player) inner() core.Learner {
	if g, ok := p.Learner.(*core.Guarded); ok {
		return g.Learner()
	}
	return p.Learner
}
