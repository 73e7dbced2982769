package demo

import (
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// Stream is a built-in synthetic stream. Its feature space is fixed:
// Dim does not change while streaming.
type Stream interface {
	// Next fills ex with the next example, reusing the slices of ex.X, or
	// sets ex empty and returns io.EOF after Spec.Rows rows (and on every
	// later call). It never returns another error. The label is already in
	// the task's form (±1 for classification).
	data.ExampleSource
	// Dim returns the number of features; every index Next returns is
	// below it.
	Dim() int
	// FeatureName returns the name of feature i. It panics unless
	// 0 ≤ i < Dim().
	FeatureName(i int) string
}

// Spec describes a built-in synthetic stream. No real data is bundled with
// OCCFM; the demos let the page and the tests run on streams whose best
// model is known.
type Spec struct {
	// Name is the registry key: "planted-regression",
	// "planted-classification" or "ratings".
	Name string
	// Title is a human title: what the stream is.
	Title string
	// Short is the name a narrow menu shows ("Ratings"); Title says the
	// rest.
	Short string
	// Task is the learning problem of the stream.
	Task data.Task
	// Rows is the length of the stream.
	Rows int
	// Known says what is known about the best model in K, for the page.
	Known string
	// Best is the metric of the true model (RMSE for regression, the error
	// rate for classification), what no learner beats on average: the
	// page draws it as a reference line. Its grounds are in Known and
	// checked in synth_test.go.
	Best float64
	// ZeroLossDelta is the least δ whose ball K holds a model of squared
	// loss 0 on every row (‖C*‖* of a noise-free planted stream), 0 when
	// none is known: with δ at least this, the best C in hindsight is
	// known without a comparator run (core.RegretSettings.ZeroBest).
	ZeroLossDelta float64
	// New returns the stream for seed, from its first row. The same seed
	// gives the same rows; seed 0 means seed 1, as in Config. Each stream
	// uses constant memory and each Next costs O(nnz(x)).
	New func(seed uint64) Stream

	newRows func(seed uint64, rows int) Stream // New with another length
}

// NewRows returns the stream for seed as New does, but rows rows long
// instead of d.Rows: its first rows are New's. It makes streams of any
// length in constant memory, such as the large files of occfm gen. It panics
// if rows < 0.
func (d Spec) NewRows(seed uint64, rows int) Stream {
	if rows < 0 {
		panic("core: Spec.NewRows: " + str.Itoa(rows) + " rows")
	}
	return d.newRows(seed, rows)
}

// demoRows is the length of every demo stream.
const demoRows = 200_000

// demos lists the demos in menu order.
var demos = []Spec{
	{
		Name:  "planted-regression",
		Title: "Planted low-rank C*, noise-free regression",
		Short: "Planted regression",
		Task:  data.Regression,
		Rows:  demoRows,
		Best:  0,
		Known: "the labels come from a hidden matrix C* with no noise at all, " +
			"and C* fits inside the default budget δ = 10: a learner can in " +
			"principle get every row exactly right (the dashed line at 0). " +
			"In symbols: y = ½x̂ᵀC*x̂, C* = 3u₁u₁ᵀ − 2u₂u₂ᵀ of rank 2, " +
			"‖C*‖* = 5 ≤ δ, so the best comparator's squared loss is 0.",
		ZeroLossDelta: plantedNuclear,
		New:           func(seed uint64) Stream { return newPlantedDemo(seed, demoRows, false) },
		newRows:       func(seed uint64, rows int) Stream { return newPlantedDemo(seed, rows, false) },
	},
	{
		Name:  "planted-classification",
		Title: "Planted low-rank C*, classification with 5% label noise",
		Short: "Planted classification",
		Best:  plantedFlip,
		Task:  data.Classification,
		Rows:  demoRows,
		Known: "a hidden matrix inside the default budget decides each " +
			"row's class, then 5 % of the labels are flipped at random: no " +
			"learner can beat a 5 % error rate on average (the dashed line). " +
			"In symbols: y = sign(½x̂ᵀC°x̂) flipped with probability 5 %, " +
			"C° = 3u₁u₁ᵀ − 2u₂u₂ᵀ − 2τe₀e₀ᵀ (τ balances the classes), " +
			"‖C°‖* below 6 < δ = 10: sign(½x̂ᵀC°x̂) is the Bayes classifier.",
		New:     func(seed uint64) Stream { return newPlantedDemo(seed, demoRows, true) },
		newRows: func(seed uint64, rows int) Stream { return newPlantedDemo(seed, rows, true) },
	},
	{
		Name:  "ratings",
		Title: "Ratings: 300 users × 500 items, 3 latent tastes",
		Short: "Ratings",
		Best:  0.4220, // measured over 200,000 rows of seed 1 (synth_test.go)
		Task:  data.Regression,
		Rows:  demoRows,
		Known: "300 made-up users rate 500 items from 1 to 5 by 3 hidden " +
			"tastes, plus noise and rounding to whole stars: even the true " +
			"model is off by 0.42 stars on average (RMSE, the dashed line). " +
			"Its C is far too large for the default budget δ = 10 " +
			"(‖C‖* ≈ 700), so OCCFM at δ = 10 cannot hold it all. " +
			"In symbols: r = clamp(round(3.5 + b_u + b_i + p_u·q_i + ε), 1, 5), " +
			"ε ~ N(0, 0.3²).",
		New:     func(seed uint64) Stream { return newRatingsDemo(seed, demoRows) },
		newRows: func(seed uint64, rows int) Stream { return newRatingsDemo(seed, rows) },
	},
}

// All returns the built-in demos in menu order: planted-regression,
// planted-classification, ratings. The caller may change the returned
// slice.
func All() []Spec { return slices.Clone(demos) }

// ByName returns the demo called name.
func ByName(name string) (Spec, bool) {
	for _, d := range demos {
		if d.Name == name {
			return d, true
		}
	}
	return Spec{}, false
}

// Rand returns the generator of one of a demo's independent random
// streams (the planted model, the rows, …) for seed.
func Rand(seed, stream uint64) *rand.Rand {
	if seed == 0 {
		seed = 1
	}
	return rand.New(rand.NewPCG(seed, 0x0cc4_de30_0000_0000|stream))
}

// The planted streams' features: two one-hot fields of plantedLevels
// levels each, then plantedDim − 2·plantedLevels real features.
const (
	plantedDim    = 40
	plantedLevels = 10
	plantedReal   = 2 * plantedLevels // index of the first real feature
	plantedFlip   = 0.05              // label noise of planted-classification
	// plantedNuclear is ‖C*‖* = |λ₁| + |λ₂| (see plantedDemo).
	plantedNuclear = 5
)

// plantedDemo is planted-regression or planted-classification.
//
// Each row x has 3 or 4 nonzero features: value 1 at one level of field A
// (features 0–9) and one level of field B (features 10–19), each uniform,
// and one or two distinct real features among 20–39 (one or two with
// probability ½ each) with values uniform in [−1, 1).
//
// The planted model is C* = λ₁u₁u₁ᵀ + λ₂u₂u₂ᵀ with λ = (3, −2) and u₁, u₂ the
// Gram-Schmidt orthonormalization of two vectors of ℝ⁴¹ drawn from the
// seed, with independent normal entries of mean 0 and standard deviation
// plantedScale. Its eigenvalues are 3, −2 and 0, so ‖C*‖* = 5 and C* lies
// in K for every δ ≥ 5. For regression the label is
// y = ½x̂ᵀC*x̂ = ½(λ₁(u₁ᵀx̂)² + λ₂(u₂ᵀx̂)²), with no noise: the best model
// in K has loss 0.
//
// For classification the bias entry carries a threshold τ, the median of
// ½x̂ᵀC*x̂ over 1001 rows drawn from the seed (independently of the stream):
// C° = C* − 2τe₀e₀ᵀ, so ½x̂ᵀC°x̂ = ½x̂ᵀC*x̂ − τ, and the label is
// sign(½x̂ᵀC°x̂) (+1 at 0), flipped with probability 5 %. The classes are
// then roughly balanced (44–56 % positive in 2,000 rows, seeds 1–1000) and
// ‖C°‖* ≤ 5 + 2|τ| (at most 5.82 for seeds 1–1000), so C° lies in K for the
// default δ = 10 and sign(½x̂ᵀC°x̂), the Bayes classifier, has error 5 %.
type plantedDemo struct {
	rows, row int
	classify  bool
	rng       *rand.Rand
	lambda    [2]float64
	u         [2][plantedDim + 1]float64
	bias      float64 // C°₀₀ − C*₀₀ = −2τ; 0 for regression
}

func newPlantedDemo(seed uint64, rows int, classify bool) *plantedDemo {
	s := &plantedDemo{rows: rows, classify: classify, lambda: [2]float64{3, -2}}
	r := Rand(seed, 1)
	for m := range s.u {
		u := &s.u[m]
		for j := range u {
			u[j] = plantedScale(j) * r.NormFloat64()
		}
		for _, prev := range s.u[:m] {
			var dot float64
			for j := range u {
				dot += prev[j] * u[j]
			}
			for j := range u {
				u[j] -= dot * prev[j]
			}
		}
		var norm float64
		for _, v := range u {
			norm += v * v
		}
		norm = math.Sqrt(norm)
		for j := range u {
			u[j] /= norm
		}
	}
	if classify {
		r := Rand(seed, 3)
		var x data.Sparse
		ys := make([]float64, 1001)
		for i := range ys {
			drawPlanted(r, &x)
			ys[i] = s.predict(x)
		}
		slices.Sort(ys)
		s.bias = -2 * ys[len(ys)/2]
	}
	s.rng = Rand(seed, 2)
	return s
}

// plantedScale returns the standard deviation of entry j of the Gaussian
// vectors that make u₁ and u₂: 3 for the constant, 1 for the binary
// features and ½ for the real ones. Weighting the entries that rows hit
// often spreads the labels: their standard deviation is 0.2–0.5 for seeds
// 1–3, against 0.13–0.33 for isotropic u.
func plantedScale(j int) float64 {
	switch {
	case j == 0:
		return 3
	case j <= plantedReal:
		return 1
	}
	return 0.5
}

// drawPlanted sets x to a random row of the planted design.
func drawPlanted(r *rand.Rand, x *data.Sparse) {
	x.Ind = append(x.Ind[:0], r.IntN(plantedLevels), plantedLevels+r.IntN(plantedLevels))
	x.Val = append(x.Val[:0], 1, 1)
	const nReal = plantedDim - plantedReal
	j := plantedReal + r.IntN(nReal)
	if r.IntN(2) == 0 {
		x.Ind = append(x.Ind, j)
	} else {
		k := plantedReal + r.IntN(nReal-1)
		if k >= j {
			k++
		}
		x.Ind = append(x.Ind, min(j, k), max(j, k))
	}
	for range len(x.Ind) - 2 {
		x.Val = append(x.Val, 2*r.Float64()-1)
	}
}

// predict returns ½x̂ᵀCx̂ for the planted C (C* or C°) in O(nnz(x)).
func (s *plantedDemo) predict(x data.Sparse) float64 {
	y := s.bias
	for m, u := range s.u {
		z := u[0]
		for k, j := range x.Ind {
			z += u[j+1] * x.Val[k]
		}
		y += s.lambda[m] * z * z
	}
	return y / 2
}

func (s *plantedDemo) Next(ex *data.Example) error {
	ex.X.Ind, ex.X.Val, ex.Y = ex.X.Ind[:0], ex.X.Val[:0], 0
	if s.row >= s.rows {
		return io.EOF
	}
	s.row++
	drawPlanted(s.rng, &ex.X)
	ex.Y = s.predict(ex.X)
	if s.classify {
		y := ex.Y
		ex.Y = 1
		if y < 0 {
			ex.Y = -1
		}
		if s.rng.Float64() < plantedFlip {
			ex.Y = -ex.Y
		}
	}
	return nil
}

func (s *plantedDemo) Dim() int { return plantedDim }

// FeatureName returns "f7" for feature 7.
func (s *plantedDemo) FeatureName(i int) string {
	if i < 0 || i >= plantedDim {
		panic("core: feature " + str.Itoa(i) + " out of range [0, " + str.Itoa(plantedDim) + ")")
	}
	return "f" + str.Itoa(i)
}

// The ratings stream's sizes.
const (
	ratingUsers   = 300
	ratingItems   = 500
	ratingFactors = 3
	ratingNoise   = 0.3 // standard deviation of ε
)

// ratingsDemo is the ratings demo: users and items with latent tastes.
//
// From the seed, each user u gets a bias b_u ~ N(0, 0.5²) and a taste
// p_u ∈ ℝ³ with N(0, 0.55²) entries, and each item i a bias b_i ~ N(0, 0.5²)
// and q_i ∈ ℝ³ likewise, so p_u·q_i has variance 3·0.55⁴ ≈ 0.27. Each row
// picks a user uniformly and an item with the Zipf-like popularity
// P(i) ∝ (5 + i)^(−1.1) (item 0 is rated about 160 times as often as item
// 499), and rates r = clamp(round(3.5 + b_u + b_i + p_u·q_i + ε), 1, 5) with
// ε ~ N(0, 0.3²). The features are one-hot: user u is feature u, named
// "user=u", and item i is feature 300 + i, named "item=i".
//
// The true mean rating is the CCFM with w₀ = 3.5, w = (b_users, b_items) and
// Z = p_u·q_i in the user-item blocks. The noise and the rounding leave it
// an RMSE of 0.42, and its ‖C‖* is 708–737 for seeds 1–3 (mat.EigenSym),
// far outside K for occfm's default δ = 10.
type ratingsDemo struct {
	rows, row int
	rng       *rand.Rand
	zipf      *rand.Zipf
	bu, bi    []float64 // biases of users and items
	p, q      []float64 // tastes, ratingFactors per user and per item
}

func newRatingsDemo(seed uint64, rows int) *ratingsDemo {
	s := &ratingsDemo{rows: rows}
	r := Rand(seed, 1)
	s.bu = Normals(r, ratingUsers, 0.5)
	s.p = Normals(r, ratingUsers*ratingFactors, 0.55)
	s.bi = Normals(r, ratingItems, 0.5)
	s.q = Normals(r, ratingItems*ratingFactors, 0.55)
	s.rng = Rand(seed, 2)
	s.zipf = rand.NewZipf(s.rng, 1.1, 5, ratingItems-1)
	return s
}

// Normals returns n draws from N(0, sd²).
func Normals(r *rand.Rand, n int, sd float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = sd * r.NormFloat64()
	}
	return v
}

// mean returns 3.5 + b_u + b_i + p_u·q_i, the rating before noise,
// rounding and clamping.
func (s *ratingsDemo) mean(u, i int) float64 {
	y := 3.5 + s.bu[u] + s.bi[i]
	for f := range ratingFactors {
		y += s.p[u*ratingFactors+f] * s.q[i*ratingFactors+f]
	}
	return y
}

func (s *ratingsDemo) Next(ex *data.Example) error {
	ex.X.Ind, ex.X.Val, ex.Y = ex.X.Ind[:0], ex.X.Val[:0], 0
	if s.row >= s.rows {
		return io.EOF
	}
	s.row++
	u := s.rng.IntN(ratingUsers)
	i := int(s.zipf.Uint64())
	ex.X.Ind = append(ex.X.Ind, u, ratingUsers+i)
	ex.X.Val = append(ex.X.Val, 1, 1)
	ex.Y = min(max(math.Round(s.mean(u, i)+ratingNoise*s.rng.NormFloat64()), 1), 5)
	return nil
}

func (s *ratingsDemo) Dim() int { return ratingUsers + ratingItems }

// FeatureName returns "user=17" for feature 17 and "item=42" for feature
// 342.
func (s *ratingsDemo) FeatureName(i int) string { return UserItemName(i, ratingUsers, ratingItems) }

// UserItemName names feature i of a user × item stream whose features are
// users users, then items items: "user=17", "item=42". It panics unless
// 0 ≤ i < users + items.
func UserItemName(i, users, items int) string {
	switch {
	case i >= 0 && i < users:
		return "user=" + str.Itoa(i)
	case i >= users && i < users+items:
		return "item=" + str.Itoa(i-users)
	}
	panic("core: feature " + str.Itoa(i) + " out of range [0, " + str.Itoa(users+items) + ")")
}
