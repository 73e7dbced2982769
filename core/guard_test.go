package core

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
)

// firstDemoRows returns the first n rows of a built-in demo, seeded.
func firstDemoRows(t *testing.T, name string, seed uint64, n int) ([]data.Example, data.Task) {
	t.Helper()
	d, ok := demo.ByName(name)
	if !ok {
		t.Fatalf("no demo %q", name)
	}
	src := d.New(seed)
	rows := make([]data.Example, 0, n)
	var ex data.Example
	for len(rows) < n {
		if err := src.Next(&ex); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, ex.Clone())
	}
	return rows, d.Task
}

// checkFinite fails unless every prediction is finite.
func checkFinite(t *testing.T, name string, i int, yhat float64) {
	t.Helper()
	if math.IsNaN(yhat) || math.IsInf(yhat, 0) {
		t.Fatalf("%s: row %d: prediction %v", name, i+1, yhat)
	}
}

// TestGuardedDefaultsQuiet: at their default settings, no learner of the
// registry trips the guard on the built-in demos (a false alarm would reset
// a healthy learner), and the guarded learner plays exactly as the bare one
// on the rows scaled by data.Scales (checked on the first 200 rows).
func TestGuardedDefaultsQuiet(t *testing.T) {
	t.Parallel()
	n := 3000
	if testing.Short() {
		n = 1000
	}
	for _, d := range demo.All() {
		rows, task := firstDemoRows(t, d.Name, 7, n)
		for _, spec := range Learners() {
			t.Run(d.Name+"/"+spec.Name, func(t *testing.T) {
				c := Config{Task: task}
				g, err := NewGuarded(spec.Name, c, GuardSettings{})
				if err != nil {
					t.Fatal(err)
				}
				bare := spec.New(c)
				rows := rows
				if testing.Short() && (spec.Name == "ccfm-ftrl" || spec.Name == "cfm-ftrl") {
					if d.Name == "ratings" && spec.Name == "ccfm-ftrl" {
						t.Skip("-short: CCFM-FTRL learns the ratings demo at about 100 rows/s")
					}
					rows = rows[:guardWindow+20] // the slow FTRL projections
				}
				var sc data.Scales
				for i, ex := range rows {
					got := Play(g, ex, nil)
					checkFinite(t, spec.Name, i, got)
					if i >= 200 {
						continue // the guard's loss test starts at row 500
					}
					sc.Observe(ex.X)
					scaled := data.Example{X: sc.Apply(ex.X), Y: ex.Y}
					if want := Play(bare, scaled, nil); got != want {
						t.Fatalf("%s on %s: row %d: guarded ŷ %v, bare %v", spec.Name, d.Name, i+1, got, want)
					}
				}
				if r := g.Report(); r.Divergences != 0 || r.Refused != 0 || r.Paused {
					t.Errorf("%s on %s at defaults: guard report %+v", spec.Name, d.Name, r)
				}
			})
		}
	}
}

// TestGuardedDivergence: a learning rate far too large makes the learners
// diverge (the projected CCFM learners do not: ‖C‖* ≤ δ bounds them); the
// guard detects it, resets them Resets times, then pauses them,
// and no prediction is ever NaN or infinite.
func TestGuardedDivergence(t *testing.T) {
	rows, task := firstDemoRows(t, "ratings", 3, 4000)
	for _, tc := range []struct {
		learner string
		eta     float64
		resets  int
	}{
		{"fm-ftrl", 10, 0},
		{"fm-ftrl", 1e4, 0},
		{"bias", 10, 0},
		{"bias", 1e4, 2},
		{"linear", 1e4, -1},
	} {
		g, err := NewGuarded(tc.learner, Config{Task: task, Eta: tc.eta}, GuardSettings{Resets: tc.resets})
		if err != nil {
			t.Fatal(err)
		}
		for i, ex := range rows {
			checkFinite(t, tc.learner, i, Play(g, ex, nil))
		}
		r := g.Report()
		wantResets := tc.resets
		if wantResets == 0 {
			wantResets = defaultResets
		} else if wantResets < 0 {
			wantResets = 0
		}
		if r.Divergences != wantResets+1 || r.Resets != wantResets || !r.Paused {
			t.Errorf("%s η=%g: report %+v, want %d resets then paused", tc.learner, tc.eta, r, wantResets)
			continue
		}
		if r.Events[0].Kind != "diverged" || r.Events[len(r.Events)-1].Kind != "paused" || r.Events[len(r.Events)-1].Row != r.PausedAt {
			t.Errorf("%s η=%g: events %v", tc.learner, tc.eta, r.Events)
		}
		// Paused: it predicts the label mean and learns nothing more.
		x := rows[0].X
		before := g.Predict(x)
		mean := g.fallback()
		g.Update(x, 5)
		if before != mean || g.Predict(x) != g.fallback() {
			t.Errorf("%s paused: ŷ %v, label mean %v", tc.learner, before, mean)
		}
	}
}

// panicky is a learner whose Update panics from row panicAt on, and whose
// Predict returns NaN from row nanAt on.
type panicky struct {
	rows, panicAt, nanAt int
}

func (p *panicky) Predict(data.Sparse) float64 {
	if p.nanAt > 0 && p.rows >= p.nanAt {
		return math.NaN()
	}
	return 3
}

func (p *panicky) Update(data.Sparse, float64) {
	p.rows++
	if p.panicAt > 0 && p.rows >= p.panicAt {
		panic("core: tridiagonal eigendecomposition failed")
	}
}

// TestGuardedFailures: a learner that panics or predicts NaN is caught,
// reported with the reason, and reset; the output stays finite.
func TestGuardedFailures(t *testing.T) {
	x := data.Sparse{Ind: []int{0}, Val: []float64{1}}
	for _, tc := range []struct {
		name string
		l    func() Learner
		row  int
		want string
	}{
		{"panic", func() Learner { return &panicky{panicAt: 10} }, 10, "update failed: core: tridiagonal eigendecomposition failed"},
		{"nan", func() Learner { return &panicky{nanAt: 10} }, 11, "prediction NaN"},
	} {
		g := &Guarded{set: GuardSettings{}.withDefaults(), name: tc.name, task: data.Regression, loss: Squared, fresh: tc.l}
		g.inner = g.fresh()
		for i := range 50 {
			checkFinite(t, tc.name, i, Play(g, data.Example{X: x, Y: 3}, nil))
		}
		r := g.Report()
		if r.Divergences != 4 || r.Resets != 3 || !r.Paused {
			t.Errorf("%s: report %+v", tc.name, r)
		}
		if len(r.Events) == 0 || r.Events[0].Row != tc.row || r.Events[0].Msg != tc.want {
			t.Errorf("%s: first event %v, want row %d: %s", tc.name, r.Events, tc.row, tc.want)
		}
	}
}

// TestGuardedHugeFeatures: rows with features beyond MaxFeature (or not
// finite) are predicted but not learned, and counted; the learner goes on
// as if they were absent.
func TestGuardedHugeFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	var rows []data.Example
	for range 300 {
		ex := data.Example{X: data.Sparse{Ind: []int{0, 1 + rng.IntN(5)}, Val: []float64{1, rng.Float64()}}}
		ex.Y = 1
		if rng.IntN(2) == 0 {
			ex.Y = -1
		}
		rows = append(rows, ex)
	}
	huge := []float64{1e50, 1e300, math.Inf(1), math.NaN(), -1e10}
	for _, spec := range Learners() {
		c := Config{Task: data.Classification}
		g, _ := NewGuarded(spec.Name, c, GuardSettings{})
		clean, _ := NewGuarded(spec.Name, c, GuardSettings{})
		for i, ex := range rows {
			if i%50 == 25 {
				bad := data.Example{X: data.Sparse{Ind: []int{0, 2}, Val: []float64{1, huge[(i/50)%len(huge)]}}, Y: 1}
				checkFinite(t, spec.Name, i, Play(g, bad, nil))
				continue
			}
			got, want := Play(g, ex, nil), Play(clean, ex, nil)
			if got != want {
				t.Fatalf("%s: row %d: ŷ %v, want %v as without the bad rows", spec.Name, i+1, got, want)
			}
		}
		r := g.Report()
		if r.Refused != 6 || r.Divergences != 0 {
			t.Errorf("%s: report %+v, want 6 rows refused and no divergence", spec.Name, r)
		}
		if len(r.Events) == 0 || !strings.Contains(r.Events[0].Msg, "a feature value 1e+50 is beyond ±1e+09") {
			t.Errorf("%s: events %v", spec.Name, r.Events)
		}
	}
}

// TestGuardedClip: with Clip, regression predictions stay within the labels
// seen so far; Predict agrees with what Play returns.
func TestGuardedClip(t *testing.T) {
	rows, task := firstDemoRows(t, "ratings", 11, 2000)
	for _, name := range []string{"occfm", "fm-ftrl", "linear"} {
		g, _ := NewGuarded(name, Config{Task: task}, GuardSettings{Clip: true})
		bare, _ := NewLearner(name, Config{Task: task})
		lo, hi := math.Inf(1), math.Inf(-1)
		clipped := 0
		for i, ex := range rows {
			p := g.Predict(ex.X)
			raw := bare.Predict(ex.X)
			got := Play(g, ex, nil)
			bare.Update(ex.X, ex.Y)
			if p != got {
				t.Fatalf("%s: row %d: Predict %v, Play %v", name, i+1, p, got)
			}
			if i > 0 && (got < lo || got > hi) {
				t.Fatalf("%s: row %d: ŷ %v outside the labels seen [%v, %v]", name, i+1, got, lo, hi)
			}
			if i > 0 && got != raw {
				clipped++
				if got != min(max(raw, lo), hi) {
					t.Fatalf("%s: row %d: ŷ %v, raw %v, range [%v, %v]", name, i+1, got, raw, lo, hi)
				}
			}
			lo, hi = min(lo, ex.Y), max(hi, ex.Y)
		}
		if clipped == 0 {
			t.Errorf("%s: no prediction was clipped: the test shows nothing", name)
		}
		if !g.Clipping() {
			t.Errorf("%s: Clipping() false", name)
		}
	}
	g, _ := NewGuarded("occfm", Config{Task: data.Classification}, GuardSettings{Clip: true})
	if g.Clipping() {
		t.Error("classification scores are clipped")
	}
}

// TestGuardedModelResume: a guarded learner saved with Guarded.Model and
// resumed by ResumeGuarded goes on bit for bit as the one that never
// stopped: clipping range, smoothed losses, resets and the pause included.
func TestGuardedModelResume(t *testing.T) {
	rows, task := firstDemoRows(t, "ratings", 5, 2400)
	for _, tc := range []struct {
		name string
		eta  float64
		at   int
	}{
		{"occfm", 0, 700},
		{"fm-ftrl", 10, 150},  // between resets
		{"fm-ftrl", 10, 1500}, // paused
		{"bias", 0, 1000},
	} {
		c := Config{Task: task, Eta: tc.eta}
		set := GuardSettings{Clip: true}
		g, _ := NewGuarded(tc.name, c, set)
		ref, _ := NewGuarded(tc.name, c, set)
		for _, ex := range rows[:tc.at] {
			Play(g, ex, nil)
			Play(ref, ex, nil)
		}
		var buf bytes.Buffer
		if err := SaveModel(&buf, g.Model()); err != nil {
			t.Fatal(err)
		}
		m, err := LoadModel(&buf)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ResumeGuarded(m, set)
		if err != nil {
			t.Fatal(err)
		}
		for i, ex := range rows[tc.at:] {
			got, want := Play(back, ex, nil), Play(ref, ex, nil)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s η=%g from row %d: row %d: ŷ %v, never stopped %v", tc.name, tc.eta, tc.at, tc.at+i+1, got, want)
			}
		}
		if got, want := back.Report(), ref.Report(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s η=%g: report %+v, never stopped %+v", tc.name, tc.eta, got, want)
		}
		if tc.eta > 0 && ref.Report().Divergences == 0 {
			t.Errorf("%s η=%g diverged nowhere: the test shows nothing about resets", tc.name, tc.eta)
		}
	}
	// A model saved without a guard starts a fresh one.
	l, _ := NewLearner("mean", Config{Task: task})
	g, err := ResumeGuarded(Model{Name: "mean", Config: Config{Task: task}, Learner: l}, GuardSettings{})
	if err != nil || g.Report().Divergences != 0 || g.rows != 0 {
		t.Errorf("ResumeGuarded without a guard section: %v, %+v", err, g)
	}
	// A malformed guard section is an error.
	m := g.Model()
	m.Extra[guardSection] = []byte{1, 2, 3}
	if _, err := ResumeGuarded(m, GuardSettings{}); err == nil {
		t.Error("ResumeGuarded accepted a malformed guard section")
	}
}

// TestGuardedScalesResume checks that the features' scales go through a
// model file: learners saved after rows of real features (the planted
// demo's, scaled as they come, and occfm-k's step scale of rows of many
// norms) resume to the predictions, bit for bit, of the guard that never
// stopped; that a model of one-hot rows has no scale section; and that a
// malformed one is an error.
func TestGuardedScalesResume(t *testing.T) {
	rows, task := firstDemoRows(t, "planted-regression", 9, 1500)
	for _, name := range []string{"occfm-k", "linear", "fm-ftrl"} {
		g, _ := NewGuarded(name, Config{Task: task}, GuardSettings{})
		ref, _ := NewGuarded(name, Config{Task: task}, GuardSettings{})
		for _, ex := range rows[:300] {
			Play(g, ex, nil)
			Play(ref, ex, nil)
		}
		m := g.Model()
		if _, ok := m.Extra[scaleSection]; !ok || g.Scales().Scaled == 0 {
			t.Fatalf("%s: no scale section after real features (%+v)", name, g.Scales())
		}
		var buf bytes.Buffer
		if err := SaveModel(&buf, m); err != nil {
			t.Fatal(err)
		}
		loaded, err := LoadModel(&buf)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ResumeGuarded(loaded, GuardSettings{})
		if err != nil {
			t.Fatal(err)
		}
		for i, ex := range rows[300:] {
			if got, want := Play(back, ex, nil), Play(ref, ex, nil); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s: row %d: ŷ %v, never stopped %v", name, 301+i, got, want)
			}
		}
		m.Extra[scaleSection] = []byte{1, 2, 3}
		if _, err := ResumeGuarded(m, GuardSettings{}); err == nil {
			t.Errorf("%s: ResumeGuarded accepted a malformed scale section", name)
		}
	}
	ratings, rtask := firstDemoRows(t, "ratings", 9, 200)
	g, _ := NewGuarded("occfm-k", Config{Task: rtask}, GuardSettings{})
	for _, ex := range ratings {
		Play(g, ex, nil)
	}
	if _, ok := g.Model().Extra[scaleSection]; ok {
		t.Error("a model of one-hot rows has a scale section")
	}
}

// TestDivergenceAdvice checks that the advice after a divergence names δ
// when δ was raised above the learner's default, and η otherwise.
func TestDivergenceAdvice(t *testing.T) {
	for _, tc := range []struct {
		name  string
		delta float64
		want  string
	}{
		{"occfm", 0, "smaller -eta."},
		{"occfm", 5, "smaller -eta."},
		{"occfm", 1000, "δ = 1000 is above occfm's default 10"},
		{"fm-ftrl", 1000, "smaller -eta."},
	} {
		g, err := NewGuarded(tc.name, Config{Task: data.Regression, Delta: tc.delta}, GuardSettings{})
		if err != nil {
			t.Fatal(err)
		}
		if got := g.DivergenceAdvice("-delta", "-eta"); !strings.Contains(got, tc.want) {
			t.Errorf("%s δ=%g: %q, want it to contain %q", tc.name, tc.delta, got, tc.want)
		}
	}
}
