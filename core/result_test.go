package core

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
)

// TestResultJSON: AppendJSON writes what encoding/json writes for the same
// Result, byte for byte, on results of real runs (both tasks, occfm-auto's
// experts, a guard that diverged) and on edge values; the page writes
// snapshots with the first and the command line with the second.
func TestResultJSON(t *testing.T) {
	var results []Result
	for _, tc := range []struct {
		demo    string
		learner string
		cfg     Config
	}{
		{"planted-regression", "occfm-auto", Config{}},
		{"planted-classification", "occfm", Config{}},
		{"planted-regression", "occfm", Config{Delta: 1e6, Eta: 1e6}}, // diverges
		{"planted-classification", "mean", Config{}},
	} {
		d, ok := demo.ByName(tc.demo)
		if !ok {
			t.Fatalf("no demo %s", tc.demo)
		}
		tc.cfg.Task = d.Task
		l, err := NewGuarded(tc.learner, tc.cfg, GuardSettings{Clip: true})
		if err != nil {
			t.Fatal(err)
		}
		p := &Player{Name: tc.learner, Learner: l, Metrics: NewMetrics(d.Task, tc.cfg.LossOf())}
		results = append(results, NewResult(p, p.Metrics.Summary(), 0, tc.cfg)) // no row yet
		src := d.New(1)
		var ex data.Example
		for i := range 300 {
			if err := src.Next(&ex); err != nil {
				t.Fatal(err)
			}
			Play(p.Learner, ex, p.Metrics)
			if i%100 == 99 {
				results = append(results, NewResult(p, p.Metrics.Summary(), i+1, tc.cfg))
			}
		}
		r := results[len(results)-1]
		switch {
		case r.Rows != 300 || r.Learner != tc.learner:
			t.Errorf("%s: %d rows, learner %q", tc.learner, r.Rows, r.Learner)
		case d.Task == data.Classification && (r.ErrorRate == nil || r.AUC == nil || r.RMSE != nil):
			t.Errorf("%s: classification metrics %+v", tc.learner, r)
		case d.Task == data.Regression && (r.RMSE == nil || r.MAE == nil || r.AUC != nil):
			t.Errorf("%s: regression metrics %+v", tc.learner, r)
		case tc.learner == "occfm-auto" && (len(r.Experts) == 0 || r.ExpertRegretBound == nil):
			t.Errorf("occfm-auto: no experts in %+v", r)
		case tc.cfg.Delta == 1e6 && r.Divergences == 0:
			t.Errorf("δ = 1e6, η = 1e6: no divergence in %+v", r)
		}
		if first := results[len(results)-4]; !math.IsNaN(float64(first.AvgLoss)) || first.RMSE != nil || first.ErrorRate != nil {
			t.Errorf("%s: with no row scored, avg_loss %v and metrics %v %v", tc.learner, first.AvgLoss, first.RMSE, first.ErrorRate)
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	odd := []float64{0, math.Copysign(0, -1), 1e-7, -1e-6, 1e21, 123456789.125, math.NaN(), math.Inf(1), math.SmallestNonzeroFloat64, math.MaxFloat64}
	for range 200 {
		x := Num(odd[rng.IntN(len(odd))])
		y := Num(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20)))
		results = append(results, Result{
			Learner: []string{"a\"<b>&\u2028\x01é\xff", "occfm"}[rng.IntN(2)], Delta: float64(y), Seconds: x, UpdatesPerSec: y, AvgLoss: x, RMSE: &y, AUC: &x,
			Experts: []AutoExpert{{Name: "δ=10", Delta: 10, Weight: float64(y)}}, ExpertRegret: &x, PausedAt: rng.IntN(3),
			RefusedWhy: "why", GuardAdvice: "a smaller δ", GuardEvents: []string{"row 3: diverged"},
		})
	}
	for _, r := range results {
		want, err := json.Marshal(&r)
		if err != nil {
			if bytes.Contains(r.AppendJSON(nil), []byte("NaN")) {
				t.Errorf("AppendJSON wrote NaN")
			}
			continue // encoding/json refuses a NaN in an expert's float64
		}
		if got := r.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Fatalf("AppendJSON\n%s\nencoding/json\n%s", got, want)
		}
	}
}

// TestNumJSON: a Num reads back as it was written, NaN and ±Inf as null
// and null as NaN.
func TestNumJSON(t *testing.T) {
	for _, x := range []float64{0, -1.5, 1e-7, 1e21, math.MaxFloat64, math.NaN(), math.Inf(-1)} {
		b, err := json.Marshal(Num(x))
		if err != nil {
			t.Fatal(err)
		}
		var back Num
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		want := x
		if math.IsInf(x, 0) {
			want = math.NaN()
		}
		if got := float64(back); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("%v: wrote %s, read back %v", x, b, got)
		}
	}
	var n Num
	if err := json.Unmarshal([]byte(`"1"`), &n); err == nil {
		t.Error(`a string read as a Num`)
	}
}
