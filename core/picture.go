package core

import (
	"math"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/spectral"
)

// BiasCoord is the index MatrixBlock and StepBlocks take for x̂'s constant
// coordinate 1: its row and column of C hold the linear weights w and, in
// the corner, 2b (eq. (3) of the paper, C = [[Z, w], [wᵀ, 2b]]).
const BiasCoord = -1

// MatrixModel is the optional ability of a learner whose model is, or is
// equivalent to, one symmetric matrix C over x̂ = [x; 1], predicting
// ŷ = ½x̂ᵀCx̂: it lets a view draw the model.
type MatrixModel interface {
	// MatrixBlock writes C's principal block on the coordinates idx into
	// dst, row-major, len(idx)² values: idx[i] = j ≥ 0 stands for feature
	// j, BiasCoord for x̂'s constant 1. A feature the learner has not seen
	// has a zero row. It does not change the learner.
	MatrixBlock(idx []int, dst []float64)
}

var (
	_ MatrixModel = (*OCCFM)(nil)
	_ MatrixModel = (*OCCFMLin)(nil)
)

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

// FWStep describes the last round of Algorithm 2 an OCCFM played, for a
// view of the Frank-Wolfe step (see OCCFM.TraceSteps):
//
//	ŷₜ = ½x̂ᵀCₜx̂,  ∇fₜ(Cₜ) = ℓ'(ŷₜ, yₜ)·½x̂x̂ᵀ,
//	Hₜ = −∇Fₜ(Cₜ) = −(ηGₜ + 2Cₜ),  (λ, q) its eigenpair of largest |λ|,
//	Ĉₜ = δ·sign(λ)·qqᵀ,  Cₜ₊₁ = (1 − γ)Cₜ + γĈₜ.
type FWStep struct {
	Round      int     // t
	Prediction float64 // ŷₜ (for OCCFMLin, with its linear part)
	Label      float64 // yₜ
	Loss       float64 // ℓ(ŷₜ, yₜ)
	Deriv      float64 // ℓ'(ŷₜ, yₜ)
	Lambda     float64 // λ = qᵀHₜq; 0: no step (C = 0 and G = 0)
	// Refreshed: a Lanczos run found (λ, q) this round; otherwise the
	// tracked subspace's certificate proved its Ritz pair good enough.
	Refreshed bool
	// ValueGap is the error the LMO allows in ⟨Ĉ, Hₜ⟩ = δ|λ| against the
	// best atom of K: εₜ = 4κγₜδ² (see lmoTol; Jaggi 2013, Theorem 1).
	// The certificate proves it when the tracked subspace answered; a
	// refresh's Lanczos run converges far inside it.
	ValueGap float64
	// Gamma is the step taken, GammaSchedule the schedule's γₜ; Gamma is
	// below it when the exact line search binds (see OCCFM.lineSearch).
	Gamma, GammaSchedule float64
	Delta, Eta           float64
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

// QuadraticBlock writes, for a model whose prediction ŷ = p(x) is a
// quadratic function of x, its equivalent matrix C (ŷ = ½x̂ᵀCx̂, eq. (3) of
// the paper) on the coordinates idx (as MatrixModel.MatrixBlock: feature
// j, or BiasCoord), read back from predictions by polarization:
//
//	C_bb = 2p(0),  C_ib = ½(p(eᵢ) − p(−eᵢ)),  C_ii = p(eᵢ) + p(−eᵢ) − 2p(0),
//	C_ij = p(eᵢ + eⱼ) − p(eᵢ) − p(eⱼ) + p(0).
//
// Every learner of the registry but occfm-auto predicts a quadratic in x
// (bias and linear ones have Z = 0; FM-FTRL's Z = VVᵀ off its diagonal;
// CFM-FTRL's Z; ccfm-pairs' table, hashed slots shared), so this draws any
// of them the same way; occfm-auto's mixture of predictions is not a
// quadratic. It costs about |idx|²/2 + 2|idx| predictions. The
// differences of predictions leave rounding errors of about ε·|ŷ| where C
// is exactly 0 (a bias learner's Z): entries within 64ε of the largest
// |ŷ| used are written as 0.
func QuadraticBlock(p0f func(data.Sparse) float64, idx []int, dst []float64) {
	k := len(idx)
	dst = dst[:k*k]
	var scale float64
	p := func(x data.Sparse) float64 {
		y := p0f(x)
		scale = max(scale, math.Abs(y))
		return y
	}
	one := func(j int, v float64) float64 { return p(data.Sparse{Ind: []int{j}, Val: []float64{v}}) }
	p0 := p(data.Sparse{})
	plus := make([]float64, k) // p(eᵢ)
	pair := data.Sparse{Ind: make([]int, 2), Val: []float64{1, 1}}
	var bias []int // where idx holds BiasCoord
	for a, i := range idx {
		if i == BiasCoord {
			bias = append(bias, a)
			dst[a*k+a] = 2 * p0
		}
	}
	for a, i := range idx {
		if i == BiasCoord {
			continue
		}
		plus[a] = one(i, 1)
		minus := one(i, -1)
		dst[a*k+a] = plus[a] + minus - 2*p0
		for _, b := range bias {
			dst[a*k+b], dst[b*k+a] = 0.5*(plus[a]-minus), 0.5*(plus[a]-minus)
		}
	}
	for a, i := range idx {
		if i == BiasCoord {
			continue
		}
		for b := a + 1; b < k; b++ {
			j := idx[b]
			if j == BiasCoord {
				continue
			}
			if i == j {
				dst[a*k+b], dst[b*k+a] = dst[a*k+a], dst[a*k+a]
				continue
			}
			pair.Ind[0], pair.Ind[1] = min(i, j), max(i, j)
			v := p(pair) - plus[a] - plus[b] + p0
			dst[a*k+b], dst[b*k+a] = v, v
		}
	}
	tol := 64 * 0x1p-52 * scale
	for i, v := range dst {
		if math.Abs(v) <= tol {
			dst[i] = 0
		}
	}
}

// BlockSpectrum returns the eigenvalues of the symmetric k×k row-major a
// (a is not changed) by decreasing |λ|, and a unit eigenvector of the
// first, with its largest entry positive (nil for k = 0).
func BlockSpectrum(a []float64, k int) (vals, lead []float64) {
	if k == 0 {
		return nil, nil
	}
	m := make([]float64, k*k)
	copy(m, a[:k*k])
	// SymEigenInPlace reads the lower triangle: make the block exactly
	// symmetric first.
	for i := 0; i < k; i++ {
		for j := 0; j < i; j++ {
			s := 0.5 * (m[i*k+j] + m[j*k+i])
			m[i*k+j], m[j*k+i] = s, s
		}
	}
	raw := make([]float64, k)
	var work []float64
	spectral.SymEigenInPlace(m, k, raw, &work)
	order := spectral.OrderByAbs(nil, raw)
	vals = make([]float64, k)
	for n, i := range order {
		vals[n] = raw[i]
	}
	lead = make([]float64, k)
	top, big := order[0], 0.0
	for i := range lead {
		lead[i] = m[i*k+top]
		if math.Abs(lead[i]) > math.Abs(big) {
			big = lead[i]
		}
	}
	if big < 0 {
		for i := range lead {
			lead[i] = -lead[i]
		}
	}
	return vals, lead
}

// RankOf returns how many of vals exceed tol in absolute value: the rank
// of a symmetric matrix from its eigenvalues, those within tol of 0 counted
// as 0.
func RankOf(vals []float64, tol float64) int {
	r := 0
	for _, v := range vals {
		if math.Abs(v) > tol {
			r++
		}
	}
	return r
}

var _ EigenPairs = (*OCCFMK)(nil)
