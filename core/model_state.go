package core

import (
	"github.com/occfm/occfm/core/internal/str"
	"math"
	"math/rand/v2"
)

// This file holds the stateCode method of every registered learner (see
// stateCoder in model.go): the learner's settings, defaults filled in, then
// every field that affects a future prediction, in a fixed order. Scratch
// buffers are not saved. Caches that can be rebuilt bit for bit from the
// saved fields are rebuilt instead of saved:
//
//   - OCCFM's Lanczos noise vector is a fixed N(0, 1) draw per coordinate
//     from its seeded generator: it is drawn again (and leaves the
//     generator where it was);
//   - FM-FTRL's generator is likewise advanced by the d·k draws of V's
//     initial rows;
//   - a gradient accumulator's hash index and CSR mirror are rebuilt from
//     its pairs, the mirror from the same prefix of pairs it held, so that
//     products with G sum in the same order;
//   - the column-major copy of C's basis (lowRankSym.ut) is rebuilt on
//     first use, as after any change of the basis.
//
// CCFM-FTRL and CFM-FTRL draw from their generators at every refresh, so
// their generators' states are saved.

// maxUnbackedDim bounds a dimension that the file does not back with data
// (C's dimension while C has no basis columns, say), so that a crafted file
// cannot make LoadModel allocate without bound.
const maxUnbackedDim = 1 << 16

// maxSubspace bounds the k×k buffers of settings read from a file.
const maxSubspace = 1 << 12

func (o *OCCFM) stateCode(c *stateCodec) {
	s := o.s
	if c.dec {
		// Coded at the end (see occfmTail), when not the default.
		s.MaxRowNonzeros, s.MaxRank, s.LMOSlack = DefaultMaxRowNonzeros, DefaultMaxRank, DefaultLMOSlack
	}
	c.float(&s.Delta)
	c.float(&s.Eta)
	codeEnum(c, &s.Gamma, 3, "γ schedule")
	c.float(&s.GammaConst)
	codeEnum(c, &s.Loss, 2, "loss")
	codeEnum(c, &s.GradientSum, 2, "gradient sum")
	c.bool(&s.NoSelfInteractions)
	c.float(&s.RecompressTol)
	codeEnum(c, &s.LMO, 2, "LMO method")
	c.int(&s.Subspace)
	c.float(&s.RefreshTol)
	c.uint64(&s.Seed)
	if c.violates(s.Subspace >= 0 && s.Subspace <= maxSubspace) {
		c.fail("subspace size " + str.Itoa(s.Subspace))
	}
	c.alloc(bytesOf(6*8, s.Subspace, s.Subspace), "subspace of size "+str.Itoa(s.Subspace))
	if !rebuild(c, o, s, NewOCCFM, func(x *OCCFM) OCCFMSettings { return x.s }) {
		return
	}
	n := o.n
	c.int(&n)
	c.int(&o.dim)
	c.int(&o.t)
	c.int32s(&o.feat)
	if c.dec {
		if c.violates(o.t >= 0) {
			c.fail(str.Itoa(o.t) + " rounds")
		}
		if c.violates(n >= 1 && n-1 <= len(o.feat)) {
			c.fail("dimension " + str.Itoa(n) + " with " + str.Itoa(len(o.feat)) + " features")
		}
		if c.violates(o.dim == 0 && len(o.feat) == 0 || o.dim == len(o.feat)+1) {
			c.fail("dimension " + str.Itoa(o.dim) + " with " + str.Itoa(len(o.feat)) + " features")
		}
		checkNumbering(c, o.feat, 1, n, "feature")
		// grow allocates C's rows (8 floats a row before any basis
		// column), the noise vector, and the certificate's n×k rows.
		c.alloc(bytesOf(n, 8*(8+1+2*o.k)), "dimension "+str.Itoa(n))
		if c.err != nil {
			return
		}
		o.grow(n) // draws the noise vector again
	}
	c.lowRank(&o.c, n)
	c.accum(&o.g, n)
	c.int(&o.sk)
	k := o.k
	if c.violates(o.sk >= 0 && o.sk <= k && o.sk <= o.c.b) {
		c.fail("subspace of " + str.Itoa(o.sk) + " columns")
	}
	c.floats(&o.tG)
	c.int(&o.interval)
	c.int(&o.since)
	if c.violates(o.interval >= 1 && o.since >= 0) {
		c.fail("refresh interval " + str.Itoa(o.interval) + ", since " + str.Itoa(o.since))
	}
	for _, p := range []*float64{&o.restP, &o.restN, &o.eDp, &o.eDn, &o.xD, &o.xB, &o.drop} {
		c.float(p)
	}
	c.floats(&o.b0)
	c.floats(&o.e)
	c.floats(&o.f)
	c.floats(&o.kB)
	c.check(len(o.tG) == k*k && len(o.f) == k*k && len(o.kB) == k*k, "k×k matrices of the wrong size")
	c.check(o.b0 == nil && o.e == nil && o.sk == 0 || len(o.b0) == n*k && len(o.e) == n*k,
		"certificate matrices of the wrong size")
	for _, p := range []*float64{&o.cs, &o.cBW, &o.cDW, &o.lambda, &o.guardErr} {
		c.float(p)
	}
	c.int(&o.refreshes)
	c.int(&o.matvecs)
	c.occfmTail(o)
}

// occfmTail codes what OCCFM gained after the first model files: the
// line-search step (PaperStep false) with its ⟨G, C⟩, the rank cap and
// the LMO accuracy tied to γₜ (LMOSlack). Files written before have none:
// they store RefreshTol = 1e-3 and decode as a learner with PaperStep set
// and no rank cap, so they go on exactly as they were; such a learner
// writes no tail, so they save again to the same bytes. Else the tail is
// the row nonzero limit (always), PaperStep, MaxRank, LMOSlack, and the
// line search's ⟨G, C⟩ with its error bound, ‖G‖₂'s estimate and whether
// the last step was the line search's; then max(−λmin(M_WW), 0) (see
// blockNorms) and the certificate's structured growth bound (see growth).
// A file that ends before these two decodes as a learner with the
// certificate and the recompression it was written with (OCCFM.oldCert),
// which writes no such section, so such files too go on as they were and
// save to the same bytes.
func (c *stateCodec) occfmTail(o *OCCFM) {
	legacy := func() bool { return o.s.PaperStep && o.s.MaxRank < 0 && o.s.RefreshTol > 0 }
	if !c.dec {
		if legacy() {
			c.maxRowNonzeros(&o.s.MaxRowNonzeros)
			return
		}
		c.int(&o.s.MaxRowNonzeros)
	} else {
		o.s.PaperStep, o.s.MaxRank = true, -1
		o.oldCert = true
		o.cDWn = o.cDW
		if c.err != nil || len(c.buf) == 0 {
			return
		}
		c.int(&o.s.MaxRowNonzeros)
		if c.err != nil || len(c.buf) == 0 {
			if c.violates(o.s.MaxRowNonzeros == -1 || o.s.MaxRowNonzeros > 0 && o.s.MaxRowNonzeros != DefaultMaxRowNonzeros) {
				c.fail("row nonzero limit " + str.Itoa(o.s.MaxRowNonzeros))
			}
			return
		}
		if c.violates(o.s.MaxRowNonzeros == -1 || o.s.MaxRowNonzeros > 0) {
			c.fail("row nonzero limit " + str.Itoa(o.s.MaxRowNonzeros))
		}
	}
	c.bool(&o.s.PaperStep)
	c.int(&o.s.MaxRank)
	c.float(&o.s.LMOSlack)
	c.float(&o.phi)
	c.float(&o.phiErr)
	c.float(&o.gBound)
	c.bool(&o.lsBinds)
	if c.dec {
		if c.violates(o.s.MaxRank == -1 || o.s.MaxRank > 0) {
			c.fail("rank cap " + str.Itoa(o.s.MaxRank))
		}
		if c.violates(o.s.LMOSlack > 0 && o.s.LMOSlack <= 1e6) {
			c.fail("LMO slack " + str.Ftoa(o.s.LMOSlack))
		}
		c.check(!legacy(), "a tail that repeats the legacy settings")
		if c.err != nil || len(c.buf) == 0 {
			return // written before the growth bound: oldCert, set above
		}
		o.oldCert = false
	} else if o.oldCert {
		return
	}
	c.float(&o.cDWn)
	c.growth(&o.gb, o.n)
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

// checkNumbering checks that the nonzero (first ≥ 1) or non-negative
// (first = 0, −1 meaning none) entries of idx number exactly the
// coordinates first … n−1, each once.
func checkNumbering(c *stateCodec, idx []int32, first, n int, what string) {
	if !c.dec || c.err != nil {
		return
	}
	if n-first > len(idx) || n < first {
		c.fail(str.Itoa(n-first) + " " + what + "s numbered by " + str.Itoa(len(idx)) + " entries")
		return
	}
	seen := make([]bool, n)
	count := 0
	for _, v := range idx {
		if int(v) < first {
			if first == 1 && v == 0 || first == 0 && v == -1 {
				continue
			}
			c.fail(what + " number " + str.Itoa(int(v)) + " out of range")
			return
		}
		if int(v) >= n || seen[v] {
			c.fail(what + " number " + str.Itoa(int(v)) + " out of range or repeated")
			return
		}
		seen[v] = true
		count++
	}
	if c.violates(count == n-first) {
		c.fail(str.Itoa(count) + " of " + str.Itoa(n-first) + " " + what + "s numbered")
	}
}

// lowRank codes C = U·M·Uᵀ of dimension n (already grown to n when
// decoding): b, the row stride, the n×b values of U and M.
func (c *stateCodec) lowRank(l *lowRankSym, n int) {
	c.int(&l.b)
	c.int(&l.ld)
	b, ld := l.b, l.ld
	if c.violates(b >= 0 && ld >= max(b, 1) && ld <= 4*b+16) {
		c.fail("basis of " + str.Itoa(b) + " columns, stride " + str.Itoa(ld))
	}
	if c.err != nil {
		return
	}
	var u []float64 // decoding: c.floats allocates what the file holds
	if !c.dec {
		u = make([]float64, 0, n*b)
		for i := 0; i < n; i++ {
			u = append(u, l.urow(i)...)
		}
	}
	c.floats(&u)
	c.floats(&l.m)
	c.check(len(u) == n*b && len(l.m) == b*b, "C's factors of the wrong size")
	if !c.dec || !c.alloc(bytesOf(8, n, ld), "basis of "+str.Itoa(n)+"×"+str.Itoa(ld)) {
		return
	}
	l.u = make([]float64, n*ld)
	for i := 0; i < n; i++ {
		copy(l.u[i*ld:i*ld+b], u[i*b:i*b+b])
	}
	l.utValid = false
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

// eigSym codes C = B·R·diag(λ)·(B·R)ᵀ of the projected baselines.
func (c *stateCodec) eigSym(e *eigSym) {
	n := e.n
	c.int(&n)
	c.int(&e.b)
	c.int(&e.r)
	c.int(&e.ld)
	b, r, ld := e.b, e.r, e.ld
	if c.violates(n >= 1 && (b > 0 || n <= maxUnbackedDim)) {
		c.fail("dimension " + str.Itoa(n))
	}
	// The stride only grows (it doubles when the basis is full), so it
	// may exceed b by far after a compaction; the bound only keeps a
	// crafted file from asking for unbounded memory.
	if c.violates(b >= 0 && r >= 0 && r <= b && ld >= max(b, 1) && ld <= 1<<16 && n*ld <= 8*n*max(b, 1)+1<<23) {
		c.fail("basis of " + str.Itoa(b) + " columns, rank " + str.Itoa(r) + ", stride " + str.Itoa(ld))
	}
	if c.err != nil {
		return
	}
	var basis []float64 // decoding: c.floats allocates what the file holds
	if !c.dec {
		basis = make([]float64, 0, n*b)
		for i := 0; i < n; i++ {
			basis = append(basis, e.brow(i)...)
		}
	}
	c.floats(&basis)
	c.floats(&e.rotT)
	c.floats(&e.lam)
	c.check(len(basis) == n*b && len(e.lam) == r && len(e.rotT) >= r*b, "C's factors of the wrong size")
	if !c.dec || !c.alloc(bytesOf(8, n, ld), "basis of "+str.Itoa(n)+"×"+str.Itoa(ld)) {
		return
	}
	e.n = n
	e.basis = make([]float64, n*ld)
	for i := 0; i < n; i++ {
		copy(e.basis[i*ld:i*ld+b], basis[i*b:i*b+b])
	}
}

// pcg codes the state of a PCG generator.
func (c *stateCodec) pcg(p *rand.PCG) {
	var b []byte
	if !c.dec {
		b, _ = p.MarshalBinary() // never fails
	}
	c.bytes(&b)
	if c.dec && c.err == nil {
		if err := p.UnmarshalBinary(b); err != nil {
			c.fail("generator state: " + err.Error())
		}
	}
}

// ftrlLinear codes w₀, w and their FTRL accumulators (the proximal
// settings come from the learner's settings), checking that w covers d
// features.
func (c *stateCodec) ftrlLinear(l *ftrlLinear, d int) {
	c.float(&l.w0)
	c.float(&l.z0)
	c.float(&l.n0)
	c.floats(&l.w)
	c.floats(&l.zw)
	c.floats(&l.nw)
	if c.violates(len(l.w) == d && len(l.zw) == d && len(l.nw) == d) {
		c.fail(str.Itoa(len(l.w)) + " linear weights for " + str.Itoa(d) + " features")
	}
}

func (o *CCFMOGD) stateCode(c *stateCodec) {
	s := o.s
	c.float(&s.Delta)
	c.float(&s.Eta)
	codeEnum(c, &s.Loss, 2, "loss")
	c.uint64(&s.Seed)
	c.bool(&s.DenseProjection)
	if !rebuild(c, o, s, NewCCFMOGD, func(x *CCFMOGD) CCFMOGDSettings { return x.s }) {
		return
	}
	c.projected(&o.projectedCCFM)
}

func (o *CCFMPA) stateCode(c *stateCodec) {
	s := o.s
	c.float(&s.Delta)
	c.float(&s.Eta)
	codeEnum(c, &s.Loss, 2, "loss")
	c.uint64(&s.Seed)
	c.bool(&s.DenseProjection)
	if !rebuild(c, o, s, NewCCFMPA, func(x *CCFMPA) CCFMPASettings { return x.s }) {
		return
	}
	c.projected(&o.projectedCCFM)
}

// projected codes the state of CCFM-OGD and CCFM-PA: t and C (δ and the
// projection method come from the settings).
func (c *stateCodec) projected(p *projectedCCFM) {
	c.int(&p.t)
	if c.violates(p.t >= 0) {
		c.fail(str.Itoa(p.t) + " rounds")
	}
	c.eigSym(&p.c)
}

func (o *CCFMFTRL) stateCode(c *stateCodec) {
	s := o.s
	if c.dec {
		s.MaxRowNonzeros = DefaultMaxRowNonzeros // coded at the end, when not the default
	}
	c.float(&s.Delta)
	c.float(&s.Eta)
	codeEnum(c, &s.Loss, 2, "loss")
	c.uint64(&s.Seed)
	c.float(&s.Refresh)
	c.float(&s.Tol)
	c.bool(&s.Exact)
	c.bool(&s.DenseProjection)
	if !rebuild(c, o, s, NewCCFMFTRL, func(x *CCFMFTRL) CCFMFTRLSettings { return x.s }) {
		return
	}
	c.int(&o.t)
	c.int(&o.n)
	if c.violates(o.t >= 0 && o.n >= 1) {
		c.fail(str.Itoa(o.t) + " rounds, dimension " + str.Itoa(o.n))
	}
	if c.err != nil {
		return
	}
	c.accum(&o.g, o.n)
	c.float(&o.mass)
	c.bool(&o.sparse)
	c.float(&o.sparseEta)
	c.int(&o.k)
	c.floats(&o.vecs)
	c.floats(&o.rot)
	c.floats(&o.lam)
	c.floats(&o.mu)
	c.float(&o.theta)
	c.int(&o.next)
	k := o.k
	if c.violates(k >= 0 && len(o.lam) == k && len(o.mu) == k && len(o.rot) >= k*k) {
		c.fail(str.Itoa(k) + " held vectors with " + str.Itoa(len(o.lam)) + " values")
	}
	c.check(k == 0 || len(o.vecs)%k == 0 && len(o.vecs)/k <= o.n, "held vectors of the wrong size")
	c.eigSym(&o.dense)
	if c.dec && c.err == nil {
		rows := o.dense.n
		if k > 0 {
			rows = max(rows, len(o.vecs)/k)
		}
		if c.violates(o.n <= max(o.g.n, rows)+maxUnbackedDim) {
			c.fail("dimension " + str.Itoa(o.n))
		}
	}
	c.pcg(o.src)
	c.int(&o.refreshes)
	c.int(&o.matvecs)
	c.maxRowNonzeros(&o.s.MaxRowNonzeros)
}

func (m *FMFTRL) stateCode(c *stateCodec) {
	s := m.s
	c.int(&s.Rank)
	c.float(&s.Alpha)
	c.float(&s.Beta)
	c.float(&s.L1)
	c.float(&s.L2)
	c.float(&s.InitStd)
	codeEnum(c, &s.Loss, 2, "loss")
	c.uint64(&s.Seed)
	if c.violates(s.Rank <= maxSubspace) {
		c.fail("rank " + str.Itoa(s.Rank))
	}
	if !rebuild(c, m, s, NewFMFTRL, func(x *FMFTRL) FMFTRLSettings { return x.s }) {
		return
	}
	c.int(&m.d)
	if c.violates(m.d >= 0) {
		c.fail(str.Itoa(m.d) + " features")
	}
	if c.err != nil {
		return
	}
	c.ftrlLinear(&m.ftrlLinear, m.d)
	c.floats(&m.v)
	c.floats(&m.zv)
	c.floats(&m.nv)
	k := m.s.Rank
	c.check(len(m.v) == m.d*k && len(m.zv) == m.d*k && len(m.nv) == m.d*k, "factors of the wrong size")
	if c.dec && c.err == nil {
		// Advance the generator past the draws of V's initial rows.
		for range m.d * k {
			m.rng.NormFloat64()
		}
	}
}

func (m *CFMFTRL) stateCode(c *stateCodec) {
	s := m.s
	if c.dec {
		s.MaxRowNonzeros = DefaultMaxRowNonzeros // coded at the end, when not the default
	}
	c.float(&s.Delta)
	c.float(&s.Eta)
	c.float(&s.Alpha)
	c.float(&s.Beta)
	c.float(&s.L1)
	c.float(&s.L2)
	codeEnum(c, &s.Loss, 2, "loss")
	c.float(&s.Tol)
	c.int(&s.MaxRank)
	c.uint64(&s.Seed)
	if !rebuild(c, m, s, NewCFMFTRL, func(x *CFMFTRL) CFMFTRLSettings { return x.s }) {
		return
	}
	c.int(&m.t)
	c.int(&m.d)
	if c.violates(m.t >= 0 && m.d >= 0) {
		c.fail(str.Itoa(m.t) + " rounds, " + str.Itoa(m.d) + " features")
	}
	if c.err != nil {
		return
	}
	c.ftrlLinear(&m.ftrlLinear, m.d)
	c.int32s(&m.pos)
	c.int(&m.n)
	if c.violates(len(m.pos) <= m.d) {
		c.fail(str.Itoa(len(m.pos)) + " rows of G for " + str.Itoa(m.d) + " features")
	}
	checkNumbering(c, m.pos, 0, m.n, "row")
	if c.err != nil {
		return
	}
	c.accum(&m.g, m.n)
	c.float(&m.gF2)
	c.float(&m.gL1)
	keys := make([]uint64, 0, len(m.dG))
	for k := range m.dG {
		keys = append(keys, k)
	}
	sortUint64(keys)
	cnt := c.length(len(keys), 16)
	for i := range cnt {
		var k uint64
		var v float64
		if !c.dec {
			k = keys[i]
			v = m.dG[k]
		}
		c.uint64(&k)
		c.float(&v)
		if c.dec && c.err == nil {
			m.dG[k] = v
		}
	}
	c.float(&m.dF2)
	c.float(&m.dL1)
	c.bool(&m.sparse)
	c.float(&m.etaZ)
	c.bool(&m.refreshed)
	c.float(&m.etaS)
	c.floats(&m.lam)
	c.floats(&m.u)
	c.int(&m.nS)
	c.float(&m.next)
	c.floatOrInf(&m.nucS) // +Inf: unknown
	c.bool(&m.exact)
	c.floats(&m.mu)
	c.int(&m.since)
	c.int(&m.interval)
	c.check(m.nS >= 0 && m.nS <= m.n && len(m.u) == m.nS*len(m.lam), "eigenvectors of the wrong size")
	c.check(m.sparse || m.nS*len(m.mu) <= len(m.u), "eigenvalues of the wrong size")
	if c.violates(m.since >= 0 && m.interval >= 1) {
		c.fail("refresh interval " + str.Itoa(m.interval) + ", since " + str.Itoa(m.since))
	}
	c.pcg(m.src)
	c.int(&m.refreshes)
	c.int(&m.matvecs)
	c.int(&m.inexact)
	c.maxRowNonzeros(&m.s.MaxRowNonzeros)
}

func sortUint64(a []uint64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

func (m *Mean) stateCode(c *stateCodec) {
	codeEnum(c, &m.s.Task, 2, "task")
	c.int(&m.n)
	c.float(&m.sum)
	c.int(&m.pos)
	c.int(&m.neg)
}

func (m *Bias) stateCode(c *stateCodec) {
	s := m.s
	c.float(&s.Eta)
	c.float(&s.L2)
	codeEnum(c, &s.Loss, 2, "loss")
	if !rebuild(c, m, s, NewBias, func(x *Bias) BiasSettings { return x.s }) {
		return
	}
	c.int(&m.t)
	c.float(&m.b)
	c.floats(&m.w)
	c.floats(&m.n)
	if c.violates(len(m.w) == len(m.n)) {
		c.fail(str.Itoa(len(m.w)) + " biases with " + str.Itoa(len(m.n)) + " counts")
	}
}

func (m *Linear) stateCode(c *stateCodec) {
	s := m.s
	c.float(&s.Alpha)
	c.float(&s.Beta)
	c.float(&s.L1)
	c.float(&s.L2)
	codeEnum(c, &s.Loss, 2, "loss")
	if !rebuild(c, m, s, NewLinear, func(x *Linear) LinearSettings { return x.s }) {
		return
	}
	d := len(m.w)
	c.int(&d)
	if c.violates(d >= 0) {
		c.fail(str.Itoa(d) + " features")
	}
	c.ftrlLinear(&m.ftrlLinear, d)
}

func (m *CCFMPairs) stateCode(c *stateCodec) {
	s := m.s
	c.float(&s.Alpha)
	c.float(&s.Beta)
	c.float(&s.L1)
	c.float(&s.L2)
	c.int(&s.Bits)
	c.int(&s.MaxRowNonzeros)
	codeEnum(c, &s.Loss, 2, "loss")
	if !rebuild(c, m, s, NewCCFMPairs, func(x *CCFMPairs) CCFMPairsSettings { return x.s }) {
		return
	}
	d := len(m.w)
	c.int(&d)
	if c.violates(d >= 0) {
		c.fail(str.Itoa(d) + " features")
	}
	c.ftrlLinear(&m.ftrlLinear, d)
	// The table: a flag for its allocation, then the slots in use in
	// increasing order, each with its accumulators z, n (its weight is
	// FTRL-Proximal's closed form of them).
	table := m.u != nil
	c.bool(&table)
	c.int(&m.used)
	n := 1 << s.Bits
	if c.violates(m.used >= 0 && m.used <= n && (table || m.used == 0)) {
		c.fail(str.Itoa(m.used) + " pair slots in use")
	}
	if c.err != nil {
		return
	}
	if c.dec && table {
		m.u, m.zu, m.nu = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	last := -1
	for k, seen := 0, 0; seen < m.used && c.err == nil; k++ {
		if !c.dec {
			for m.nu[k] == 0 {
				k++
			}
		}
		c.int(&k)
		if c.violates(k > last && k < n) {
			c.fail("pair slot " + str.Itoa(k) + " after " + str.Itoa(last))
		}
		if c.err != nil {
			return
		}
		c.float(&m.zu[k])
		c.float(&m.nu[k])
		if c.violates(m.nu[k] > 0 && !math.IsInf(m.nu[k], 0)) {
			c.fail("pair slot " + str.Itoa(k) + ": n = " + str.Ftoa(m.nu[k]))
		}
		m.u[k] = m.prox.weight(m.zu[k], m.nu[k])
		last = k
		seen++
	}
}

// maxRowNonzeros codes a learner's MaxRowNonzeros setting at the end of its
// section, and only when it is not DefaultMaxRowNonzeros: files written
// before the setting existed load with the default and save to the same
// bytes.
func (c *stateCodec) maxRowNonzeros(p *int) {
	if !c.dec {
		if *p != DefaultMaxRowNonzeros {
			c.int(p)
		}
		return
	}
	if c.err != nil || len(c.buf) == 0 {
		return
	}
	c.int(p)
	if c.violates(*p == -1 || *p > 0 && *p != DefaultMaxRowNonzeros) {
		c.fail("row nonzero limit " + str.Itoa(*p))
	}
}
