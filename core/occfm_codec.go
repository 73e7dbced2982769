package core

import "github.com/occfm/occfm/core/internal/str"

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
		if c.atEnd() {
			return
		}
		c.int(&o.s.MaxRowNonzeros)
		if c.atEnd() {
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
		if c.atEnd() {
			return // written before the growth bound: oldCert, set above
		}
		o.oldCert = false
	} else if o.oldCert {
		return
	}
	c.float(&o.cDWn)
	c.growth(&o.gb, o.n)
}
