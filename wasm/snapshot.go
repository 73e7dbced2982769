package main

import (
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// checkpoint stores [rows, ms, metric₁, loss₁, …], thinning when full,
// followed, when an occfm-auto races, by its regret to its best expert and
// the forecaster's bound on it (core.OCCFMAuto.Regret).
func (s *session) checkpoint() {
	pt := []float64{float64(s.rows), float64(s.learnTime().Microseconds()) / 1000}
	var auto *core.OCCFMAuto
	for _, p := range s.players {
		m, avgLoss := p.tally.metric(s.task)
		pt = append(pt, m, avgLoss)
		if a, ok := p.inner().(*core.OCCFMAuto); ok && auto == nil {
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
	State     string          `json:"state"`
	Error     string          `json:"error,omitempty"`
	Source    string          `json:"source"`
	Layout    string          `json:"layout,omitempty"`
	Task      string          `json:"task,omitempty"`
	Rows      int             `json:"rows"`
	Features  int             `json:"features"`
	Learners  []learnerStatus `json:"learners"`
	Points    numRows         `json:"points"`
	Decimated bool            `json:"decimated"`
	Preview   *preview        `json:"preview,omitempty"`
	Known     string          `json:"known,omitempty"`
	Regret    *regretStatus   `json:"regret,omitempty"`
	// BadRow: the error is a malformed row (skip would pass over it).
	BadRow bool `json:"badRow,omitempty"`
	// Skipped counts the rows skipped; SkippedFirst holds the first
	// reasons (at most core.MaxReasons), sent when a new one is kept.
	Skipped      int      `json:"skipped,omitempty"`
	SkippedFirst []string `json:"skippedFirst,omitempty"`
	// Warnings is the list of the reader's warnings (see session.warnings)
	// when it has grown since the preview or the last snapshot.
	Warnings []string `json:"warnings,omitempty"`
}

func (s *snapshot) appendJSON(b []byte) []byte {
	b = append(b, `{"state":`...)
	b = appendString(b, s.State)
	if s.Error != "" {
		b = appendString(append(b, `,"error":`...), s.Error)
	}
	b = appendString(append(b, `,"source":`...), s.Source)
	if s.Layout != "" {
		b = appendString(append(b, `,"layout":`...), s.Layout)
	}
	if s.Task != "" {
		b = appendString(append(b, `,"task":`...), s.Task)
	}
	b = appendInt(append(b, `,"rows":`...), s.Rows)
	b = appendInt(append(b, `,"features":`...), s.Features)
	b = append(b, `,"learners":`...)
	b = appendList(b, s.Learners, (*learnerStatus).appendJSON)
	b = s.Points.appendJSON(append(b, `,"points":`...))
	b = appendBool(append(b, `,"decimated":`...), s.Decimated)
	if s.Preview != nil {
		b = s.Preview.appendJSON(append(b, `,"preview":`...))
	}
	if s.Known != "" {
		b = appendString(append(b, `,"known":`...), s.Known)
	}
	if s.Regret != nil {
		b = s.Regret.appendJSON(append(b, `,"regret":`...))
	}
	if s.BadRow {
		b = append(b, `,"badRow":true`...)
	}
	if s.Skipped != 0 {
		b = appendInt(append(b, `,"skipped":`...), s.Skipped)
	}
	if len(s.SkippedFirst) > 0 {
		b = appendStrings(append(b, `,"skippedFirst":`...), s.SkippedFirst)
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
	Slope     []*float64 `json:"slope"`     // per learner, last six checkpoints
	D         num        `json:"d"`         // 2δ
	MaxRows   int        `json:"maxRows"`   // the comparator's cap
	Truncated bool       `json:"truncated"` // the cap was reached
	LeftOut   int        `json:"leftOut"`   // rows left out: a feature or label beyond ±1e9, or over 1,000 nonzeros (core.Regret.Observe)
	// NoDelta: the first learner has no δ (occfm-auto); the comparator's
	// ball is its default, δ = D/2.
	NoDelta bool `json:"noDelta,omitempty"`
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
	b = appendNum(append(b, `,"d":`...), float64(r.D))
	b = appendInt(append(b, `,"maxRows":`...), r.MaxRows)
	b = appendBool(append(b, `,"truncated":`...), r.Truncated)
	b = appendInt(append(b, `,"leftOut":`...), r.LeftOut)
	if r.NoDelta {
		b = append(b, `,"noDelta":true`...)
	}
	return append(b, '}')
}

type learnerStatus struct {
	Name      string       `json:"name"`
	Clip      bool         `json:"clip,omitempty"`
	Guard     *guardStatus `json:"guard,omitempty"`
	Rows      int          `json:"rows"`
	Seconds   float64      `json:"seconds"`
	AvgLoss   num          `json:"avg_loss"`
	RMSE      *float64     `json:"rmse,omitempty"`
	MAE       *float64     `json:"mae,omitempty"`
	ErrorRate *float64     `json:"error_rate,omitempty"`
	AUC       *float64     `json:"auc,omitempty"`
	LogLoss   *float64     `json:"logloss,omitempty"`
	// Experts are occfm-auto's experts with their weights: which δ is
	// winning.
	Experts []core.AutoExpert `json:"experts,omitempty"`
	// ExpertRegret is occfm-auto's regret to its best expert never
	// retired, and ExpertBound the forecaster's bound on it.
	ExpertRegret *float64 `json:"expertRegret,omitempty"`
	ExpertBound  *float64 `json:"expertBound,omitempty"`
}

func (l *learnerStatus) appendJSON(b []byte) []byte {
	b = appendString(append(b, `{"name":`...), l.Name)
	if l.Clip {
		b = append(b, `,"clip":true`...)
	}
	if l.Guard != nil {
		b = l.Guard.appendJSON(append(b, `,"guard":`...))
	}
	b = appendInt(append(b, `,"rows":`...), l.Rows)
	b = appendNum(append(b, `,"seconds":`...), l.Seconds)
	b = appendNum(append(b, `,"avg_loss":`...), float64(l.AvgLoss))
	for _, f := range [...]struct {
		key string
		x   *float64
	}{{"rmse", l.RMSE}, {"mae", l.MAE}, {"error_rate", l.ErrorRate}, {"auc", l.AUC}, {"logloss", l.LogLoss}} {
		if f.x != nil {
			b = appendNum(appendKey(b, f.key), *f.x)
		}
	}
	if len(l.Experts) > 0 {
		b = append(b, `,"experts":[`...)
		for i, e := range l.Experts {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendAutoExpert(b, e)
		}
		b = append(b, ']')
	}
	if l.ExpertRegret != nil {
		b = appendNum(append(b, `,"expertRegret":`...), *l.ExpertRegret)
	}
	if l.ExpertBound != nil {
		b = appendNum(append(b, `,"expertBound":`...), *l.ExpertBound)
	}
	return append(b, '}')
}

// appendAutoExpert appends e with the keys of core.AutoExpert's json tags.
func appendAutoExpert(b []byte, e core.AutoExpert) []byte {
	b = appendString(append(b, `{"name":`...), e.Name)
	b = appendNum(append(b, `,"delta":`...), e.Delta)
	b = appendNum(append(b, `,"eta":`...), e.Eta)
	b = appendNum(append(b, `,"weight":`...), e.Weight)
	b = appendNum(append(b, `,"loss":`...), e.Loss)
	b = appendBool(append(b, `,"retired":`...), e.Retired)
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
		Learners: []learnerStatus{}}
	s.sent, s.decimated = len(s.points), false
	if s.cfg.Source == "demo" {
		snap.Source = s.cfg.Demo
	} else {
		snap.Source = s.cfg.File
	}
	if s.stream != nil {
		snap.Layout = s.stream.Layout()
		snap.Features = s.stream.Dim()
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
		if fresh || s.state != "running" || !p.summed || now-p.sumAt >= summaryEvery {
			p.sum, p.sumAt, p.summed = p.Metrics.Summary(), now, true
		}
		sum := p.sum
		ls := learnerStatus{Name: p.Name, Rows: p.Metrics.Rows(), Seconds: p.Elapsed.Seconds(), AvgLoss: num(sum.AvgLoss)}
		ls.Clip, ls.Guard = guardStatusOf(p)
		if a, ok := p.inner().(*core.OCCFMAuto); ok {
			ls.Experts = a.Experts()
			reg, bound := a.Regret()
			ls.ExpertRegret, ls.ExpertBound = finite(reg), finite(bound)
		}
		if s.task == data.Classification {
			ls.ErrorRate, ls.AUC, ls.LogLoss = finite(sum.ErrorRate), finite(sum.AUC), finite(sum.LogLoss)
		} else {
			ls.RMSE, ls.MAE = finite(sum.RMSE), finite(sum.MAE)
		}
		snap.Learners = append(snap.Learners, ls)
	}
	if snap.Points == nil {
		snap.Points = numRows{}
	}
	if s.reg != nil {
		pts := s.reg.Points()
		rs := &regretStatus{Points: numRows{}, Pending: s.reg.Pending(), D: num(2 * s.reg.Delta()), NoDelta: s.delta == 0, MaxRows: regretRows, Truncated: s.reg.Truncated(), LeftOut: s.reg.LeftOut()}
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
			rs.Slope = append(rs.Slope, finite(core.Slope(pts, i, 6)))
		}
		snap.Regret = rs
	}
	return string(snap.appendJSON(make([]byte, 0, 1024)))
}
