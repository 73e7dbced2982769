package personal

import (
	"slices"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"gonum.org/v1/gonum/blas"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
)

// foldNoise is σ², the variance of a person's stated rating about their
// own taste that the joint fit of (b, e) assumes, in stars²: the error of
// rounding to whole stars, uniform on [−½, ½], has variance 1/12. A larger
// σ² trusts the ratings less: on TestPersonalPlantedTastes, whose persons
// rate their true taste rounded, hits@10 after 10 ratings (3 seeds, on the
// synthetic catalog whose people rated by popularity alone) was
// 2.48 / 3.50 / 3.34 at 1/12, 1.80 / 3.18 / 2.78 at 0.2 and 1.34 / 2.82 /
// 2.22 at 0.5; on ML-100K (occfm topn, seeds 1–3) 2.89 / 2.98 / 2.86 after
// 3, 10 and 20 ratings at 1/12 and 2.68 / 2.59 / 2.38 at 0.8.
const foldNoise = 1.0 / 12

// residualNoise returns σ_b², the noise of a person's bias b in its own
// fit (see folding): the learner's progressive mean squared error on the
// catalog (how far a rating falls from its prediction for the people it
// learned, each rating scored before it was learned), or foldNoise when it
// does not measure one. With foldNoise, three ratings set b to nearly
// their mean residual, and the person's later ratings fell further from
// the predictions than with no rating at all (ML-100K, occfm topn, seeds
// 1–3: RMSE 1.044 after 3 ratings, 0.974 before any).
func residualNoise(l core.Learner) float64 {
	if r, ok := l.(interface{ ResidualVariance() float64 }); ok {
		if v := r.ResidualVariance(); v > 0 {
			return v
		}
	}
	return foldNoise
}

// folding is a new person folded into a learner with C = Σₐ μₐuₐuₐᵀ from
// their ratings: the person's affine weight b and their coordinates e in
// C's eigenvectors, so that
//
//	ŷ({you, i}) = ŷ({i}) + b + Σₐ μₐ·eₐ·uₐᵢ,
//
// the prediction the learner would make with you's row of C equal to
// Σₐ μₐeₐuₐ (you's coordinates e along C's eigenvectors). For OCCFMK,
// whose pairs are those of rows weighted by the features' frequencies,
// C is the weighted rows' (see core.EigenPairs), where its eigenvectors
// are orthonormal: an item's pair with you is not multiplied by its
// weight. Multiplied, it lowered hits@10 on ML-100K (occfm topn, seeds
// 1–3: 2.74 / 2.70 / 2.50 after 3, 10 and 20 ratings, against 3.00 /
// 2.93 / 2.66), rare items' larger weights pushing them up the list.
//
// e is the MAP estimate under Gaussian priors fitted to the people the
// learner has learned (empirical Bayes), jointly with a bias:
//
//	minimize Σⱼ (yⱼ − ŷ({j}) − b − Σₐ μₐeₐuₐⱼ)² + σ²·(b²/s_b² + Σₐ eₐ²/vₐ)
//
// over the person's ratings j, with s_b² the mean square of the people's
// affine weights ŷ({p}) − ŷ(∅) and vₐ the mean square of their uₐₚ, over
// the features p with a nonzero coordinate that are not catalog items, and
// σ² = foldNoise. b is then the ridge mean of what e leaves, with its own
// noise σ_b² (residualNoise): b = Σⱼ(yⱼ − ŷ({j}) − Σₐ μₐeₐuₐⱼ) / (n +
// σ_b²/s_b²). One σ² for both overfits b, and the measured σ_b² in the
// joint fit let e take up the mean b left: Five Horror films at 5★ and five
// Romance at 1★ then gave 5.0 films of the liked genre in the top 10 on
// average (TestPersonalGenres), 5.8 in two stages. The joint fit is the
// user step of alternating least squares
// ("folding in": Hu, Koren and Volinsky 2008, "Collaborative filtering for
// implicit feedback datasets"; Koren, Bell and Volinsky 2009, "Matrix
// factorization techniques for recommender systems") on the learned C,
// solved exactly after every rating: one online update of a convex learner
// that has learned thousands of rows moves a new row by a first-order
// amount only, and the recommendations would not follow the ratings.
type folding struct {
	mu     []float64 // μ
	prior  []float64 // σ²/s_b², then σ²/vₐ per a: the joint fit's
	bPrior float64   // σ_b²/s_b²: b's own fit, given e
	b      float64
	e      []float64
	q      []float64 // scratch: coordinates
	a, r   []float64 // scratch: the normal equations
}

// newFolding returns the folding of a new person into l, or nil when l has
// no pairs or no people. items marks the catalog's item features.
func newFolding(l core.Learner, ep core.EigenPairs, items map[int]bool) *folding {
	mu := ep.PairSpectrum(nil)
	if len(mu) == 0 {
		return nil
	}
	f := &folding{mu: mu, e: make([]float64, len(mu)), prior: make([]float64, 1+len(mu))}
	g := l.Predict(data.Sparse{})
	x := data.Sparse{Ind: []int{0}, Val: []float64{1}}
	var n, b2 float64
	v := make([]float64, len(mu))
	for p := range ep.PairDim() {
		if items[p] {
			continue
		}
		f.q = ep.PairCoords(p, f.q[:0])
		if !slices.ContainsFunc(f.q, nonzero) {
			continue
		}
		n++
		x.Ind[0] = p
		w := l.Predict(x) - g
		b2 += w * w
		for a, u := range f.q {
			v[a] += u * u
		}
	}
	if n == 0 {
		return nil
	}
	f.prior[0] = foldNoise / max(b2/n, 1e-6)
	f.bPrior = residualNoise(l) / max(b2/n, 1e-6)
	for a := range v {
		f.prior[1+a] = foldNoise / max(v[a]/n, 1e-12)
	}
	return f
}

// fit sets (b, e) from the ratings: base[j] is ŷ({j}) of rated item j's
// feature feat[j], stars[j] its stars.
func (f *folding) fit(ep core.EigenPairs, feat []int, base, stars []float64) {
	n := 1 + len(f.mu)
	f.a = resize(f.a, n*n)
	f.r = resize(f.r, n)
	clear(f.a)
	clear(f.r)
	row := make([]float64, n)
	for j, fj := range feat {
		f.q = ep.PairCoords(fj, f.q[:0])
		row[0] = 1
		for a, u := range f.q {
			row[1+a] = f.mu[a] * u
		}
		res := stars[j] - base[j]
		for a, ra := range row {
			f.r[a] += ra * res
			for c := 0; c <= a; c++ {
				f.a[c*n+a] += ra * row[c]
			}
		}
	}
	for a, p := range f.prior {
		f.a[a*n+a] += p
	}
	impl := lapackgonum.Implementation{}
	if !impl.Dpotrf(blas.Upper, n, f.a, n) {
		clear(f.e)
		f.b = 0
		return
	}
	impl.Dpotrs(blas.Upper, n, 1, f.a, n, f.r, 1)
	copy(f.e, f.r[1:])
	// b given e, with its own noise: the ridge mean of what e leaves.
	var left float64
	for j, fj := range feat {
		left += stars[j] - base[j] - f.pair(ep, fj)
	}
	f.b = left / (float64(len(feat)) + f.bPrior)
}

// pair returns Σₐ μₐeₐuₐᵢ, you's pair weight with feature i.
func (f *folding) pair(ep core.EigenPairs, i int) float64 {
	f.q = ep.PairCoords(i, f.q[:0])
	var s float64
	for a, u := range f.q {
		s += f.mu[a] * f.e[a] * u
	}
	return s
}

// reset forgets the person: b = 0, e = 0.
func (f *folding) reset() {
	f.b = 0
	clear(f.e)
}

func nonzero(x float64) bool { return x != 0 }

// resize returns buf with length n, reusing its memory when it is large
// enough; the contents are unspecified.
func resize(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}
