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

// MatrixBlock writes the block of the matrix C of m's convex part; its
// linear part learns outside C (see OCCFMLin).
func (m *OCCFMLin) MatrixBlock(idx []int, dst []float64) { m.occ.MatrixBlock(idx, dst) }

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

// TraceSteps turns on the record of its convex part's Frank-Wolfe steps
// (see OCCFM.TraceSteps).
func (m *OCCFMLin) TraceSteps(on bool) { m.occ.TraceSteps(on) }

// LastStep returns the last round's step, when TraceSteps was on for it.
func (o *OCCFM) LastStep() (FWStep, bool) {
	if o.tr == nil || !o.tr.ok || o.tr.step.Round != o.t {
		return FWStep{}, false
	}
	return o.tr.step, true
}

// LastStep returns its convex part's last step (see OCCFM.LastStep).
func (m *OCCFMLin) LastStep() (FWStep, bool) { return m.occ.LastStep() }

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
		grad = grad[:k*k]
		xh := make([]float64, k)
		for i, j := range idx {
			if j == BiasCoord {
				xh[i] = 1
				continue
			}
			for p, f := range tr.x.Ind {
				if f == j {
					xh[i] = tr.x.Val[p]
				}
			}
		}
		w := 0.5 * tr.step.Deriv
		for i := range xh {
			for j := range xh {
				grad[i*k+j] = w * xh[i] * xh[j]
			}
		}
	}
	return true
}

// StepBlocks writes its convex part's step (see OCCFM.StepBlocks).
func (m *OCCFMLin) StepBlocks(idx []int, before, atom, after, grad []float64) bool {
	return m.occ.StepBlocks(idx, before, atom, after, grad)
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

// TraceSteps turns on (or off) the record of the Frank-Wolfe steps of
// every OCCFMLin expert (see OCCFM.TraceSteps), so that the one Leading
// returns has its last step on record.
func (m *OCCFMAuto) TraceSteps(on bool) {
	for _, e := range m.experts {
		if l, ok := e.(*OCCFMLin); ok {
			l.TraceSteps(on)
		}
	}
}

// Top returns the live expert of largest weight (bias and linear never
// retire, so there is one), with its description: the model occfm-auto
// trusts most, which a view can draw (every expert predicts a quadratic
// in x, see QuadraticBlock).
func (m *OCCFMAuto) Top() (Learner, AutoExpert) {
	ex := m.Experts()
	best := -1
	for k, e := range m.experts {
		if e != nil && (best < 0 || ex[k].Weight > ex[best].Weight) {
			best = k
		}
	}
	return m.experts[best], ex[best]
}
