package main

import (
	"math"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
)

// TestReference checks the reference lines against the demo's labels
// read again from its stream: the label mean's RMSE and squared loss, the
// majority class's error rate and its logistic loss H(p), and the demo's
// best metric.
func TestReference(t *testing.T) {
	for _, demoName := range []string{"ratings", "planted-classification"} {
		const rows = 700
		s := demoSession(t, demoName, rows, "bias")
		got := s.reference()
		d, _ := demo.ByName(demoName)
		src := d.New(1)
		var ex data.Example
		var ys []float64
		for range rows {
			if err := src.Next(&ex); err != nil {
				t.Fatal(err)
			}
			ys = append(ys, ex.Y)
		}
		var mean, pos float64
		for _, y := range ys {
			mean += y / rows
			if y > 0 {
				pos++
			}
		}
		var want, loss float64
		if d.Task == data.Classification {
			p := pos / rows
			want, loss = math.Min(p, 1-p), -p*math.Log(p)-(1-p)*math.Log(1-p)
		} else {
			for _, y := range ys {
				loss += (y - mean) * (y - mean) / rows
			}
			want = math.Sqrt(loss)
		}
		if got.Rows != rows || math.Abs(got.Metric-want) > 1e-12 || math.Abs(got.Loss-loss) > 1e-12 || got.Best != d.Best {
			t.Errorf("%s: reference %+v, want metric %v, loss %v, best %v", demoName, got, want, loss, d.Best)
		}
	}
}
