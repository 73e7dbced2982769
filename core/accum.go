package core

// symAccum is the sparse symmetric gradient accumulator Gₜ = Σ_τ g_τ·M_τ of
// OCCFM (Algorithm 2, line 4), where each M_τ is the sparse outer product
// x̂x̂ᵀ (minus the feature diagonal without self-interactions). Entries are
// kept in coordinate form, both triangles, with a hash index from (i, j) to
// the entry, so an update costs O(nnz(x̂)²) and a product G·v costs
// O(nnz(G)). ML-100K ends with about 2·10⁵ stored entries.
//
// For the products, the entries are mirrored in compressed-row form (CSR),
// rebuilt by a counting sort when the entries added since the last build
// exceed a quarter of them (amortized O(1) per entry); values of entries
// already in the mirror are updated in both places. A row-wise product
// accumulates in a register and gathers from v, about twice as fast as the
// scattered coordinate form, natively and under wasm.
type symAccum struct {
	n     int
	index map[uint64]int32 // (i<<32 | j) → position in row, col, val
	row   []int32
	col   []int32
	val   []float64

	built  int       // entries [0, built) are in the CSR mirror
	rowPtr []int32   // n+1 row starts
	cCol   []int32   // column of each CSR entry
	cVal   []float64 // value of each CSR entry
	pos    []int32   // entry → its CSR position, for p < built
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
		if int(p) < g.built {
			g.cVal[g.pos[p]] += v
		}
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
	if pending := len(g.val) - g.built; pending > 256 && 4*pending > g.built {
		g.compress()
	}
	ptr, cc, cv := g.rowPtr, g.cCol, g.cVal
	for i := 0; i+1 < len(ptr); i++ {
		lo, hi := ptr[i], ptr[i+1]
		if lo == hi {
			continue
		}
		cols, vals := cc[lo:hi], cv[lo:hi]
		vals = vals[:len(cols)]
		// Four partial sums: under wasm the loop overhead is the cost.
		var s0, s1, s2, s3 float64
		k := 0
		for ; k+4 <= len(cols); k += 4 {
			c4, v4 := cols[k:k+4:k+4], vals[k:k+4:k+4]
			s0 += v4[0] * v[c4[0]]
			s1 += v4[1] * v[c4[1]]
			s2 += v4[2] * v[c4[2]]
			s3 += v4[3] * v[c4[3]]
		}
		for ; k < len(cols); k++ {
			s0 += vals[k] * v[cols[k]]
		}
		y[i] += alpha * ((s0 + s1) + (s2 + s3))
	}
	row, col, val := g.row[g.built:], g.col[g.built:], g.val[g.built:]
	row, col = row[:len(val)], col[:len(val)]
	for k, x := range val {
		y[row[k]] += alpha * x * v[col[k]]
	}
}

// compress rebuilds the CSR mirror from all entries (counting sort by row).
func (g *symAccum) compress() {
	n, m := g.n, len(g.val)
	g.rowPtr = growInt32(g.rowPtr, n+1)
	clear(g.rowPtr)
	for _, r := range g.row {
		g.rowPtr[r+1]++
	}
	for i := 0; i < n; i++ {
		g.rowPtr[i+1] += g.rowPtr[i]
	}
	g.cCol, g.cVal, g.pos = growInt32(g.cCol, m), grown(g.cVal, m), growInt32(g.pos, m)
	// Fill by row, using rowPtr[r] as the cursor of row r, then shift back.
	for p, r := range g.row {
		q := g.rowPtr[r]
		g.rowPtr[r]++
		g.cCol[q], g.cVal[q], g.pos[p] = g.col[p], g.val[p], q
	}
	for i := n; i > 0; i-- {
		g.rowPtr[i] = g.rowPtr[i-1]
	}
	g.rowPtr[0] = 0
	g.built = m
}

// growInt32 returns buf resized to length n, reallocating (with room to
// grow) only when its capacity is too small. The contents are unspecified.
func growInt32(buf []int32, n int) []int32 {
	if cap(buf) < n {
		return make([]int32, n, n+n/2)
	}
	return buf[:n]
}

// nnz returns the number of stored entries (both triangles).
func (g *symAccum) nnz() int { return len(g.val) }
