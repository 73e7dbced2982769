package core

import (
	"math"
	"sort"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/spectral"
)

// ComparatorSettings configures NewComparator. The zero value is δ = 10,
// the squared loss and the all-pairs model.
type ComparatorSettings struct {
	// Delta is the nuclear-norm bound δ of K. Zero means 10.
	Delta float64
	// Loss is ℓ; the zero value is Squared.
	Loss Loss
	// NoSelfInteractions drops the feature diagonal from ŷ, as in OCCFM.
	NoSelfInteractions bool
	// CorrectWork caps the work of one fully corrective step, in
	// multiply-adds (about rows·b²·steps); fewer inner steps are taken to
	// fit, none below 2. Zero means no cap. The page sets it to keep each
	// slice short.
	CorrectWork float64
}

// Comparator solves the regret comparator in hindsight,
//
//	F* = min over C ∈ K of F(C) = Σₜ fₜ(C),  fₜ(C) = ℓ(½x̂ₜᵀCx̂ₜ, yₜ),
//
// over the rows it holds, by batch Frank-Wolfe: the same linear
// minimization oracle as OCCFM (Theorem 1: Ĉ = δ·sign(λ)·qqᵀ for the
// eigenpair of −∇F(C) of largest |λ|) on the full-batch gradient, with an
// exact line search. Its duality gap g = ⟨∇F(Cₖ), Cₖ − Ĉₖ⟩ certifies
// F(Cₖ) − g ≤ F* ≤ F(Cₖ). Rows can be added between iterations; the solve
// goes on warm from Cₖ.
//
// It keeps every row (about 12·nnz + 24 bytes each) and its current
// prediction; the matrix Cₖ itself stays in factored form. A Comparator is
// not safe for concurrent use.
type Comparator struct {
	s ComparatorSettings

	// Rows, flattened: row t has features ind[off[t]:off[t+1]].
	off  []int32
	ind  []int32
	val  []float64
	y    []float64
	yhat []float64 // ŷₜ(Cₖ)
	n    int       // dimension of C: 1 + features seen
	// feat numbers the features of the rows held in order of first
	// appearance (C's coordinate of feature j is feat[j]+1), so that C and
	// the Lanczos vectors span the features of these rows only, whatever
	// the indices of the rows left out. A stream numbers its features in
	// order of first appearance too, so for the rows of one stream that
	// all enter, feat is the identity.
	feat map[int]int32

	c     lowRankSym // Cₖ
	q     []float64  // last LMO direction (warm start)
	iters int
	gap   float64 // duality gap at the last iteration (+Inf before any)
	loss  float64 // F(Cₖ) at the last iteration
	// lambda and resid of the last LMO, for the certificate.
	lambda, resid float64
}

// NewComparator returns a Comparator with C₀ = 0 and no rows.
func NewComparator(s ComparatorSettings) *Comparator {
	if s.Delta == 0 {
		s.Delta = DefaultDelta
	}
	if s.Delta < 0 {
		panic("core: negative δ")
	}
	c := &Comparator{s: s, off: []int32{0}, gap: math.Inf(1), n: 1}
	c.c.grow(1)
	return c
}

// Rows returns the number of rows held.
func (c *Comparator) Rows() int { return len(c.y) }

// Add appends a row. Its prediction under the current Cₖ is computed at
// once (O(nnz(x)·b + b²)), so the solve continues warm.
func (c *Comparator) Add(x data.Sparse, y float64) {
	if c.feat == nil {
		c.feat = make(map[int]int32)
	}
	for k, j := range x.Ind {
		i, ok := c.feat[j]
		if !ok {
			i = int32(len(c.feat))
			c.feat[j] = i
		}
		c.ind = append(c.ind, i)
		c.val = append(c.val, x.Val[k])
		c.n = max(c.n, int(i)+2)
	}
	c.off = append(c.off, int32(len(c.ind)))
	c.y = append(c.y, y)
	c.c.grow(c.n)
	c.yhat = append(c.yhat, c.predict(len(c.y)-1))
	c.gap = math.Inf(1)
}

// row returns row t as a Sparse view (ind converted into buf).
func (c *Comparator) row(t int, buf []int) data.Sparse {
	lo, hi := c.off[t], c.off[t+1]
	buf = buf[:0]
	for _, j := range c.ind[lo:hi] {
		buf = append(buf, int(j))
	}
	return data.Sparse{Ind: buf, Val: c.val[lo:hi]}
}

// predict returns ½x̂ₜᵀCₖx̂ₜ (minus the feature diagonal without
// self-interactions).
func (c *Comparator) predict(t int) float64 {
	if c.c.b == 0 {
		return 0
	}
	x := c.row(t, nil)
	z := make([]float64, c.c.b)
	c.c.project(z, x)
	y := 0.5 * c.c.quad(z)
	if c.s.NoSelfInteractions {
		for k, j := range x.Ind {
			y -= 0.5 * x.Val[k] * x.Val[k] * c.c.diag(j+1)
		}
	}
	return y
}

// atomPredict returns ½x̂ₜᵀ(qqᵀ)x̂ₜ for row t (minus the feature diagonal
// without self-interactions).
func (c *Comparator) atomPredict(t int, q []float64) float64 {
	lo, hi := c.off[t], c.off[t+1]
	s := q[0]
	var d float64
	for k := lo; k < hi; k++ {
		v := c.val[k] * q[c.ind[k]+1]
		s += v
		d += v * v
	}
	if c.s.NoSelfInteractions {
		return 0.5 * (s*s - d)
	}
	return 0.5 * s * s
}

// gradOp is −∇F(Cₖ) = −Σₜ ℓ'(ŷₜ, yₜ)·½Mₜ as a matrix-free operator,
// with the derivatives fixed when it is built.
type gradOp struct {
	c *Comparator
	d []float64 // ℓ'(ŷₜ, yₜ)
}

func (g gradOp) Dim() int { return g.c.n }

func (g gradOp) Apply(y, v []float64) {
	c := g.c
	for t, dt := range g.d {
		if dt == 0 {
			continue
		}
		lo, hi := c.off[t], c.off[t+1]
		s := v[0]
		for k := lo; k < hi; k++ {
			s += c.val[k] * v[c.ind[k]+1]
		}
		w := -0.5 * dt
		y[0] += w * s
		for k := lo; k < hi; k++ {
			j := c.ind[k] + 1
			y[j] += w * c.val[k] * s
			if c.s.NoSelfInteractions {
				y[j] -= w * c.val[k] * c.val[k] * v[j]
			}
		}
	}
}

// Iterate runs at most iters Frank-Wolfe iterations and returns how many
// ran. It stops early when the gap is 0.
func (c *Comparator) Iterate(iters int) int {
	if len(c.y) == 0 {
		return 0
	}
	done := 0
	for ; done < iters; done++ {
		if !c.step() {
			break
		}
	}
	return done
}

// step runs one iteration: LMO on the full gradient, the certified gap,
// the exact line search, and the move. It reports false when the gap is 0.
func (c *Comparator) step() bool {
	T := len(c.y)
	d := make([]float64, T)
	var loss, inner float64 // F(Cₖ) and ⟨∇F, Cₖ⟩ = Σ ℓ'ₜŷₜ
	for t := range d {
		d[t] = c.s.Loss.Deriv(c.yhat[t], c.y[t])
		loss += c.s.Loss.Value(c.yhat[t], c.y[t])
		inner += d[t] * c.yhat[t]
	}
	c.loss = loss
	// The LMO: the eigenpair of −∇F of largest |λ|, warm-started; enough
	// Lanczos steps to resolve both ends.
	if len(c.q) != c.n {
		q := make([]float64, c.n)
		copy(q, c.q)
		q[0] += 1
		c.q = q
	}
	res := spectral.Lanczos(gradOp{c, d}, c.q, 1, min(c.n, 20), 80, 1e-10)
	if len(res.Theta) == 0 || res.Theta[0] == 0 {
		c.gap = max(inner, 0)
		return false
	}
	lam, q := res.Theta[0], res.Vecs[0]
	c.lambda, c.resid = lam, res.Resid[0]
	copy(c.q, q)
	// ⟨∇F, Ĉ⟩ = −δ|λ| for Ĉ = δ·sign(λ)·qqᵀ, so g = ⟨∇F, Cₖ⟩ + δ|λ|. The
	// Ritz value is within its residual of an eigenvalue: adding it keeps g
	// an upper bound.
	c.gap = inner + c.s.Delta*(math.Abs(lam)+res.Resid[0])
	sign := math.Copysign(1, lam)
	// Direction in prediction space: dₜ = ŷₜ(Ĉ) − ŷₜ(Cₖ).
	dir := make([]float64, T)
	for t := range dir {
		dir[t] = sign*c.s.Delta*c.atomPredict(t, q) - c.yhat[t]
	}
	alpha := c.lineSearch(dir)
	if alpha <= 0 {
		return c.gap > 0
	}
	for t := range dir {
		c.yhat[t] += alpha * dir[t]
	}
	c.c.scale(1 - alpha)
	c.c.rebase([][]float64{q}, dropRule{abs: 1e-12 * c.s.Delta}, c.s.Delta, nil)
	c.c.addLeading(alpha*sign*c.s.Delta, []float64{1})
	c.iters++
	if c.iters%correctEvery == 0 {
		c.correct(correctIters)
	}
	return true
}

const (
	// correctEvery and correctIters set the fully corrective steps: every
	// correctEvery Frank-Wolfe iterations, correctIters accelerated
	// projected-gradient steps on the small problem in span(U).
	correctEvery = 20
	correctIters = 20
)

// correct improves Cₖ = U·M·Uᵀ within span(U): it minimizes
// F(U·M·Uᵀ) over symmetric M with ‖M‖* ≤ δ (the same ball, since U is
// orthonormal) by accelerated projected gradient (FISTA) with step 1/L,
// L = Σₜ ℓ”max·(½‖zₜ‖²)², zₜ = Uᵀx̂ₜ. This is the "fully corrective"
// variant of Frank-Wolfe: plain FW zigzags when the optimum is inside K
// (or on a face), and the corrective step removes that. Cost O(T·b²) per
// inner step for b basis columns. It never increases F: the iterate is
// only replaced when the corrected loss is lower.
func (c *Comparator) correct(iters int) {
	b, T := c.c.b, len(c.y)
	if b == 0 || b > 64 {
		return
	}
	if w := c.s.CorrectWork; w > 0 {
		iters = min(iters, int(w/(2*float64(T)*float64(b*b))))
		if iters < 2 {
			return
		}
	}
	z := make([]float64, T*b)
	curv := 2.0
	if c.s.Loss == Logistic {
		curv = 0.25
	}
	var lip float64
	for t := 0; t < T; t++ {
		zt := z[t*b : t*b+b]
		c.c.project(zt, c.row(t, nil))
		lip += curv * square(0.5*spectral.Dot(zt, zt))
	}
	if lip == 0 {
		return
	}
	eval := func(m []float64, yhat []float64, grad []float64) float64 {
		var f float64
		clear(grad)
		for t := 0; t < T; t++ {
			zt := z[t*b : t*b+b]
			yhat[t] = 0.5 * spectral.QuadForm(m, zt)
			if c.s.NoSelfInteractions {
				yhat[t] = c.atomless(t, m, zt)
			}
			f += c.s.Loss.Value(yhat[t], c.y[t])
			if grad != nil {
				w := 0.5 * c.s.Loss.Deriv(yhat[t], c.y[t])
				for i, zi := range zt {
					if zi != 0 {
						spectral.Axpy(w*zi, zt, grad[i*b:i*b+b])
					}
				}
			}
		}
		return f
	}
	x := append([]float64(nil), c.c.m...)
	y := append([]float64(nil), x...)
	grad := make([]float64, b*b)
	yhat := make([]float64, T)
	best := append([]float64(nil), x...)
	bestF := eval(x, yhat, nil)
	startF := bestF
	tk := 1.0
	for range iters {
		eval(y, yhat, grad)
		step := make([]float64, b*b)
		for i := range step {
			step[i] = y[i] - grad[i]/lip
		}
		xn := projectNuclear(step, b, c.s.Delta)
		tn := (1 + math.Sqrt(1+4*tk*tk)) / 2
		for i := range y {
			y[i] = xn[i] + (tk-1)/tn*(xn[i]-x[i])
		}
		x, tk = xn, tn
		if f := eval(x, yhat, nil); f < bestF {
			bestF = f
			copy(best, x)
		}
	}
	if bestF >= startF {
		return
	}
	copy(c.c.m, best)
	eval(best, c.yhat, nil)
}

// atomless is ŷₜ without the feature diagonal for C = U·M·Uᵀ.
func (c *Comparator) atomless(t int, m, zt []float64) float64 {
	y := 0.5 * spectral.QuadForm(m, zt)
	for k := c.off[t]; k < c.off[t+1]; k++ {
		y -= 0.5 * c.val[k] * c.val[k] * spectral.QuadForm(m, c.c.urow(int(c.ind[k])+1))
	}
	return y
}

// projectNuclear returns the Euclidean projection of the symmetric b×b
// matrix a (row-major) onto {‖M‖* ≤ δ}: eigendecompose, project the
// eigenvalues onto the ℓ₁ ball of radius δ (Duchi et al. 2008), rebuild.
func projectNuclear(a []float64, b int, delta float64) []float64 {
	vals, vecs := spectral.SymEigen(a, b)
	shrinkL1(vals, delta)
	out := make([]float64, b*b)
	for k, v := range vals {
		if v == 0 {
			continue
		}
		for i := 0; i < b; i++ {
			vik := v * vecs[i*b+k]
			for j := 0; j < b; j++ {
				out[i*b+j] += vik * vecs[j*b+k]
			}
		}
	}
	return out
}

// shrinkL1 projects v onto the ℓ₁ ball of radius r in place: sort |vᵢ|
// decreasingly, find the threshold θ, soft-threshold (Duchi et al. 2008).
func shrinkL1(v []float64, r float64) {
	var l1 float64
	for _, x := range v {
		l1 += math.Abs(x)
	}
	if l1 <= r {
		return
	}
	abs := make([]float64, len(v))
	for i, x := range v {
		abs[i] = math.Abs(x)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(abs)))
	var cum, theta float64
	for i, a := range abs {
		cum += a
		if th := (cum - r) / float64(i+1); a > th {
			theta = th
		}
	}
	for i, x := range v {
		v[i] = math.Copysign(max(math.Abs(x)-theta, 0), x)
	}
}

// lineSearch returns α ∈ [0, 1] minimizing Σₜ ℓ(ŷₜ + α·dirₜ, yₜ): in
// closed form for the squared loss, by safeguarded Newton steps otherwise.
func (c *Comparator) lineSearch(dir []float64) float64 {
	if c.s.Loss == Squared {
		var num, den float64
		for t, dt := range dir {
			num -= (c.yhat[t] - c.y[t]) * dt
			den += dt * dt
		}
		if den == 0 {
			return 0
		}
		return min(max(num/den, 0), 1)
	}
	lo, hi, a := 0.0, 1.0, 0.5
	for range 30 {
		var g, h float64
		for t, dt := range dir {
			m := c.y[t] * (c.yhat[t] + a*dt)
			s := Sigmoid(-m)
			g += -c.y[t] * s * dt
			h += s * (1 - s) * dt * dt
		}
		if g > 0 {
			hi = a
		} else {
			lo = a
		}
		next := a - g/h
		if h == 0 || !(next > lo && next < hi) {
			next = 0.5 * (lo + hi)
		}
		if math.Abs(next-a) < 1e-12 {
			a = next
			break
		}
		a = next
	}
	return a
}

// Loss returns F(Cₖ) over the rows held (computed at the last iteration;
// call Iterate after Add).
func (c *Comparator) Loss() float64 {
	var f float64
	for t, y := range c.y {
		f += c.s.Loss.Value(c.yhat[t], y)
	}
	return f
}

// Gap returns the duality gap g at the iterate where the last iteration
// started (+Inf before the first iteration on the current rows).
func (c *Comparator) Gap() float64 { return c.gap }

// Bounds returns a certified interval for F*: lo = F(Cₖ) − gₖ, computed at
// the iterate where the last iteration started, and hi = F(Cₖ₊₁), the loss
// of the current iterate (a point of K). Before any iteration on the
// current rows lo is −Inf.
func (c *Comparator) Bounds() (lo, hi float64) {
	return c.loss - c.gap, c.Loss()
}

// Iterations returns the number of Frank-Wolfe steps taken.
func (c *Comparator) Iterations() int { return c.iters }

// NuclearNorm returns ‖Cₖ‖*.
func (c *Comparator) NuclearNorm() float64 { return c.c.nuclearNorm() }

// MemoryBytes estimates the bytes c holds (see Sized): 12 bytes a stored
// nonzero plus 20 a row (the rows it keeps, bounded by
// RegretSettings.MaxRows), its iterate C and its feature numbering.
func (c *Comparator) MemoryBytes() int64 {
	return structBytes + i32Bytes(c.off) + i32Bytes(c.ind) + sumF64Bytes(c.val, c.y, c.yhat, c.q) + c.c.memoryBytes() +
		int64(len(c.feat))*mapEntryBytes
}

// MemoryNote says how many rows c keeps (see MemoryNoter).
func (c *Comparator) MemoryNote() string {
	return countText(int64(len(c.y))) + " rows kept for the comparator"
}

func square(x float64) float64 { return x * x }
