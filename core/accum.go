package core

import (
	"math"
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

// pairNorm returns 2‖M_x‖²_F = ½((Σᵢxᵢ²)² − Σᵢxᵢ⁴), M_x = ½(xxᵀ −
// diag(x∘x)) the gradient of ŷ in C: 1 on a row of two one-hot features.
func pairNorm(x data.Sparse) float64 {
	var x2, x4 float64
	for _, v := range x.Val {
		x2 += v * v
		x4 += v * v * v * v
	}
	return 0.5 * (x2*x2 - x4)
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

// featureWeights are OCCFMK's frequency weights: the pairs are learned on
// the row x̃ = D^(−½)·x, D = diag(dᵢ) with
//
//	dᵢ = (1−ζ)·qᵢ + ζ,   qᵢ = nᵢ·n / Σⱼ nⱼ,
//
// nᵢ the learned rows in which feature i is nonzero and n the features
// seen, so that qᵢ is i's frequency relative to the mean (1 for every
// feature of dense rows). FTRL over the plain ball ‖C̃‖* ≤ δ in x̃'s
// coordinates is FTRL over the weighted ball ‖D^½·C·D^½‖* ≤ δ in x's, C =
// D^(−½)·C̃·D^(−½): the weighted trace norm (Srebro and Salakhutdinov 2010,
// "Collaborative filtering in a non-uniform world: learning with the
// weighted trace norm"), smoothed towards the plain one by ζ (Foygel,
// Salakhutdinov, Shamir and Srebro 2011, "Learning with the weighted
// trace-norm under arbitrary sampling distributions"). A rare feature
// weighs up to ζ^(−½): its row of C is cheaper in the ball, and its first
// rows move it further, as per-coordinate steps move a new user's factors
// in an FM; a frequent one weighs about (qᵢ(1−ζ))^(−½).
//
// D is the one of the row's time: a row enters G with the weights it was
// predicted with, and a weight is not rescaled later (as AdaGrad's
// per-coordinate steps are not; Duchi, Hazan and Singer 2011). The
// regret bound of OCCFMK holds for a fixed D; with D moving it is not
// claimed.
//
// The weights change the pairs' steps relative to each other, not on
// average: OCCFMK's step is divided by κ (see kappa), the mean over the
// learned rows of 2‖M_x̃‖²_F / 2‖M_x‖²_F. Without it a stream whose rows
// are mostly of frequent features learned too slowly (MovieLens wanted
// η ≈ 30), and one whose features are all about as frequent as each
// other, whose weights are about 1, then took that step and diverged
// (planted-regression: RMSE 1.16 at η = 32 against 0.045 at η = 3).
type featureWeights struct {
	zeta     float64   // ζ, 0 when the weights are off (D = I)
	n        []float64 // nᵢ
	total    float64   // Σᵢ nᵢ
	seen     int       // features with nᵢ > 0
	val      []float64 // scratch: x̃'s values
	ratioSum float64   // Σ 2‖M_x̃‖²_F / 2‖M_x‖²_F over the learned rows with pairs
	rows     float64   // how many
}

// addRatio records a learned row's pair norms 2‖M_x‖²_F (v) and
// 2‖M_x̃‖²_F (vt) for kappa.
func (f *featureWeights) addRatio(v, vt float64) {
	if f.zeta == 0 || !(v > 0) {
		return
	}
	f.ratioSum += vt / v
	f.rows++
}

// kappa returns κ, the mean of 2‖M_x̃‖²_F / 2‖M_x‖²_F over the learned
// rows with pairs: 1 when the weights are off or before such a row.
func (f *featureWeights) kappa() float64 {
	if f.rows == 0 {
		return 1
	}
	return f.ratioSum / f.rows
}

// weight returns feature i's weight dᵢ^(−½) (1 when off).
func (f *featureWeights) weight(i int) float64 {
	var n float64
	if i < len(f.n) {
		n = f.n[i]
	}
	return f.weightOf(n, f.total, f.seen)
}

// weightOf returns the weight of a feature of count n among seen features
// of total count total.
func (f *featureWeights) weightOf(n, total float64, seen int) float64 {
	if f.zeta == 0 {
		return 1
	}
	var q float64
	if total > 0 {
		q = n * float64(seen) / total
	}
	return 1 / math.Sqrt((1-f.zeta)*q+f.zeta)
}

// apply returns x̃ = D^(−½)·x: x itself when the weights are off, else a
// row over f's scratch values, valid until the next apply.
func (f *featureWeights) apply(x data.Sparse) data.Sparse {
	if f.zeta == 0 {
		return x
	}
	f.val = append(f.val[:0], x.Val...)
	for p, i := range x.Ind {
		f.val[p] *= f.weight(i)
	}
	return data.Sparse{Ind: x.Ind, Val: f.val}
}

// observe counts the nonzero features of a learned row.
func (f *featureWeights) observe(x data.Sparse) {
	if f.zeta == 0 {
		return
	}
	for p, i := range x.Ind {
		if x.Val[p] == 0 {
			continue
		}
		if i >= len(f.n) {
			f.n = append(f.n, make([]float64, i+1-len(f.n))...)
		}
		if f.n[i] == 0 {
			f.seen++
		}
		f.n[i]++
		f.total++
	}
}

// featureWeights codes the counts of f, whose ζ the settings hold, for a
// model of d features, and κ's sum; the total and the features seen are
// derived.
func (c *stateCodec) featureWeights(f *featureWeights, d int) {
	if f.zeta == 0 {
		return
	}
	c.floats(&f.n)
	c.float(&f.ratioSum)
	c.float(&f.rows)
	if !c.dec || c.err != nil {
		return
	}
	if c.violates(f.ratioSum >= 0 && f.rows >= 0 && f.rows == math.Trunc(f.rows) && (f.rows > 0 || f.ratioSum == 0) && !math.IsInf(f.ratioSum, 1)) {
		c.fail("a sum of pair norms of " + str.Ftoa(f.ratioSum) + " over " + str.Ftoa(f.rows) + " rows")
		return
	}
	if c.violates(len(f.n) <= d) {
		c.fail("counts of " + str.Itoa(len(f.n)) + " features in a model of " + str.Itoa(d))
		return
	}
	f.total, f.seen = 0, 0
	for _, v := range f.n {
		if c.violates(v >= 0 && v == math.Trunc(v)) {
			c.fail("a feature count of " + str.Ftoa(v))
			return
		}
		f.total += v
		if v > 0 {
			f.seen++
		}
	}
}
