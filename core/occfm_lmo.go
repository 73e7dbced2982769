package core

import (
	"math"

	"github.com/occfm/occfm/core/internal/str"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/spectral"
)

// This file holds OCCFM's linear minimization oracle (Algorithm 2 line 5,
// Theorem 1): the eigenpair of H = −∇Fₜ(Cₜ) of largest |λ|, from the
// tracked subspace S when its certificate holds and from a warm-started
// Lanczos refresh otherwise (see LMOMethod), and the certificate's
// bookkeeping.

// occfmH is H = −ηG − 2C as a matrix-free operator for Lanczos.
type occfmH struct{ o *OCCFM }

func (h occfmH) Dim() int             { return h.o.n }
func (h occfmH) Apply(y, v []float64) { h.o.applyH(y, v) }

// trackB adds c·r·aᵀ to B, r = x̂ − S·a = (I−SSᵀ)x̂ with ‖r‖² = rr:
// E += c·x̂aᵀ, F += c·aaᵀ, and K = BᵀB += c(Bᵀr·aᵀ + a·rᵀB) + c²‖r‖²aaᵀ,
// where Bᵀr = Bᵀx̂ since B ⊥ S, and row j of B is B₀ⱼ + Eⱼ − Sⱼ·F.
func (o *OCCFM) trackB(c float64, x data.Sparse, a []float64, rr float64) {
	k, sk := o.k, o.sk
	bx := o.bx[:sk]
	clear(bx)
	o.addBRow(bx, 0, 1)
	for p, j := range x.Ind {
		o.addBRow(bx, j+1, x.Val[p])
	}
	for i := 0; i < sk; i++ {
		ki := o.kB[i*k : i*k+sk]
		for j := range ki {
			ki[j] += c * (bx[i]*a[j] + a[i]*bx[j] + c*rr*a[i]*a[j])
		}
	}
	spectral.Axpy(c, a, o.e[:sk])
	for p, j := range x.Ind {
		spectral.Axpy(c*x.Val[p], a, o.e[(j+1)*k:(j+1)*k+sk])
	}
	for i := 0; i < sk; i++ {
		spectral.Axpy(c*a[i], a, o.f[i*k:i*k+sk])
	}
}

// addBRow sets bx += v·Bⱼ for row j of B = B₀ + E − S·F.
func (o *OCCFM) addBRow(bx []float64, j int, v float64) {
	k, sk := o.k, o.sk
	spectral.Axpy(v, o.b0[j*k:j*k+sk], bx)
	spectral.Axpy(v, o.e[j*k:j*k+sk], bx)
	for l, sl := range o.c.urow(j)[:sk] {
		if sl != 0 {
			spectral.Axpy(-v*sl, o.f[l*k:l*k+sk], bx)
		}
	}
}

// lmo returns the eigenvalue λ of H of largest |λ| and its eigenvector
// q = S·v in S coordinates (v unit, length sk).
func (o *OCCFM) lmo(x data.Sparse) (float64, []float64) {
	o.since++
	theta, v := o.ritz()
	cert := o.s.LMO == LMOTracked && o.sk > 0 && o.certified(theta)
	if cert && o.since < o.interval {
		return theta, v
	}
	exact := o.refresh(x)
	if cert && exact != 0 {
		// A refresh of the periodic guard: the certificate held, so a large
		// error means its estimate of ‖D‖ was low. The LMO's objective is
		// δ|λ| (⟨Ĉ, H⟩ for Ĉ = δ·sign(λ)·qqᵀ), so the guard compares |λ|:
		// when the two ends of the spectrum are nearly equal either choice
		// is as good.
		//
		// The interval halves when the error was over the allowed one (the
		// certificate's estimate was wrong). Under the fixed rule of old
		// model files it doubles only when the error was under a quarter of
		// it; under the step-tied rule the certificate lets the tracked
		// value lag by up to the allowed error by design, so any error
		// within it doubles the interval (the quarter rule would make the
		// guard refresh more often than the certificate does: docs/findings.md,
		// "The LMO's certificate and guard").
		rel := math.Abs(math.Abs(theta)-math.Abs(exact)) / o.lmoTol(exact)
		o.guardErr = math.Max(o.guardErr, rel)
		double := 1.0
		if o.s.RefreshTol > 0 {
			double = 0.25
		}
		switch {
		case rel > 1:
			o.interval = max(1, o.interval/2)
		case rel <= double:
			o.interval = min(2*o.interval, 1024)
		}
	}
	if o.sk == 0 {
		return 0, nil
	}
	// Lanczos' top pair, exact for Hₜ with C before the recompression: the
	// first column of the new S.
	v = o.v[:o.sk]
	clear(v)
	v[0] = 1
	return exact, v
}

// certified reports whether the tracked Ritz value θ is provably within
// the error lmoTol allows of the largest |λ| of H, given what is known of the
// parts of H outside S. In the basis [S, S⊥], H = [[A, Bᵀ], [B, D]]. For
// μ > d ≥ λmax(D), the Schur complement A − μ + Bᵀ(μ − D)⁻¹B ≼
// A − μ + BᵀB/(μ − d), so if μ > λmax(A + BᵀB/(μ − d)) then H − μ' is
// negative definite for every μ' ≥ μ (Haynsworth inertia), i.e. λmax(H) < μ.
// The test takes μ = |θ| + lmoTol(θ) on both ends (−H for λmin), with
// BᵀB ≼ (1+s)K + (1+1/s)β²I for the untracked part ‖·‖ ≤ β of B. It tries the trace bound λmax(±A) + tr(·)/(μ − d) first and solves the
// small eigenproblem only when that fails. ‖D‖ at a refresh is estimated by
// Lanczos' next Ritz value; the periodic guard backs that estimate up.
func (o *OCCFM) certified(theta float64) bool {
	th := math.Abs(theta)
	if th == 0 {
		return false
	}
	sk, k := o.sk, o.k
	mu := th + o.lmoTol(th)
	beta := o.betaB()
	d0 := o.xD + 2*(1-o.cs)*o.cDW
	d0n := o.xD + 2*(1-o.cs)*o.cDWn
	var trK float64
	for i := 0; i < sk; i++ {
		trK += o.kB[i*k+i]
	}
	trK = max(trK, 0)
	// BᵀB ≼ (1+s)K + (1+1/s)β²I, s = β/√tr K: trace (√tr K + β√sk)².
	ks, kb := 1.0, 0.0
	switch {
	case beta == 0:
	case trK == 0:
		ks, kb = 0, beta*beta
	default:
		s := beta / math.Sqrt(trK)
		ks, kb = 1+s, (1+1/s)*beta*beta
	}
	trBound := ks*trK + kb*float64(sk)
	gp, gn := math.Inf(1), math.Inf(1)
	if !o.oldCert {
		gp, gn = o.gb.bounds()
	}
	for _, side := range [2]float64{1, -1} {
		top := o.vals[0] * side
		for _, l := range o.vals[1:sk] {
			top = max(top, l*side)
		}
		d := d0 + o.restP + min(o.eDp, gp)
		if side < 0 {
			d = d0n + o.restN + min(o.eDn, gn)
		}
		g := mu - d
		if g <= 0 {
			return false
		}
		if top+trBound/g < mu {
			continue
		}
		w := o.wk[:sk*sk]
		for i := 0; i < sk; i++ {
			for j := 0; j < sk; j++ {
				w[i*sk+j] = side*o.aS[i*k+j] + ks*o.kB[i*k+j]/g
			}
			w[i*sk+i] += kb / g
		}
		vals := o.bx[:sk] // free until the next trackB
		spectral.JacobiEigen(w, sk, vals, nil)
		lmax := vals[0]
		for _, l := range vals[1:] {
			lmax = max(lmax, l)
		}
		if lmax >= mu {
			return false
		}
	}
	return true
}

// lmoTol returns the error in |λ| the LMO allows at round t: with
// RefreshTol set, RefreshTol·max(|θ|, 2δ); otherwise εₜ/δ = 4κγₜδ for the
// value gap εₜ = κ·γₜ·D², D = 2δ, κ = LMOSlack.
//
// Frank-Wolfe tolerates an additive error in its linear subproblem of the
// order of the step's curvature term (Jaggi 2013, "Revisiting Frank-Wolfe:
// projection-free sparse convex optimization", §2 and Theorem 1: an atom
// within ½·κ·γₜ·C_f of the best keeps the O(1/t) rate with C_f multiplied
// by 1 + κ). For OCCFM, Fₜ's curvature constant is C_f = 2D² (Hessian 2I,
// diameter D = 2δ), so εₜ = κγₜD² adds at most κγₜ²D² to the one-step
// inequality Fₜ(Cₜ₊₁) ≤ Fₜ(Cₜ) − γₜ·g + γₜ²D² that Theorem 3's proof uses
// (Hazan, "Introduction to Online Convex Optimization", §7.3): the regret
// bound keeps its T^¾ rate, its D² terms multiplied by 1 + κ. The atom's
// value is δ·|θ|, so the gap in value is δ times the gap in |λ|. γₜ is the
// schedule's (1/√t by default), not the line search's, which only lowers
// Fₜ further (see lineSearch).
func (o *OCCFM) lmoTol(theta float64) float64 {
	if o.s.RefreshTol > 0 {
		return o.s.RefreshTol * o.lmoScale(theta)
	}
	return 4 * o.s.LMOSlack * o.gamma() * o.s.Delta
}

// betaB bounds the part of B that K does not track: the recompression's
// and the feature diagonal's perturbations, and C's decay outside S·S.
func (o *OCCFM) betaB() float64 { return o.xB + o.drop + 2*(1-o.cs)*o.cBW }

// lmoScale is the scale against which the LMO's accuracy is measured:
// max(|λ|, 2δ). 2δ bounds ‖2C‖₂, the C-part of H; near the optimum |λ| can
// be far smaller, and the step's direction matters in proportion to the
// scale of H, not of its shrinking top eigenvalue.
func (o *OCCFM) lmoScale(lambda float64) float64 {
	return max(math.Abs(lambda), 2*o.s.Delta)
}

// ritz runs Rayleigh-Ritz on S: it returns the eigenvalue θ of largest |θ|
// of A = SᵀHS = −ηSᵀGS − 2·M[:sk,:sk] and its unit eigenvector v. It leaves
// A in o.aS and all the Ritz values in o.vals.
func (o *OCCFM) ritz() (float64, []float64) {
	sk, k, b := o.sk, o.k, o.c.b
	if sk == 0 {
		return 0, nil
	}
	w := o.wk[:sk*sk]
	for i := 0; i < sk; i++ {
		for j := i; j < sk; j++ {
			h := 0.5*(o.tG[i*k+j]+o.tG[j*k+i]) - (o.c.m[i*b+j] + o.c.m[j*b+i])
			o.aS[i*k+j], o.aS[j*k+i] = h, h
			w[i*sk+j], w[j*sk+i] = h, h
		}
	}
	vals, ev := o.vals[:sk], o.ev[:sk*sk]
	spectral.JacobiEigen(w, sk, vals, ev)
	top := spectral.ArgMaxAbs(vals)
	v := o.v[:sk]
	for i := range v {
		v[i] = ev[i*sk+top]
	}
	return vals[top], v
}

// refresh rebuilds S from a Lanczos run warm-started at the current
// direction q = S·v, perturbed slightly (by a fixed random vector, and
// towards x̂) so that both ends of the spectrum stay in reach, re-bases C on the new S, and recomputes
// SᵀGS from the Lanczos relation. It returns Lanczos' eigenvalue.
func (o *OCCFM) refresh(x data.Sparse) float64 {
	n := o.n
	// ⟨G, C⟩ after the recompression: when the line search decided the
	// last step, exactly, one product with G per eigenpair dropped;
	// otherwise (the ball binds, as at the default δ) within a bound,
	// |Δ| ≤ ‖G‖₂·(nuclear norm dropped), and step computes it exactly only
	// if that bound could change its decision (see below).
	var onDrop func(float64, []float64)
	if !o.s.PaperStep && o.lsBinds {
		onDrop = o.dropPhi
	}
	// The recompression comes first, in C's current basis, so that the
	// Lanczos run sees H with the C the step will move from and the
	// certificate starts with no perturbation from it. (Learners from
	// older model files recompress in rebase, after the run, and carry
	// the change of H, up to twice the nuclear norm dropped, as a
	// perturbation.)
	rule, truncated, rebaseDrop := o.dropRule(), 0.0, onDrop
	if !o.oldCert {
		var kept int
		truncated, kept = o.c.truncate(rule, onDrop)
		// rebase then drops only the zero eigenpairs truncate left in M
		// (all of them when it kept none: dropRule{} drops exact zeros),
		// whose share of ⟨G, C⟩ is rounding: no product with G for them.
		rule, rebaseDrop = dropRule{maxRank: kept}, nil
	}
	k := min(o.k, n)
	minIter, tol := k+2, 1e-6
	if o.s.LMO == LMOLanczos {
		// The reference: enough steps to resolve near-ties at the top.
		minIter, tol = max(k+2, 20), 1e-10
	}
	res := o.lw.RunValues(occfmH{o}, o.lanczosStart(x), k, minIter, 60, tol)
	o.refreshes++
	o.matvecs += res.Iters
	o.since = 0
	sk, rest := keptRitz(res)
	o.lw.Assemble(sk)
	res.Theta = res.Theta[:sk]
	shs := o.projectH(res, sk)
	// ‖G‖₂ ≤ (‖H‖₂ + 2‖C‖₂)/η for the bound on ⟨G, C⟩'s change is
	// estimated from Lanczos' top |θ| and residual, with a factor 2 of
	// margin: an estimate, not a certificate.
	dropped, only := o.c.rebase(res.Vecs, rule, o.s.Delta, rebaseDrop)
	switch {
	case o.s.PaperStep || truncated+dropped == 0:
	case !only:
		o.phi, o.phiErr = o.innerGC(), 0
	case onDrop == nil:
		if len(res.Theta) > 0 {
			o.gBound = 2 * (math.Abs(res.Theta[0]) + res.Resid[0] + o.lmoTol(res.Theta[0]) + 2*o.s.Delta) / o.s.Eta
		}
		o.phiErr += o.gBound * (truncated + dropped)
	}
	o.sk = sk
	// The certificate restarts: K = B₀ᵀB₀ exactly (restart), D's ends are
	// estimated by the next Ritz value; dropping eigenvalues of C of total
	// |λ| ε' after the run (here only the rescaling into K that rounding
	// can call for, except for older model files) moved H by at most 2ε'.
	o.drop = 2 * dropped
	o.restP, o.restN, o.xB, o.xD = rest+o.drop, rest+o.drop, 0, 0
	o.setB0(res, sk, shs)
	o.restart()
	if sk == 0 {
		return 0
	}
	return res.Theta[0]
}

// lanczosStart returns the start of a refresh's Lanczos run: the top Ritz
// vector of the last run in today's basis, plus a little of a fixed random
// vector, of e₀ and of the row x, so that the run also finds directions
// the new row opened.
func (o *OCCFM) lanczosStart(x data.Sparse) []float64 {
	n := o.n
	o.start = spectral.Grown(o.start, n)
	start := o.start
	clear(start)
	if _, v := o.ritz(); v != nil {
		for i := 0; i < n; i++ {
			start[i] = spectral.Dot(o.c.urow(i)[:o.sk], v)
		}
	}
	spectral.Axpy(1e-3/math.Sqrt(float64(n)), o.noise[:n], start)
	start[0] += 1e-3
	for p, j := range x.Ind {
		if j+1 < n {
			start[j+1] += 1e-3 * x.Val[p]
		}
	}
	return start
}

// keptRitz returns how many of a Lanczos run's Ritz pairs S keeps, those
// that converged (residual ≤ 1e-3·|θ₁|; always the first), and rest, the
// bound on |λ| of H beyond them: the others would only loosen the
// certificate's ‖B‖, so they count towards its estimate of ‖D‖ instead.
// (Stopping the run earlier, with cruder pairs, is faster but measurably
// less accurate: docs/findings.md, "Where OCCFM is still slow".)
func keptRitz(res *spectral.LanczosResult) (sk int, rest float64) {
	sk = 1
	for sk < len(res.Theta) && res.Resid[sk] <= 1e-3*math.Abs(res.Theta[0]) {
		sk++
	}
	rest = res.Next
	for j := sk; j < len(res.Theta); j++ {
		rest = max(rest, math.Abs(res.Theta[j])+res.Resid[j])
	}
	return min(sk, len(res.Theta)), rest
}

// projectH returns SᵀHS (sk×sk, row-major, in o.wk), from the Lanczos
// relation, and sets o.tG to −ηSᵀGS = SᵀHS + 2SᵀCS, with C before the
// recompression (the one in H of the Lanczos run).
func (o *OCCFM) projectH(res *spectral.LanczosResult, sk int) []float64 {
	shs := o.wk[:sk*sk]
	for l := 0; l < sk; l++ {
		for j := 0; j < sk; j++ {
			shs[l*sk+j] = spectral.Dot(res.Vecs[l], res.Ay[j])
		}
	}
	clear(o.tG)
	o.hr = spectral.Grown(o.hr, o.n)
	for i := 0; i < sk; i++ {
		clear(o.hr)
		o.c.mulVec(o.hr, 2, res.Vecs[i])
		for j := 0; j < sk; j++ {
			o.tG[i*o.k+j] = shs[j*sk+i] + spectral.Dot(res.Vecs[j], o.hr)
		}
	}
	return shs
}

// setB0 sets the certificate's B₀ = H·S − S·(SᵀHS), from the Lanczos
// relation.
func (o *OCCFM) setB0(res *spectral.LanczosResult, sk int, shs []float64) {
	n := o.n
	o.b0 = spectral.Grown(o.b0, n*o.k)
	clear(o.b0)
	for j := 0; j < sk; j++ {
		for i := 0; i < n; i++ {
			v := res.Ay[j][i]
			for l := 0; l < sk; l++ {
				v -= res.Vecs[l][i] * shs[l*sk+j]
			}
			o.b0[i*o.k+j] = v
		}
	}
}

// dropRule is the recompression of a refresh: C's eigenpairs of smallest
// |λ| with total at most ε·‖C‖* (ε = RecompressTol) are dropped, and those
// beyond MaxRank. Model files written before this rule drop up to ε·δ
// instead, and keep doing so: at a large δ, where ‖C‖* stays far below δ,
// that rule drops every eigenvalue of C under ε·δ at each refresh (at
// δ = 10⁴ all of C's eigenvalues below 10), which costs the
// planted-regression demo much of its accuracy there (docs/findings.md,
// "The recompression tolerance").
func (o *OCCFM) dropRule() dropRule {
	r := dropRule{maxRank: max(o.s.MaxRank, 0)}
	if !o.oldCert {
		r.rel = o.s.RecompressTol
	} else {
		r.abs = o.s.RecompressTol * o.s.Delta
	}
	return r
}

// restart sets the certificate's tracking after S changed, with B₀ in
// o.b0: K = B₀ᵀB₀, E = F = 0, no growth of D yet, and the norms of C's
// blocks outside S·S.
func (o *OCCFM) restart() {
	n, k, sk, b := o.n, o.k, o.sk, o.c.b
	o.e = spectral.Grown(o.e, n*k)
	clear(o.e)
	clear(o.f)
	clear(o.kB)
	for i := 0; i < n; i++ {
		bi := o.b0[i*k : i*k+sk]
		for j := 0; j < sk; j++ {
			spectral.Axpy(bi[j], bi, o.kB[j*k:j*k+sk])
		}
	}
	o.eDp, o.eDn, o.cs = 0, 0, 1
	rho2 := 1.0
	if sk > 0 {
		s0 := o.c.urow(0)[:sk]
		rho2 -= spectral.Dot(s0, s0)
	}
	o.gb.reset(rho2)
	if o.oldCert {
		o.cBW, o.cDW = 0, 0
		for i := 0; i < b; i++ {
			for j := 0; j < b; j++ {
				mij := o.c.m[i*b+j]
				switch {
				case i < sk && j >= sk:
					o.cBW += mij * mij
				case i >= sk && j >= sk:
					o.cDW += mij * mij
				}
			}
		}
		o.cBW, o.cDW = math.Sqrt(o.cBW), math.Sqrt(o.cDW)
		o.cDWn = o.cDW
		return
	}
	o.cBW, o.cDW, o.cDWn = o.blockNorms()
}

// blockNorms returns the norms of C's blocks outside S·S that the
// certificate needs as they decay (see certified): ‖M_SW‖₂, and
// max(λmax(M_WW), 0) and max(−λmin(M_WW), 0), for M = [[M_SS, M_SW],
// [M_WS, M_WW]] split after S's sk columns. O(b³) on the small matrices,
// no allocation once the scratch has grown. (Model files written before
// them hold the Frobenius norms ‖M_SW‖_F and ‖M_WW‖_F, a looser bound on
// both.)
func (o *OCCFM) blockNorms() (bw, dwPos, dwNeg float64) {
	sk, b := o.sk, o.c.b
	w := b - sk
	if w <= 0 {
		return 0, 0, 0
	}
	m := o.c.m
	o.blk = spectral.Grown(o.blk, max(w*w, sk*sk))
	o.blkVals = spectral.Grown(o.blkVals, max(w, sk))
	// ‖M_SW‖₂² = λmax(M_SW·M_WS), an sk×sk Gram matrix.
	if sk > 0 {
		g := o.blk[:sk*sk]
		for i := 0; i < sk; i++ {
			for j := i; j < sk; j++ {
				v := spectral.Dot(m[i*b+sk:i*b+b], m[j*b+sk:j*b+b])
				g[i*sk+j], g[j*sk+i] = v, v
			}
		}
		spectral.SymEigenInPlace(g, sk, o.blkVals[:sk], &o.blkWork)
		bw = math.Sqrt(max(o.blkVals[sk-1], 0))
	}
	d := o.blk[:w*w]
	for i := 0; i < w; i++ {
		copy(d[i*w:i*w+w], m[(sk+i)*b+sk:(sk+i)*b+b])
	}
	spectral.SymEigenInPlace(d, w, o.blkVals[:w], &o.blkWork)
	return bw, max(o.blkVals[w-1], 0), max(-o.blkVals[0], 0)
}

// growthBound bounds how far the gradients added since the tracked LMO's
// last refresh moved the ends of the spectrum of D, the block of H on S⊥
// (see OCCFM.certified). They add ΔD = P·ΔG·P with P = I − SSᵀ and
// ΔG = Σ cᵢ·x̂ᵢx̂ᵢᵀ, x̂ = e₀ + x (e₀ the bias coordinate).
//
// Weyl's inequality gives λmax(ΔD) ≤ Σ_{c>0} c·‖Px̂‖², which OCCFM also
// keeps (eDp, eDn); it grows with every row. On one-hot or sparse rows
// the rank-one terms mostly fall on different coordinates, and their sum
// has a far smaller norm than the sum of their norms, except on the bias
// coordinate that every row shares. For y = Pz, ‖z‖ = 1, split y into its
// bias part y₀ (|y₀| ≤ ρ = ‖Pe₀‖) and feature part y_f (‖y_f‖ ≤ 1):
//
//	zᵀΔDz = yᵀΔGy = (Σc)·y₀² + 2y₀·uᵀy_f + y_fᵀXy_f
//	      ≤ max(Σc, 0)·ρ² + 2ρ‖u‖ + λmax(X),
//
// with u = Σ c·x and X = Σ c·xxᵀ. By Gershgorin's theorem λmax(X) ≤
// maxⱼ(Xⱼⱼ + Σ_{l≠j}|Xⱼₗ|) ≤ maxⱼ(Σᵢ cᵢxᵢⱼ² + Σᵢ|cᵢxᵢⱼ|·(‖xᵢ‖₁ − |xᵢⱼ|)),
// the sums over the rows i that hold feature j. −λmin(ΔD) is bounded the
// same way with −c. Every part is kept in O(nnz(x)) a row: Σc, ‖u‖² and
// the two sums per coordinate, of which the largest values seen are kept
// (a bound, since a coordinate's sums may fall again). Tighter than Weyl's
// bound alone, it spares the tracked LMO most of its refreshes on
// MovieLens-100K at δ = 100 (docs/findings.md, "The LMO's certificate and
// guard").
type growthBound struct {
	epoch          int32     // the current refresh; a coordinate's sums are stale when its epoch differs
	mark           []int32   // per coordinate of x̂: the epoch its sums belong to
	diag, off, u   []float64 // per coordinate: Σ c·x², Σ |c·x|·(‖x‖₁ − |x|), Σ c·x
	sumC, uu       float64   // Σ c and ‖u‖²
	maxPos, maxNeg float64   // largest diag + off and −diag + off seen
	rho2           float64   // ‖Pe₀‖² = 1 − ‖Sᵀe₀‖²
}

// reset starts the bound again after a refresh, for ‖Pe₀‖² = rho2.
func (g *growthBound) reset(rho2 float64) {
	g.epoch++
	g.sumC, g.uu, g.maxPos, g.maxNeg = 0, 0, 0, 0
	g.rho2 = min(max(rho2, 0), 1)
}

// add accounts for c·x̂x̂ᵀ, x in internal coordinates (feature j at
// coordinate j+1 of x̂).
func (g *growthBound) add(c float64, x data.Sparse) {
	var l1 float64
	for _, v := range x.Val {
		l1 += math.Abs(v)
	}
	g.sumC += c
	for p, j := range x.Ind {
		i := j + 1
		for len(g.mark) <= i {
			g.mark = append(g.mark, 0)
			g.diag, g.off, g.u = append(g.diag, 0), append(g.off, 0), append(g.u, 0)
		}
		if g.mark[i] != g.epoch {
			g.mark[i] = g.epoch
			g.diag[i], g.off[i], g.u[i] = 0, 0, 0
		}
		v := x.Val[p]
		g.diag[i] += c * v * v
		g.off[i] += math.Abs(c*v) * (l1 - math.Abs(v))
		old := g.u[i]
		g.u[i] += c * v
		g.uu += g.u[i]*g.u[i] - old*old
		g.maxPos = max(g.maxPos, g.diag[i]+g.off[i])
		g.maxNeg = max(g.maxNeg, g.off[i]-g.diag[i])
	}
}

// bounds returns bounds on λmax(ΔD) and −λmin(ΔD).
func (g *growthBound) bounds() (pos, neg float64) {
	rho := math.Sqrt(g.rho2)
	mid := 2 * rho * math.Sqrt(max(g.uu, 0))
	return max(g.sumC, 0)*g.rho2 + mid + g.maxPos, max(-g.sumC, 0)*g.rho2 + mid + g.maxNeg
}

// memoryBytes is the bytes g holds: 28 a coordinate.
func (g *growthBound) memoryBytes() int64 {
	return i32Bytes(g.mark) + sumF64Bytes(g.diag, g.off, g.u)
}

// growth codes OCCFM's structured growth bound (see growthBound): its
// sums, then the coordinates touched since the last refresh with their
// three sums. A decoded bound is at epoch 1.
func (c *stateCodec) growth(g *growthBound, n int) {
	for _, p := range []*float64{&g.sumC, &g.uu, &g.maxPos, &g.maxNeg, &g.rho2} {
		c.float(p)
	}
	var idx []int32
	var vals []float64
	if !c.dec {
		for i, e := range g.mark {
			if e == g.epoch && i < n {
				idx = append(idx, int32(i))
				vals = append(vals, g.diag[i], g.off[i], g.u[i])
			}
		}
	}
	c.int32s(&idx)
	c.floats(&vals)
	if !c.dec || c.err != nil {
		return
	}
	if c.violates(len(vals) == 3*len(idx) && len(idx) <= n) {
		c.fail("growth bound of " + str.Itoa(len(idx)) + " coordinates and " + str.Itoa(len(vals)) + " sums")
	}
	c.check(g.rho2 >= 0 && g.rho2 <= 1 && g.uu >= 0 && g.maxPos >= 0 && g.maxNeg >= 0, "growth bound out of range")
	if c.err != nil || !c.alloc(bytesOf(n, 28), "growth bound") {
		return
	}
	g.epoch = 1
	g.mark = make([]int32, n)
	g.diag, g.off, g.u = make([]float64, n), make([]float64, n), make([]float64, n)
	for k, i := range idx {
		if i < 1 || int(i) >= n || g.mark[i] == 1 {
			c.fail("growth bound coordinate " + str.Itoa(int(i)) + " out of range or repeated")
			return
		}
		g.mark[i] = 1
		g.diag[i], g.off[i], g.u[i] = vals[3*k], vals[3*k+1], vals[3*k+2]
	}
}

// applyH sets y = y + H·v = y − η·G·v − 2·C·v (C₁ = 0).
func (o *OCCFM) applyH(y, v []float64) {
	o.g.mulVec(y, -o.s.Eta, v)
	o.c.mulVec(y, -2, v)
}

// dropPhi keeps ⟨G, C⟩ exact when rebase drops the eigenpair (λ, q) of
// C: ⟨G, C⟩ −= λ·qᵀGq, one product with G.
func (o *OCCFM) dropPhi(lambda float64, q []float64) {
	o.hr = spectral.Grown(o.hr, len(q))
	clear(o.hr)
	o.g.mulVec(o.hr, 1, q)
	o.phi -= lambda * spectral.Dot(q, o.hr)
}

// innerGC returns ⟨G, C⟩ = tr(M·UᵀGU) for C = U·M·Uᵀ: b products with G
// and b² dot products of length n, O(b·nnz(G) + n·b²). It runs after a
// refresh that scaled C back into K (rare: rounding), and when step finds
// that the bound phiErr could change the line search's decision (rare too:
// docs/findings.md, "The LMO's certificate and guard").
func (o *OCCFM) innerGC() float64 {
	b, n := o.c.b, o.n
	if b == 0 {
		return 0
	}
	o.c.colMajor()
	o.hr = spectral.Grown(o.hr, n)
	var s float64
	for a := 0; a < b; a++ {
		clear(o.hr)
		o.g.mulVec(o.hr, 1, o.c.ut[a*n:(a+1)*n])
		for e := 0; e < b; e++ {
			if m := o.c.m[e*b+a]; m != 0 {
				s += m * spectral.Dot(o.c.ut[e*n:(e+1)*n], o.hr)
			}
		}
	}
	return s
}
