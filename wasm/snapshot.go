package main

import (
	"time"

	"github.com/occfm/occfm/core"
)

// checkpoint stores [rows, ms, metric₁, loss₁, …], thinning when full,
// followed, when a mixture of experts races (core.Mixture, the first one),
// by its regret to its best expert and the mixture's bound on it.
func (s *session) checkpoint() {
	pt := []float64{float64(s.rows), float64(s.learnTime().Microseconds()) / 1000}
	var auto core.Mixture
	for _, p := range s.players {
		m, avgLoss := p.tally.metric(s.task)
		pt = append(pt, m, avgLoss)
		if a, ok := p.inner().(core.Mixture); ok && auto == nil {
			auto = a
		}
	}
	if auto != nil {
		reg, bound := auto.Regret()
		pt = append(pt, reg, bound)
	}
	s.points = append(s.points, pt)
	if len(s.points) >= maxPoints {
		kept := s.points[:0]
		for i, p := range s.points {
			if i%2 == 1 {
				kept = append(kept, p)
			}
		}
		s.points = kept
		s.sent = min(s.sent, len(kept))
		s.spacing *= 2
		s.decimated = true
	}
}

// snapshot is the compact JSON the page reads (see doc.go).
type snapshot struct {
	State  string `json:"state"`
	Error  string `json:"error,omitempty"`
	Source string `json:"source"`
	Layout string `json:"layout,omitempty"`
	// Scaling says how the guard scales the rows' numbers
	// (data.ScaleSummary.Text), once a feature is scaled.
	Scaling   string        `json:"scaling,omitempty"`
	Task      string        `json:"task,omitempty"`
	Rows      int           `json:"rows"`
	Features  int           `json:"features"`
	Learners  []core.Result `json:"learners"`
	Points    numRows       `json:"points"`
	Decimated bool          `json:"decimated"`
	Preview   *preview      `json:"preview,omitempty"`
	Known     string        `json:"known,omitempty"`
	Regret    *regretStatus `json:"regret,omitempty"`
	// Order says that the labels arrive sorted or in long runs
	// (data.LabelOrder), when they do and the rows are not shuffled.
	Order string `json:"order,omitempty"`
	// Held counts the rows read into memory to be shuffled, while they
	// are read (config shuffle).
	Held int `json:"held,omitempty"`
	// BadRow: the error is a malformed row (skip would pass over it).
	BadRow bool `json:"bad_row,omitempty"`
	// Skipped counts the rows skipped; SkippedFirst holds the first
	// reasons (at most data.MaxReasons), sent when a new one is kept.
	Skipped      int      `json:"skipped,omitempty"`
	SkippedFirst []string `json:"skipped_first,omitempty"`
	// Warnings is the list of the reader's warnings (see session.warnings)
	// when it has grown since the preview or the last snapshot.
	Warnings []string `json:"warnings,omitempty"`
}

func (s *snapshot) appendJSON(b []byte) []byte {
	b = append(b, `{"state":`...)
	b = core.AppendString(b, s.State)
	if s.Error != "" {
		b = core.AppendString(append(b, `,"error":`...), s.Error)
	}
	b = core.AppendString(append(b, `,"source":`...), s.Source)
	if s.Layout != "" {
		b = core.AppendString(append(b, `,"layout":`...), s.Layout)
	}
	if s.Scaling != "" {
		b = core.AppendString(append(b, `,"scaling":`...), s.Scaling)
	}
	if s.Task != "" {
		b = core.AppendString(append(b, `,"task":`...), s.Task)
	}
	b = appendInt(append(b, `,"rows":`...), s.Rows)
	b = appendInt(append(b, `,"features":`...), s.Features)
	b = append(b, `,"learners":`...)
	b = appendList(b, s.Learners, (*core.Result).AppendJSON)
	b = s.Points.appendJSON(append(b, `,"points":`...))
	b = appendBool(append(b, `,"decimated":`...), s.Decimated)
	if s.Preview != nil {
		b = s.Preview.appendJSON(append(b, `,"preview":`...))
	}
	if s.Order != "" {
		b = core.AppendString(append(b, `,"order":`...), s.Order)
	}
	if s.Held != 0 {
		b = appendInt(append(b, `,"held":`...), s.Held)
	}
	if s.Known != "" {
		b = core.AppendString(append(b, `,"known":`...), s.Known)
	}
	if s.Regret != nil {
		b = s.Regret.appendJSON(append(b, `,"regret":`...))
	}
	if s.BadRow {
		b = append(b, `,"bad_row":true`...)
	}
	if s.Skipped != 0 {
		b = appendInt(append(b, `,"skipped":`...), s.Skipped)
	}
	if len(s.SkippedFirst) > 0 {
		b = appendStrings(append(b, `,"skipped_first":`...), s.SkippedFirst)
	}
	if len(s.Warnings) > 0 {
		b = appendStrings(append(b, `,"warnings":`...), s.Warnings)
	}
	return append(b, '}')
}

// regretStatus is the regret part of a snapshot. Each point is
// [T, comparator loss, gap, bound, G, then per learner: cumulative loss,
// regret lo, regret hi]; points holds the new ones since the last snapshot.
type regretStatus struct {
	Points    numRows    `json:"points"`
	Pending   int        `json:"pending"`   // checkpoints waiting for the comparator
	Lag       int        `json:"lag"`       // rows learned since the last finished checkpoint
	Slope     []*float64 `json:"slope"`     // per learner, over the last decade of T (core.DecadeSlope); null until the checkpoints span one
	D         num        `json:"d"`         // 2δ
	MaxRows   int        `json:"max_rows"`  // the comparator's cap
	Truncated bool       `json:"truncated"` // the cap was reached
	LeftOut   int        `json:"left_out"`  // rows left out: a feature or label beyond ±1e9, or over 1,000 nonzeros (core.Regret.Observe)
	// NoDelta: the first learner has no δ (occfm-auto); the comparator's
	// ball is its default, δ = D/2.
	NoDelta bool `json:"no_delta,omitempty"`
	// ZeroBest: the best C in K has loss 0 (core.RegretSettings.ZeroBest),
	// so the regret is the cumulative loss and no comparator runs.
	ZeroBest bool `json:"zero_best,omitempty"`
}

func (r *regretStatus) appendJSON(b []byte) []byte {
	b = r.Points.appendJSON(append(b, `{"points":`...))
	b = appendInt(append(b, `,"pending":`...), r.Pending)
	b = appendInt(append(b, `,"lag":`...), r.Lag)
	b = append(b, `,"slope":`...)
	if r.Slope == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, x := range r.Slope {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendNumPtr(b, x)
		}
		b = append(b, ']')
	}
	b = core.AppendNum(append(b, `,"d":`...), float64(r.D))
	b = appendInt(append(b, `,"max_rows":`...), r.MaxRows)
	b = appendBool(append(b, `,"truncated":`...), r.Truncated)
	b = appendInt(append(b, `,"left_out":`...), r.LeftOut)
	if r.NoDelta {
		b = append(b, `,"no_delta":true`...)
	}
	if r.ZeroBest {
		b = append(b, `,"zero_best":true`...)
	}
	return append(b, '}')
}

// summaryEvery is how old the learners' metrics in a snapshot of a running
// session may be (runSnapshotJSON): core.Metrics.Summary costs O(rows) on a
// classification stream, and run returns a snapshot after every slice.
const summaryEvery = 250 * time.Millisecond

// snapshotJSON returns the snapshot with the learners' metrics of now, and
// marks its points and preview sent.
func (s *session) snapshotJSON() string { return s.snapshotJSONAt(true) }

// runSnapshotJSON is snapshotJSON after a slice: while the session runs,
// the learners' metrics are at most summaryEvery old.
func (s *session) runSnapshotJSON() string { return s.snapshotJSONAt(false) }

func (s *session) snapshotJSONAt(fresh bool) string {
	snap := snapshot{State: s.state, Error: s.err, Rows: s.rows, Points: s.points[s.sent:], Decimated: s.decimated, Known: s.known,
		Order: s.orderText(), Held: s.heldRows(),
		Learners: []core.Result{}}
	s.sent, s.decimated = len(s.points), false
	if s.cfg.Source == "demo" {
		snap.Source = s.cfg.Demo
	} else {
		snap.Source = s.cfg.File
	}
	if s.stream != nil {
		snap.Layout = s.stream.Layout()
		snap.Features = s.stream.Dim()
		if len(s.players) > 0 {
			snap.Scaling = core.ScalesOf(s.players[0].Learner).Text(s.stream.FeatureName)
		}
	} else if d, ok := s.source.(interface{ Dim() int }); ok {
		snap.Features = d.Dim()
	}
	if s.taskSet {
		snap.Task = s.task.String()
	}
	snap.Skipped = s.bad.Skipped
	if len(s.bad.First) > s.reasonsSent {
		snap.SkippedFirst, s.reasonsSent = s.bad.Reasons(), len(s.bad.First)
	}
	snap.BadRow = s.badRow
	if s.preview != nil {
		if w := s.warnings(); len(w) > s.warningsSent {
			snap.Warnings, s.warningsSent = w, len(w)
		}
	}
	if s.preview != nil && !s.preview.sent {
		snap.Preview, s.preview.sent = s.preview, true
	}
	now := clock()
	for _, p := range s.players {
		// A summary of no row is refreshed at once: its metrics are
		// left out until the first row is scored.
		if fresh || s.state != "running" || !p.summed || now-p.sumAt >= summaryEvery || p.sum.Rows == 0 && p.Metrics.Rows() > 0 {
			p.sum, p.sumAt, p.summed = p.Metrics.Summary(), now, true
		}
		ls := core.NewResult(&p.Player, p.sum, s.rows, s.config)
		snap.Learners = append(snap.Learners, ls)
	}
	if snap.Points == nil {
		snap.Points = numRows{}
	}
	if s.reg != nil {
		pts := s.reg.Points()
		rs := &regretStatus{Points: numRows{}, Pending: s.reg.Pending(), D: num(2 * s.reg.Delta()), NoDelta: s.delta == 0, MaxRows: regretRows, Truncated: s.reg.Truncated(), LeftOut: s.reg.LeftOut(), ZeroBest: s.reg.ZeroBest()}
		for _, p := range pts[s.regSent:] {
			row := []float64{float64(p.T), p.ComparatorLoss, p.Gap, p.Bound, p.G}
			for i := range p.CumLoss {
				row = append(row, p.CumLoss[i], p.RegretLo[i], p.RegretHi[i])
			}
			rs.Points = append(rs.Points, row)
		}
		s.regSent = len(pts)
		rs.Lag = s.rows
		if len(pts) > 0 {
			rs.Lag = s.rows - pts[len(pts)-1].T
		}
		for i := range s.players {
			rs.Slope = append(rs.Slope, finite(core.DecadeSlope(pts, i)))
		}
		snap.Regret = rs
	}
	return string(snap.appendJSON(make([]byte, 0, 1024)))
}
