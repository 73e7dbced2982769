package core

// symAccum is the sparse symmetric gradient accumulator Gₜ = Σ_τ g_τ·M_τ of
// OCCFM (Algorithm 2, line 4), where each M_τ is the sparse outer product
// x̂x̂ᵀ (minus the feature diagonal without self-interactions). Entries are
// kept in coordinate form, both triangles, with a hash index from (i, j) to
// the entry, so an update costs O(nnz(x̂)²) and a product G·v costs
// O(nnz(G)). ML-100K ends with about 2·10⁵ stored entries.
type symAccum struct {
	n     int
	index map[uint64]int32 // (i<<32 | j) → position in row, col, val
	row   []int32
	col   []int32
	val   []float64
}

func pairKey(i, j int) uint64 { return uint64(i)<<32 | uint64(uint32(j)) }

// add sets G_ij += v and, when i ≠ j, G_ji += v.
func (g *symAccum) add(i, j int, v float64) {
	g.addOne(i, j, v)
	if i != j {
		g.addOne(j, i, v)
	}
}

func (g *symAccum) addOne(i, j int, v float64) {
	if g.index == nil {
		g.index = make(map[uint64]int32)
	}
	k := pairKey(i, j)
	if p, ok := g.index[k]; ok {
		g.val[p] += v
		return
	}
	g.index[k] = int32(len(g.val))
	g.row = append(g.row, int32(i))
	g.col = append(g.col, int32(j))
	g.val = append(g.val, v)
	g.n = max(g.n, i+1, j+1)
}

// addOuter sets G = G + w·M for the augmented sparse x̂ = [1; x]: M = x̂x̂ᵀ,
// or x̂x̂ᵀ − diag(0; x∘x) when noSelf is set.
func (g *symAccum) addOuter(w float64, x Sparse, noSelf bool) {
	g.add(0, 0, w)
	for a, ja := range x.Ind {
		va := x.Val[a]
		g.add(0, ja+1, w*va)
		for b := 0; b < a; b++ {
			g.add(ja+1, x.Ind[b]+1, w*va*x.Val[b])
		}
		if !noSelf {
			g.add(ja+1, ja+1, w*va*va)
		}
	}
}

// mulVec sets y = y + α·G·v.
func (g *symAccum) mulVec(y []float64, alpha float64, v []float64) {
	row, col, val := g.row, g.col, g.val
	for k, x := range val {
		y[row[k]] += alpha * x * v[col[k]]
	}
}

// nnz returns the number of stored entries (both triangles).
func (g *symAccum) nnz() int { return len(g.val) }
