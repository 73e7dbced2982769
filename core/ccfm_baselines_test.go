package core

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
	"github.com/occfm/occfm/core/spectral"
	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"
)

// denseProject returns Π_K(a) for K = {‖C‖* ≤ δ} by mat.EigenSym and the
// ℓ₁-ball projection of the spectrum: the reference the fast paths are
// checked against.
func denseProject(a *mat.SymDense, delta float64) *mat.SymDense {
	n := a.SymmetricDim()
	var es mat.EigenSym
	if !es.Factorize(a, true) {
		panic("EigenSym failed")
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	theta, _ := spectral.L1BallThreshold(vals, delta, nil)
	out := mat.NewSymDense(n, nil)
	for k, l := range vals {
		mu := spectral.SoftThreshold(l, theta)
		if mu == 0 {
			continue
		}
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				out.SetSym(i, j, out.At(i, j)+mu*vecs.At(i, k)*vecs.At(j, k))
			}
		}
	}
	return out
}

// symOf returns the n×n row-major d as a SymDense.
func symOf(d []float64, n int) *mat.SymDense {
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s.SetSym(i, j, d[i*n+j])
		}
	}
	return s
}

// maxAbsDiff returns max |aᵢⱼ − bᵢⱼ| over the leading block both cover
// (entries outside count against zero).
func maxAbsDiff(a, b *mat.SymDense) float64 {
	n := max(a.SymmetricDim(), b.SymmetricDim())
	at := func(m *mat.SymDense, i, j int) float64 {
		if i < m.SymmetricDim() && j < m.SymmetricDim() {
			return m.At(i, j)
		}
		return 0
	}
	var d float64
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			d = max(d, math.Abs(at(a, i, j)-at(b, i, j)))
		}
	}
	return d
}

// TestEigSymProjection checks the (r+1)-dimensional projected rank-one
// step Π_K(C + a·x̂x̂ᵀ) against the dense reference (EigenSym of the full
// matrix, then the ℓ₁-ball projection) for d ≤ 12, over several seeds and
// step sizes, step after step, together with the naive dense path.
func TestEigSymProjection(t *testing.T) {
	for _, tc := range []struct {
		d     int
		delta float64
		scale float64 // size of the steps a
	}{
		{3, 1, 0.5},
		{6, 2, 3},
		{12, 10, 5},
		{12, 0.5, 0.1}, // the ball binds on almost every step
		{8, 100, 1},    // the ball rarely binds
		{40, 0.5, 1},   // low rank in a wide basis: B is compacted
	} {
		for seed := uint64(1); seed <= 4; seed++ {
			rng := rand.New(rand.NewPCG(seed, uint64(tc.d)))
			var fast, naive eigSym
			n := tc.d + 1
			fast.grow(1)
			naive.grow(1)
			ref := mat.NewSymDense(1, nil)
			for step := 0; step < 120; step++ {
				// The feature space grows for the first steps.
				dt := min(tc.d, 1+step/2)
				x := randomSparse(rng, dt, 1+rng.IntN(min(3, dt)), step%3 == 0)
				a := tc.scale * rng.NormFloat64()
				growTo(&fast, x)
				growTo(&naive, x)
				m := fast.n
				xh := augmented(x, m)
				grownRef := mat.NewSymDense(m, nil)
				for i := 0; i < m; i++ {
					for j := i; j < m; j++ {
						v := a * xh[i] * xh[j]
						if i < ref.SymmetricDim() && j < ref.SymmetricDim() {
							v += ref.At(i, j)
						}
						grownRef.SetSym(i, j, v)
					}
				}
				ref = denseProject(grownRef, tc.delta)
				fast.update(a, x, tc.delta)
				naive.updateDense(a, x, tc.delta)
				for name, c := range map[string]*eigSym{"fast": &fast, "dense": &naive} {
					got := symOf(c.denseRowMajor(), c.n)
					if diff := maxAbsDiff(got, ref); diff > 1e-10*tc.delta {
						t.Fatalf("d=%d δ=%v seed %d step %d: %s projection differs from the reference by %.3g", tc.d, tc.delta, seed, step, name, diff)
					}
					if nn := c.nuclearNorm(); nn > tc.delta*(1+1e-9) {
						t.Fatalf("d=%d seed %d step %d: %s ‖C‖* = %v > δ", tc.d, seed, step, name, nn)
					}
					if nn, want := c.nuclearNorm(), nuclear(ref); !scalar.EqualWithinAbsOrRel(nn, want, 1e-9, 1e-9) {
						t.Fatalf("d=%d seed %d step %d: %s ‖C‖* = %v, reference %v", tc.d, seed, step, name, nn, want)
					}
				}
				// A·x̂ prediction agrees with the dense quadratic form.
				probe := randomSparse(rng, m-1, min(2, m-1), false)
				pr := augmented(probe, m)
				v := mat.NewVecDense(m, pr)
				if got, want := fast.quad(probe), mat.Inner(v, ref, v); !scalar.EqualWithinAbsOrRel(got, want, 1e-10, 1e-10) {
					t.Fatalf("d=%d seed %d step %d: x̂ᵀCx̂ = %v, dense %v", tc.d, seed, step, got, want)
				}
			}
			if n != fast.n {
				t.Fatalf("dimension %d, want %d", fast.n, n)
			}
			if fast.b > 2*fast.r+16 {
				t.Fatalf("basis of %d columns for rank %d: not compacted", fast.b, fast.r)
			}
			checkOrthonormal(t, &fast)
		}
	}
}

// checkOrthonormal checks BᵀB = I and RᵀR = I.
func checkOrthonormal(t *testing.T, c *eigSym) {
	t.Helper()
	for a := 0; a < c.b; a++ {
		for e := a; e < c.b; e++ {
			var s float64
			for i := 0; i < c.n; i++ {
				s += c.basis[i*c.ld+a] * c.basis[i*c.ld+e]
			}
			want := 0.0
			if a == e {
				want = 1
			}
			if math.Abs(s-want) > 1e-10 {
				t.Fatalf("BᵀB[%d,%d] = %v", a, e, s)
			}
		}
	}
	for a := 0; a < c.r; a++ {
		for e := a; e < c.r; e++ {
			var s float64
			for i := 0; i < c.b; i++ {
				s += c.rotT[a*c.b+i] * c.rotT[e*c.b+i]
			}
			want := 0.0
			if a == e {
				want = 1
			}
			if math.Abs(s-want) > 1e-10 {
				t.Fatalf("RᵀR[%d,%d] = %v", a, e, s)
			}
		}
	}
}

// projectedLearner is what the invariant tests need of CCFM-OGD and
// CCFM-PA.
type projectedLearner interface {
	Learner
	NuclearNorm() float64
	Rank() int
}

// projectedCases are the learners and settings the invariant tests sweep:
// each is run with the fast projection and with DenseProjection.
var projectedCases = []struct {
	name string
	new  func(dense bool) (projectedLearner, *eigSym)
	loss Loss
}{
	{"ogd", func(dense bool) (projectedLearner, *eigSym) {
		o := NewCCFMOGD(CCFMOGDSettings{Delta: 3, DenseProjection: dense})
		return o, &o.c
	}, Squared},
	{"ogd/logistic", func(dense bool) (projectedLearner, *eigSym) {
		o := NewCCFMOGD(CCFMOGDSettings{Delta: 5, Eta: 2, Loss: Logistic, DenseProjection: dense})
		return o, &o.c
	}, Logistic},
	{"ogd/loose ball", func(dense bool) (projectedLearner, *eigSym) {
		o := NewCCFMOGD(CCFMOGDSettings{Delta: 50, Eta: 0.3, DenseProjection: dense})
		return o, &o.c
	}, Squared},
	{"pa", func(dense bool) (projectedLearner, *eigSym) {
		o := NewCCFMPA(CCFMPASettings{Delta: 3, DenseProjection: dense})
		return o, &o.c
	}, Squared},
	{"pa/logistic", func(dense bool) (projectedLearner, *eigSym) {
		o := NewCCFMPA(CCFMPASettings{Delta: 5, Loss: Logistic, DenseProjection: dense})
		return o, &o.c
	}, Logistic},
}

// TestCCFMProjectedInvariants checks CCFM-OGD and CCFM-PA after every
// update on seeded planted streams (d = 12): ‖C‖* ≤ δ(1 + 1e-9), measured
// by mat.EigenSym on the dense C; C symmetric; the fast projection and
// the naive dense one (DenseProjection) give the same C within 1e-8 and
// the same predictions; U's factors stay orthonormal.
func TestCCFMProjectedInvariants(t *testing.T) {
	for _, tc := range projectedCases {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(tc.name+"/seed="+str.Itoa(int(seed)), func(t *testing.T) {
				fast, fc := tc.new(false)
				naive, nc := tc.new(true)
				delta := fast.(Configured).Config().Delta
				stream := plantedStream(seed, 12, 250, tc.loss == Logistic)
				for step, ex := range stream {
					yf, yn := Play(fast, ex, nil), naive.Predict(ex.X)
					naive.Update(ex.X, ex.Y)
					if !scalar.EqualWithinAbsOrRel(yf, yn, 1e-8, 1e-8) {
						t.Fatalf("step %d: ŷ = %v (fast), %v (dense)", step, yf, yn)
					}
					cf := symOf(fc.denseRowMajor(), fc.n)
					cn := symOf(nc.denseRowMajor(), nc.n)
					if diff := maxAbsDiff(cf, cn); diff > 1e-8 {
						t.Fatalf("step %d: fast and dense projections differ by %.3g", step, diff)
					}
					if nn := nuclear(cf); nn > delta*(1+1e-9) {
						t.Fatalf("step %d: ‖C‖* = %v > δ = %v", step, nn, delta)
					}
					if nn, want := fast.NuclearNorm(), nuclear(cf); !scalar.EqualWithinAbsOrRel(nn, want, 1e-9, 1e-9) {
						t.Fatalf("step %d: NuclearNorm() = %v, EigenSym %v", step, nn, want)
					}
					d := fc.denseRowMajor()
					for i := 0; i < fc.n; i++ {
						for j := 0; j < i; j++ {
							if d[i*fc.n+j] != d[j*fc.n+i] {
								t.Fatalf("step %d: C not symmetric at (%d, %d)", step, i, j)
							}
						}
					}
				}
				if fast.Rank() != naive.Rank() {
					t.Errorf("rank %d (fast), %d (dense)", fast.Rank(), naive.Rank())
				}
				checkOrthonormal(t, fc)
			})
		}
	}
}

// ftrlDense returns the CCFM-FTRL iterate as a dense matrix.
func ftrlDense(o *CCFMFTRL) *mat.SymDense {
	n := o.n
	c := mat.NewSymDense(n, nil)
	switch {
	case o.s.DenseProjection:
		return symOf(o.dense.denseRowMajor(), o.dense.n)
	case o.sparse:
		for p, v := range o.g.val {
			if i, j := int(o.g.row[p]), int(o.g.col[p]); i <= j {
				c.SetSym(i, j, -0.5*o.sparseEta*v)
			}
		}
		return c
	}
	// C = U·diag(μ)·Uᵀ with U = V·W.
	k := o.k
	rows := len(o.vecs) / max(k, 1)
	u := make([]float64, rows*k)
	for i := 0; i < rows; i++ {
		for l := 0; l < k; l++ {
			spectral.Axpy(o.vecs[i*k+l], o.rot[l*k:l*k+k], u[i*k:i*k+k])
		}
	}
	for i := 0; i < rows; i++ {
		for j := i; j < rows; j++ {
			var s float64
			for l, m := range o.mu {
				s += m * u[i*k+l] * u[j*k+l]
			}
			c.SetSym(i, j, s)
		}
	}
	return c
}

// TestCCFMFTRLExact checks that the CCFM-FTRL iterate is
// Π_K(−ηₜGₜ/2), with Gₜ summed here independently from the learner's own
// predictions and projected by mat.EigenSym, after every round on small d:
// within 1e-8 for Exact, for a recomputation on every round (Lanczos
// exhausts the small Krylov space), and for DenseProjection. With the
// default schedule the iterate must stay in K and near the exact one (the
// held eigenvectors drift between recomputations; see CCFMFTRL).
func TestCCFMFTRLExact(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    CCFMFTRLSettings
		tol  float64 // on max |Cᵢⱼ − C*ᵢⱼ|
	}{
		{"exact", CCFMFTRLSettings{Delta: 3, Exact: true}, 1e-8},
		{"exact/logistic", CCFMFTRLSettings{Delta: 5, Eta: 3, Loss: Logistic, Exact: true}, 1e-8},
		{"every round", CCFMFTRLSettings{Delta: 3, Refresh: 1e-9}, 1e-8},
		{"dense", CCFMFTRLSettings{Delta: 3, DenseProjection: true}, 1e-10},
		// Held eigenvectors drift between recomputations; on these small,
		// fast-changing problems the entries stay within 0.06·δ (measured
		// worst 0.17 for δ = 3).
		{"default schedule", CCFMFTRLSettings{Delta: 3}, 5},
	} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(tc.name+"/seed="+str.Itoa(int(seed)), func(t *testing.T) {
				o := NewCCFMFTRL(tc.s)
				s := o.Settings()
				const d = 12
				stream := plantedStream(seed, d, 250, s.Loss == Logistic)
				g := mat.NewSymDense(d+1, nil)
				var worst float64
				for step, ex := range stream {
					yhat := Play(o, ex, nil)
					w := 0.5 * s.Loss.Deriv(yhat, ex.Y)
					xh := augmented(ex.X, d+1)
					for i := 0; i <= d; i++ {
						for j := i; j <= d; j++ {
							g.SetSym(i, j, g.At(i, j)+w*xh[i]*xh[j])
						}
					}
					eta := s.Eta / math.Sqrt(float64(step+1))
					var a mat.SymDense
					a.ScaleSym(-eta/2, g)
					want := denseProject(&a, s.Delta)
					got := ftrlDense(o)
					diff := maxAbsDiff(got, want)
					worst = max(worst, diff)
					if diff > tc.tol {
						t.Fatalf("step %d: max |C − Π_K(−ηₜGₜ/2)| = %.3g > %g", step, diff, tc.tol)
					}
					if nn := nuclear(got); nn > s.Delta*(1+1e-9) {
						t.Fatalf("step %d: ‖C‖* = %v > δ = %v", step, nn, s.Delta)
					}
					if nn := o.NuclearNorm(); !scalar.EqualWithinAbsOrRel(nn, nuclear(got), 1e-8, 1e-8) {
						t.Fatalf("step %d: NuclearNorm() = %v, EigenSym %v", step, nn, nuclear(got))
					}
				}
				t.Logf("largest entry error %.3g, refreshes %d", worst, o.refreshes)
			})
		}
	}
}

// TestCCFMFTRLSlackBall plays CCFM-FTRL on ratings of distinct users and
// items among many features (d = 1,500), as a MovieLens pass starts: the
// triangle bound passes δ at round 9 while ‖ηₜGₜ/2‖* is still below it,
// so the ball does not bind (θ = 0) and Gₜ has a null space of nearly the
// whole dimension. Each recomputation must stop once Lanczos has found
// the pairs that matter (a bounded number of products with Gₜ, a few held
// vectors), and with Exact the predictions must equal those of
// Π_K(−ηₜGₜ/2), computed by mat.EigenSym on the features seen (all of
// Gₜ's entries lie in their rows).
func TestCCFMFTRLSlackBall(t *testing.T) {
	const d, rounds = 1500, 14
	for _, exact := range []bool{false, true} {
		for seed := uint64(1); seed <= 3; seed++ {
			name := "default"
			if exact {
				name = "exact"
			}
			t.Run(name+"/seed="+str.Itoa(int(seed)), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(seed, 7))
				o := NewCCFMFTRL(CCFMFTRLSettings{Exact: exact, Seed: seed})
				users, items := rng.Perm(d/2), rng.Perm(d/2)
				var seen []int // features seen, in order; index 0 is the bias
				pos := map[int]int{}
				g := mat.NewSymDense(2*rounds+1, nil)
				var rows []data.Example
				var hats [][]int // each row's x̂ in the coordinates of g: the bias, then its two features
				for r := range rounds {
					ex := data.Example{X: data.Sparse{Ind: []int{users[r], d/2 + items[r]}, Val: []float64{1, 1}}, Y: float64(1 + rng.IntN(5))}
					for _, j := range ex.X.Ind {
						if _, ok := pos[j]; !ok {
							seen = append(seen, j)
							pos[j] = len(seen)
						}
					}
					xh := []int{0, pos[ex.X.Ind[0]], pos[ex.X.Ind[1]]}
					rows, hats = append(rows, ex), append(hats, xh)
					yhat := Play(o, ex, nil)
					w := 0.5 * Squared.Deriv(yhat, ex.Y)
					for a, i := range xh {
						for _, j := range xh[a:] {
							g.SetSym(i, j, g.At(i, j)+w)
						}
					}
					if o.matvecs > 200*max(1, o.refreshes) || o.k > 2*len(seen)+9 {
						t.Fatalf("round %d: %d products with Gₜ in %d recomputations, %d held vectors, for %d features seen",
							r+1, o.matvecs, o.refreshes, o.k, len(seen))
					}
					if !exact {
						continue
					}
					eta := 1 / math.Sqrt(float64(r+1))
					var a mat.SymDense
					a.ScaleSym(-eta/2, g)
					want := denseProject(&a, o.Settings().Delta)
					for p, ex := range rows {
						xh := hats[p]
						var q float64
						for _, i := range xh {
							for _, j := range xh {
								q += want.At(i, j)
							}
						}
						if got := o.Predict(ex.X); math.Abs(got-q/2) > 1e-8 {
							t.Fatalf("round %d: Predict = %v, ½x̂ᵀΠ_K(−ηₜGₜ/2)x̂ = %v", r+1, got, q/2)
						}
					}
				}
				if o.refreshes == 0 {
					t.Fatal("no recomputation: the ball never came into play")
				}
				t.Logf("%d recomputations, %d products with Gₜ, %d held vectors", o.refreshes, o.matvecs, o.k)
			})
		}
	}
}

// TestCCFMBaselinesMovieLens100K plays each projected baseline with
// default settings over the first 10,000 rows of shuffled ML-100K (seed 1)
// and checks that it learns: progressive RMSE < 1.3 (the ratings'
// standard deviation is 1.13). Measured at 10⁴ rows: CCFM-OGD 1.0878,
// CCFM-PA 1.0905, CCFM-FTRL 1.1228; over the full pass 1.0488, 1.0490 and
// 1.0733.
func TestCCFMBaselinesMovieLens100K(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("an ML-100K prefix per learner; skipped with -short")
	}
	rows := shuffledRows(t, "movielens-100k/u.data", data.Regression, 1)[:10000]
	for _, name := range []string{"ccfm-ogd", "ccfm-pa", "ccfm-ftrl"} {
		l, err := NewLearner(name, Config{})
		if err != nil {
			t.Fatal(err)
		}
		m := NewMetrics(data.Regression, Squared)
		start := time.Now()
		for _, ex := range rows {
			Play(l, ex, m)
		}
		s := m.Summary()
		el := time.Since(start)
		t.Logf("%s: %d rows, progressive RMSE %.4f, %.0f updates/s, rank %d, ‖C‖* %.4g",
			name, s.Rows, s.RMSE, float64(s.Rows)/el.Seconds(), l.(projectedLearner).Rank(), l.(projectedLearner).NuclearNorm())
		if s.RMSE >= 1.3 || math.IsNaN(s.RMSE) {
			t.Errorf("%s: progressive RMSE %.4f, want < 1.3", name, s.RMSE)
		}
	}
}

// TestCCFMSteadyStateAllocs checks that the projected baselines allocate
// nothing per round once their buffers have grown: after a warm-up of three
// passes over a repeating stream (no new features, and for CCFM-FTRL no new
// entries of Gₜ), predict-then-update rounds, Lanczos refreshes of CCFM-FTRL
// among them, must average 0 allocations under testing.AllocsPerRun. The
// user × item stream with d = 100 makes C of rank about 80, so the products
// with the rotation R are large enough for gonum's Dgemm to go parallel
// (and allocate) if it were called on them directly.
func TestCCFMSteadyStateAllocs(t *testing.T) {
	for _, tc := range []struct {
		name string
		new  func() Learner
		d    int
		runs int
	}{
		{"ogd", func() Learner { return NewCCFMOGD(CCFMOGDSettings{}) }, 100, 200},
		{"pa", func() Learner { return NewCCFMPA(CCFMPASettings{}) }, 100, 200},
		{"ftrl", func() Learner { return NewCCFMFTRL(CCFMFTRLSettings{}) }, 100, 1000},
		{"ftrl/exact", func() Learner { return NewCCFMFTRL(CCFMFTRLSettings{Exact: true}) }, 20, 100},
		{"ogd/dense", func() Learner { return NewCCFMOGD(CCFMOGDSettings{DenseProjection: true}) }, 40, 100},
		{"pa/dense", func() Learner { return NewCCFMPA(CCFMPASettings{DenseProjection: true}) }, 40, 100},
		{"ftrl/dense", func() Learner { return NewCCFMFTRL(CCFMFTRLSettings{DenseProjection: true}) }, 40, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stream := userItemStream(tc.d, 1000)
			l := tc.new()
			for range 3 {
				for _, ex := range stream {
					Play(l, ex, nil)
				}
			}
			f, isFTRL := l.(*CCFMFTRL)
			var refreshes int
			if isFTRL {
				refreshes = f.refreshes
			}
			i := 0
			allocs := testing.AllocsPerRun(tc.runs, func() {
				Play(l, stream[i%len(stream)], nil)
				i++
			})
			if allocs != 0 {
				t.Errorf("%v allocations per round in the steady state, want 0", allocs)
			}
			if isFTRL && !f.s.DenseProjection && f.refreshes == refreshes {
				t.Errorf("no Lanczos refresh among the %d measured rounds", tc.runs)
			}
		})
	}
}

func BenchmarkCCFMOGDUpdate(b *testing.B) {
	benchmarkUpdate(b, func() Learner { return NewCCFMOGD(CCFMOGDSettings{}) }, 100, 1000)
}

func BenchmarkCCFMPAUpdate(b *testing.B) {
	benchmarkUpdate(b, func() Learner { return NewCCFMPA(CCFMPASettings{}) }, 100, 1000)
}

func BenchmarkCCFMFTRLUpdate(b *testing.B) {
	benchmarkUpdate(b, func() Learner { return NewCCFMFTRL(CCFMFTRLSettings{}) }, 100, 1000)
}

// BenchmarkCCFMOGDDenseProjection is the paper's cost model: a dense
// eigendecomposition per round, O(d³) (small d only).
func BenchmarkCCFMOGDDenseProjection(b *testing.B) {
	benchmarkUpdate(b, func() Learner { return NewCCFMOGD(CCFMOGDSettings{DenseProjection: true}) }, 50, 100)
}
