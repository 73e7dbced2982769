package core

import (
	"slices"

	"github.com/occfm/occfm/core/data"

	"github.com/occfm/occfm/core/internal/str"
)

// DivergenceAdvice says in one sentence what most likely made g's learner
// diverge, or made an expert of it fail (a "retired" event, see
// partFailer), naming the settings as the caller's user knows them
// (deltaName "-delta" or "δ", etaName "-eta" or "η"). When δ was set above
// the learner's default (for OCCFMAuto, above its default grid's largest
// δ), δ is named first: with a ball that no longer binds, OCCFM follows the
// minimizer of its regularized gradient sum, which a learning rate tuned for
// the default δ can make unstable (on the planted-regression demo at
// δ = 1000, η = 1 diverges and η = 0.1 learns to RMSE 0.19). Otherwise the
// learning rate is named, the usual cause.
func (g *Guarded) DivergenceAdvice(deltaName, etaName string) string {
	delta := g.Config().Delta
	if delta == 0 {
		delta = g.cfg.Delta // OCCFMAuto reports none: its grid is this one δ
	}
	def, what := g.defaultDelta()
	if delta > def && def > 0 {
		return "δ = " + str.Ftoa(delta) + " is above " + g.name + "'s " + what + " " + str.Ftoa(def) +
			": a ball this large no longer holds the model in, so the learning rate alone decides whether it is stable; try a smaller " +
			deltaName + ", or a smaller " + etaName + "."
	}
	return "a learning rate too large for the data is the usual cause: try a smaller " + etaName + "."
}

// defaultDelta returns the δ g's learner takes when none is given, and what
// to call it: "default", or for OCCFMAuto its default grid's "largest
// default"; 0 for a learner without a fixed default δ.
func (g *Guarded) defaultDelta() (float64, string) {
	if g.name == occfmAutoSpec.Name {
		return slices.Max(DefaultAutoDeltas), "largest default"
	}
	if spec, ok := registry[g.name]; ok {
		if c, ok := spec.New(Config{Task: g.task, Loss: g.cfg.Loss}).(Configured); ok {
			return c.Config().Delta, "default"
		}
	}
	return 0, "default"
}

// partFailer is a learner that survives the failure of a part of it: an
// OCCFMAuto retires an expert whose update panics, and the others go on.
// takeFailures returns a sentence for each failure since its last call, and
// forgets them.
type partFailer interface {
	takeFailures() []string
}

var _ partFailer = (*OCCFMAuto)(nil)

// noteFailures records a "retired" event for each part of the learner that
// failed in the update just made (see partFailer).
func (g *Guarded) noteFailures() {
	if f, ok := g.inner.(partFailer); ok {
		for _, msg := range f.takeFailures() {
			g.event("retired", msg)
		}
	}
}

// Retired counts the "retired" events of r: the parts of the learner
// (OCCFMAuto's experts) that failed and were dropped while the rest went
// on learning.
func (r GuardReport) Retired() int {
	n := 0
	for _, e := range r.Events {
		if e.Kind == "retired" {
			n++
		}
	}
	return n
}

// updateExpert calls e.Update(x, y) and returns "", or the text of the
// panic that stopped it.
func updateExpert(e Learner, x data.Sparse, y float64) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = str.PanicText(r)
		}
	}()
	e.Update(x, y)
	return ""
}
