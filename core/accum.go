package core

import (
	"slices"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
	"github.com/occfm/occfm/core/spectral"
)

// symAccum is the sparse symmetric gradient accumulator Gₜ = Σ_τ g_τ·M_τ of
// OCCFM (Algorithm 2, line 4), where each M_τ is the sparse outer product
// x̂x̂ᵀ (minus the feature diagonal without self-interactions). Each
// unordered pair {i, j} is stored once, as (i, j) with i ≤ j, in
// coordinate form, with a hash index from the pair to the entry, so an
// update costs O(nnz(x̂)²). ML-100K ends with about 10⁵ stored pairs,
// ML-1M with 10⁶.
//
// For the products G·v, O(nnz(G)), the entries are mirrored in
// compressed-row form (CSR) with both triangles, rebuilt by a counting
// sort when the pairs added since the last build exceed a quarter of them
// (amortized O(1) per pair); values of pairs already in the mirror are
// updated in both places. A row-wise product accumulates in a register and
// gathers from v, about twice as fast as the scattered coordinate form,
// natively and under wasm.
type symAccum struct {
	n     int
	index map[uint64]int32 // pairKey(i, j), i ≤ j → position in row, col, val
	row   []int32          // i of each pair
	col   []int32          // j ≥ i of each pair
	val   []float64

	built  int       // pairs [0, built) are in the CSR mirror
	rowPtr []int32   // n+1 row starts
	cCol   []int32   // column of each CSR entry
	cVal   []float64 // value of each CSR entry
	pos    []int32   // pair p → CSR positions of (i, j) and (j, i): pos[2p], pos[2p+1]

	visits int64 // calls of add (see pairCounter)
}

func pairKey(i, j int) uint64 { return uint64(i)<<32 | uint64(uint32(j)) }

// at returns G_ij and whether the pair is stored.
func (g *symAccum) at(i, j int) (float64, bool) {
	if i > j {
		i, j = j, i
	}
	p, ok := g.index[pairKey(i, j)]
	if !ok {
		return 0, false
	}
	return g.val[p], true
}

// add sets G_ij += v and, when i ≠ j, G_ji += v.
func (g *symAccum) add(i, j int, v float64) {
	g.visits++
	if i > j {
		i, j = j, i
	}
	if g.index == nil {
		g.index = make(map[uint64]int32)
	}
	k := pairKey(i, j)
	if p, ok := g.index[k]; ok {
		g.val[p] += v
		if int(p) < g.built {
			g.cVal[g.pos[2*p]] += v
			if i != j {
				g.cVal[g.pos[2*p+1]] += v
			}
		}
		return
	}
	g.index[k] = int32(len(g.val))
	g.row = append(g.row, int32(i))
	g.col = append(g.col, int32(j))
	g.val = append(g.val, v)
	g.n = max(g.n, j+1)
}

// addOuter sets G = G + w·M for the augmented sparse x̂ = [1; x]: M = x̂x̂ᵀ,
// or x̂x̂ᵀ − diag(0; x∘x) when noSelf is set.
func (g *symAccum) addOuter(w float64, x data.Sparse, noSelf bool) {
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
		i, j := row[k], col[k]
		y[i] += alpha * x * v[j]
		if i != j {
			y[j] += alpha * x * v[i]
		}
	}
}

// compress rebuilds the CSR mirror from all pairs (counting sort by row).
func (g *symAccum) compress() {
	n, m := g.n, len(g.val)
	g.rowPtr = spectral.GrowInt32(g.rowPtr, n+1)
	clear(g.rowPtr)
	for p, i := range g.row {
		g.rowPtr[i+1]++
		if j := g.col[p]; j != i {
			g.rowPtr[j+1]++
		}
	}
	for i := 0; i < n; i++ {
		g.rowPtr[i+1] += g.rowPtr[i]
	}
	e := int(g.rowPtr[n])
	g.cCol, g.cVal, g.pos = spectral.GrowInt32(g.cCol, e), spectral.Grown(g.cVal, e), spectral.GrowInt32(g.pos, 2*m)
	// Fill by row, using rowPtr[r] as the cursor of row r, then shift back.
	for p, i := range g.row {
		j, v := g.col[p], g.val[p]
		q := g.rowPtr[i]
		g.rowPtr[i]++
		g.cCol[q], g.cVal[q], g.pos[2*p] = j, v, q
		if j != i {
			q = g.rowPtr[j]
			g.rowPtr[j]++
			g.cCol[q], g.cVal[q] = i, v
		}
		g.pos[2*p+1] = q
	}
	for i := n; i > 0; i-- {
		g.rowPtr[i] = g.rowPtr[i-1]
	}
	g.rowPtr[0] = 0
	g.built = m
}

// nnz returns the number of stored pairs {i, j}.
func (g *symAccum) nnz() int { return len(g.val) }

// memoryBytes estimates the bytes of G: per stored pair {i, j}, its hash
// index entry (mapEntryBytes), its coordinates and value (16 bytes) and,
// once in the CSR mirror, its two CSR entries and positions (32 bytes):
// about 76 bytes a pair, plus the slack of the growing slices.
func (g *symAccum) memoryBytes() int64 {
	return int64(len(g.index))*mapEntryBytes + i32Bytes(g.row) + i32Bytes(g.col) + f64Bytes(g.val) +
		i32Bytes(g.rowPtr) + i32Bytes(g.cCol) + f64Bytes(g.cVal) + i32Bytes(g.pos)
}

// pairMap codes a map of pair keys to values, in increasing key order, so
// that the same map always gives the same bytes; decoding adds to m.
func (c *stateCodec) pairMap(m map[uint64]float64) {
	keys := make([]uint64, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	cnt := c.length(len(keys), 16)
	for i := range cnt {
		var k uint64
		var v float64
		if !c.dec {
			k = keys[i]
			v = m[k]
		}
		c.uint64(&k)
		c.float(&v)
		if c.dec && c.err == nil {
			m[k] = v
		}
	}
}

// accum codes the gradient accumulator G of dimension at most n: its pairs
// in insertion order and how many of them the CSR mirror holds.
func (c *stateCodec) accum(g *symAccum, n int) {
	c.int(&g.n)
	c.int32s(&g.row)
	c.int32s(&g.col)
	c.floats(&g.val)
	c.int(&g.built)
	if !c.dec || c.err != nil {
		return
	}
	m := len(g.val)
	c.check(len(g.row) == m && len(g.col) == m && g.built >= 0 && g.built <= m, "accumulator of inconsistent sizes")
	if c.violates(g.n >= 0 && g.n <= n) {
		c.fail("accumulator of dimension " + str.Itoa(g.n) + " in " + str.Itoa(n))
	}
	if !c.alloc(bytesOf(m, 80), "gradient sum of "+str.Itoa(m)+" pairs") {
		return
	}
	g.index = make(map[uint64]int32, m)
	top := 0 // the dimension when the mirror was built
	for p := range m {
		i, j := int(g.row[p]), int(g.col[p])
		if i < 0 || i > j || j >= g.n {
			c.fail("accumulator pair (" + str.Itoa(i) + ", " + str.Itoa(j) + ") out of range")
			return
		}
		if p < g.built {
			top = max(top, j+1)
		}
		if g.index[pairKey(i, j)] = int32(p); len(g.index) != p+1 {
			c.fail("accumulator pair (" + str.Itoa(i) + ", " + str.Itoa(j) + ") repeated")
			return
		}
	}
	if m > 0 && g.n != maxCol(g.col)+1 || m == 0 && g.n != 0 {
		c.fail("accumulator dimension " + str.Itoa(g.n) + " does not match its pairs")
		return
	}
	g.rebuild(top)
}

func maxCol(col []int32) int {
	j := 0
	for _, v := range col {
		j = max(j, int(v))
	}
	return j
}

// rebuild rebuilds the CSR mirror of the first g.built pairs, of
// dimension top (1 + the largest index among them), as compress built it
// when those were all the pairs.
func (g *symAccum) rebuild(top int) {
	if g.built == 0 {
		g.rowPtr, g.cCol, g.cVal, g.pos = nil, nil, nil, nil
		return
	}
	n, row, col, val := g.n, g.row, g.col, g.val
	g.n, g.row, g.col, g.val = top, row[:g.built], col[:g.built], val[:g.built]
	g.compress()
	g.n, g.row, g.col, g.val = n, row, col, val
}

// stepScale is the scale s of OCCFMK's step ηₜ = η/max(1, s): the
// stepScaleRank-th largest value v = 2‖M_x‖²_F of the rows learned so far
// (the smallest of them before that many rows). Past the first rows it
// never decreases, so ηₜ never increases, as FTRL's analysis asks; and no
// handful of rows sets it for good: with the largest v alone, one row of
// large values (a stray outlier, or the first rows of a stream whose
// features are scaled as they come, where a feature's first value is ±1)
// slowed every later step (IJCNN1 shuffled: 6.0 % error against 4.8 % with
// the 8th largest, docs/findings.md). On rows of one norm (one-hot rows)
// it is the largest v, as before.
type stepScale struct{ top []float64 } // the largest values, descending

const stepScaleRank = 8

// add records the value v of a row.
func (s *stepScale) add(v float64) {
	i := len(s.top)
	for i > 0 && s.top[i-1] < v {
		i--
	}
	if i >= stepScaleRank {
		return
	}
	if len(s.top) < stepScaleRank {
		s.top = append(s.top, 0)
	}
	copy(s.top[i+1:], s.top[i:])
	s.top[i] = v
}

// value returns s: the smallest value kept, 0 before any row.
func (s *stepScale) value() float64 {
	if len(s.top) == 0 {
		return 0
	}
	return s.top[len(s.top)-1]
}

// stepScale codes s in one float when it is full and its values are all
// alike: files written when s was the largest value alone hold that float
// and load as stepScaleRank copies of it, which keep s at the largest
// value, as it was. Otherwise it codes −(len(top) + 1), then the values.
func (c *stateCodec) stepScale(s *stepScale) {
	one := len(s.top) == stepScaleRank
	for _, v := range s.top {
		one = one && v == s.top[0]
	}
	if !c.dec {
		v := s.value()
		if !one {
			v = -float64(len(s.top) + 1)
		}
		c.float(&v)
		if !one {
			for i := range s.top {
				c.float(&s.top[i])
			}
		}
		return
	}
	var v float64
	c.float(&v)
	if c.err != nil {
		return
	}
	if v >= 0 {
		s.top = make([]float64, stepScaleRank)
		for i := range s.top {
			s.top[i] = v
		}
		return
	}
	n := int(-v) - 1
	if c.violates(float64(n) == -v-1 && n >= 0 && n <= stepScaleRank) {
		c.fail("step scale of " + str.Ftoa(-v-1) + " values")
		return
	}
	s.top = make([]float64, n)
	for i := range s.top {
		c.float(&s.top[i])
		if c.violates(s.top[i] >= 0 && (i == 0 || s.top[i] <= s.top[i-1])) {
			c.fail("step scale values out of order")
			return
		}
	}
}
