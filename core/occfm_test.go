package core

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/spectral"
	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"
)

// randomSparse returns a sparse x with nnz distinct features out of d and
// values in [−1, 1] (or all ones when binary).
func randomSparse(rng *rand.Rand, d, nnz int, binary bool) data.Sparse {
	var x data.Sparse
	for _, j := range rng.Perm(d)[:nnz] {
		v := 1.0
		if !binary {
			v = 2*rng.Float64() - 1
		}
		x.Ind = append(x.Ind, j)
		x.Val = append(x.Val, v)
	}
	return x
}

// augmented returns x̂ = [1; x] as a dense vector of length n.
func augmented(x data.Sparse, n int) []float64 {
	xh := make([]float64, n)
	xh[0] = 1
	for k, j := range x.Ind {
		xh[j+1] += x.Val[k]
	}
	return xh
}

// densePredict is the naive ŷ = ½x̂ᵀCx̂ (minus ½Σⱼxⱼ²Cⱼⱼ when noSelf).
func densePredict(c *mat.SymDense, x data.Sparse, noSelf bool) float64 {
	n := c.SymmetricDim()
	xh := mat.NewVecDense(n, augmented(x, n))
	y := 0.5 * mat.Inner(xh, c, xh)
	if noSelf {
		for k, j := range x.Ind {
			y -= 0.5 * x.Val[k] * x.Val[k] * c.At(j+1, j+1)
		}
	}
	return y
}

// denseLowRank returns C as a mat.SymDense (1×1 and zero for n = 0, which
// mat does not allow).
func denseLowRank(c *lowRankSym) *mat.SymDense {
	if c.n == 0 {
		return mat.NewSymDense(1, nil)
	}
	return mat.NewSymDense(c.n, c.dense())
}

// denseC returns C in the caller's coordinates (Dim × Dim): OCCFM numbers
// features inside in order of first appearance.
func denseC(o *OCCFM) *mat.SymDense {
	in := denseLowRank(&o.c)
	d := o.Dim()
	pos := make([]int, d) // caller's coordinate → internal one, −1 if unseen
	for j := 1; j < d; j++ {
		pos[j] = -1
		if j-1 < len(o.feat) && o.feat[j-1] != 0 {
			pos[j] = int(o.feat[j-1])
		}
	}
	out := mat.NewSymDense(d, nil)
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			if pi, pj := pos[i], pos[j]; pi >= 0 && pj >= 0 && pi < in.SymmetricDim() && pj < in.SymmetricDim() {
				out.SetSym(i, j, in.At(pi, pj))
			}
		}
	}
	return out
}

// denseH returns H = −ηG − 2C as a dense matrix.
func denseH(o *OCCFM, c *mat.SymDense) *mat.SymDense {
	n := o.n
	h := mat.NewSymDense(n, nil)
	for k, v := range o.g.val {
		i, j := int(o.g.row[k]), int(o.g.col[k])
		if i <= j {
			h.SetSym(i, j, h.At(i, j)-o.s.Eta*v)
		}
	}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if i < c.SymmetricDim() && j < c.SymmetricDim() {
				h.SetSym(i, j, h.At(i, j)-2*c.At(i, j))
			}
		}
	}
	return h
}

// topEigen returns the eigenpair of largest |λ| of a by mat.EigenSym.
func topEigen(t *testing.T, a *mat.SymDense) (float64, []float64) {
	var es mat.EigenSym
	if !es.Factorize(a, true) {
		t.Fatal("EigenSym failed")
	}
	vals := es.Values(nil)
	top := spectral.ArgMaxAbs(vals)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	return vals[top], mat.Col(nil, top, &vecs)
}

// nuclear returns Σ|λᵢ(a)| by mat.EigenSym.
func nuclear(a *mat.SymDense) float64 {
	var es mat.EigenSym
	es.Factorize(a, false)
	var s float64
	for _, v := range es.Values(nil) {
		s += math.Abs(v)
	}
	return s
}

// occfmCases are the settings the invariant and cross-check tests sweep.
var occfmCases = []struct {
	name string
	s    OCCFMSettings
}{
	{"default", OCCFMSettings{}},
	{"logistic", OCCFMSettings{Loss: Logistic}},
	{"no self-interactions", OCCFMSettings{NoSelfInteractions: true}},
	{"through t-1", OCCFMSettings{GradientSum: ThroughPrevious}},
	{"lanczos every step", OCCFMSettings{LMO: LMOLanczos}},
	{"harmonic, small eta", OCCFMSettings{Gamma: Harmonic, Eta: 0.1, Delta: 3}},
	{"constant step, tight recompression", OCCFMSettings{Gamma: Constant, GammaConst: 0.05, RecompressTol: 1e-9}},
	{"delta 1", OCCFMSettings{Delta: 1}},
	{"delta 1000", OCCFMSettings{Delta: 1000}},
	{"delta 10000, rank cap 4", OCCFMSettings{Delta: 1e4, MaxRank: 4}},
	{"paper step, delta 1000", OCCFMSettings{Delta: 1000, PaperStep: true}},
	{"fixed tolerance (old model files)", OCCFMSettings{RefreshTol: 1e-3, PaperStep: true, MaxRank: -1}},
}

// plantedStream returns examples labelled by a planted low-rank C* ∈ K
// (regression) or by the sign of its prediction (classification), with
// features that keep appearing as the stream goes on.
func plantedStream(seed uint64, d, rows int, classify bool) []data.Example {
	rng := rand.New(rand.NewPCG(seed, 99))
	u := make([]float64, d+1)
	w := make([]float64, d+1)
	for i := range u {
		u[i] = rng.NormFloat64()
		w[i] = rng.NormFloat64()
	}
	spectral.Normalize(u)
	spectral.Normalize(w)
	out := make([]data.Example, rows)
	for t := range out {
		// The feature space grows: early rows only use the first features.
		dt := min(d, 4+t/3)
		x := randomSparse(rng, dt, min(3, dt), t%2 == 0)
		xh := augmented(x, d+1)
		y := 0.5 * (4*sq(spectral.Dot(u, xh)) - 2*sq(spectral.Dot(w, xh)))
		if classify {
			y = math.Copysign(1, y-0.5)
		} else {
			y += 0.1 * rng.NormFloat64()
		}
		out[t] = data.Example{X: x, Y: y}
	}
	return out
}

func sq(x float64) float64 { return x * x }

// TestOCCFMInvariants checks after every update that C is symmetric, that
// ‖C‖* ≤ δ(1 + 1e-9), that the factored prediction equals the dense
// formula, and that the LMO's eigenvalue matches mat.EigenSym on the dense
// H = −ηGₜ − 2Cₜ: within the error lmoTol allows at that step for the
// tracked LMO (the value gap εₜ = κγₜD² of Frank-Wolfe's theory, divided by
// δ), within 1e-6·max(|λ|, 2δ) for Lanczos on every step. The cases span
// δ = 1 to 10⁴.
func TestOCCFMInvariants(t *testing.T) {
	for _, tc := range occfmCases {
		t.Run(tc.name, func(t *testing.T) {
			rows := 300
			if testing.Short() {
				rows = 120
			}
			stream := plantedStream(3, 24, rows, tc.s.Loss == Logistic)
			o := NewOCCFM(tc.s)
			delta := o.Settings().Delta
			// C as the LMO saw it: a refresh recompresses C first.
			var seen *mat.SymDense
			testLMOCheck = func(o *OCCFM) func(float64) {
				return func(float64) { seen = denseLowRank(&o.c) }
			}
			defer func() { testLMOCheck = nil }()
			for step, ex := range stream {
				if step > 0 {
					probe := randomSparse(rand.New(rand.NewPCG(uint64(step), 1)), o.Dim()-1, min(4, o.Dim()-1), false)
					got, want := o.Predict(probe), densePredict(denseC(o), probe, tc.s.NoSelfInteractions)
					if !scalar.EqualWithinAbsOrRel(got, want, 1e-10, 1e-10) {
						t.Fatalf("step %d: factored ŷ = %v, dense ŷ = %v", step, got, want)
					}
				}
				o.Update(ex.X, ex.Y)
				c := denseLowRank(&o.c)
				if nn := nuclear(c); nn > delta*(1+1e-9) {
					t.Fatalf("step %d: ‖C‖* = %v > δ = %v", step, nn, delta)
				}
				for i := 0; i < o.c.b; i++ {
					for j := 0; j < i; j++ {
						if o.c.m[i*o.c.b+j] != o.c.m[j*o.c.b+i] {
							t.Fatalf("step %d: M is not symmetric at (%d, %d)", step, i, j)
						}
					}
				}
				// The line search's ⟨G, C⟩, tracked through steps, gradients
				// and recompressions, against a fresh computation.
				if want := o.innerGC(); !tc.s.PaperStep && math.Abs(o.phi-want) > o.phiErr+1e-9*max(1, math.Abs(want)) {
					t.Fatalf("step %d: tracked ⟨G, C⟩ = %v ± %v, computed %v", step, o.phi, o.phiErr, want)
				}
				if tc.s.GradientSum == ThroughPrevious {
					continue // H was built before the gradient went in
				}
				// H = −ηGₜ − 2Cₜ with the C the LMO saw.
				want, _ := topEigen(t, denseH(o, seen))
				tol := o.lmoTol(want)
				if tc.s.LMO == LMOLanczos {
					tol = 1e-6 * max(math.Abs(want), 2*delta)
				}
				if gap := math.Abs(want) - math.Abs(o.lambda); want != 0 && (gap > tol || gap < -1e-9*max(math.Abs(want), 1)) {
					t.Fatalf("step %d: LMO |λ| = %v, EigenSym |λ| = %v: gap %.3g, allowed %.3g", step, math.Abs(o.lambda), math.Abs(want), gap, tol)
				}
			}
			if o.Rounds() != rows {
				t.Errorf("Rounds() = %d, want %d", o.Rounds(), rows)
			}
		})
	}
}

// TestLossGradient checks ∇f(C) = ℓ'(ŷ, y)·½x̂x̂ᵀ against central finite
// differences of f(C) = ℓ(½x̂ᵀCx̂, y) along random symmetric directions.
func TestLossGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, loss := range []Loss{Squared, Logistic} {
		for trial := 0; trial < 20; trial++ {
			n := 6
			x := randomSparse(rng, n-1, 3, false)
			xh := augmented(x, n)
			y := 3 * rng.NormFloat64()
			if loss == Logistic {
				y = math.Copysign(1, y)
			}
			c := mat.NewSymDense(n, nil)
			e := mat.NewSymDense(n, nil)
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					c.SetSym(i, j, rng.NormFloat64())
					e.SetSym(i, j, rng.NormFloat64())
				}
			}
			f := func(h float64) float64 {
				var ch mat.SymDense
				ch.AddSym(c, scaledSym(e, h))
				v := mat.NewVecDense(n, xh)
				return loss.Value(0.5*mat.Inner(v, &ch, v), y)
			}
			v := mat.NewVecDense(n, xh)
			yhat := 0.5 * mat.Inner(v, c, v)
			// ⟨∇f, E⟩ = ℓ'(ŷ, y)·½x̂ᵀEx̂.
			got := loss.Deriv(yhat, y) * 0.5 * mat.Inner(v, e, v)
			want := fd.Derivative(f, 0, &fd.Settings{Formula: fd.Central, Step: 1e-6})
			if !scalar.EqualWithinAbsOrRel(got, want, 1e-6, 1e-6) {
				t.Errorf("%v trial %d: ⟨∇f, E⟩ = %v, finite differences %v", loss, trial, got, want)
			}
		}
	}
}

func scaledSym(a *mat.SymDense, h float64) *mat.SymDense {
	var s mat.SymDense
	s.ScaleSym(h, a)
	return &s
}

// TestOCCFMPlantedRegression checks that OCCFM learns a planted noise-free
// CCFM: the progressive squared loss of the last quarter is well below the
// label variance.
func TestOCCFMPlantedRegression(t *testing.T) {
	stream := plantedStream(5, 20, 4000, false)
	o := NewOCCFM(OCCFMSettings{Delta: 6})
	var loss, vari, mean float64
	q := len(stream) * 3 / 4
	for _, ex := range stream[q:] {
		mean += ex.Y / float64(len(stream)-q)
	}
	for i, ex := range stream {
		yhat := Play(o, ex, nil)
		if i >= q {
			loss += sq(yhat - ex.Y)
			vari += sq(ex.Y - mean)
		}
	}
	if loss > 0.2*vari {
		t.Errorf("last-quarter squared loss %.4g is not below 20%% of the label variance %.4g", loss, vari)
	}
}

// TestOCCFMGrowingFeatures checks that unseen features contribute nothing
// to a prediction and that the dimension follows the largest index.
func TestOCCFMGrowingFeatures(t *testing.T) {
	o := NewOCCFM(OCCFMSettings{})
	o.Update(data.Sparse{Ind: []int{0, 2}, Val: []float64{1, 1}}, 4)
	if o.Dim() != 4 {
		t.Fatalf("Dim() = %d, want 4", o.Dim())
	}
	a := o.Predict(data.Sparse{Ind: []int{0}, Val: []float64{1}})
	b := o.Predict(data.Sparse{Ind: []int{0, 1000}, Val: []float64{1, 5}})
	if a != b {
		t.Errorf("an unseen feature changed ŷ: %v vs %v", a, b)
	}
	o.Update(data.Sparse{Ind: []int{1000}, Val: []float64{1}}, 1)
	if o.Dim() != 1002 {
		t.Errorf("Dim() = %d, want 1002", o.Dim())
	}
}

func BenchmarkOCCFMUpdate(b *testing.B) {
	benchmarkUpdate(b, func() Learner { return NewOCCFM(OCCFMSettings{}) }, 100, 1000, 10000)
}

// TestOCCFMLMOAccuracy checks the tracked LMO along whole real-data passes
// at every δ: the eigenvalue OCCFM chooses is never above, and
// never more than the error lmoTol allows at that step below, that of an
// independent Lanczos solve (tolerance 1e-10, fresh random start) of the
// same H = −ηGₜ − 2Cₜ. The figure logged, "worst", is the largest gap as a
// fraction of the gap allowed. On ML-100K every
// step of the first 3,000 rows is checked (the flat spectrum of the early
// rows is where the certificate works hardest), then every 25th; IJCNN1
// (n = 23) is checked at every step.
func TestOCCFMLMOAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("whole real-data passes with a reference solve per step; skipped with -short")
	}
	cases := []struct {
		file  string
		task  data.Task
		cfg   Config
		dense int // check every step up to here, then every 25th
	}{
		{"movielens-100k/u.data", data.Regression, Config{}, 3000},
		{"ijcnn1/ijcnn1.gz", data.Classification, Config{Delta: 300}, math.MaxInt},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			rows := shuffledRows(t, tc.file, tc.task, 1)
			cfg := tc.cfg
			cfg.Task = tc.task
			l, err := NewLearner("occfm", cfg)
			if err != nil {
				t.Fatal(err)
			}
			o := l.(*OCCFM)
			var lw spectral.LanczosWork
			rng := rand.New(rand.NewPCG(7, 7))
			var worst, worstAt, checked = 0.0, 0, 0
			testLMOCheck = func(o *OCCFM) func(float64) {
				if o.t > tc.dense && o.t%25 != 0 {
					return nil
				}
				return func(got float64) {
					// H as the LMO saw it (a refresh recompresses C first).
					start := make([]float64, o.n)
					for i := range start {
						start[i] = rng.NormFloat64()
					}
					res := lw.Run(occfmH{o}, start, 1, min(o.n, 30), 400, 1e-10)
					want := res.Theta[0]
					checked++
					rel := (math.Abs(want) - math.Abs(got)) / o.lmoTol(want)
					if math.Abs(got) > math.Abs(want)*(1+1e-6)+1e-12 {
						t.Errorf("step %d: the LMO's |λ| %v is above the largest %v", o.t, got, want)
					}
					if rel > worst {
						worst, worstAt = rel, o.t
					}
				}
			}
			defer func() { testLMOCheck = nil }()
			m := NewMetrics(tc.task, TaskLoss(tc.task))
			for _, ex := range rows {
				Play(o, ex, m)
			}
			refreshes, matvecs, guard := o.LMOStats()
			t.Logf("%d rows, %d steps checked: worst |λ| gap %.2g of the gap allowed (step %d); %d refreshes, %d products with H, guard %.2g",
				len(rows), checked, worst, worstAt, refreshes, matvecs, guard)
			if worst > 1 {
				t.Errorf("the LMO's |λ| gap was %.2g times the gap allowed at step %d", worst, worstAt)
			}
		})
	}
}

// TestOCCFMSteadyStateAllocs checks that OCCFM allocates nothing per round
// once its buffers have grown: after a warm-up of three passes
// over a repeating user × item stream (no new features, no new entries of
// Gₜ), predict-then-update rounds, Lanczos refreshes among them, average 0
// allocations under testing.AllocsPerRun.
func TestOCCFMSteadyStateAllocs(t *testing.T) {
	for _, d := range []int{100, 1000} {
		t.Run(fmt.Sprintf("d=%d", d), func(t *testing.T) {
			stream := userItemStream(d, 2000)
			o := NewOCCFM(OCCFMSettings{})
			for range 3 {
				for _, ex := range stream {
					Play(o, ex, nil)
				}
			}
			before, _, _ := o.LMOStats()
			i := 0
			allocs := testing.AllocsPerRun(2000, func() {
				Play(o, stream[i%len(stream)], nil)
				i++
			})
			after, _, _ := o.LMOStats()
			t.Logf("%d refreshes among the measured rounds", after-before)
			if allocs != 0 {
				t.Errorf("%v allocations per round in the steady state, want 0", allocs)
			}
			if after == before {
				t.Error("no Lanczos refresh among the measured rounds")
			}
		})
	}
}

// TestOCCFMModelTail checks how model files carry the line-search step and
// the rank cap: a file written before them (testdata/model/
// occfm-paper-step-v1.occfm) loads as a paper-step learner without a rank
// cap, and a learner of today's defaults keeps its settings, ⟨G, C⟩, the
// certificate's growth bound and block norms through a save and a load; a
// file written before the growth bound (occfm-before-growth-v2.occfm)
// loads with the certificate and recompression it was written with.
func TestOCCFMModelTail(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "model", "occfm-paper-step-v1.occfm"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := LoadModel(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if s := m.Learner.(*OCCFM).Settings(); !s.PaperStep || s.MaxRank != -1 {
		t.Errorf("an old file loads with PaperStep %v, MaxRank %d; want true, -1", s.PaperStep, s.MaxRank)
	}
	o := NewOCCFM(OCCFMSettings{})
	played := 0
	for _, ex := range demoRowsOf(t, "planted-classification", 400) {
		Play(o, ex, nil)
		played++
		// Stop after 200 rows, once the growth bound holds something (a
		// refresh resets it).
		if gp, _ := o.gb.bounds(); played >= 200 && gp > 0 {
			break
		}
	}
	m, err = LoadModel(bytes.NewReader(saveBytes(t, Model{Learner: o, Rows: played})))
	if err != nil {
		t.Fatal(err)
	}
	got := m.Learner.(*OCCFM)
	if s := got.Settings(); s.PaperStep || s.MaxRank != DefaultMaxRank {
		t.Errorf("a new file loads with PaperStep %v, MaxRank %d; want false, %d", s.PaperStep, s.MaxRank, DefaultMaxRank)
	}
	if got.phi != o.phi || got.phiErr != o.phiErr || o.phi == 0 {
		t.Errorf("⟨G, C⟩ = %v after a load, %v before", got.phi, o.phi)
	}
	// The growth bound and the block norms: a new file
	// carries them; a file written before loads with the certificate it
	// was written with.
	gp, gn := o.gb.bounds()
	if lp, ln := got.gb.bounds(); got.oldCert || lp != gp || ln != gn || got.cDWn != o.cDWn || gp == 0 {
		t.Errorf("a new file loads with oldCert %v, growth bounds %v, %v (saved %v, %v), cDWn %v (saved %v)", got.oldCert, lp, ln, gp, gn, got.cDWn, o.cDWn)
	}
	b, err = os.ReadFile(filepath.Join("testdata", "model", "occfm-before-growth-v2.occfm"))
	if err != nil {
		t.Fatal(err)
	}
	m, err = LoadModel(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if old := m.Learner.(*OCCFM); !old.oldCert || old.cDWn != old.cDW || old.Settings().PaperStep {
		t.Errorf("a file from before the growth bound loads with oldCert %v, cDWn %v (cDW %v), PaperStep %v", old.oldCert, old.cDWn, old.cDW, old.Settings().PaperStep)
	}
}
