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

// guardStatus is what a learner's guard did, in a snapshot (omitted when
// it did nothing): divergences, resets, rows not learned, the row where
// the learner was paused (0: it was not), and the first events.
type guardStatus struct {
	Divergences int      `json:"divergences"`
	Resets      int      `json:"resets"`
	Refused     int      `json:"refused"`
	RefusedWhy  string   `json:"refusedWhy,omitempty"` // core.GuardReport.RefusedWhy
	PausedAt    int      `json:"pausedAt,omitempty"`
	Advice      string   `json:"advice,omitempty"` // core.Guarded.DivergenceAdvice, after a divergence
	Events      []string `json:"events"`
}

func (g *guardStatus) appendJSON(b []byte) []byte {
	b = appendInt(append(b, `{"divergences":`...), g.Divergences)
	b = appendInt(append(b, `,"resets":`...), g.Resets)
	b = appendInt(append(b, `,"refused":`...), g.Refused)
	if g.RefusedWhy != "" {
		b = appendString(append(b, `,"refusedWhy":`...), g.RefusedWhy)
	}
	if g.PausedAt != 0 {
		b = appendInt(append(b, `,"pausedAt":`...), g.PausedAt)
	}
	if g.Advice != "" {
		b = appendString(append(b, `,"advice":`...), g.Advice)
	}
	b = appendStrings(append(b, `,"events":`...), g.Events)
	return append(b, '}')
}

// guardStatusOf returns whether a player's predictions are clipped, and
// its guard's status when the guard did anything.
func guardStatusOf(p *player) (clip bool, st *guardStatus) {
	g, ok := p.Learner.(*core.Guarded)
	if !ok {
		return false, nil
	}
	clip = g.Clipping()
	r := g.Report()
	if r.Divergences == 0 && r.Refused == 0 {
		return clip, nil
	}
	st = &guardStatus{Divergences: r.Divergences, Resets: r.Resets, Refused: r.Refused, RefusedWhy: r.RefusedWhy(), Events: []string{}}
	if r.Paused {
		st.PausedAt = r.PausedAt
	}
	if r.Divergences > 0 {
		st.Advice = g.DivergenceAdvice("δ", "η")
	}
	for _, e := range r.Events {
		st.Events = append(st.Events, e.String())
	}
	return clip, st
}

// inner returns the learner a player's guard wraps, for the views that
// inspect the model.
func (p *player) inner() core.Learner {
	if g, ok := p.Learner.(*core.Guarded); ok {
		return g.Learner()
	}
	return p.Learner
}
