package core

import (
	"math"
	"slices"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/spectral"
)

// What a view of OCCFMK reads: its C on a block of coordinates, the
// spectrum before and after the soft threshold, and the record of its last
// round of follow-the-regularized-leader.

var _ MatrixModel = (*OCCFMK)(nil)

// MatrixBlock writes C's block on idx (see MatrixModel): with
// C = Σₐ μₐuₐuₐᵀ on the pairs (uₐ = D^(−½)·S·W[:, a], the weights D of
// featureWeights), the entries C_ij = Σₐ μₐuₐᵢuₐⱼ for i ≠ j, with the
// fold-in's entries between a feature outside S and one in it (see
// foldIn), 0 on a feature's diagonal (OCCFMK has no self-interactions),
// the affine part's weight wⱼ in the bias row and 2w₀ in the corner, so
// that ŷ = ½x̂ᵀCx̂. It costs O(|idx|·k'·r + |idx|²·r) for C of rank r.
func (m *OCCFMK) MatrixBlock(idx []int, dst []float64) {
	m.blockOf(idx, dst, m.blockNow(), nil)
}

// blockState is what a block of C is read from (see blockOf): μ, its
// active indices, W and the directions held, rows of S and Y (nil past
// the features covered), A's diagonal λ and the features' weights.
type blockState struct {
	mu, w, lam []float64
	active     []int
	kc         int
	row, yrow  func(j int) []float64
	weight     func(j int) float64
}

// blockNow returns the current blockState.
func (m *OCCFMK) blockNow() blockState {
	ld := m.ld
	lam := make([]float64, m.kc)
	for a := range lam {
		lam[a] = m.a[a*ld+a]
	}
	return blockState{mu: m.mu, w: m.w, lam: lam, active: m.active, kc: m.kc, row: m.rowReader(),
		yrow: func(j int) []float64 {
			if j >= m.d {
				return nil
			}
			return m.yb[j*ld : j*ld+ld]
		}, weight: m.fw.weight}
}

// foldEntry returns C's entry (i, j) from the fold-in (see foldIn) when
// feature i lies outside S (its row of S zero) and j in it, else 0:
// Σₐ (μₐ/λₐ)·y'ᵢₐ·s'ⱼₐ, times both features' weights.
func (m *OCCFMK) foldEntry(st *blockState, i, j int) float64 {
	if m.legacy || i == j {
		return 0
	}
	si, sj, yi := st.row(i), st.row(j), st.yrow(i)
	if len(si) < st.kc || len(sj) < st.kc || held(si[:st.kc]) || !held(sj[:st.kc]) {
		return 0
	}
	var s float64
	for _, a := range st.active {
		if lam := st.lam[a]; lam != 0 {
			s += st.mu[a] / lam * coordIn(yi[:st.kc], st.w, m.ld, a) * coordIn(sj[:st.kc], st.w, m.ld, a)
		}
	}
	return s * st.weight(i) * st.weight(j)
}

// held reports whether a row of S is nonzero: its feature is in S.
func held(s []float64) bool { return slices.ContainsFunc(s, func(v float64) bool { return v != 0 }) }

// rowReader returns a reader of S's rows (nil past the features covered).
func (m *OCCFMK) rowReader() func(j int) []float64 {
	return func(j int) []float64 {
		if j >= m.d {
			return nil
		}
		return m.row(j)
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// coordIn returns sᵢ·W[:, a], the coordinate in eigenvector a of the
// feature whose row of S is s, for W of stride ld.
func coordIn(s, w []float64, ld, a int) float64 {
	var c float64
	for b, v := range s {
		c += v * w[b*ld+a]
	}
	return c
}

// blockOf writes the block of the C that st gives (rows of S read in the
// basis W applies to), with the fold-in's entries, and the affine part's
// weights from aff (nil: the current ones).
func (m *OCCFMK) blockOf(idx []int, dst []float64, st blockState, aff func(j int) float64) {
	mu, active, w, kc := st.mu, st.active, st.w, st.kc
	k, r := len(idx), len(active)
	dst = dst[:k*k]
	clear(dst)
	if aff == nil {
		aff = m.affineWeight
	}
	u := make([]float64, k*r) // u[i*r+q] = u_{active[q], idx[i]}
	for i, j := range idx {
		if j < 0 || j >= m.d {
			continue
		}
		s := st.row(j)
		if len(s) < kc {
			continue
		}
		s = s[:kc]
		wt := st.weight(j)
		for q, a := range active {
			u[i*r+q] = wt * coordIn(s, w, m.ld, a)
		}
	}
	for i, ji := range idx {
		if ji == BiasCoord {
			dst[i*k+i] = 2 * aff(BiasCoord)
			for jj, j := range idx {
				if j != BiasCoord {
					dst[i*k+jj], dst[jj*k+i] = aff(j), aff(j)
				}
			}
			continue
		}
		for jj := i + 1; jj < k; jj++ {
			if idx[jj] == BiasCoord || idx[jj] == ji {
				continue
			}
			var c float64
			for q, a := range active {
				c += mu[a] * u[i*r+q] * u[jj*r+q]
			}
			if ji >= 0 && ji < m.d && idx[jj] >= 0 && idx[jj] < m.d {
				c += m.foldEntry(&st, ji, idx[jj]) + m.foldEntry(&st, idx[jj], ji)
			}
			dst[i*k+jj], dst[jj*k+i] = c, c
		}
	}
}

// affineWeight returns the affine part's w₀ (j = BiasCoord) or wⱼ.
func (m *OCCFMK) affineWeight(j int) float64 {
	w0 := m.affine(data.Sparse{})
	if j == BiasCoord {
		return w0
	}
	return m.affine(data.Sparse{Ind: []int{j}, Val: []float64{1}}) - w0
}

// TargetSpectrum returns the eigenvalues of the FTRL target −ηₜGₜ/2 in the
// tracked subspace, −ηₜλₐ/2 for A's diagonal λ, largest |·| first: C's
// eigenvalues are these soft-thresholded by θ (Threshold), so that the
// ones within θ of 0 vanish and the others move θ towards 0.
func (m *OCCFMK) TargetSpectrum() []float64 {
	out := make([]float64, m.kc)
	for a := range out {
		out[a] = -0.5 * m.eta() * m.a[a*m.ld+a]
	}
	slices.SortFunc(out, func(a, b float64) int { return -cmpFloat(math.Abs(a), math.Abs(b)) })
	return out
}

// FTRLStep describes the last round an OCCFMK played, for a view of its
// step (see OCCFMK.TraceSteps):
//
//	ŷₜ = ½x̂ᵀCₜx̂,  ∇fₜ(Cₜ) = ℓ'(ŷₜ, yₜ)·Mₓ,  Gₜ = Gₜ₋₁ + ℓ'·Mₓ,
//	Cₜ₊₁ = Π_K(−ηₜGₜ/2),
//
// the projection soft-thresholding the target's eigenvalues by θ.
type FTRLStep struct {
	Round      int     // t
	Prediction float64 // ŷₜ, with the affine part
	Label      float64 // yₜ
	Loss       float64 // ℓ(ŷₜ, yₜ)
	Deriv      float64 // ℓ'(ŷₜ, yₜ)
	Eta        float64 // ηₜ, the step of the round
	Delta      float64 // δₜ, the ball's radius
	Theta      float64 // θ, the soft threshold after the round
	Rank       int     // the rank of Cₜ₊₁
	Kept       int     // the directions of the tracked subspace
	Certified  float64 // ε ≥ ‖Cₜ₊₁ − Π_K(−ηₜGₜ/2)‖_F
	NormF      float64 // ‖Cₜ₊₁‖_F, against which ε reads
	Refreshed  bool    // a Lanczos run recomputed the subspace this round
}

// kTrace is what OCCFMK.TraceSteps records of the last round: Cₜ's factors
// (μ, the active indices, W and kc, copied each round in O(k'²); S only
// when a refresh rewrites it, at most once per refresh gap) and the affine
// weights of the row's features.
type kTrace struct {
	step      FTRLStep
	ok        bool
	x         data.Sparse
	mu, w     []float64
	active    []int
	kc        int
	sb        []float64 // S before the round, when the round rewrote it
	sCopied   bool
	w0        float64   // the affine part's w₀ before the round
	wx        []float64 // its weights of x's features before the round
	lam       []float64 // A's diagonal before the round
	yx        []float64 // the rows of Y of x's features before the round
	fTotal    float64   // the weights' total count before the round (see featureWeights)
	fSeen     int       // and their features seen
	yb        []float64 // Y before the round, when the round rewrote it
	refreshes int
}

// TraceSteps turns on (or off) the record of each round that LastFTRLStep
// and StepBlocks read. Recording copies O(k'² + nnz(x)) a round, and S
// (O(d·k')) only in the rounds that rewrite it; it does not change what
// the learner learns.
func (m *OCCFMK) TraceSteps(on bool) {
	if !on {
		m.tr = nil
	} else if m.tr == nil {
		m.tr = &kTrace{}
	}
}

// LastFTRLStep returns the record of the last round, when TraceSteps was
// on for it and the round moved C's target (a row whose ℓ' is 0 leaves it).
func (m *OCCFMK) LastFTRLStep() (FTRLStep, bool) {
	if m.tr == nil || !m.tr.ok {
		return FTRLStep{}, false
	}
	return m.tr.step, true
}

// traceBegin records Cₜ before the round (Update calls it first).
func (tr *kTrace) begin(m *OCCFMK, x data.Sparse) {
	tr.ok = false
	tr.x.Ind = append(tr.x.Ind[:0], x.Ind...)
	tr.x.Val = append(tr.x.Val[:0], x.Val...)
	tr.mu = append(tr.mu[:0], m.mu...)
	tr.w = append(tr.w[:0], m.w...)
	tr.active = append(tr.active[:0], m.active...)
	tr.kc = m.kc
	tr.sCopied = false
	tr.w0 = m.affineWeight(BiasCoord)
	tr.wx = tr.wx[:0]
	for _, j := range x.Ind {
		if j < m.d {
			tr.wx = append(tr.wx, m.affineWeight(j))
		} else {
			tr.wx = append(tr.wx, 0)
		}
	}
	tr.lam = tr.lam[:0]
	for a := range m.kc {
		tr.lam = append(tr.lam, m.a[a*m.ld+a])
	}
	tr.yx = tr.yx[:0]
	for _, j := range x.Ind {
		if j < m.d {
			tr.yx = append(tr.yx, m.yb[j*m.ld:j*m.ld+m.ld]...)
		} else {
			tr.yx = append(tr.yx, make([]float64, m.ld)...)
		}
	}
	tr.fTotal, tr.fSeen = m.fw.total, m.fw.seen
	tr.refreshes = m.refreshes
}

// state returns the blockState before the round: m's, with what the round
// changed (μ, W, λ, the rows of x's features, S and Y when rewritten)
// from the record.
func (tr *kTrace) state(m *OCCFMK) blockState {
	st := m.blockNow()
	ld := m.ld
	st.mu, st.w, st.lam, st.active, st.kc = tr.mu, tr.w, tr.lam, tr.active, tr.kc
	if tr.sCopied {
		st.row = func(j int) []float64 {
			if j*ld >= len(tr.sb) {
				return nil
			}
			return tr.sb[j*ld : j*ld+ld]
		}
	}
	yNow := st.yrow
	st.yrow = func(j int) []float64 {
		if p := slices.Index(tr.x.Ind, j); p >= 0 {
			return tr.yx[p*ld : p*ld+ld]
		}
		if tr.sCopied {
			if j*ld >= len(tr.yb) {
				return nil
			}
			return tr.yb[j*ld : j*ld+ld]
		}
		return yNow(j)
	}
	st.weight = func(j int) float64 {
		var n float64
		if j < len(m.fw.n) {
			n = m.fw.n[j]
		}
		if p := slices.Index(tr.x.Ind, j); p >= 0 && tr.x.Val[p] != 0 {
			n-- // the round counted it
		}
		return m.fw.weightOf(n, tr.fTotal, tr.fSeen)
	}
	return st
}

// saveS copies S before a refresh rewrites it, once a round.
func (tr *kTrace) saveS(m *OCCFMK) {
	if tr == nil || tr.sCopied {
		return
	}
	tr.sb = append(tr.sb[:0], m.sb[:m.d*m.ld]...)
	tr.yb = append(tr.yb[:0], m.yb[:m.d*m.ld]...)
	tr.sCopied = true
}

// end records the round's step (Update calls it after the projection).
func (tr *kTrace) end(m *OCCFMK, yhat, y, g float64) {
	tr.step = FTRLStep{Round: m.t, Prediction: yhat, Label: y, Loss: m.s.Loss.Value(yhat, y), Deriv: g,
		Eta: m.eta(), Delta: m.Delta(), Theta: m.theta, Rank: len(m.active), Kept: m.kc,
		Certified: m.eps, NormF: m.normC(), Refreshed: m.refreshes != tr.refreshes}
	tr.ok = true
}

// StepBlocks writes, on the coordinates idx (as MatrixBlock), Cₜ (before),
// the target −ηₜGₜ/2 of the pairs with the affine part of Cₜ₊₁ in its bias
// row (target: the affine part learns outside the ball), Cₜ₊₁ (after) and
// the row's gradient ℓ'·½x̂x̂ᵀ without the features' diagonal (grad), each
// len(idx)² values or nil; false when there is no step on record.
func (m *OCCFMK) StepBlocks(idx []int, before, target, after, grad []float64) bool {
	if _, ok := m.LastFTRLStep(); !ok {
		return false
	}
	tr, k := m.tr, len(idx)
	if before != nil {
		m.blockOf(idx, before, tr.state(m), func(j int) float64 {
			if j == BiasCoord {
				return tr.w0
			}
			if p := slices.Index(tr.x.Ind, j); p >= 0 {
				return tr.wx[p]
			}
			return m.affineWeight(j)
		})
	}
	if after != nil {
		m.MatrixBlock(idx, after)
	}
	if target != nil {
		target = target[:k*k]
		m.MatrixBlock(idx, target)
		h := -0.5 * tr.step.Eta
		for a, i := range idx {
			for b, j := range idx {
				if i != BiasCoord && j != BiasCoord {
					v := 0.0
					if i != j {
						v, _ = m.g.at(i, j)
						v *= h * m.fw.weight(i) * m.fw.weight(j)
					}
					target[a*k+b] = v
				}
			}
		}
	}
	if grad != nil {
		gradBlock(idx, tr.x, tr.step.Deriv, false, grad)
	}
	return true
}

// Refreshes returns how many times S was recomputed.
func (m *OCCFMK) Refreshes() int { return m.refreshes }

// ResidualVariance returns the mean of (ŷ − y)² over the rows learned,
// each scored before it was learned (the progressive mean squared error),
// for the squared loss: how far a rating falls from the model's
// prediction, which Personalize uses as the noise of a new person's
// ratings. It returns 0 before any row, for the logistic loss, and for a
// model of a file that predates it.
func (m *OCCFMK) ResidualVariance() float64 {
	if m.legacy || m.t == 0 || m.s.Loss != Squared {
		return 0
	}
	return m.se / float64(m.t)
}

// Certified returns ε, the certified bound on ‖C − C*‖_F (see OCCFMK).
func (m *OCCFMK) Certified() float64 { return m.eps }

// NuclearNorm returns ‖C‖* = Σ|μ|.
func (m *OCCFMK) NuclearNorm() float64 {
	var s float64
	for _, a := range m.active {
		s += math.Abs(m.mu[a])
	}
	return s
}

// Rank returns the rank of C.
func (m *OCCFMK) Rank() int { return len(m.active) }

// Eigenvalues returns C's nonzero eigenvalues, largest |μ| first.
func (m *OCCFMK) Eigenvalues() []float64 {
	out := make([]float64, 0, len(m.active))
	for _, a := range m.active {
		out = append(out, m.mu[a])
	}
	slices.SortFunc(out, func(a, b float64) int { return -cmpFloat(math.Abs(a), math.Abs(b)) })
	return out
}

// PairSpectrum appends C's nonzero eigenvalues μₐ to dst, in the order of
// PairCoords (see EigenPairs).
func (m *OCCFMK) PairSpectrum(dst []float64) []float64 {
	for _, a := range m.active {
		dst = append(dst, m.mu[a])
	}
	return dst
}

// PairCoords appends feature i's coordinates in the eigenvectors of the
// pairs of the weighted rows, uₐᵢ = (S·W)[i, a] for μₐ ≠ 0, to dst: C̃ =
// Σₐ μₐuₐuₐᵀ with orthonormal uₐ, and C_ij = dᵢ^(−½)dⱼ^(−½)·C̃_ij with the
// features' weights (see featureWeights). Zeros for a feature never seen,
// and for one seen since S was last recomputed (outside S: its pairs come
// from the fold-in, see foldIn).
func (m *OCCFMK) PairCoords(i int, dst []float64) []float64 {
	if i < 0 || i >= m.d {
		for range m.active {
			dst = append(dst, 0)
		}
		return dst
	}
	s := m.row(i)
	for _, a := range m.active {
		dst = append(dst, coordIn(s, m.w, m.ld, a))
	}
	return dst
}

// PairDim returns the number of features covered.
func (m *OCCFMK) PairDim() int { return m.d }

// Threshold returns θ, the soft threshold of the last projection.
func (m *OCCFMK) Threshold() float64 { return m.theta }

// MatrixBlock writes C's block on idx (see MatrixModel): with C = U·M·Uᵀ,
// the rows A = U_idx give A·M·Aᵀ in O(|idx|·b² + |idx|²·b).
func (o *OCCFM) MatrixBlock(idx []int, dst []float64) { o.block(idx, o.c.m, o.c.b, dst) }

// urowOf returns the row of U of caller coordinate j (BiasCoord or a
// feature), or nil for a feature never seen.
func (o *OCCFM) urowOf(j int) []float64 {
	if j == BiasCoord {
		return o.c.urow(0)
	}
	if j < 0 || j >= len(o.feat) || o.feat[j] == 0 {
		return nil
	}
	return o.c.urow(int(o.feat[j]))
}

// block writes A·M·Aᵀ for A = U_idx and the b×b row-major mm (the current
// M or a copy of an earlier one with the same U).
func (o *OCCFM) block(idx []int, mm []float64, b int, dst []float64) {
	k := len(idx)
	dst = dst[:k*k]
	clear(dst)
	if b == 0 {
		return
	}
	w := make([]float64, k*b) // W = A·M
	for i, j := range idx {
		a := o.urowOf(j)
		if a == nil {
			continue
		}
		wi := w[i*b : (i+1)*b]
		for p, ap := range a[:b] {
			if ap != 0 {
				spectral.Axpy(ap, mm[p*b:(p+1)*b], wi)
			}
		}
	}
	for i := range idx {
		wi := w[i*b : (i+1)*b]
		for jj := i; jj < k; jj++ {
			a := o.urowOf(idx[jj])
			if a == nil {
				continue
			}
			v := spectral.Dot(wi, a[:b])
			dst[i*k+jj], dst[jj*k+i] = v, v
		}
	}
}

// fwTrace is what TraceSteps records of the last round.
type fwTrace struct {
	step    FWStep
	ok      bool
	x       data.Sparse // the row, caller coordinates
	m       []float64   // M after the LMO, before the mix (U is unchanged by the mix)
	b, sk   int
	v       []float64 // the atom's direction in S coordinates, q = S·v
	refresh int       // o.refreshes before the LMO
}

// TraceSteps turns on (or off) the record of each round's Frank-Wolfe step
// that LastStep and StepBlocks read. Recording copies M (b×b) and the row
// once a round: O(b² + nnz(x)), against the round's O(nnz(x)·b + k³)
// and more. Recording does not change what the learner learns.
func (o *OCCFM) TraceSteps(on bool) {
	if !on {
		o.tr = nil
	} else if o.tr == nil {
		o.tr = &fwTrace{}
	}
}

// LastStep returns the last round's step, when TraceSteps was on for it.
func (o *OCCFM) LastStep() (FWStep, bool) {
	if o.tr == nil || !o.tr.ok || o.tr.step.Round != o.t {
		return FWStep{}, false
	}
	return o.tr.step, true
}

// StepBlocks writes, on the coordinates idx (as MatrixBlock), the four
// matrices of the last round's step: Cₜ before the mix, the atom Ĉₜ, Cₜ₊₁
// after it (so that after = (1 − γ)·before + γ·atom, up to rounding), and
// the gradient's rank-one term ∇fₜ(Cₜ) = ℓ'·½x̂x̂ᵀ. Any of them may be nil.
// Cₜ is C as the LMO left it: a refresh may first recompress C, dropping
// eigenvalues below its threshold (see truncate). It reports false, and
// writes nothing, without a traced step of the current round.
func (o *OCCFM) StepBlocks(idx []int, before, atom, after, grad []float64) bool {
	if _, ok := o.LastStep(); !ok {
		return false
	}
	tr, k := o.tr, len(idx)
	if before != nil {
		o.block(idx, tr.m, tr.b, before)
	}
	if atom != nil {
		atom = atom[:k*k]
		clear(atom)
		if tr.step.Lambda != 0 && tr.sk > 0 {
			q := make([]float64, k)
			for i, j := range idx {
				if a := o.urowOf(j); a != nil {
					q[i] = spectral.Dot(a[:tr.sk], tr.v)
				}
			}
			s := tr.step.Delta * math.Copysign(1, tr.step.Lambda)
			for i := range q {
				for j := range q {
					atom[i*k+j] = s * q[i] * q[j]
				}
			}
		}
	}
	if after != nil {
		o.MatrixBlock(idx, after)
	}
	if grad != nil {
		gradBlock(idx, tr.x, tr.step.Deriv, true, grad)
	}
	return true
}

// gradBlock writes the row x's gradient ℓ'·½x̂x̂ᵀ on the coordinates idx
// (as MatrixBlock), len(idx)² values; without selfPairs a feature's
// diagonal is 0 (a model with no self-interactions, OCCFMK).
func gradBlock(idx []int, x data.Sparse, deriv float64, selfPairs bool, grad []float64) {
	k := len(idx)
	grad = grad[:k*k]
	xh := make([]float64, k)
	for i, j := range idx {
		if j == BiasCoord {
			xh[i] = 1
			continue
		}
		for p, f := range x.Ind {
			if f == j {
				xh[i] = x.Val[p]
			}
		}
	}
	w := 0.5 * deriv
	for i := range xh {
		for j := range xh {
			grad[i*k+j] = w * xh[i] * xh[j]
			if i == j && !selfPairs && idx[i] != BiasCoord {
				grad[i*k+j] = 0
			}
		}
	}
}

// traceRow records the round's row and loss (learn calls it first).
func (tr *fwTrace) traceRow(o *OCCFM, x data.Sparse, yhat, y float64) {
	tr.ok = false
	tr.x.Ind = append(tr.x.Ind[:0], x.Ind...)
	tr.x.Val = append(tr.x.Val[:0], x.Val...)
	tr.step = FWStep{Round: o.t, Prediction: yhat, Label: y, Loss: o.s.Loss.Value(yhat, y),
		Deriv: o.s.Loss.Deriv(yhat, y), Delta: o.s.Delta, Eta: o.s.Eta}
	tr.refresh = o.refreshes
}

// traceLMO records the LMO's answer and C before the mix (step calls it
// between the two).
func (tr *fwTrace) traceLMO(o *OCCFM, lambda float64, v []float64) {
	b := o.c.b
	tr.m = append(tr.m[:0], o.c.m[:b*b]...)
	tr.b, tr.sk = b, len(v)
	tr.v = append(tr.v[:0], v...)
	tr.step.Lambda = lambda
	tr.step.Refreshed = o.refreshes != tr.refresh
	tr.step.ValueGap = o.s.Delta * o.lmoTol(lambda)
	tr.step.GammaSchedule = o.gamma()
}

// traceMix records the step taken.
func (tr *fwTrace) traceMix(gamma float64) {
	tr.step.Gamma = gamma
	tr.ok = true
}

var (
	_ MatrixModel = (*OCCFM)(nil)
	_ MatrixModel = (*OCCFMLin)(nil)
	_ EigenPairs  = (*OCCFMK)(nil)
)
