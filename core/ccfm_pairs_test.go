package core

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/occfm/occfm/core/data"
)

// TestCCFMPairsReference cross-checks CCFMPairs against all-pairs
// FTRL-Proximal run by hand on explicit pair features (a map, no hashing),
// on streams whose pairs all have slots of their own.
func TestCCFMPairsReference(t *testing.T) {
	for _, tc := range []struct {
		demo  string
		alpha float64
		bits  int
	}{
		{"planted-classification", 0, 0}, {"planted-regression", 0, 0}, {"ratings", 3, 22},
	} {
		rows, task := firstDemoRows(t, tc.demo, 5, 2000)
		m := NewCCFMPairs(CCFMPairsSettings{FTRLSettings: FTRLSettings{Alpha: tc.alpha, L1: 0.01}, Bits: tc.bits, Loss: TaskLoss(task)})
		s := m.Settings()
		lin := newFTRLLinear(s.Alpha, s.Beta, s.L1, s.L2)
		type pair struct{ i, j int }
		w, z, n := map[pair]float64{}, map[pair]float64{}, map[pair]float64{}
		slots := map[int32]pair{}
		for r, ex := range rows {
			x := ex.X
			want := lin.value(x)
			for p := range x.Ind {
				for q := p; q < len(x.Ind); q++ {
					k := pair{min(x.Ind[p], x.Ind[q]), max(x.Ind[p], x.Ind[q])}
					if o, ok := slots[pairSlot(k.i, k.j, s.Bits)]; ok && o != k {
						t.Fatalf("%s: pairs %v and %v collide", tc.demo, o, k)
					}
					slots[pairSlot(k.i, k.j, s.Bits)] = k
					want += w[k] * x.Val[p] * x.Val[q]
				}
			}
			if got := m.Predict(x); math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
				t.Fatalf("%s row %d: ŷ = %v, want %v", tc.demo, r+1, got, want)
			}
			m.Update(x, ex.Y)
			d := len(lin.w)
			for _, i := range x.Ind {
				d = max(d, i+1)
			}
			lin.extend(d)
			g := TaskLoss(task).Deriv(want, ex.Y)
			if g == 0 {
				continue
			}
			lin.learn(x, g)
			for p := range x.Ind {
				for q := p; q < len(x.Ind); q++ {
					k := pair{min(x.Ind[p], x.Ind[q]), max(x.Ind[p], x.Ind[q])}
					zk, nk := z[k], n[k]
					w[k] = lin.prox.step(w[k], &zk, &nk, g*x.Val[p]*x.Val[q])
					z[k], n[k] = zk, nk
				}
			}
		}
		if m.used != len(n) {
			t.Errorf("%s: %d slots in use, want %d pairs", tc.demo, m.used, len(n))
		}
	}
}

// TestCCFMPairsIsCCFM checks that a CCFMPairs predicts ½x̂ᵀCx̂ for the
// symmetric C its table defines (corner 2w₀, border w, C_ij = u_h(i,j) off
// the diagonal, C_ii = 2u_h(i,i)), also when a table of 16 slots makes
// most pairs collide.
func TestCCFMPairsIsCCFM(t *testing.T) {
	rows, task := firstDemoRows(t, "planted-regression", 6, 500)
	m := NewCCFMPairs(CCFMPairsSettings{Bits: 4, Loss: TaskLoss(task)})
	for _, ex := range rows {
		Play(m, ex, nil)
	}
	d := len(m.w)
	c := make([][]float64, d+1) // coordinate d is the constant 1
	for i := range c {
		c[i] = make([]float64, d+1)
	}
	c[d][d] = 2 * m.w0
	for i := range d {
		c[i][d], c[d][i] = m.w[i], m.w[i]
		for j := i; j < d; j++ {
			u := m.u[pairSlot(i, j, 4)]
			if i == j {
				u *= 2
			}
			c[i][j], c[j][i] = u, u
		}
	}
	for r, ex := range rows[:50] {
		xh := make([]float64, d+1)
		for p, i := range ex.X.Ind {
			xh[i] = ex.X.Val[p]
		}
		xh[d] = 1
		var want float64
		for i := range xh {
			for j := range xh {
				want += 0.5 * xh[i] * c[i][j] * xh[j]
			}
		}
		if got := m.Predict(ex.X); math.Abs(got-want) > 1e-10*max(1, math.Abs(want)) {
			t.Fatalf("row %d: ŷ = %v, ½x̂ᵀCx̂ = %v", r+1, got, want)
		}
	}
	if m.used > 16 {
		t.Errorf("%d slots in use of 16", m.used)
	}
}

// TestCCFMPairsWideRow: a row over MaxRowNonzeros is predicted by the
// affine part alone, w₀ + wᵀx to the last bit, and learned without touching
// the pair table (its slots, their accumulators and the count in use), in
// pair terms visited: none; with no limit (−1) its pairs count, and a row
// at the limit (31 of 31) has its pairs.
func TestCCFMPairsWideRow(t *testing.T) {
	for _, lim := range []int{8, 30, 31, -1} {
		m := NewCCFMPairs(CCFMPairsSettings{MaxRowNonzeros: lim})
		rng := rand.New(rand.NewPCG(7, uint64(lim+2)))
		for range 300 {
			x := data.Sparse{}
			for i := range 40 {
				if rng.IntN(5) == 0 {
					x.Ind, x.Val = append(x.Ind, i), append(x.Val, 1+rng.Float64())
				}
			}
			m.Update(x, rng.NormFloat64())
		}
		wide := data.Sparse{}
		for i := range 31 {
			wide.Ind, wide.Val = append(wide.Ind, i), append(wide.Val, 0.5+float64(i%3))
		}
		u, used, v0 := slices.Clone(m.u), m.used, m.visits
		got, affine := m.Predict(wide), m.value(wide)
		m.Update(wide, 3)
		withPairs := lim < 0 || len(wide.Ind) <= lim
		if visits := m.visits - v0; withPairs != (visits > 0) || !withPairs && (got != affine || !slices.Equal(u, m.u) || used != m.used) {
			t.Errorf("limit %d: a row of 31 nonzeros: ŷ %v (affine part %v), %d pair terms visited, pair table changed: %v",
				lim, got, affine, visits, !slices.Equal(u, m.u))
		}
		if withPairs && got == affine {
			t.Errorf("limit %d: ŷ %v is the affine part alone, want the pairs too", lim, got)
		}
	}
}
