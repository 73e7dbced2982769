package core

import (
	"math"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
)

// TestDemoLearn checks that OCCFM with its default settings learns every
// demo: on rows 15,001–20,000 of seed 1 its progressive loss is well below
// that of the best constant predictor in hindsight on the same rows (the
// variance of the labels for the squared loss, the binary entropy of the
// class frequencies in nats for the logistic loss). Measured (loss / best
// constant):
//
//	planted-regression       0.00431 / 0.0774  (5.6 %)
//	planted-classification   0.416   / 0.693   (60 %; error rate 15.6 %)
//	ratings                  0.600   / 0.909   (66 %; RMSE 0.775)
//
// With -short it plays 3,000 rows and scores the last 1,000: measured
// 0.00547 / 0.0713 (7.7 %), 0.441 / 0.693 (64 %), 0.594 / 0.871 (68 %).
// (The planted-regression run is the slow one, about 1 ms a row: its
// optimum lies inside K, −∇Fₜ(Cₜ) tends to 0, and OCCFM's tracked LMO
// refreshes on every step.)
func TestDemoLearn(t *testing.T) {
	rows, last := 20000, 5000
	if testing.Short() {
		rows, last = 3000, 1000
	}
	maxRatio := map[string]float64{
		"planted-regression":     0.2,
		"planted-classification": 0.75,
		"ratings":                0.8,
	}
	for _, d := range demo.All() {
		t.Run(d.Name, func(t *testing.T) {
			s := d.New(1)
			l := NewOCCFM(OCCFMSettings{Loss: TaskLoss(d.Task)})
			m := NewMetrics(d.Task, TaskLoss(d.Task))
			var ex data.Example
			var sum, sumSq float64
			pos := 0
			for i := range rows {
				if err := s.Next(&ex); err != nil {
					t.Fatal(err)
				}
				if i < rows-last {
					l.Update(ex.X, ex.Y)
					continue
				}
				Play(l, ex, m)
				sum += ex.Y
				sumSq += ex.Y * ex.Y
				if ex.Y > 0 {
					pos++
				}
			}
			n := float64(last)
			constant := sumSq/n - (sum/n)*(sum/n)
			if d.Task == data.Classification {
				p := float64(pos) / n
				constant = -p*math.Log(p) - (1-p)*math.Log(1-p)
			}
			got := m.Summary().AvgLoss
			t.Logf("%s: loss %.4g, best constant %.4g (%.3g)", d.Name, got, constant, got/constant)
			if got > maxRatio[d.Name]*constant {
				t.Errorf("loss %.4g over the last %d rows, want below %.3g × %.4g (best constant)",
					got, last, maxRatio[d.Name], constant)
			}
		})
	}
}
