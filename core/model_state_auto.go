package core

import "slices"

// nested codes a learner's state as a length-prefixed section of its own,
// so that a learner whose coding reads to the end of its bytes (OCCFM's
// tail) can sit inside another's.
func (c *stateCodec) nested(l stateCoder) {
	if !c.dec {
		sub := &stateCodec{}
		l.stateCode(sub)
		c.bytes(&sub.buf)
		return
	}
	var b []byte
	c.bytes(&b)
	if c.err != nil {
		return
	}
	sub := &stateCodec{dec: true, buf: b, limit: c.limit}
	l.stateCode(sub)
	if sub.err == nil && len(sub.buf) > 0 {
		sub.fail("%d bytes left over", len(sub.buf))
	}
	if sub.err != nil {
		c.fail("%v", sub.err)
		if c.over == nil {
			c.over = sub.over
		}
	}
}

func (m *OCCFMLin) stateCode(c *stateCodec) {
	s := m.s
	c.float(&s.Alpha)
	codeEnum(c, &s.Loss, 2, "loss")
	occ := m.occ
	if c.dec {
		occ = new(OCCFM)
	}
	c.nested(occ)
	if c.dec {
		if c.err != nil {
			return
		}
		s.OCCFM = occ.s
		c.check(s.OCCFM.Loss == s.Loss, "a CCFM part with the %v loss in a learner with the %v loss", s.OCCFM.Loss, s.Loss)
		fresh := construct(c, func() *OCCFMLin { return NewOCCFMLin(s) })
		if c.err != nil {
			return
		}
		c.check(fresh.s == s, "settings are not in effective form")
		*m = *fresh
		m.occ = occ
	}
	d := len(m.lin.w)
	c.int(&d)
	c.check(d >= 0, "%d features", d)
	c.ftrlLinear(&m.lin, d)
}

// grid codes one of OCCFMAuto's grids: its length, from least to
// maxAutoExperts − 2, then its values.
func (c *stateCodec) grid(p *[]float64, least int, what string) {
	n := len(*p)
	c.int(&n)
	c.check(n >= least && n <= maxAutoExperts-2, "%d values of %s", n, what)
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

func (m *OCCFMAuto) stateCode(c *stateCodec) {
	s := m.s
	c.grid(&s.Deltas, 0, "δ")
	c.grid(&s.Etas, 1, "η")
	if c.err != nil {
		return
	}
	ne := len(s.Etas)
	c.float(&s.Retire)
	codeEnum(c, &s.Loss, 2, "loss")
	c.uint64(&s.Seed)
	if c.dec {
		fresh := construct(c, func() *OCCFMAuto { return NewOCCFMAuto(s) })
		if c.err != nil {
			return
		}
		c.check(slices.Equal(fresh.s.Deltas, s.Deltas) && slices.Equal(fresh.s.Etas, s.Etas) && fresh.s.Retire == s.Retire && fresh.s.Seed == s.Seed,
			"settings are not in effective form")
		*m = *fresh
	}
	c.int(&m.t)
	c.float(&m.lo)
	c.float(&m.hi)
	c.float(&m.mix)
	c.check(m.t >= 0 && m.lo <= m.hi, "%d rounds, labels in [%g, %g]", m.t, m.lo, m.hi)
	c.floats(&m.loss)
	c.floats(&m.recent)
	c.check(len(m.loss) == len(m.experts) && len(m.recent) == len(m.experts), "%d losses for %d experts", len(m.loss), len(m.experts))
	for k := range m.experts {
		if c.err != nil {
			return
		}
		live := m.experts[k] != nil
		c.bool(&live)
		if !live {
			m.experts[k] = nil
			continue
		}
		e := m.experts[k].(stateCoder)
		c.nested(e)
	}
	if c.dec && c.err == nil {
		// The experts decoded in place; check they kept their kinds'
		// settings (the loss and the grid).
		for k, e := range m.experts {
			switch x := e.(type) {
			case *Bias:
				c.check(k == 0 && x.s.Loss == s.Loss, "expert %d is not the Bias of this loss", k)
			case *Linear:
				c.check(k == 1 && x.s.Loss == s.Loss, "expert %d is not the Linear of this loss", k)
			case *OCCFMLin:
				ok := k >= 2 && x.s.Loss == s.Loss
				if ok {
					d, eta := s.Deltas[(k-2)/ne], s.Etas[(k-2)%ne]
					if eta == 0 {
						eta = DefaultEtaFor(s.Loss, d)
					}
					ok = x.s.OCCFM.Delta == d && x.s.OCCFM.Eta == eta
				}
				c.check(ok, "expert %d is not the OCCFMLin of its grid's δ and η", k)
			}
		}
	}
}
