package core

import (
	"math"

	"github.com/occfm/occfm/core/data"
)

// Result is what a learner did in a run, as the command line's -json lines
// and the page's snapshots both report it: one schema, with the same keys
// (snake_case) and the same figures. The command line writes it with
// encoding/json, the page with AppendJSON, and a test holds the two to the
// same bytes.
type Result struct {
	Learner string `json:"learner"`
	// Delta and Eta are the learner's settings in effect (its defaults
	// for 0), or the run's for a learner that has none.
	Delta float64 `json:"delta"`
	Eta   float64 `json:"eta"`
	// Rows is the number of rows the learner played; Seconds its time in
	// Play (predict, score, update), and UpdatesPerSec the rows it scored
	// a second of it.
	Rows          int `json:"rows"`
	Seconds       Num `json:"seconds"`
	UpdatesPerSec Num `json:"updates_per_sec"`
	// The progressive metrics (Metrics.Summary): each row scored before it
	// is learned. Those of the other task are nil and left out; with no
	// row scored, all are, and AvgLoss is null.
	AvgLoss   Num  `json:"avg_loss"`
	RMSE      *Num `json:"rmse,omitempty"`
	MAE       *Num `json:"mae,omitempty"`
	ErrorRate *Num `json:"error_rate,omitempty"`
	AUC       *Num `json:"auc,omitempty"`
	LogLoss   *Num `json:"logloss,omitempty"`
	// occfm-auto's experts with their weights, and its regret to its best
	// expert never retired with the forecaster's bound on it
	// (OCCFMAuto.Regret).
	Experts           []AutoExpert `json:"experts,omitempty"`
	ExpertRegret      *Num         `json:"expert_regret,omitempty"`
	ExpertRegretBound *Num         `json:"expert_regret_bound,omitempty"`
	// The guard (GuardReport): whether predictions are clipped to the
	// label range, the divergences and resets, the row where the learner
	// was paused (0: it was not), the rows not learned and why, what to
	// change after a divergence, and the first events.
	Clip        bool     `json:"clip"`
	Divergences int      `json:"divergences"`
	Resets      int      `json:"resets"`
	PausedAt    int      `json:"paused_at,omitempty"`
	Refused     int      `json:"refused"`
	RefusedWhy  string   `json:"refused_why,omitempty"`
	GuardAdvice string   `json:"guard_advice,omitempty"`
	GuardEvents []string `json:"guard_events,omitempty"`
}

// NewResult returns the Result of p after rows rows, with s its metrics'
// Summary (the page reuses one for a while: it costs O(rows) on a
// classification stream), for a run of the settings cfg (the Delta and Eta
// of a learner that reports none).
func NewResult(p *Player, s Summary, rows int, cfg Config) Result {
	r := Result{
		Learner: p.Name, Delta: cfg.Delta, Eta: cfg.Eta, Rows: rows,
		Seconds:       Num(p.Elapsed.Seconds()),
		UpdatesPerSec: Num(perSecond(s.Rows, p.Elapsed.Seconds())),
		AvgLoss:       Num(s.AvgLoss),
	}
	inner := p.Learner
	if c, ok := p.Learner.(Configured); ok {
		r.Delta, r.Eta = DeltaNow(p.Learner), c.Config().Eta
	}
	if g, ok := p.Learner.(*Guarded); ok {
		inner = g.Learner()
		rep := g.Report()
		r.Clip = g.Clipping()
		r.Divergences, r.Resets, r.Refused = rep.Divergences, rep.Resets, rep.Refused
		if rep.Paused {
			r.PausedAt = rep.PausedAt
		}
		if rep.Refused > 0 {
			r.RefusedWhy = rep.RefusedWhy()
		}
		if rep.Divergences > 0 {
			r.GuardAdvice = g.DivergenceAdvice("δ", "η")
		}
		for _, e := range rep.Events {
			r.GuardEvents = append(r.GuardEvents, e.String())
		}
	}
	if a, ok := inner.(*OCCFMAuto); ok {
		r.Experts = a.Experts()
		reg, bound := a.Regret()
		r.ExpertRegret, r.ExpertRegretBound = numPtr(reg), numPtr(bound)
	}
	if s.Rows == 0 {
		r.AvgLoss = Num(math.NaN())
		return r
	}
	if p.Metrics.Task() == data.Classification {
		r.ErrorRate, r.AUC, r.LogLoss = numPtr(s.ErrorRate), numPtr(s.AUC), numPtr(s.LogLoss)
	} else {
		r.RMSE, r.MAE = numPtr(s.RMSE), numPtr(s.MAE)
	}
	return r
}

// perSecond is n / seconds, or 0 before any time has passed.
func perSecond(n int, seconds float64) float64 {
	if seconds <= 0 {
		return 0
	}
	return float64(n) / seconds
}
