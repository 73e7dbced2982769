package data_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/occfm/occfm/core/data"
)

// TestScalesInvariant checks the property Scales exists for: a stream whose
// features are each multiplied by a factor c ∈ [10⁻³, 10⁴] is scaled to the
// same rows (within rounding) as the stream itself, and every value of a
// row just observed lies in [−1, 1].
func TestScalesInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	const d = 12
	factor := make([]float64, d)
	for j := range factor {
		factor[j] = math.Pow(10, -3+7*rng.Float64())
	}
	var plain, scaled data.Scales
	for row := range 2000 {
		var x, y data.Sparse
		for j := range d {
			if rng.IntN(3) == 0 {
				continue
			}
			v := rng.NormFloat64() * float64(1+j*j)
			x.Ind, x.Val = append(x.Ind, j), append(x.Val, v)
			y.Ind, y.Val = append(y.Ind, j), append(y.Val, v*factor[j])
		}
		plain.Observe(x)
		scaled.Observe(y)
		a := plain.Apply(x).Clone()
		b := scaled.Apply(y)
		for k := range a.Val {
			if a.Ind[k] != b.Ind[k] || math.Abs(a.Val[k]-b.Val[k]) > 1e-12 {
				t.Fatalf("row %d: feature %d scaled to %v, and %v with the factor %g", row, a.Ind[k], a.Val[k], b.Val[k], factor[a.Ind[k]])
			}
			if math.Abs(a.Val[k]) > 1 {
				t.Fatalf("row %d: feature %d scaled to %v, outside [−1, 1]", row, a.Ind[k], a.Val[k])
			}
		}
	}
	if s := plain.Summary(); s.Scaled != d {
		t.Errorf("summary %+v, want %d features scaled", s, d)
	}
}

// TestScalesApplyAsObserved checks that Apply gives a row as it will be
// once observed: Apply before Observe and after it agree on the row, so
// that a guard's Predict and PredictUpdate predict alike.
func TestScalesApplyAsObserved(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 58))
	var sc data.Scales
	for row := range 500 {
		var x data.Sparse
		for j := range 8 {
			if rng.IntN(2) == 0 {
				x.Ind, x.Val = append(x.Ind, j), append(x.Val, rng.NormFloat64()*math.Pow(10, float64(j-4)))
			}
		}
		before := sc.Apply(x).Clone()
		sc.Observe(x)
		after := sc.Apply(x)
		for k := range before.Val {
			if before.Val[k] != after.Val[k] {
				t.Fatalf("row %d: feature %d: %v before Observe, %v after", row, x.Ind[k], before.Val[k], after.Val[k])
			}
		}
	}
}

// TestScalesKeepBinary checks that one-hot and 0/1 rows pass as they are
// (the very slice, no copy), that a feature's first value is seen as ±1,
// that a value goes by the scale so far and a value beyond it is seen as
// ±1, and the floor of a model file saved without scales.
func TestScalesKeepBinary(t *testing.T) {
	var sc data.Scales
	x := data.Sparse{Ind: []int{0, 4, 9}, Val: []float64{1, 1, 1}}
	sc.Observe(x)
	if got := sc.Apply(x); &got.Val[0] != &x.Val[0] {
		t.Errorf("a 0/1 row was copied: %v", got)
	}
	if s := sc.Summary(); s.Scaled != 0 || s.LargestFeature != -1 || !sc.Trivial() {
		t.Errorf("0/1 rows: summary %+v", s)
	}
	for _, c := range []struct {
		observe, apply data.Sparse
		want           []float64
	}{
		{data.Sparse{Ind: []int{2}, Val: []float64{-40}}, data.Sparse{Ind: []int{2, 0}, Val: []float64{-40, 1}}, []float64{-1, 1}},
		{data.Sparse{Ind: []int{2}, Val: []float64{10}}, data.Sparse{Ind: []int{2}, Val: []float64{20}}, []float64{0.5}},
		{data.Sparse{}, data.Sparse{Ind: []int{2}, Val: []float64{80}}, []float64{1}},              // beyond the scale: ±1
		{data.Sparse{}, data.Sparse{Ind: []int{7, 3}, Val: []float64{-0.25, 0}}, []float64{-1, 0}}, // not observed: sign
		{data.Sparse{Ind: []int{5}, Val: []float64{0.01}}, data.Sparse{Ind: []int{5}, Val: []float64{0.005}}, []float64{0.5}},
	} {
		sc.Observe(c.observe)
		got := sc.Apply(c.apply)
		for k, w := range c.want {
			if got.Val[k] != w {
				t.Errorf("after %v: %v scaled to %v, want %v", c.observe, c.apply, got.Val, c.want)
			}
		}
	}
	if s := sc.Summary(); s.Scaled != 2 || s.Largest != 40 || s.LargestFeature != 2 {
		t.Errorf("summary %+v, want 2 scaled, largest 40 (feature 2)", s)
	}

	old, err := data.RestoreScales(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	y := data.Sparse{Ind: []int{0, 1}, Val: []float64{0.5, 4}}
	if got := old.Apply(y); got.Val[0] != 0.5 || got.Val[1] != 1 {
		t.Errorf("floor 1: %v, want [0.5 1]", got.Val)
	}
	old.Observe(y)
	if got := old.Apply(y); got.Val[0] != 0.5 || got.Val[1] != 1 {
		t.Errorf("floor 1 after observing: %v, want [0.5 1]", got.Val)
	}
	s, floor := sc.State()
	back, err := data.RestoreScales(s, floor)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if back.Scale(i) != sc.Scale(i) {
			t.Errorf("restored scale %d: %v, want %v", i, back.Scale(i), sc.Scale(i))
		}
	}
	for _, bad := range []struct {
		s     []float64
		floor float64
	}{{[]float64{1, -2}, 0}, {[]float64{math.NaN()}, 0}, {[]float64{math.Inf(1)}, 0}, {nil, 2}} {
		if _, err := data.RestoreScales(bad.s, bad.floor); err == nil {
			t.Errorf("RestoreScales(%v, %v): no error", bad.s, bad.floor)
		}
	}
}

// TestScalesBounded checks that an index beyond MaxScaledFeature, or a
// value that is not finite, takes no memory and passes as it is.
func TestScalesBounded(t *testing.T) {
	var sc data.Scales
	x := data.Sparse{Ind: []int{data.MaxScaledFeature + 5, 1}, Val: []float64{300, math.Inf(1)}}
	sc.Observe(x)
	if b := sc.MemoryBytes(); b != 0 {
		t.Errorf("%d bytes held, want 0", b)
	}
	if got := sc.Apply(x); got.Val[0] != 300 || !math.IsInf(got.Val[1], 1) {
		t.Errorf("got %v", got.Val)
	}
}

func BenchmarkScalesApplyBinary(b *testing.B) {
	var sc data.Scales
	x := data.Sparse{Ind: []int{3, 900, 1500}, Val: []float64{1, 1, 1}}
	sc.Observe(x)
	for b.Loop() {
		sc.Observe(x)
		sc.Apply(x)
	}
}

// TestScaleSummaryText checks the words of the report and the file note.
func TestScaleSummaryText(t *testing.T) {
	name := func(i int) string { return []string{"area", "7", ""}[i] }
	for _, c := range []struct {
		s    data.ScaleSummary
		want string
	}{
		{data.ScaleSummary{LargestFeature: -1}, ""},
		{data.ScaleSummary{Scaled: 30, Largest: 4254.3, LargestFeature: 0}, "numbers scaled as they come: 30 features, largest |value| 4,254 (area)"},
		{data.ScaleSummary{Scaled: 1, Largest: 0.05234, LargestFeature: 1}, "numbers scaled as they come: 1 feature, largest |value| 0.05234 (index 7)"},
		{data.ScaleSummary{Scaled: 1200, Largest: 12.5, LargestFeature: 2}, "numbers scaled as they come: 1,200 features, largest |value| 12.5 (#3)"},
	} {
		if got := c.s.Text(name); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}

// TestScalesSummaryKept checks the summary Observe keeps as the scales grow
// against a scan of the scales (the largest scaled feature, the first of
// equals), on streams of 0/1 features, equal maxima, and features whose
// scale grows to exactly 1, as restored with a floor of 0 and of 1.
func TestScalesSummaryKept(t *testing.T) {
	scan := func(sc *data.Scales, d int) data.ScaleSummary {
		want := data.ScaleSummary{LargestFeature: -1}
		for i := range d {
			if s := sc.Scale(i); s != 0 && s != 1 {
				want.Scaled++
				if want.LargestFeature < 0 || s > want.Largest {
					want.Largest, want.LargestFeature = s, i
				}
			}
		}
		return want
	}
	values := []float64{1, 0.5, 2, 4, 0.25, 1, 3}
	for _, floor := range []float64{0, 1} {
		rng := rand.New(rand.NewPCG(uint64(floor)+1, 58))
		sc, err := data.RestoreScales(nil, floor)
		if err != nil {
			t.Fatal(err)
		}
		for row := range 3000 {
			var x data.Sparse
			for j := range 12 {
				if rng.IntN(3) == 0 {
					v := values[rng.IntN(len(values))] * float64(1+row/1000)
					if j < 3 {
						v = 1 // 0/1 features
					}
					x.Ind, x.Val = append(x.Ind, j), append(x.Val, v)
				}
			}
			sc.Observe(x)
			if got, want := sc.Summary(), scan(&sc, 12); got != want {
				t.Fatalf("floor %v, row %d: summary %+v, a scan gives %+v", floor, row, got, want)
			}
			if sc.Trivial() != (sc.Summary().Scaled == 0) {
				t.Fatalf("floor %v, row %d: Trivial %v with %+v", floor, row, sc.Trivial(), sc.Summary())
			}
		}
		// The largest scaled feature grows to exactly 1 and leaves them.
		small, _ := data.RestoreScales(nil, floor)
		for _, x := range []data.Sparse{
			{Ind: []int{0, 1}, Val: []float64{0.5, 0.25}},
			{Ind: []int{0}, Val: []float64{1}},
		} {
			small.Observe(x)
			if got, want := small.Summary(), scan(&small, 2); got != want {
				t.Fatalf("floor %v, after %v: summary %+v, a scan gives %+v", floor, x, got, want)
			}
		}
		s, fl := sc.State()
		back, _ := data.RestoreScales(s, fl)
		if got, want := back.Summary(), sc.Summary(); got != want {
			t.Errorf("floor %v: restored summary %+v, want %+v", floor, got, want)
		}
	}
}
