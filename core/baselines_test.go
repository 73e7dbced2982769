package core

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/occfm/occfm/core/data"
	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"
)

// Tests of the §5.1 baselines (fm-ftrl, cfm-ftrl) and the references (mean,
// bias, linear). TestConformance covers their Learner contract.

// TestFTRLProximalHand checks one coordinate of FTRL-Proximal on a case
// worked by hand with α = 0.5, β = 1, λ₁ = 0.1, λ₂ = 0.2 from w = 0:
//
//	g = 1:    σ = (√1 − 0)/0.5 = 2, z = 1, n = 1,
//	          w = −(1 − 0.1)/((1 + 1)/0.5 + 0.2) = −0.9/4.2 = −0.2142857…
//	g = −0.5: σ = (√1.25 − 1)/0.5 = 0.2360680, z = 0.5 + 0.2360680·0.2142857
//	          = 0.5505860, n = 1.25,
//	          w = −0.4505860/((1 + √1.25)/0.5 + 0.2) = −0.1015733
//
// and |z| ≤ λ₁ gives w = 0 exactly.
//
// It also checks each step against a brute-force minimization of the
// FTRL-Proximal objective g₁:ₜw + ½Σσₛ(w − wₛ)² + β/(2α)w² + λ₁|w| + ½λ₂w².
func TestFTRLProximalHand(t *testing.T) {
	f := ftrlProximal{alpha: 0.5, beta: 1, l1: 0.1, l2: 0.2}
	var w, z, n float64
	var gsum float64
	var sigmas, ws []float64
	for _, c := range []struct{ g, want float64 }{
		{1, -0.9 / 4.2},
		{-0.5, -0.10157328},
	} {
		sigmas = append(sigmas, (math.Sqrt(n+c.g*c.g)-math.Sqrt(n))/f.alpha)
		ws = append(ws, w)
		gsum += c.g
		w = f.step(w, &z, &n, c.g)
		if !scalar.EqualWithinAbs(w, c.want, 1e-7) {
			t.Errorf("g = %v: w = %.8f, want %.8f", c.g, w, c.want)
		}
		obj := func(v float64) float64 {
			o := gsum*v + f.beta/(2*f.alpha)*v*v + f.l1*math.Abs(v) + 0.5*f.l2*v*v
			for s, sg := range sigmas {
				o += 0.5 * sg * (v - ws[s]) * (v - ws[s])
			}
			return o
		}
		best, bestV := math.Inf(1), 0.0
		for v := -1.0; v <= 1; v += 1e-6 {
			if o := obj(v); o < best {
				best, bestV = o, v
			}
		}
		if math.Abs(bestV-w) > 2e-6 {
			t.Errorf("g = %v: closed form w = %.7f, brute-force argmin %.7f", c.g, w, bestV)
		}
	}
	// |z| ≤ λ₁ gives w = 0 exactly (the ℓ₁ term's sparsity).
	for _, z := range []float64{0.1, -0.1, 0.05, 0} {
		if w := f.weight(z, 4); w != 0 {
			t.Errorf("weight(z = %v) = %v, want 0", z, w)
		}
	}
}

// ftrlGradient recovers the gradient a coordinate received in its first
// FTRL-Proximal step from w₀: z = g − (|g|/α)·w₀ and n = g², so
// g = z + √n·w₀/α.
func ftrlGradient(alpha, w0, z, n float64) float64 { return z + math.Sqrt(n)*w0/alpha }

// TestFMFTRLGradient checks by central differences of Predict that the
// first Update feeds every coordinate the gradient ℓ'(ŷ, y)·∂ŷ/∂θ, with
// ∂ŷ/∂v_if = xᵢ(Σⱼv_jf·xⱼ − v_if·xᵢ), for both losses.
func TestFMFTRLGradient(t *testing.T) {
	const h = 1e-6
	for _, loss := range []Loss{Squared, Logistic} {
		rng := rand.New(rand.NewPCG(3, 4))
		s := FMFTRLSettings{Rank: 4, InitStd: 0.5, Loss: loss, FTRLSettings: FTRLSettings{Alpha: 0.3}}
		m := NewFMFTRL(s)
		x := randomSparse(rng, 8, 5, false)
		m.grow(8)
		m.w0 = 0.3
		for i := range m.w {
			m.w[i] = rng.NormFloat64()
		}
		w0, w, v := m.w0, append([]float64(nil), m.w...), append([]float64(nil), m.v...)
		y := 1.0
		yhat := m.Predict(x)
		dl := loss.Deriv(yhat, y)
		fd := func(p *float64) float64 {
			old := *p
			*p = old + h
			up := m.Predict(x)
			*p = old - h
			down := m.Predict(x)
			*p = old
			return (up - down) / (2 * h)
		}
		type coord struct {
			name  string
			fd    float64
			w0    float64
			z, n  *float64
			alpha float64
		}
		var cs []coord
		cs = append(cs, coord{"w0", fd(&m.w0), w0, &m.z0, &m.n0, s.Alpha})
		k := s.Rank
		for _, i := range x.Ind {
			cs = append(cs, coord{"w", fd(&m.w[i]), w[i], &m.zw[i], &m.nw[i], s.Alpha})
			for f := range k {
				j := i*k + f
				cs = append(cs, coord{"v", fd(&m.v[j]), v[j], &m.zv[j], &m.nv[j], s.Alpha})
			}
		}
		m.Update(x, y)
		for _, c := range cs {
			got := ftrlGradient(c.alpha, c.w0, *c.z, *c.n)
			if !scalar.EqualWithinAbsOrRel(got, dl*c.fd, 1e-6, 1e-6) {
				t.Errorf("%v: ∂ℓ/∂%s = %.8g, finite differences give %.8g", loss, c.name, got, dl*c.fd)
			}
		}
	}
}

// TestLinearGradient checks the gradient Linear feeds FTRL-Proximal against
// central differences of Predict, for both losses.
func TestLinearGradient(t *testing.T) {
	const h = 1e-6
	for _, loss := range []Loss{Squared, Logistic} {
		rng := rand.New(rand.NewPCG(5, 6))
		m := NewLinear(LinearSettings{Loss: loss})
		x := randomSparse(rng, 10, 4, false)
		m.Update(data.Sparse{Ind: []int{9}, Val: []float64{0}}, 0) // grows w; ℓ' = 0, no step
		yhat := m.Predict(x)
		dl := loss.Deriv(yhat, 1)
		fdw := make([]float64, len(x.Ind))
		for p, i := range x.Ind {
			old := m.w[i]
			m.w[i] = old + h
			up := m.Predict(x)
			m.w[i] = old - h
			down := m.Predict(x)
			m.w[i] = old
			fdw[p] = (up - down) / (2 * h)
		}
		m.Update(x, 1)
		if got := ftrlGradient(m.s.Alpha, 0, m.z0, m.n0); !scalar.EqualWithinAbsOrRel(got, dl, 1e-9, 1e-9) {
			t.Errorf("%v: ∂ℓ/∂w₀ = %.8g, want ℓ' = %.8g", loss, got, dl)
		}
		for p, i := range x.Ind {
			got := ftrlGradient(m.s.Alpha, 0, m.zw[i], m.nw[i])
			if !scalar.EqualWithinAbsOrRel(got, dl*fdw[p], 1e-6, 1e-6) {
				t.Errorf("%v: ∂ℓ/∂w%d = %.8g, finite differences give %.8g", loss, i, got, dl*fdw[p])
			}
		}
	}
}

// TestBiasGradient checks Bias's step against central differences of
// Predict: from zero biases, bᵢ moves by −η·ℓ'·∂ŷ/∂bᵢ/(1 + λ) and b by
// −η·ℓ'·∂ŷ/∂b.
func TestBiasGradient(t *testing.T) {
	const h = 1e-6
	rng := rand.New(rand.NewPCG(7, 8))
	for _, loss := range []Loss{Squared, Logistic} {
		m := NewBias(BiasSettings{Loss: loss})
		x := randomSparse(rng, 6, 3, false)
		m.w = make([]float64, 6)
		m.n = make([]float64, 6)
		dl := loss.Deriv(m.Predict(x), 1)
		fd := func(p *float64) float64 {
			old := *p
			*p = old + h
			up := m.Predict(x)
			*p = old - h
			down := m.Predict(x)
			*p = old
			return (up - down) / (2 * h)
		}
		fdb := fd(&m.b)
		fdw := make([]float64, len(x.Ind))
		for p, i := range x.Ind {
			fdw[p] = fd(&m.w[i])
		}
		m.Update(x, 1)
		eta, l2 := m.s.Eta, m.s.L2
		if want := -eta * dl * fdb; !scalar.EqualWithinAbsOrRel(m.b, want, 1e-8, 1e-6) {
			t.Errorf("%v: b = %v, want %v", loss, m.b, want)
		}
		for p, i := range x.Ind {
			if want := -eta * dl * fdw[p] / (1 + l2); !scalar.EqualWithinAbsOrRel(m.w[i], want, 1e-8, 1e-6) {
				t.Errorf("%v: b%d = %v, want %v", loss, i, m.w[i], want)
			}
		}
	}
}

// cfmDense returns the learner's Z as a dense d×d matrix over features.
func cfmDense(m *CFMFTRL) *mat.SymDense {
	d := max(m.d, 1)
	z := mat.NewSymDense(d, nil)
	if m.etaZ == 0 {
		return z
	}
	for i := 0; i < m.d; i++ {
		ri := m.row(i)
		if ri < 0 {
			continue
		}
		for j := i; j < m.d; j++ {
			rj := m.row(j)
			if rj < 0 {
				continue
			}
			var v float64
			if m.sparse {
				if g, ok := m.g.at(ri, rj); ok {
					v = -0.5 * m.etaZ * g
				}
			} else if ri < m.nS && rj < m.nS {
				r := len(m.mu)
				for f, mu := range m.mu {
					v += mu * m.u[ri*r+f] * m.u[rj*r+f]
				}
			}
			z.SetSym(i, j, v)
		}
	}
	return z
}

// cfmDenseProject returns Π(A) onto {‖Z‖* ≤ δ} by a full eigendecomposition
// and the sort-based ℓ₁-ball projection of the eigenvalues (shrinkL1).
func cfmDenseProject(a *mat.SymDense, delta float64) *mat.SymDense {
	var es mat.EigenSym
	if !es.Factorize(a, true) {
		panic("eigendecomposition failed")
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	shrinkL1(vals, delta)
	n := a.SymmetricDim()
	out := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			var s float64
			for k, v := range vals {
				s += v * vecs.At(i, k) * vecs.At(j, k)
			}
			out.SetSym(i, j, s)
		}
	}
	return out
}

func cfmNuclearNorm(a *mat.SymDense) float64 {
	var es mat.EigenSym
	if !es.Factorize(a, false) {
		panic("eigendecomposition failed")
	}
	var s float64
	for _, v := range es.Values(nil) {
		s += math.Abs(v)
	}
	return s
}

// TestCFMFTRLProjection checks on small d, after every update, that
// ‖Z‖* ≤ δ, that Z equals the dense reference Π(−ηₜGₜ/2) (mat.EigenSym and
// the ℓ₁-ball projection of its eigenvalues, with G accumulated here from
// the learner's own predictions), and that Predict is
// w₀ + wᵀx + ½⟨Z, xxᵀ − diag(x∘x)⟩. Tol = 1e-12 asks for the exact
// projection on every round; the streams cross the ball's boundary, so both
// the sparse (inside) and the low-rank (outside) forms are exercised.
func TestCFMFTRLProjection(t *testing.T) {
	for _, c := range []struct {
		name       string
		d, rows    int
		delta, eta float64
		loss       Loss
	}{
		{"squared/d=8", 8, 150, 1, 0.6, Squared},
		{"squared/d=12", 12, 150, 2, 0.8, Squared},
		{"logistic/d=10", 10, 150, 0.5, 5, Logistic},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, uint64(c.d)))
			m := NewCFMFTRL(CFMFTRLSettings{Delta: c.delta, Eta: c.eta, Loss: c.loss, Tol: 1e-12})
			g := mat.NewSymDense(c.d, nil)
			var inside, outside int
			for r := 0; r < c.rows; r++ {
				x := randomSparse(rng, min(c.d, 3+r/4), min(4, 3+r/4), false)
				y := 2 * rng.NormFloat64()
				if c.loss == Logistic {
					y = math.Copysign(1, y)
				}
				yhat := m.Predict(x)
				// ŷ = w₀ + wᵀx + ½⟨Z, xxᵀ − diag(x∘x)⟩ from the dense Z.
				z := cfmDense(m)
				want := m.w0
				for a, i := range x.Ind {
					if i < len(m.w) {
						want += m.w[i] * x.Val[a]
					}
					for b := 0; b < a; b++ {
						if j := x.Ind[b]; i < z.SymmetricDim() && j < z.SymmetricDim() {
							want += z.At(i, j) * x.Val[a] * x.Val[b]
						}
					}
				}
				if !scalar.EqualWithinAbsOrRel(yhat, want, 1e-9, 1e-9) {
					t.Fatalf("row %d: ŷ = %v, dense formula gives %v", r, yhat, want)
				}
				dl := c.loss.Deriv(yhat, y)
				for a, i := range x.Ind {
					for b := 0; b < a; b++ {
						j := x.Ind[b]
						g.SetSym(i, j, g.At(i, j)+0.5*dl*x.Val[a]*x.Val[b])
					}
				}
				m.Update(x, y)
				eta := c.eta / math.Sqrt(float64(r+1))
				a := mat.NewSymDense(c.d, nil)
				a.ScaleSym(-0.5*eta, g)
				ref := cfmDenseProject(a, c.delta)
				z = cfmDense(m)
				n := z.SymmetricDim()
				var diff float64
				for i := 0; i < c.d; i++ {
					for j := 0; j < c.d; j++ {
						var zij float64
						if i < n && j < n {
							zij = z.At(i, j)
						}
						diff = max(diff, math.Abs(zij-ref.At(i, j)))
					}
				}
				if diff > 1e-6*c.delta {
					t.Fatalf("row %d: max |Z − Π(−ηG/2)| = %.3g (sparse form %v)", r, diff, m.sparse)
				}
				if nuc := cfmNuclearNorm(z); nuc > c.delta*(1+1e-9) {
					t.Fatalf("row %d: ‖Z‖* = %v > δ = %v", r, nuc, c.delta)
				}
				if m.sparse {
					inside++
				} else {
					outside++
				}
			}
			if inside == 0 || outside == 0 {
				t.Errorf("rounds inside the ball %d, outside %d: want both", inside, outside)
			}
			refreshes, _, inexact := m.Stats()
			t.Logf("inside %d, outside %d, refreshes %d, inexact %d, final rank %d", inside, outside, refreshes, inexact, m.Rank())
		})
	}
}

// TestCFMFTRLDefaultsInBall runs the default (guarded, lazily refreshed)
// CFM-FTRL on a planted stream and checks ‖Z‖* ≤ δ after every update.
func TestCFMFTRLDefaultsInBall(t *testing.T) {
	m := NewCFMFTRL(CFMFTRLSettings{Delta: 2})
	for r, ex := range plantedStream(21, 25, 400, false) {
		m.Update(ex.X, ex.Y)
		if nuc := cfmNuclearNorm(cfmDense(m)); nuc > 2*(1+1e-9) {
			t.Fatalf("row %d: ‖Z‖* = %v > δ = 2", r, nuc)
		}
	}
}

// TestCFMFTRLGradient checks that the Z-gradient CFM-FTRL accumulates is
// ∂ŷ/∂Z = ½(xxᵀ − diag(x∘x)), by central differences of Predict with a
// random symmetric Z injected in factored form: ŷ is linear in Z, and the
// diagonal of Z does not enter ŷ.
func TestCFMFTRLGradient(t *testing.T) {
	const d, h = 6, 1e-5
	rng := rand.New(rand.NewPCG(9, 10))
	x := randomSparse(rng, d, 4, false)
	// One update from scratch: G = ℓ'·½(xxᵀ − diag(x∘x)) on x's support.
	m := NewCFMFTRL(CFMFTRLSettings{})
	y := 3.0
	dl := Squared.Deriv(m.Predict(x), y)
	m.Update(x, y)
	grad := func(i, j int) float64 {
		ri, rj := m.row(i), m.row(j)
		if ri < 0 || rj < 0 {
			return 0
		}
		if g, ok := m.g.at(ri, rj); ok {
			return g / dl
		}
		return 0
	}
	// A learner whose Z is injected: every feature activated, rows 0..d−1.
	p := NewCFMFTRL(CFMFTRLSettings{})
	for i := range d {
		p.activate(i)
	}
	p.d, p.w = d, make([]float64, d)
	p.etaZ, p.sparse, p.nS = 1, false, d
	zm := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			zm.SetSym(i, j, rng.NormFloat64())
		}
	}
	inject := func(z *mat.SymDense) {
		var es mat.EigenSym
		es.Factorize(z, true)
		p.mu = es.Values(nil)
		var v mat.Dense
		es.VectorsTo(&v)
		p.u = make([]float64, d*d)
		for i := range d {
			for f := range d {
				p.u[p.row(i)*d+f] = v.At(i, f)
			}
		}
	}
	for i := range d {
		for j := i; j < d; j++ {
			old := zm.At(i, j)
			zm.SetSym(i, j, old+h)
			inject(zm)
			up := p.Predict(x)
			zm.SetSym(i, j, old-h)
			inject(zm)
			down := p.Predict(x)
			zm.SetSym(i, j, old)
			fd := (up - down) / (2 * h) // = ∂ŷ/∂Zᵢⱼ + ∂ŷ/∂Zⱼᵢ for i ≠ j
			want := grad(i, j)
			if i != j {
				want *= 2
			}
			if !scalar.EqualWithinAbs(fd, want, 1e-6) {
				t.Errorf("∂ŷ/∂Z(%d,%d): finite differences %.8g, accumulated gradient %.8g", i, j, fd, want)
			}
		}
	}
}

// TestMeanReference checks Mean's two forms on short streams.
func TestMeanReference(t *testing.T) {
	m := NewMean(MeanSettings{})
	if m.Predict(data.Sparse{}) != 0 {
		t.Error("empty Mean does not predict 0")
	}
	for _, y := range []float64{1, 2, 6} {
		m.Update(data.Sparse{}, y)
	}
	if got := m.Predict(data.Sparse{Ind: []int{5}, Val: []float64{1}}); got != 3 {
		t.Errorf("regression mean = %v, want 3", got)
	}
	c := NewMean(MeanSettings{Task: data.Classification})
	for _, y := range []float64{1, 1, 1, -1} {
		c.Update(data.Sparse{}, y)
	}
	// (3 + 1)/(1 + 1) = 2.
	if got := c.Predict(data.Sparse{}); !scalar.EqualWithinAbs(got, math.Log(2), 1e-15) {
		t.Errorf("classification log-odds = %v, want log 2", got)
	}
}

// TestBiasRecoversPlanted plays Bias on one-hot (user, item) rows with
// y = μ + b_u + b_i + noise and checks the learned biases: the ridge
// shrinkage λ/(n + λ) is small with ~160 ratings per feature.
func TestBiasRecoversPlanted(t *testing.T) {
	const users, items, rows = 50, 50, 8000
	rng := rand.New(rand.NewPCG(1, 2))
	bu, bi := make([]float64, users), make([]float64, items)
	for i := range bu {
		bu[i] = 0.5 * rng.NormFloat64()
	}
	for i := range bi {
		bi[i] = 0.5 * rng.NormFloat64()
	}
	center := func(v []float64) {
		var s float64
		for _, x := range v {
			s += x
		}
		for i := range v {
			v[i] -= s / float64(len(v))
		}
	}
	center(bu)
	center(bi)
	m := NewBias(BiasSettings{})
	for range rows {
		u, i := rng.IntN(users), rng.IntN(items)
		y := 3.5 + bu[u] + bi[i] + 0.1*rng.NormFloat64()
		m.Update(data.Sparse{Ind: []int{u, users + i}, Val: []float64{1, 1}}, y)
	}
	gu, gi := append([]float64(nil), m.w[:users]...), append([]float64(nil), m.w[users:]...)
	center(gu)
	center(gi)
	var worst float64
	for k := range bu {
		worst = max(worst, math.Abs(gu[k]-bu[k]), math.Abs(gi[k]-bi[k]))
	}
	if worst > 0.1 {
		t.Errorf("largest bias error %.3f, want ≤ 0.1", worst)
	}
	x := data.Sparse{Ind: []int{0, users}, Val: []float64{1, 1}}
	if got, want := m.Predict(x), 3.5+bu[0]+bi[0]; math.Abs(got-want) > 0.1 {
		t.Errorf("ŷ = %.3f, planted %.3f", got, want)
	}
}

// TestLinearPlanted plays Linear on a planted linear stream: regression
// recovers the weights, logistic regression separates the classes.
func TestLinearPlanted(t *testing.T) {
	const d, rows = 10, 20000
	rng := rand.New(rand.NewPCG(3, 3))
	w := make([]float64, d)
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	for _, loss := range []Loss{Squared, Logistic} {
		m := NewLinear(LinearSettings{Loss: loss})
		metrics := NewMetrics(taskOf(loss), loss)
		for range rows {
			x := randomSparse(rng, d, 4, false)
			y := 0.5
			for p, i := range x.Ind {
				y += w[i] * x.Val[p]
			}
			if loss == Logistic {
				y = math.Copysign(1, y)
			} else {
				y += 0.05 * rng.NormFloat64()
			}
			Play(m, data.Example{X: x, Y: y}, metrics)
		}
		s := metrics.Summary()
		switch loss {
		case Squared:
			for i := range w {
				if math.Abs(m.w[i]-w[i]) > 0.02 {
					t.Errorf("w%d = %.4f, planted %.4f", i, m.w[i], w[i])
				}
			}
			if math.Abs(m.w0-0.5) > 0.02 {
				t.Errorf("w₀ = %.4f, planted 0.5", m.w0)
			}
		case Logistic:
			if s.ErrorRate > 0.05 {
				t.Errorf("logistic regression error rate %.4f on a separable stream, want ≤ 0.05", s.ErrorRate)
			}
		}
	}
}

// TestFMFTRLPlanted plays FM-FTRL on a stream with a planted rank-2
// interaction and checks that it beats the linear model on it.
func TestFMFTRLPlanted(t *testing.T) {
	const d, rows = 20, 20000
	rng := rand.New(rand.NewPCG(5, 5))
	v := make([]float64, 2*d)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	fm, lin := NewFMFTRL(FMFTRLSettings{Rank: 4}), NewLinear(LinearSettings{})
	mf, ml := NewMetrics(data.Regression, Squared), NewMetrics(data.Regression, Squared)
	for range rows {
		x := randomSparse(rng, d, 3, true)
		var y float64
		for a, i := range x.Ind {
			for b := 0; b < a; b++ {
				j := x.Ind[b]
				y += v[2*i]*v[2*j] + v[2*i+1]*v[2*j+1]
			}
		}
		ex := data.Example{X: x, Y: y}
		Play(fm, ex, mf)
		Play(lin, ex, ml)
	}
	sf, sl := mf.Summary(), ml.Summary()
	t.Logf("planted interactions: FM-FTRL RMSE %.4f, linear %.4f", sf.RMSE, sl.RMSE)
	if sf.RMSE > 0.7*sl.RMSE {
		t.Errorf("FM-FTRL RMSE %.4f, linear %.4f: the factors learned no interaction", sf.RMSE, sl.RMSE)
	}
}

// TestBaselinesMovieLens100K plays each baseline with default settings
// over one shuffled pass of ML-100K (shuffle seed 1, as runFile) and checks
// loose bounds on the progressive RMSE. Measured (seed 1): mean 1.1258,
// bias 0.9624, linear 0.9670, fm-ftrl 0.9612, cfm-ftrl 0.9663.
func TestBaselinesMovieLens100K(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("full ML-100K passes; skipped with -short")
	}
	rows := shuffledRows(t, "movielens-100k/u.data", data.Regression, 1)
	for _, c := range []struct {
		name string
		max  float64
	}{
		{"mean", 1.13},
		{"bias", 0.97},
		{"linear", 0.975},
		{"fm-ftrl", 0.975},
		{"cfm-ftrl", 0.975},
	} {
		l, err := NewLearner(c.name, Config{})
		if err != nil {
			t.Fatal(err)
		}
		m := NewMetrics(data.Regression, Squared)
		for _, ex := range rows {
			Play(l, ex, m)
		}
		s := m.Summary()
		t.Logf("%s: rows %d, progressive RMSE %.4f, MAE %.4f", c.name, s.Rows, s.RMSE, s.MAE)
		if s.Rows != 100000 || s.RMSE > c.max {
			t.Errorf("%s: rows %d, RMSE %.4f, want 100000 rows and RMSE ≤ %v", c.name, s.Rows, s.RMSE, c.max)
		}
	}
}
