package core

import (
	"errors"

	"github.com/occfm/occfm/core/internal/str"
)

// guardSection names the Model.Extra section that holds a Guarded's own
// state.
const guardSection = "guard"

// Model returns the guarded learner as a Model for SaveModel: the learner
// the guard wraps, the settings it was made with, and in Extra["guard"] the
// guard's own state (the labels' mean and range, the smoothed losses, its
// counters and events), so that ResumeGuarded goes on exactly as if the
// guard had never stopped. The caller sets Vocabulary and Rows.
func (g *Guarded) Model() Model {
	c := &stateCodec{}
	g.stateCode(c)
	return Model{Name: g.name, Config: g.cfg, Learner: g.inner, Extra: map[string][]byte{guardSection: c.buf}}
}

// ResumeGuarded guards the learner of a loaded model with s: it continues
// the guard's state saved by Guarded.Model, or starts a fresh guard for a
// model saved without one. A reset makes a fresh learner of m.Name for
// m.Config. It returns an error for a model whose guard state is malformed.
func ResumeGuarded(m Model, s GuardSettings) (*Guarded, error) {
	spec, ok := registry[m.Name]
	if !ok || m.Learner == nil {
		return nil, errors.New("core: the model has no learner of the registry (" + str.Quote(m.Name) + ")")
	}
	c := m.Config
	g := &Guarded{set: s.withDefaults(), name: m.Name, cfg: c, task: c.Task, loss: c.LossOf(),
		fresh: func() Learner { return spec.New(c) }, inner: m.Learner}
	if b, ok := m.Extra[guardSection]; ok {
		dc := &stateCodec{dec: true, buf: b}
		g.stateCode(dc)
		if err := dc.finish(guardSection); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// stateCode codes the guard's state (not its settings, which come from the
// caller, nor the learner, which is the model's).
func (g *Guarded) stateCode(c *stateCodec) {
	c.int(&g.rows)
	c.int(&g.since)
	c.int(&g.n)
	c.float(&g.mean)
	c.float(&g.lo)
	c.float(&g.hi)
	for _, e := range []*ewma{&g.eL, &g.eS, &g.eB} {
		c.float(&e.sum)
		c.float(&e.mass)
		if c.violates(e.mass >= 0 && e.mass <= 1 && e.sum >= 0) {
			c.fail("smoothed loss (" + str.Ftoa(e.sum) + ", " + str.Ftoa(e.mass) + ") out of range")
		}
	}
	r := &g.rep
	c.int(&r.Divergences)
	c.int(&r.Resets)
	c.int(&r.Refused)
	c.bool(&r.Paused)
	c.int(&r.PausedAt)
	c.check(g.rows >= 0 && g.since >= 0 && g.n >= 0 && g.n <= g.rows && g.lo <= g.hi &&
		r.Divergences >= 0 && r.Resets >= 0 && r.Resets <= r.Divergences && r.Refused >= 0 &&
		r.PausedAt >= 0 && r.PausedAt <= g.rows, "guard counters out of range")
	n := c.length(len(r.Events), 3)
	if c.dec {
		if c.err != nil || n > guardEvents+1 {
			c.fail("guard events: " + str.Itoa(n))
			return
		}
		r.Events = make([]GuardEvent, n)
	}
	for i := range r.Events {
		e := &r.Events[i]
		c.int(&e.Row)
		c.string(&e.Kind)
		c.string(&e.Msg)
	}
	// The breakdown of Refused, at the end and only when not zero, so that
	// files written before it existed load and save to the same bytes.
	if !c.dec && r.TooWide == 0 && r.BadLabels == 0 || c.dec && (c.err != nil || len(c.buf) == 0) {
		return
	}
	c.int(&r.TooWide)
	c.int(&r.BadLabels)
	if c.violates(r.TooWide >= 0 && r.BadLabels >= 0 && r.TooWide+r.BadLabels <= r.Refused && r.TooWide+r.BadLabels > 0) {
		c.fail("refused rows " + str.Itoa(r.TooWide) + " too wide and " + str.Itoa(r.BadLabels) + " with a bad label of " + str.Itoa(r.Refused))
	}
}
