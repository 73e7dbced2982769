package core

// The memory estimates of the learners' building blocks, for the
// MemoryBytes methods (see Sized): capacities times element sizes, map
// entries times mapEntryBytes. Each is O(number of fields).

// memoryBytes estimates the bytes of G: per stored pair {i, j}, its hash
// index entry (mapEntryBytes), its coordinates and value (16 bytes) and,
// once in the CSR mirror, its two CSR entries and positions (32 bytes):
// about 76 bytes a pair, plus the slack of the growing slices.
func (g *symAccum) memoryBytes() int64 {
	return int64(len(g.index))*mapEntryBytes + i32Bytes(g.row) + i32Bytes(g.col) + f64Bytes(g.val) +
		i32Bytes(g.rowPtr) + i32Bytes(g.cCol) + f64Bytes(g.cVal) + i32Bytes(g.pos)
}

// memoryBytes estimates the bytes of C = U·M·Uᵀ: U (n×ld), its
// column-major copy (n×b), M and the b×b scratch.
func (c *lowRankSym) memoryBytes() int64 {
	return sumF64Bytes(c.u, c.m, c.ut, c.ta, c.tma, c.vals, c.vecs, c.work, c.q, c.cb, c.p, c.m2) + intBytes(c.order)
}

// memoryBytes estimates the bytes of a Lanczos workspace: its basis
// ((maxIter+1)×n) and Ritz vectors (keep×n) dominate.
func (lw *lanczosWork) memoryBytes() int64 {
	r := &lw.res
	return sumF64Bytes(lw.qb, lw.w, lw.alpha, lw.beta, lw.d, lw.e, lw.z, lw.work, lw.vb, r.theta, r.resid) +
		intBytes(lw.order) + 24*int64(cap(lw.q)+cap(r.vecs)+cap(r.ay))
}

// memoryBytes estimates the bytes of the projected baselines' C: its basis
// (n×ld), rotation, and the scratch, including the dense n×n matrices of
// the dense projection.
func (c *eigSym) memoryBytes() int64 {
	return sumF64Bytes(c.basis, c.rotT, c.lam, c.y, c.z, c.p, c.s, c.vals, c.abs, c.work,
		c.dvec, c.sm, c.vkT, c.rot2, c.du, c.dd) + intBytes(c.keep) + c.eig.memoryBytes()
}

func (e *rankOneEig) memoryBytes() int64 {
	return sumF64Bytes(e.ds, e.zs, e.dd, e.zq, e.tau, e.delta, e.zh, e.vs) +
		intBytes(e.perm) + intBytes(e.nd) + intBytes(e.defl) + intBytes(e.org) + 32*int64(cap(e.rots))
}

// memoryBytes estimates the bytes of w and its FTRL accumulators: 24 bytes
// a feature.
func (l *ftrlLinear) memoryBytes() int64 { return sumF64Bytes(l.w, l.zw, l.nw) }
