package core

import (
	"slices"

	"github.com/occfm/occfm/core/internal/str"
)

func (m *OCCFMAuto) stateCode(c *stateCodec) {
	s := m.s
	c.grid(&s.Deltas, 0, "δ")
	c.grid(&s.Etas, 1, "η")
	c.grid(&s.Pairs, 0, "α")
	if c.err != nil {
		return
	}
	c.float(&s.Retire)
	codeEnum(c, &s.Loss, 2, "loss")
	c.uint64(&s.Seed)
	if c.dec {
		s.Tastes = []float64{} // coded at the end, when there are some
		fresh := construct(c, func() *OCCFMAuto { return NewOCCFMAuto(s) })
		if c.err != nil {
			return
		}
		c.check(slices.Equal(fresh.s.Deltas, s.Deltas) && slices.Equal(fresh.s.Etas, s.Etas) && slices.Equal(fresh.s.Pairs, s.Pairs) && fresh.s.Retire == s.Retire && fresh.s.Seed == s.Seed,
			"settings are not in effective form")
		*m = *fresh
	}
	c.int(&m.t)
	c.float(&m.lo)
	c.float(&m.hi)
	c.float(&m.mix)
	c.float(&m.over)
	if c.violates(m.t >= 0 && m.lo <= m.hi && m.over >= 0) {
		c.fail(str.Itoa(m.t) + " rounds, labels in [" + str.Ftoa(m.lo) + ", " + str.Ftoa(m.hi) + "]")
	}
	// The OCCFMK experts (Tastes) come last, after the others and in a
	// section of their own at the end, coded only when there are some:
	// files written before them load with none and save to the same bytes.
	nb := len(m.experts) - len(m.s.Tastes)
	loss, recent := m.loss[:nb], m.recent[:nb]
	c.floats(&loss)
	c.floats(&recent)
	if c.violates(len(loss) == nb && len(recent) == nb) {
		c.fail(str.Itoa(len(loss)) + " losses for " + str.Itoa(nb) + " experts")
	}
	if c.dec && c.err == nil {
		copy(m.loss, loss)
		copy(m.recent, recent)
	}
	c.experts(m, 0, nb)
	if !c.dec {
		if len(m.s.Tastes) > 0 {
			c.grid(&m.s.Tastes, 1, "δ of tastes")
			loss, recent = m.loss[nb:], m.recent[nb:]
			c.floats(&loss)
			c.floats(&recent)
			c.experts(m, nb, len(m.experts))
		}
		return
	}
	if !c.atEnd() {
		c.tastes(m, s, nb)
	}
}

// tastes decodes the OCCFMK experts (Tastes) that follow the nb others,
// rebuilding m with settings s and the δ grid read.
func (c *stateCodec) tastes(m *OCCFMAuto, s OCCFMAutoSettings, nb int) {
	var loss, recent []float64
	var tastes []float64
	c.grid(&tastes, 1, "δ of tastes")
	if c.err != nil {
		return
	}
	s.Tastes = tastes
	fresh := construct(c, func() *OCCFMAuto { return NewOCCFMAuto(s) })
	if c.err != nil {
		return
	}
	c.check(slices.Equal(fresh.s.Tastes, tastes), "settings are not in effective form")
	m.s.Tastes = fresh.s.Tastes
	m.experts = append(m.experts, fresh.experts[nb:]...)
	c.floats(&loss)
	c.floats(&recent)
	if c.violates(len(loss) == len(tastes) && len(recent) == len(tastes)) {
		c.fail(str.Itoa(len(loss)) + " losses for " + str.Itoa(len(tastes)) + " experts of tastes")
	}
	if c.err != nil {
		return
	}
	m.loss, m.recent = append(m.loss, loss...), append(m.recent, recent...)
	m.yk, m.p = append(m.yk, make([]float64, len(tastes))...), append(m.p, make([]float64, len(tastes))...)
	c.experts(m, nb, len(m.experts))
}

// experts codes OCCFMAuto's experts lo to hi: whether each is live, and the
// state of each live one.
func (c *stateCodec) experts(m *OCCFMAuto, lo, hi int) {
	for k := lo; k < hi; k++ {
		if c.err != nil {
			return
		}
		live := m.experts[k] != nil
		c.bool(&live)
		if !live {
			m.experts[k] = nil
			continue
		}
		// A live expert decodes into the fresh one NewOCCFMAuto made for
		// its place, and must keep the settings the grid gave it.
		want := expertSettings(m.experts[k])
		c.nested(m.experts[k].(stateCoder))
		if c.violates(expertSettings(m.experts[k]) == want) {
			c.fail("expert " + str.Itoa(k) + " does not have its grid's settings")
		}
	}
}

// expertSettings returns an OCCFMAuto expert's settings, for comparison.
func expertSettings(e Learner) any {
	switch x := e.(type) {
	case *Bias:
		return x.s
	case *Linear:
		return x.s
	case *OCCFMLin:
		return x.s
	case *OCCFMK:
		s := x.s
		// A file keeps the rank, the weights and the step it was learned
		// with (older ones: 24, none and 3); the grid sets none of them.
		s.Rank, s.Weights, s.Eta = 0, 0, 0
		return s
	case *CCFMPairs:
		return x.s
	}
	return nil
}

// grid codes one of OCCFMAuto's grids: its length, from least to
// maxAutoExperts − 2, then its values.
func (c *stateCodec) grid(p *[]float64, least int, what string) {
	n := len(*p)
	c.int(&n)
	if c.violates(n >= least && n <= maxAutoExperts-2) {
		c.fail(str.Itoa(n) + " values of " + what)
	}
	if c.err != nil {
		return
	}
	if c.dec {
		*p = make([]float64, n)
	}
	for i := range *p {
		c.float(&(*p)[i])
	}
}
