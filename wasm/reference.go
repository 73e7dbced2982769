package main

import (
	"math"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
)

// labelStats keeps the labels seen (those core.Metrics scores, |y| ≤
// data.MaxMetricLabel), for the charts' reference lines: what predicting
// the label mean (regression) or the majority class (classification) from
// the start would score, in hindsight.
type labelStats struct {
	n, pos   int
	mean, m2 float64 // Welford's running mean and Σ(y − mean)²
}

func (l *labelStats) add(y float64) {
	if !(math.Abs(y) <= data.MaxMetricLabel) {
		return
	}
	l.n++
	if y > 0 {
		l.pos++
	}
	d := y - l.mean
	l.mean += d / float64(l.n)
	l.m2 += d * (y - l.mean)
}

// reference is what the page draws as reference lines: the constant
// baseline's metric and average loss, and the demo's best metric.
type reference struct {
	Rows int
	// Metric and Loss are the constant baseline's RMSE and mean squared
	// loss (predicting the label mean: the labels' standard deviation and
	// variance), or its error rate and logistic loss (predicting the
	// majority class with probability p of the positive class: min(p,
	// 1−p) and the entropy H(p) in nats).
	Metric, Loss float64
	Baseline     string // what the baseline is, in words
	// Best is the demo's best metric (demo.Spec.Best), NaN for a file.
	Best float64
}

// reference returns the session's reference lines.
func (s *session) reference() reference {
	l := s.labels
	r := reference{Rows: l.n, Best: math.NaN()}
	if s.cfg.Source == "demo" {
		if d, ok := demo.ByName(s.cfg.Demo); ok {
			r.Best = d.Best
		}
	}
	if l.n == 0 || !s.taskSet {
		r.Metric, r.Loss = math.NaN(), math.NaN()
		return r
	}
	if s.task == data.Classification {
		p := float64(l.pos) / float64(l.n)
		r.Metric = min(p, 1-p)
		r.Loss = entropy(p)
		r.Baseline = "always the majority class"
		return r
	}
	r.Loss = l.m2 / float64(l.n)
	r.Metric = math.Sqrt(r.Loss)
	r.Baseline = "always the label mean"
	return r
}

// entropy returns H(p) = −p ln p − (1−p) ln(1−p), the logistic loss of
// the constant score logit(p) on labels of which a share p is positive.
func entropy(p float64) float64 {
	h := 0.0
	for _, q := range [2]float64{p, 1 - p} {
		if q > 0 {
			h -= q * math.Log(q)
		}
	}
	return h
}
