package core

import (
	"math"

	"github.com/occfm/occfm/core/internal/str"
)

// legacyDeltaScale is the scale of the default growing ball of the models
// of files that predate the weights (see Delta).
const legacyDeltaScale = 12

// weightedFile is added to the affine rule's code in a model file whose
// OCCFMK has the weights' ζ in its settings and the counts in its body
// (see stateCode).
const weightedFile = 16

func (m *OCCFMK) stateCode(c *stateCodec) {
	s := m.s
	c.float(&s.Delta)
	c.float(&s.Eta)
	c.int(&s.Rank)
	c.float(&s.Tol)
	c.int(&s.MinGap)
	// The affine rule, plus weightedFile when the weights' ζ follows and
	// the body holds the counts: a file without it predates the weights
	// and the fold-in (see legacy).
	a := int(s.Affine)
	if !m.legacy {
		a += weightedFile
	}
	c.int(&a)
	legacy := a < weightedFile
	if legacy {
		s.Weights = -1
	} else {
		a -= weightedFile
		c.float(&s.Weights)
	}
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
	if c.dec && legacy {
		m.legacy, m.ballScale = true, legacyDeltaScale
		if m.wide != nil {
			m.wide.legacy, m.wide.ballScale = true, legacyDeltaScale*mixWide
		}
	}
	m.codeBody(c, m.wide == nil)
	if m.wide != nil && c.err == nil {
		c.float(&m.lossWide)
		if c.violates(m.lossWide >= 0) {
			c.fail("a negative summed loss")
		}
		m.wide.codeBody(c, true)
	}
}

// codeBody codes m's state after its settings: a model file holds the
// wide model of AffineMix (whose settings follow from m's) this way, after
// the model's. The log of cuts is optional only in the last body coded.
func (m *OCCFMK) codeBody(c *stateCodec, last bool) {
	s := m.s
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
	if s.Affine == AffineMix {
		c.ftrlLinear(&m.alone, m.d)
		c.float(&m.lossWhole)
		c.float(&m.lossAlone)
		if c.violates(m.lossWhole >= 0 && m.lossAlone >= 0) {
			c.fail("a negative summed loss")
		}
	}
	c.accum(&m.g, m.d)
	c.float(&m.gF2)
	c.stepScale(&m.scale)
	if !m.legacy {
		c.featureWeights(&m.fw, m.d)
		c.float(&m.se)
		c.float(&m.ballScale)
		if c.violates(m.se >= 0 && m.ballScale > 0 && !math.IsInf(m.ballScale, 1)) {
			c.fail("a negative sum of squares or a ball's scale of " + str.Ftoa(m.ballScale))
		}
	}
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
	// A log of cuts (see cutLog): in the last body only when a file has
	// one, always in the others (written empty).
	l := cutLog{stamp: make([]int32, m.d)}
	if !last || c.dec && !c.atEnd() {
		c.int32s(&l.stamp)
		c.int32s(&l.toff)
		c.int32s(&l.tin)
		c.int32s(&l.tout)
		c.floats(&l.t)
		c.float(&l.yStale)
		if c.violates(!last || len(l.toff) > 0) {
			c.fail("an empty log of cuts")
		}
	}
	if c.dec && c.err == nil {
		m.decoded(c, seen, &l)
	}
}

// decoded checks the sizes of a decoded state and rebuilds what is derived
// from it: the features seen (from seen, one byte each), the rows of S and
// Y through an older file's log of cuts, and the active directions.
func (m *OCCFMK) decoded(c *stateCodec, seen []byte, l *cutLog) {
	ld := m.ld
	if c.violates(len(seen) == m.d && len(m.sb) == m.d*ld && len(m.yb) == m.d*ld && len(m.a) == ld*ld &&
		len(m.w) == ld*ld && len(m.mu) == ld && m.g.n <= m.d && m.last <= m.t && m.diagAt <= m.t) {
		c.fail("a subspace of the wrong size")
		return
	}
	if c.violates(l.fits(m.d, ld)) {
		c.fail("a log of cuts of the wrong size")
		return
	}
	m.takeLog(l)
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
	m.normsA()
}
