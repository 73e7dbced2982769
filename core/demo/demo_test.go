package demo

import (
	"errors"
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/occfm/occfm/core/data"
	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"
)

// demoWithRows returns the stream of the named demo for seed, cut to rows
// rows.
func demoWithRows(t testing.TB, name string, seed uint64, rows int) Stream {
	switch name {
	case "planted-regression":
		return newPlantedDemo(seed, rows, false)
	case "planted-classification":
		return newPlantedDemo(seed, rows, true)
	case "ratings":
		return newRatingsDemo(seed, rows)
	}
	t.Fatalf("no constructor for demo %q", name)
	return nil
}

// demoTake reads n rows from s, failing on any error.
func demoTake(t testing.TB, s Stream, n int) []data.Example {
	t.Helper()
	out := make([]data.Example, n)
	var ex data.Example
	for i := range out {
		if err := s.Next(&ex); err != nil {
			t.Fatalf("row %d: %v", i+1, err)
		}
		out[i] = ex.Clone()
	}
	return out
}

func demoSame(a, b []data.Example) bool {
	for i := range a {
		if a[i].Y != b[i].Y || a[i].X.Len() != b[i].X.Len() {
			return false
		}
		for k := range a[i].X.Ind {
			if a[i].X.Ind[k] != b[i].X.Ind[k] || a[i].X.Val[k] != b[i].X.Val[k] {
				return false
			}
		}
	}
	return true
}

func TestDemoRegistry(t *testing.T) {
	want := []string{"planted-regression", "planted-classification", "ratings"}
	ds := All()
	if len(ds) != len(want) {
		t.Fatalf("All() has %d demos, want %d", len(ds), len(want))
	}
	for i, d := range ds {
		if d.Name != want[i] {
			t.Errorf("All()[%d].Name = %q, want %q", i, d.Name, want[i])
		}
		if d.Title == "" || d.Known == "" || d.New == nil || d.Rows != 200_000 {
			t.Errorf("%s: incomplete: %+v", d.Name, d)
		}
		got, ok := ByName(d.Name)
		if !ok || got.Name != d.Name {
			t.Errorf("ByName(%q) = %q, %v", d.Name, got.Name, ok)
		}
	}
	if ds[1].Task != data.Classification || ds[0].Task != data.Regression || ds[2].Task != data.Regression {
		t.Errorf("tasks: %v %v %v", ds[0].Task, ds[1].Task, ds[2].Task)
	}
	if _, ok := ByName("nope"); ok {
		t.Error(`ByName("nope") found a demo`)
	}
	ds[0].Name = "changed"
	if All()[0].Name != want[0] {
		t.Error("changing the slice from All changed the registry")
	}
}

// TestDemoStreams checks every demo: the same seed gives the same rows,
// another seed other rows, seed 0 is seed 1; indices are distinct and below
// Dim, values and labels finite, classification labels ±1; every index has a
// name and FeatureName panics out of range.
func TestDemoStreams(t *testing.T) {
	const n = 2000
	for _, d := range All() {
		t.Run(d.Name, func(t *testing.T) {
			a := demoTake(t, d.New(1), n)
			if !demoSame(a, demoTake(t, d.New(1), n)) {
				t.Error("seed 1 twice gave different rows")
			}
			if !demoSame(a, demoTake(t, d.New(0), n)) {
				t.Error("seed 0 and seed 1 gave different rows")
			}
			if demoSame(a, demoTake(t, d.New(2), n)) {
				t.Error("seeds 1 and 2 gave the same rows")
			}
			s := d.New(3)
			dim := s.Dim()
			for i, ex := range demoTake(t, s, n) {
				if s.Dim() != dim {
					t.Fatalf("row %d: Dim changed from %d to %d", i+1, dim, s.Dim())
				}
				seen := map[int]bool{}
				for k, j := range ex.X.Ind {
					if j < 0 || j >= dim || seen[j] {
						t.Fatalf("row %d: bad or repeated index %d (Dim %d)", i+1, j, dim)
					}
					seen[j] = true
					if v := ex.X.Val[k]; math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
						t.Fatalf("row %d: feature %d has value %v", i+1, j, v)
					}
					if s.FeatureName(j) == "" {
						t.Fatalf("feature %d has no name", j)
					}
				}
				if math.IsNaN(ex.Y) || math.IsInf(ex.Y, 0) {
					t.Fatalf("row %d: label %v", i+1, ex.Y)
				}
				if d.Task == data.Classification && ex.Y != 1 && ex.Y != -1 {
					t.Fatalf("row %d: label %v is not ±1", i+1, ex.Y)
				}
			}
			for _, j := range []int{-1, dim} {
				func() {
					defer func() {
						if recover() == nil {
							t.Errorf("FeatureName(%d) did not panic", j)
						}
					}()
					s.FeatureName(j)
				}()
			}
		})
	}
}

// TestDemoEOF checks that a stream ends with io.EOF exactly after its rows,
// stays at the end, and leaves the example empty there: for short streams,
// and for the demos' own Rows.
func TestDemoEOF(t *testing.T) {
	for _, d := range All() {
		for _, rows := range []int{0, 1, 7, d.Rows} {
			t.Run(fmt.Sprint(d.Name, "/", rows), func(t *testing.T) {
				s := demoWithRows(t, d.Name, 1, rows)
				if rows == d.Rows {
					s = d.New(1)
				}
				var ex data.Example
				for i := range rows {
					if err := s.Next(&ex); err != nil {
						t.Fatalf("row %d: %v", i+1, err)
					}
				}
				for range 2 {
					if err := s.Next(&ex); !errors.Is(err, io.EOF) {
						t.Fatalf("after %d rows: err = %v, want io.EOF", rows, err)
					}
					if ex.X.Len() != 0 || ex.Y != 0 {
						t.Fatalf("after io.EOF the example is %+v, want empty", ex)
					}
				}
			})
		}
	}
}

// plantedDense returns the planted C of s (C* or C°) as a dense matrix:
// Σₘ λₘuₘuₘᵀ plus the bias entry.
func plantedDense(s *plantedDemo) *mat.SymDense {
	n := plantedDim + 1
	c := mat.NewSymDense(n, nil)
	for m, u := range s.u {
		c.SymRankOne(c, s.lambda[m], mat.NewVecDense(n, u[:]))
	}
	c.SetSym(0, 0, c.At(0, 0)+s.bias)
	return c
}

// plantedQuad returns ½x̂ᵀCx̂ from the dense C.
func plantedQuad(c *mat.SymDense, x data.Sparse) float64 {
	xh := mat.NewVecDense(c.SymmetricDim(), nil)
	xh.SetVec(0, 1)
	for k, j := range x.Ind {
		xh.SetVec(j+1, x.Val[k])
	}
	return 0.5 * mat.Inner(xh, c, xh)
}

// TestDemoPlanted checks the planted model against mat.EigenSym: C* has
// eigenvalues 3 and −2 and rank 2, so ‖C*‖* = 5; C° has ‖C°‖* ≤ 5 + 2|τ| ≤ 10
// (the default δ). Regression labels equal ½x̂ᵀC*x̂ computed densely (to
// rounding); classification labels disagree with sign(½x̂ᵀC°x̂) on about 5 %
// of the rows, and neither class has less than 30 %.
func TestDemoPlanted(t *testing.T) {
	rows := 20000
	if testing.Short() {
		rows = 5000
	}
	for _, classify := range []bool{false, true} {
		for _, seed := range []uint64{1, 2, 3} {
			t.Run(fmt.Sprint("classify=", classify, "/seed=", seed), func(t *testing.T) {
				s := newPlantedDemo(seed, rows, classify)
				c := plantedDense(s)
				var es mat.EigenSym
				if !es.Factorize(c, false) {
					t.Fatal("EigenSym failed")
				}
				var norm float64
				rank := 0
				for _, v := range es.Values(nil) {
					norm += math.Abs(v)
					if math.Abs(v) > 1e-9 {
						rank++
					}
				}
				tau := -s.bias / 2
				if !classify {
					if tau != 0 {
						t.Fatalf("regression has threshold τ = %v", tau)
					}
					if !scalar.EqualWithinAbs(norm, 5, 1e-12) || rank != 2 {
						t.Fatalf("‖C*‖* = %v, rank %d; want 5, 2", norm, rank)
					}
				} else if norm > 5+2*math.Abs(tau)+1e-12 || norm > 10 || rank > 3 {
					t.Fatalf("‖C°‖* = %v, rank %d, τ = %v; want ≤ min(5 + 2|τ|, 10), ≤ 3", norm, rank, tau)
				}
				var ex data.Example
				flips, pos := 0, 0
				for i := range rows {
					if err := s.Next(&ex); err != nil {
						t.Fatal(err)
					}
					q := plantedQuad(c, ex.X)
					if !classify {
						if !scalar.EqualWithinAbsOrRel(ex.Y, q, 1e-12, 1e-12) {
							t.Fatalf("row %d: y = %v, ½x̂ᵀC*x̂ = %v", i+1, ex.Y, q)
						}
						continue
					}
					if (q >= 0) != (ex.Y > 0) {
						flips++
					}
					if ex.Y > 0 {
						pos++
					}
				}
				if !classify {
					return
				}
				// The flips are Binomial(rows, 0.05): standard deviation
				// 0.0031 of the rate for 5000 rows, so ±0.015 is about 5σ.
				if r := float64(flips) / float64(rows); math.Abs(r-plantedFlip) > 0.015 {
					t.Errorf("label noise %.4g, want 0.05", r)
				}
				if p := float64(pos) / float64(rows); p < 0.3 || p > 0.7 {
					t.Errorf("positive class %.4g, want 30–70 %%", p)
				}
			})
		}
	}
}

// TestDemoRatings checks the ratings stream: one user and one item per row
// with value 1, integer ratings 1–5, the feature names, the popularity skew
// of the items, and the noise floor stated in Known: the true mean rating
// has RMSE ≈ 0.42 (measured 0.4220 over 200,000 rows of seed 1).
func TestDemoRatings(t *testing.T) {
	rows := 20000
	s := newRatingsDemo(1, rows)
	if got := s.FeatureName(17); got != "user=17" {
		t.Errorf("FeatureName(17) = %q", got)
	}
	if got := s.FeatureName(342); got != "item=42" {
		t.Errorf("FeatureName(342) = %q", got)
	}
	var ex data.Example
	var head, tail int // ratings of items 0–49 and 450–499
	var se float64
	for i := range rows {
		if err := s.Next(&ex); err != nil {
			t.Fatal(err)
		}
		u, it := ex.X.Ind[0], ex.X.Ind[1]-ratingUsers
		if ex.X.Len() != 2 || u < 0 || u >= ratingUsers || it < 0 || it >= ratingItems ||
			ex.X.Val[0] != 1 || ex.X.Val[1] != 1 {
			t.Fatalf("row %d: x = %+v, want one user and one item with value 1", i+1, ex.X)
		}
		if ex.Y != math.Round(ex.Y) || ex.Y < 1 || ex.Y > 5 {
			t.Fatalf("row %d: rating %v is not an integer in 1..5", i+1, ex.Y)
		}
		switch {
		case it < 50:
			head++
		case it >= 450:
			tail++
		}
		d := s.mean(u, it) - ex.Y
		se += d * d
	}
	// P(i) ∝ (5 + i)^(−1.1) gives the first 50 items about 12 times the
	// ratings of the last 50.
	if head < 8*tail {
		t.Errorf("items 0–49 have %d ratings, items 450–499 %d: want a popularity skew", head, tail)
	}
	best, _ := ByName("ratings")
	if rmse := math.Sqrt(se / float64(rows)); math.Abs(rmse-best.Best) > 0.04 {
		t.Errorf("RMSE of the true mean rating %.4g, want ≈ Spec.Best = %v", rmse, best.Best)
	}
}

// The demos in menu order, and the first row of the ratings stream by
// feature name.
func ExampleAll() {
	for _, d := range All() {
		fmt.Printf("%-22s  %-14s  %d rows\n", d.Name, d.Task, d.Rows)
	}
	d, _ := ByName("ratings")
	s := d.New(1)
	var ex data.Example
	if err := s.Next(&ex); err != nil {
		panic(err)
	}
	fmt.Printf("%s, %s: rating %.4g\n", s.FeatureName(ex.X.Ind[0]), s.FeatureName(ex.X.Ind[1]), ex.Y)
	// Output:
	// planted-regression      regression      200000 rows
	// planted-classification  classification  200000 rows
	// ratings                 regression      200000 rows
	// user=6, item=205: rating 4
}

// TestZeroLossDelta: a demo that claims a model of loss 0 within a ball is
// noise-free regression whose planted C* has exactly that nuclear norm.
func TestZeroLossDelta(t *testing.T) {
	for _, d := range All() {
		if d.ZeroLossDelta == 0 {
			continue
		}
		s, ok := d.New(1).(*plantedDemo)
		if !ok || d.Task != data.Regression || d.Best != 0 || s.classify {
			t.Errorf("%s: ZeroLossDelta %v on a stream that is not noise-free planted regression", d.Name, d.ZeroLossDelta)
			continue
		}
		if n := math.Abs(s.lambda[0]) + math.Abs(s.lambda[1]); n != d.ZeroLossDelta {
			t.Errorf("%s: ZeroLossDelta %v, ‖C*‖* = %v", d.Name, d.ZeroLossDelta, n)
		}
	}
}
