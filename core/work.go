package core

// pairCounter is implemented by the learners whose work on a row includes
// pairs of its nonzeros, O(nnz(x)²) a row: pairVisits returns how many pair
// terms they have read or written since they were made or decoded (a
// CCFMPairs pair slot, an entry of a gradient sum Gₜ added to). It is work
// counted by the code itself, so that tests bound the cost of a row in
// operations rather than seconds, which a busy machine stretches: a row too
// wide to learn must cost O(nnz), not a pair term per pair (TestWideRow).
// The counts are not part of a model file.
type pairCounter interface {
	pairVisits() int64
}

// pairTerms returns the number of pairs (i, j), i ≤ j, of n nonzeros.
func pairTerms(n int) int64 { return int64(n) * int64(n+1) / 2 }

func (m *CCFMPairs) pairVisits() int64 { return m.visits }
func (o *OCCFM) pairVisits() int64     { return o.g.visits }
func (o *CCFMFTRL) pairVisits() int64  { return o.g.visits }
func (m *CFMFTRL) pairVisits() int64   { return m.g.visits }
func (m *OCCFMLin) pairVisits() int64  { return m.occ.pairVisits() }
func (m *OCCFMK) pairVisits() int64    { return m.g.visits }

// pairVisits sums the live experts' counts (a retired expert's are gone
// with it).
func (m *OCCFMAuto) pairVisits() int64 {
	var n int64
	for _, e := range m.experts {
		if c, ok := e.(pairCounter); ok {
			n += c.pairVisits()
		}
	}
	return n
}

// pairVisits returns the pair terms visited by the learner and by those it
// replaced after a divergence.
func (g *Guarded) pairVisits() int64 {
	n := g.visits
	if c, ok := g.inner.(pairCounter); ok {
		n += c.pairVisits()
	}
	return n
}

// replace puts a fresh learner in place of the current one, keeping count
// of the pair terms the current one visited.
func (g *Guarded) replace() {
	g.visits = g.pairVisits()
	g.inner = g.fresh()
}
