package core

import "github.com/occfm/occfm/core/internal/str"

func (m *OCCFMK) stateCode(c *stateCodec) {
	s := m.s
	c.float(&s.Delta)
	c.float(&s.Eta)
	c.int(&s.Rank)
	c.float(&s.Tol)
	c.int(&s.MinGap)
	a := int(s.Affine)
	c.int(&a)
	s.Affine = AffineRule(a)
	codeEnum(c, &s.Loss, 2, "loss")
	c.uint64(&s.Seed)
	c.int(&s.MaxRowNonzeros)
	if c.violates(s.MaxRowNonzeros == -1 || s.MaxRowNonzeros > 0) {
		c.fail("row nonzero limit " + str.Itoa(s.MaxRowNonzeros))
	}
	if !rebuild(c, m, s, NewOCCFMK, func(x *OCCFMK) OCCFMKSettings { return x.s }) {
		return
	}
	c.int(&m.t)
	c.int(&m.d)
	c.int(&m.kc)
	ld := m.ld
	if c.violates(m.t >= 0 && m.d >= 0 && m.kc >= 0 && m.kc <= ld) {
		c.fail(str.Itoa(m.t) + " rounds, " + str.Itoa(m.d) + " features, " + str.Itoa(m.kc) + " directions")
	}
	if c.err != nil {
		return
	}
	if m.bias != nil {
		c.nestedBias(m.bias, m.d)
	} else {
		c.ftrlLinear(&m.lin, m.d)
	}
	c.accum(&m.g, m.d)
	c.float(&m.gF2)
	c.float(&m.scale)
	seen := make([]byte, len(m.seen))
	for i, b := range m.seen {
		if b {
			seen[i] = 1
		}
	}
	c.bytes(&seen)
	c.floats(&m.sb)
	c.floats(&m.yb)
	c.float(&m.yF2)
	c.floats(&m.a)
	c.floats(&m.w)
	c.floats(&m.mu)
	c.float(&m.theta)
	c.float(&m.eps)
	c.float(&m.offEps)
	c.float(&m.leak)
	c.int(&m.last)
	c.int(&m.diagAt)
	c.int(&m.refreshes)
	c.pcg(m.src)
	if !c.dec || c.err != nil {
		return
	}
	if c.violates(len(seen) == m.d && len(m.sb) == m.d*ld && len(m.yb) == m.d*ld && len(m.a) == ld*ld &&
		len(m.w) == ld*ld && len(m.mu) == ld && m.g.n <= m.d && m.last <= m.t && m.diagAt <= m.t) {
		c.fail("a subspace of the wrong size")
		return
	}
	m.seen = make([]bool, len(seen))
	m.nseen = 0
	for i, b := range seen {
		m.seen[i] = b != 0
		if b != 0 {
			m.nseen++
		}
	}
	m.active = m.active[:0]
	for a, v := range m.mu[:m.kc] {
		if v != 0 {
			m.active = append(m.active, a)
		}
	}
}

// nestedBias codes a Bias's state after its settings (those of the
// learner it belongs to), checking that it covers d features.
func (c *stateCodec) nestedBias(b *Bias, d int) {
	c.int(&b.t)
	c.float(&b.b)
	c.floats(&b.w)
	c.floats(&b.n)
	if c.violates(len(b.w) == d && len(b.n) == d) {
		c.fail(str.Itoa(len(b.w)) + " biases with " + str.Itoa(len(b.n)) + " counts for " + str.Itoa(d) + " features")
	}
}
