package core

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// GuardSettings configures a Guarded learner. The zero value: features
// scaled as they come (data.Scales), no clipping,
// rows with a feature or a label beyond ±1e9, or with more nonzeros than the
// learner's MaxRowNonzeros, are not learned, divergence is a smoothed
// loss 100 times that of the label mean (or a non-finite or absurd
// prediction, or a failed update), and a diverged learner is reset to a
// fresh one up to 3 times, then paused.
type GuardSettings struct {
	// Clip clamps regression predictions to [min y, max y] over the labels
	// seen so far (no clipping before the first label, nor for
	// classification, whose predictions are scores).
	Clip bool
	// MaxFeature bounds |xᵢ| for learning: a row with a feature value beyond
	// it (or not finite) is predicted but not learned from, and counted in
	// GuardReport.Refused. Such values overflow the products of a
	// second-order model (x̂x̂ᵀ holds xᵢ²). Zero means 1e9.
	MaxFeature float64
	// MaxLabel bounds |y| for learning: a row with a label beyond it (or
	// not finite) is predicted but not learned from, and its label is left
	// out of the label statistics (the fallback, the clipping range and
	// the divergence test), so that one absurd label cannot make them
	// absurd. Zero means 1e9.
	MaxLabel float64
	// Factor is the divergence test: the learner has diverged when its
	// smoothed loss (an exponential moving average over about 500 rows,
	// after the first 500 rows since the start or the last reset) exceeds
	// Factor times the smoothed loss of the label mean plus a small floor,
	// or when its average over about 50 rows (after 50 rows) exceeds 10
	// times that bar: a fast blow-up. Zero means 100.
	Factor float64
	// Resets is how many times a diverged learner is replaced by a fresh
	// one (same settings) before the guard pauses it instead. Zero means 3;
	// negative means never reset: pause at the first divergence.
	Resets int
	// Unscaled passes the rows to the learner as they are. The zero value
	// scales every feature by its running max |xᵢ| as the rows come (see
	// data.Scales), which makes learning independent of a number's units.
	Unscaled bool
}

const (
	defaultMaxFeature = 1e9
	defaultMaxLabel   = 1e9
	defaultFactor     = 100
	defaultResets     = 3
	// guardWindow is the span of the smoothed losses and the rows a learner
	// plays after a start or reset before the loss test applies.
	guardWindow = 500
	// guardAbsurd: a prediction more than guardAbsurd times the labels'
	// scale away from them has diverged whatever the smoothed losses say.
	guardAbsurd = 1e6
	// guardEvents is how many events a GuardReport keeps (the first ones).
	guardEvents = 5
)

// GuardFor returns the guard settings the command line's -clip and
// -on-diverge and the page's "Clip predictions" and onDiverge name: clip
// "on" clips, "auto" (or "") clips when ratings is true (a ratings stream
// learned as regression), anything else does not; onDiverge "pause" pauses
// a diverged learner at once, anything else resets it first. Callers check
// the words themselves, to name their own flag or field in the error.
func GuardFor(clip, onDiverge string, ratings bool) GuardSettings {
	var g GuardSettings
	switch clip {
	case "on":
		g.Clip = true
	case "", "auto":
		g.Clip = ratings
	}
	if onDiverge == "pause" {
		g.Resets = -1
	}
	return g
}

func (s GuardSettings) withDefaults() GuardSettings {
	if s.MaxFeature == 0 {
		s.MaxFeature = defaultMaxFeature
	}
	if s.MaxLabel == 0 {
		s.MaxLabel = defaultMaxLabel
	}
	if s.Factor == 0 {
		s.Factor = defaultFactor
	}
	s.Resets = zeroDefault(s.Resets, defaultResets, 0)
	if !(s.MaxFeature > 0) || !(s.MaxLabel > 0) || !(s.Factor > 1) || math.IsInf(s.Factor, 0) {
		panic("core: invalid GuardSettings: MaxFeature and MaxLabel must be positive and Factor finite and above 1")
	}
	return s
}

// GuardEvent is one thing a Guarded learner did about a row.
type GuardEvent struct {
	// Row is the 1-based row of the stream, counting every row played.
	Row int
	// Kind is "diverged", "reset", "paused", "refused" or "retired" (a part
	// of the learner failed and was dropped, see partFailer).
	Kind string
	// Msg says what was seen, e.g. "prediction NaN" or "a feature value
	// 1e+50 is beyond ±1e+09: row predicted, not learned".
	Msg string
}

func (e GuardEvent) String() string {
	return "row " + strconv.Itoa(e.Row) + ": " + e.Kind + ": " + e.Msg
}

// GuardReport is what a Guarded learner has done so far.
type GuardReport struct {
	// Divergences counts the divergences detected, Resets the fresh
	// learners that replaced a diverged one, Refused the rows not learned:
	// a feature or label out of range, or too many nonzeros.
	Divergences, Resets, Refused int
	// Of the Refused rows, TooWide had more nonzeros than the learner's
	// MaxRowNonzeros and BadLabels a label beyond MaxLabel or not finite;
	// the others had a feature beyond MaxFeature or not finite.
	TooWide, BadLabels int
	// Paused is true once the learner stopped learning; PausedAt is the
	// row where it did. A paused learner predicts the fallback (the label
	// mean, or its log-odds for classification).
	Paused   bool
	PausedAt int
	// Events holds the first few events, in order, the pause, and every
	// "retired" (up to maxAutoExperts).
	Events []GuardEvent
}

// Guarded wraps a learner of the registry so that it never emits a NaN or
// infinite prediction and never stays silently corrupted:
//
//   - a row whose features are not finite or beyond MaxFeature, whose label
//     is not finite or beyond MaxLabel, or that has more nonzeros than the
//     learner's MaxRowNonzeros (see RowLimited) is predicted but not
//     learned, and counted; its label stays out of the label statistics
//     when it is the label that is out of range;
//   - the learner has diverged when its prediction is not finite or more
//     than 10⁶ label scales away from the labels, when its update panics,
//     or when its smoothed loss exceeds Factor times that of the running
//     label mean (see GuardSettings);
//   - a diverged learner is replaced by a fresh one with the same settings
//     (Resets times at most), then paused: it stops learning and predicts
//     the fallback, the running label mean (for classification, the
//     smoothed log-odds of the positive rate);
//   - a part of the learner that fails while the rest goes on (an expert
//     of OCCFMAuto whose update panics, see partFailer) is a "retired"
//     event, not a divergence;
//   - with Clip, regression predictions are clamped to the range of the
//     labels seen so far.
//
// First, each feature is divided by its running max |xᵢ| (data.Scales):
// every learner learns alike whatever a number's units; one-hot and 0/1
// features keep their values; a row refused for a feature value (below)
// does not move the scales.
//
// Every event is counted and reported (Report): nothing is dropped
// silently. The prediction for a row on which the learner diverges is the
// fallback. Guarded implements Learner; Play uses its PredictUpdate, which
// computes the inner learner's prediction once per row.
type Guarded struct {
	set   GuardSettings
	name  string
	spec  Spec // the registry's entry for name
	cfg   Config
	task  data.Task
	loss  Loss
	fresh func() Learner
	inner Learner

	rows  int // rows played
	since int // rows learned by the current inner learner

	// Labels seen: count, running mean, range.
	n      int
	mean   float64
	lo, hi float64

	// Smoothed losses (bias-corrected exponential moving averages) of the
	// learner, over about guardWindow rows and over about guardWindow/10
	// rows, and of the fallback over guardWindow rows.
	eL, eS, eB ewma

	rep GuardReport

	visits int64 // pair terms visited by the learners replaced (see pairCounter)

	sc data.Scales // the features' scales: the data's, kept over a reset
}

// Learner returns the learner the guard currently wraps (a fresh one after
// a reset), for views that inspect it.
func (g *Guarded) Learner() Learner { return g.inner }

// Settings returns the guard's settings, with the defaults filled in.
func (g *Guarded) Settings() GuardSettings { return g.set }

// Name returns the learner's registry name.
func (g *Guarded) Name() string { return g.name }

// Clipping reports whether the guard clips the predictions: Clip is set
// and the task is regression.
func (g *Guarded) Clipping() bool { return g.set.Clip && g.task == data.Regression }

// Config returns the inner learner's settings when it reports them.
func (g *Guarded) Config() Config {
	if c, ok := g.inner.(Configured); ok {
		return c.Config()
	}
	return Config{Task: g.task}
}

// Report returns what the guard has done so far. Its Events are a copy.
func (g *Guarded) Report() GuardReport {
	r := g.rep
	r.Events = append([]GuardEvent(nil), g.rep.Events...)
	return r
}

// Predict returns the inner learner's prediction for x, made safe: the
// fallback when the learner is paused or its prediction is not finite or
// absurd, clipped to the label range with Clip. It changes nothing.
func (g *Guarded) Predict(x data.Sparse) float64 {
	if g.rep.Paused {
		return g.fallback()
	}
	if !g.set.Unscaled {
		x = g.sc.Apply(x)
	}
	raw, _ := g.predict(x)
	if g.absurd(raw) {
		return g.fallback()
	}
	return g.clip(raw)
}

// Update learns from (x, y) as PredictUpdate does.
func (g *Guarded) Update(x data.Sparse, y float64) { g.PredictUpdate(x, y) }

// PredictUpdate plays one round: it returns the safe prediction for x (as
// Predict), then learns from (x, y), checking for divergence. Play calls
// it instead of Predict and Update.
func (g *Guarded) PredictUpdate(x data.Sparse, y float64) float64 {
	g.rows++
	if g.rep.Paused {
		out := g.fallback()
		g.observe(y)
		return out
	}
	fb := g.fallback()
	bad, isBad := g.badFeature(x)
	xs := x
	if !g.set.Unscaled {
		if !isBad {
			g.sc.Observe(x)
		}
		xs = g.sc.Apply(x)
	}
	raw, msg := g.predict(xs)
	if why := g.refuse(x, y, bad, isBad); why != "" {
		// The row is the problem, not the learner: a prediction it spoils
		// is replaced, and the row is not learned.
		g.rep.Refused++
		g.event("refused", why)
		if msg != "" || g.absurd(raw) {
			raw = fb
		}
		g.observe(y)
		return g.clip(raw)
	}
	out := raw
	diverged := msg != ""
	if !diverged && g.absurd(raw) {
		diverged = true
		msg = "prediction " + fmtFloat(raw) + g.scaleText()
	}
	if diverged {
		out = fb
	}
	out = g.clip(out)

	if !diverged {
		// The smoothed losses, on the learner's own prediction (not
		// clipped: clipping would hide a divergence). The short average
		// catches a fast blow-up early, against a ten times higher bar.
		l := g.loss.Value(raw, y)
		g.eL.add(l, guardWindow)
		g.eS.add(l, guardWindow/10)
		g.eB.add(g.loss.Value(fb, y), guardWindow)
		bar := g.set.Factor * (g.eB.mean() + g.floor())
		switch {
		case g.since >= guardWindow && g.eL.mean() > bar:
			diverged = true
			msg = "smoothed loss " + fmtFloat(g.eL.mean()) + " over the last ~" + strconv.Itoa(guardWindow) + " rows is over " + fmtFloat(g.set.Factor) + "× that of the label mean (" + fmtFloat(g.eB.mean()) + ")"
		case g.since >= guardWindow/10 && g.eS.mean() > 10*bar:
			diverged = true
			msg = "smoothed loss " + fmtFloat(g.eS.mean()) + " over the last ~" + strconv.Itoa(guardWindow/10) + " rows is over " + fmtFloat(10*g.set.Factor) + "× that of the label mean (" + fmtFloat(g.eB.mean()) + ")"
		}
	}
	if !diverged {
		if err := g.update(xs, y); err != "" {
			diverged = true
			msg = "update failed: " + err
		} else {
			g.since++
			g.noteFailures()
		}
	}
	if diverged {
		g.diverge(msg)
	}
	g.observe(y)
	return out
}

// predict calls the inner learner's Predict, turning a panic into a message;
// msg is also set for a prediction that is not finite.
func (g *Guarded) predict(x data.Sparse) (raw float64, msg string) {
	defer func() {
		if r := recover(); r != nil {
			raw, msg = math.NaN(), "prediction failed: "+str.PanicText(r)
		}
	}()
	raw = g.inner.Predict(x)
	if math.IsNaN(raw) || math.IsInf(raw, 0) {
		return raw, "prediction " + fmtFloat(raw)
	}
	return raw, ""
}

// update calls the inner learner's Update, turning a panic into a message.
func (g *Guarded) update(x data.Sparse, y float64) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = str.PanicText(r)
		}
	}()
	g.inner.Update(x, y)
	return ""
}

// diverge records a divergence and resets or pauses the learner.
func (g *Guarded) diverge(msg string) {
	g.rep.Divergences++
	g.event("diverged", msg)
	if g.rep.Resets < g.set.Resets {
		g.rep.Resets++
		g.replace()
		g.since = 0
		g.eL, g.eS = ewma{}, ewma{}
		g.event("reset", "a fresh "+g.name+" replaces it (reset "+strconv.Itoa(g.rep.Resets)+" of "+strconv.Itoa(g.set.Resets)+")")
		return
	}
	g.rep.Paused, g.rep.PausedAt = true, g.rows
	g.replace() // drop the corrupted state
	g.event("paused", "it stops learning and predicts the label mean from now on")
}

// event records an event if fewer than guardEvents are kept; the pause,
// which ends the learning, is always kept, and so is a part retired (up to
// maxAutoExperts), which changes the learner for good.
func (g *Guarded) event(kind, msg string) {
	if len(g.rep.Events) < guardEvents || kind == "paused" || kind == "retired" && g.rep.Retired() < maxAutoExperts {
		g.rep.Events = append(g.rep.Events, GuardEvent{Row: g.rows, Kind: kind, Msg: msg})
	}
}

// observe adds a label to the running mean and range, unless it is not
// finite or beyond MaxLabel.
func (g *Guarded) observe(y float64) {
	if !(math.Abs(y) <= g.set.MaxLabel) {
		return
	}
	g.n++
	g.mean += (y - g.mean) / float64(g.n)
	if g.n == 1 || y < g.lo {
		g.lo = y
	}
	if g.n == 1 || y > g.hi {
		g.hi = y
	}
}

// fallback is the prediction of the label mean: the mean for regression,
// the log-odds of the smoothed positive rate for classification (labels
// ±1), 0 before any label.
func (g *Guarded) fallback() float64 {
	if g.n == 0 {
		return 0
	}
	if g.task == data.Classification {
		pos := float64(g.n) * (1 + g.mean) / 2
		return math.Log((pos + 0.5) / (float64(g.n) - pos + 0.5))
	}
	return g.mean
}

// scale is the labels' scale: max(|lo|, |hi|, hi − lo, 1).
func (g *Guarded) scale() float64 {
	if g.n == 0 {
		return 1
	}
	return max(math.Abs(g.lo), math.Abs(g.hi), g.hi-g.lo, 1)
}

// absurd reports a prediction that is not finite or beyond 10⁶ label
// scales.
func (g *Guarded) absurd(raw float64) bool {
	return !(math.Abs(raw) <= guardAbsurd*g.scale())
}

func (g *Guarded) scaleText() string {
	if g.n == 0 {
		return " is absurd"
	}
	return " is far outside the labels seen ([" + fmtFloat(g.lo) + ", " + fmtFloat(g.hi) + "])"
}

// floor keeps the loss test meaningful when the label mean is nearly
// perfect (constant labels): 1 % of the labels' squared scale, or 0.01 for
// the logistic loss.
func (g *Guarded) floor() float64 {
	if g.loss == Squared {
		s := g.scale()
		return 0.01 * s * s
	}
	return 0.01
}

func (g *Guarded) clip(v float64) float64 {
	if !g.Clipping() || g.n == 0 {
		return v
	}
	return min(max(v, g.lo), g.hi)
}

// refuse returns why the row (x, y) must not be learned, or "": a feature
// value beyond MaxFeature or not finite (bad, isBad: badFeature's answer),
// a label beyond MaxLabel or not finite, or more nonzeros than the
// learner's MaxRowNonzeros. It counts the last two kinds in the report.
// The message does not name the feature: the index inside is not the
// file's (the readers renumber features).
func (g *Guarded) refuse(x data.Sparse, y, bad float64, isBad bool) string {
	if isBad {
		return "a feature value " + fmtFloat(bad) + " is beyond ±" + fmtFloat(g.set.MaxFeature) + ": row predicted, not learned"
	}
	if !(math.Abs(y) <= g.set.MaxLabel) {
		g.rep.BadLabels++
		return "label " + fmtFloat(y) + " is beyond ±" + fmtFloat(g.set.MaxLabel) + ": row predicted, not learned, its label left out of the label mean and range"
	}
	if lim := g.rowLimit(len(x.Ind)); lim > 0 {
		g.rep.TooWide++
		nnz := int64(len(x.Ind))
		return "row has " + str.Thousands(nnz) + " nonzero features, over " + g.name + "'s limit of " +
			str.Thousands(int64(lim)) + " per row (its gradient sum stores every pair: " + countText(nnz*(nnz+1)/2+nnz+1) +
			"); predicted, not learned; linear and fm-ftrl have no such limit"
	}
	return ""
}

// badFeature returns the first feature value of x that is not finite or
// beyond ±MaxFeature, if any: such a row is not learned (refuse) and does
// not move the scales.
func (g *Guarded) badFeature(x data.Sparse) (float64, bool) {
	for _, v := range x.Val {
		if !(math.Abs(v) <= g.set.MaxFeature) {
			return v, true
		}
	}
	return 0, false
}

// Scales says how the guard scales the rows' numbers (see data.Scales):
// how many features it divides by a scale other than 1, and the largest.
func (g *Guarded) Scales() data.ScaleSummary { return g.sc.Summary() }

// growthBytes passes the inner learner's on (see rowGrower), for a row the
// guard would learn: a refused row grows nothing.
func (g *Guarded) growthBytes(nnz, dim int) int64 {
	r, ok := g.inner.(rowGrower)
	if !ok || g.rowLimit(nnz) > 0 {
		return 0
	}
	return r.growthBytes(nnz, dim)
}

// rowLimit returns the inner learner's MaxRowNonzeros when a row of nnz
// nonzeros is over it (see RowLimited), 0 otherwise.
func (g *Guarded) rowLimit(nnz int) int {
	if r, ok := g.inner.(RowLimited); ok {
		if lim := r.MaxRowNonzeros(); lim > 0 && nnz > lim {
			return lim
		}
	}
	return 0
}

// Shrink passes the inner learner's Shrink on (see Shrinker), or frees
// nothing.
func (g *Guarded) Shrink() int64 {
	if s, ok := g.inner.(Shrinker); ok {
		return s.Shrink()
	}
	return 0
}

// MemoryBytes estimates the bytes g holds (see Sized): the learner's and
// the guard's own (its events).
func (g *Guarded) MemoryBytes() int64 {
	b := structBytes + g.sc.MemoryBytes()
	for _, e := range g.rep.Events {
		b += 64 + int64(len(e.Kind)+len(e.Msg))
	}
	if s, ok := g.inner.(Sized); ok {
		b += s.MemoryBytes()
	}
	return b
}

// MemoryNote forwards the learner's MemoryNote (see MemoryNoter).
func (g *Guarded) MemoryNote() string {
	if n, ok := g.inner.(MemoryNoter); ok {
		return n.MemoryNote()
	}
	return ""
}

func (g *Guarded) growsPerPair() bool {
	p, ok := g.inner.(pairGrower)
	return ok && p.growsPerPair()
}

// ewma is an exponential moving average corrected for its start at 0:
// after k values it is Σ wᵢvᵢ / Σ wᵢ with wᵢ = (1 − a)^(k−i).
type ewma struct{ sum, mass float64 }

// add adds v with a = 2/(span + 1).
func (e *ewma) add(v float64, span int) {
	a := 2 / float64(span+1)
	e.sum += a * (v - e.sum)
	e.mass += a * (1 - e.mass)
}

func (e *ewma) mean() float64 {
	if e.mass == 0 {
		return 0
	}
	return e.sum / e.mass
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// RefusedWhy says why the guard did not learn the Refused rows: "a feature
// beyond ±1e9" for one reason, "2 with a feature beyond ±1e9, 1 with too
// many nonzeros" for several; "" when none was refused. The CLI's report
// and the page show it after the count.
func (r GuardReport) RefusedWhy() string {
	reasons := []struct {
		n         int
		one, some string
	}{
		{r.Refused - r.TooWide - r.BadLabels, "a feature beyond ±1e9", "with a feature beyond ±1e9"},
		{r.TooWide, "more nonzeros than the learner's limit per row", "with too many nonzeros"},
		{r.BadLabels, "a label beyond ±1e9 or not finite", "with a label beyond ±1e9"},
	}
	var parts []string
	only := ""
	for _, c := range reasons {
		if c.n > 0 {
			parts = append(parts, str.Thousands(int64(c.n))+" "+c.some)
			only = c.one
		}
	}
	if len(parts) == 1 {
		return only
	}
	return strings.Join(parts, ", ")
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

// DivergenceAdvice says in one sentence what most likely made g's learner
// diverge, or made an expert of it fail (a "retired" event, see
// partFailer), naming the settings as the caller's user knows them
// (deltaName "-delta" or "δ", etaName "-eta" or "η"). When δ was set above
// the learner's default (for OCCFMAuto, above its default grid's largest
// δ), δ is named first: with a ball that no longer binds, OCCFM follows the
// minimizer of its regularized gradient sum, which a learning rate tuned for
// the default δ can make unstable (on the planted-regression demo at
// δ = 1000, η = 1 diverges where the default η = 0.1 learns:
// docs/findings.md, "η above δ = 10, squared loss"). Otherwise the
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
	if c, ok := g.spec.New(Config{Task: g.task, Loss: g.cfg.Loss}).(Configured); ok {
		return c.Config().Delta, "default"
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

// ScalesOf returns how l (a *Guarded; else nothing scaled) scales the rows'
// numbers.
func ScalesOf(l Learner) data.ScaleSummary {
	if g, ok := l.(*Guarded); ok {
		return g.Scales()
	}
	return data.ScaleSummary{LargestFeature: -1}
}
