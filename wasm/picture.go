package main

import (
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// The model picture draws the matrix C of the learner the page follows
// (ŷ = ½x̂ᵀCx̂, x̂ = [x; 1]): the whole of it on a demo, the block of a
// file's most frequent features otherwise; the Frank-Wolfe step view draws
// four matrices of the same shape for the row just learned.
const (
	// pictureWhole is the largest demo drawn whole (the ratings demo's C
	// is 801×801).
	pictureWhole = 1024
	// pictureFile is how many of a file's most frequent features the
	// picture draws, with the bias coordinate.
	pictureFile = 40
	// stepCoords is how many coordinates the step view draws at most: the
	// row's features, then the most frequent ones.
	stepCoords = 24
	// pictureEigs is how many eigenvalues the spectrum shows.
	pictureEigs = 24
	// freqFeatures bounds the features whose occurrences are counted (4
	// bytes each): a file with more ranks only these by frequency.
	freqFeatures = 1 << 20
)

// countFeatures counts the occurrences of x's features (play calls it for
// every row): the picture of a file draws its most frequent ones.
func (s *session) countFeatures(x data.Sparse) {
	for _, j := range x.Ind {
		if j >= freqFeatures {
			continue
		}
		if j >= len(s.freq) {
			s.freq = slices.Grow(s.freq, j+1-len(s.freq))[:j+1]
		}
		s.freq[j]++
	}
}

// frequent returns up to k features by decreasing count (ties by index),
// skipping those in skip.
func (s *session) frequent(k int, skip []int) []int {
	type fc struct {
		j int
		c uint32
	}
	var top []fc // sorted by decreasing count, at most k
	for j, c := range s.freq {
		if c == 0 || (len(top) == k && c <= top[k-1].c) || slices.Contains(skip, j) {
			continue
		}
		// Insert after the counts ≥ c (k is a picture's few features: a
		// scan, and no generic slices code in the wasm).
		i := len(top)
		for i > 0 && top[i-1].c < c {
			i--
		}
		if len(top) < k {
			top = append(top, fc{})
		}
		copy(top[i+1:], top[i:])
		top[i] = fc{j, c}
	}
	out := make([]int, len(top))
	for i, e := range top {
		out[i] = e.j
	}
	return out
}

// modelPicture is what the page draws of a model.
type modelPicture struct {
	Learner string    // the player followed
	Note    string    // which model is drawn, when not the learner itself (shownModel.What)
	Labels  []string  // the coordinates, the bias ("1") last
	Cells   []float64 // C on them, k×k row-major (the page derives its colour scales: heatmap.js scalesOf)
	// Eig are C's eigenvalues by decreasing |λ| (at most pictureEigs),
	// Nuclear its nuclear norm, Rank the count of nonzero ones; BlockEig:
	// they are those of the block drawn, the learner's C being known
	// only through its predictions.
	Eig      []float64
	Nuclear  float64
	Rank     int
	BlockEig bool
	// Target and Theta, for occfm-k: the eigenvalues of its FTRL target
	// −ηGₜ/2 in its subspace and the soft threshold θ that makes C's.
	// Targets counts them all (the subspace's directions).
	Target  []float64
	Targets int
	Theta   float64
	Pairs   bool    // the model can hold pairs of features (shownModel.Pairs)
	Delta   float64 // the budget δ, 0 for a learner without one
	Whole   bool    // the block is the whole of C
	Ordered bool    // features ordered by C's leading eigenvector
	Millis  float64 // the time this took
}

// traceFollowed turns on the record of the followed learner's steps
// (TraceSteps; for a core.Mixture, of its experts that step), so that the step view has the next step on record:
// setFollow calls it, and shown again, since the guard replaces a learner
// it resets.
func (s *session) traceFollowed() {
	if p := s.followed(); p != nil {
		if t, ok := p.inner().(interface{ TraceSteps(bool) }); ok {
			t.TraceSteps(true)
		}
	}
}

// isStepper reports whether a learner (an expert of a mixture) has a step
// the step view draws: a Frank-Wolfe step (stepTracer) or a
// follow-the-regularized-leader step (ftrlTracer).
func isStepper(l core.Learner) bool {
	switch l.(type) {
	case stepTracer, ftrlTracer:
		return true
	}
	return false
}

// stepped returns the learner whose step the step view draws: the
// followed one, or a mixture's leading expert among those that step.
func (s *session) stepped() (p *player, l core.Learner, note string) {
	p = s.followed()
	if p == nil {
		return nil, nil, ""
	}
	s.traceFollowed()
	l = p.inner()
	if a, ok := l.(core.Mixture); ok {
		lead, e, ok := core.Trusted(a, isStepper)
		if !ok {
			return p, nil, "every expert of " + p.Name + " that takes a step retired: no step to show"
		}
		return p, lead, p.Name + "'s leading expert that steps: " + core.NameOf(lead) + " " + e.Name + ", weight " + weight(e.Weight)
	}
	return p, l, ""
}

// dim returns the number of features of the session's source so far.
func (s *session) dim() int {
	if s.stream != nil {
		return s.stream.Dim()
	}
	if d, ok := s.source.(interface{ Dim() int }); ok {
		return d.Dim()
	}
	return len(s.freq)
}

// featureLabel names feature j for the picture.
func (s *session) featureLabel(j int) string {
	if j == core.BiasCoord {
		return "1 (bias)"
	}
	if s.names != nil {
		return s.names.FeatureName(j)
	}
	return strconv.Itoa(j)
}

// affineBlock writes the C of a learner without pairs on idx: its bias
// row wⱼ = p(eⱼ) − p(0) and corner 2p(0), zero elsewhere.
func affineBlock(l core.Learner, idx []int, dst []float64) {
	k := len(idx)
	clear(dst[:k*k])
	p0 := l.Predict(data.Sparse{})
	for a, j := range idx {
		if j != core.BiasCoord {
			continue
		}
		dst[a*k+a] = 2 * p0
		for b, i := range idx {
			if i != core.BiasCoord {
				w := l.Predict(data.Sparse{Ind: []int{i}, Val: []float64{1}}) - p0
				dst[a*k+b], dst[b*k+a] = w, w
			}
		}
	}
}

// picture returns the model picture of the followed learner, or nil before
// the learners start.
func (s *session) picture() *modelPicture {
	t0 := time.Now()
	sm := s.shown()
	if sm.p == nil {
		return nil
	}
	pic := &modelPicture{Learner: sm.p.Name, Note: sm.What, Pairs: sm.Pairs}
	s.drawnNext = drawnModel{sm.p, sm.What, sm.Pairs} // drawn once the page says so (pictureDrawn)
	exact := sm.exact()
	var idx []int
	// C is drawn whole on a demo; a learner known only by its predictions
	// costs |idx|²/2 of them and an eigendecomposition of the block, so
	// only up to pictureFile coordinates.
	if d := s.dim(); s.stream == nil && (d <= pictureFile || exact && d <= pictureWhole) {
		for j := 0; j < d; j++ {
			idx = append(idx, j)
		}
		pic.Whole = true
	} else {
		idx = s.frequent(pictureFile, nil)
	}
	idx = append(idx, core.BiasCoord)
	k := len(idx)
	cells := make([]float64, k*k)
	sm.block(idx, cells)
	if !pic.Whole && k > 2 {
		// Order the features by the leading eigenvector of the block: the
		// features that load on it together sit together.
		f := k - 1
		_, lead := core.BlockSpectrum(featureBlock(cells, k), f)
		order := make([]int, f)
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case lead[a] > lead[b]:
				return -1
			case lead[a] < lead[b]:
				return 1
			}
			return 0
		})
		order = append(order, f)
		idx, cells = permute(idx, cells, order)
		pic.Ordered = true
	}
	pic.Cells = cells
	for _, j := range idx {
		pic.Labels = append(pic.Labels, s.featureLabel(j))
	}
	var vals []float64
	l := sm.l
	if in, ok := l.(spectral); ok {
		vals = in.Eigenvalues()
		pic.Nuclear, pic.Rank = in.NuclearNorm(), in.Rank()
	} else {
		pic.BlockEig = true
		vals, _ = core.BlockSpectrum(cells, k)
		var tr float64
		for _, v := range vals {
			tr += math.Abs(v)
		}
		pic.Nuclear = tr
		pic.Rank = core.RankOf(vals, 1e-12*tr)
	}
	if _, ok := l.(core.Configured); ok && (exact || core.InBall(l)) {
		pic.Delta = core.DeltaNow(l)
	}
	if k, ok := l.(thresholded); ok {
		pic.Target, pic.Theta = k.TargetSpectrum(), k.Threshold()
		pic.Targets = len(pic.Target)
		pic.Target = pic.Target[:min(len(pic.Target), pictureEigs)]
	}
	pic.Eig = vals[:min(len(vals), pictureEigs)]
	pic.Millis = float64(time.Since(t0).Microseconds()) / 1000
	return pic
}

// featureBlock returns the leading (k−1)×(k−1) block of the k×k cells:
// C without its bias row and column.
func featureBlock(cells []float64, k int) []float64 {
	f := k - 1
	out := make([]float64, f*f)
	for i := 0; i < f; i++ {
		copy(out[i*f:(i+1)*f], cells[i*k:i*k+f])
	}
	return out
}

// permute returns idx and the k×k cells reordered by order (new position
// i holds old order[i]).
func permute(idx []int, cells []float64, order []int) ([]int, []float64) {
	k := len(idx)
	ni, nc := make([]int, k), make([]float64, k*k)
	for i, oi := range order {
		ni[i] = idx[oi]
		for j, oj := range order {
			nc[i*k+j] = cells[oi*k+oj]
		}
	}
	return ni, nc
}

// spectral is a learner that knows C's spectrum exactly (the OCCFM
// family keeps C = U·M·Uᵀ).
type spectral interface {
	NuclearNorm() float64
	Rank() int
	Eigenvalues() []float64
}

// thresholded is a learner whose C is a soft threshold of a target's
// spectrum (core.OCCFMK): the picture draws the target beside C.
type thresholded interface {
	TargetSpectrum() []float64
	Threshold() float64
}

// stepTracer is a learner whose Frank-Wolfe steps are on record
// (core.OCCFM, core.OCCFMLin).
type stepTracer interface {
	LastStep() (core.FWStep, bool)
	StepBlocks(idx []int, before, atom, after, grad []float64) bool
}

// ftrlTracer is a learner whose follow-the-regularized-leader steps are on
// record (core.OCCFMK); its StepBlocks writes the target −ηGₜ/2 where a
// Frank-Wolfe step has its atom.
type ftrlTracer interface {
	LastFTRLStep() (core.FTRLStep, bool)
	StepBlocks(idx []int, before, target, after, grad []float64) bool
}

// stepPicture is the step view's record of the last row learned.
type stepPicture struct {
	Learner string
	Note    string
	Step    core.FWStep
	// FTRL is the step of an occfm-k, when IsFTRL.
	FTRL   core.FTRLStep
	IsFTRL bool
	Labels []string
	// Before, Atom, After and Grad are Cₜ, Ĉₜ (for occfm-k the target
	// −ηGₜ/2), Cₜ₊₁ and ∇fₜ(Cₜ) on the labels' coordinates, k×k each.
	Before, Atom, After, Grad []float64
	// Why, when there is no step to show.
	Why string
}

// fwStep returns the last Frank-Wolfe step of the followed learner.
func (s *session) fwStep() *stepPicture {
	p, l, note := s.stepped()
	if p == nil {
		return &stepPicture{Why: "no learner yet"}
	}
	sp := &stepPicture{Learner: p.Name, Note: note}
	if l == nil {
		sp.Why = note
		return sp
	}
	var blocks func(idx []int, before, atom, after, grad []float64) bool
	var ok bool
	switch tr := l.(type) {
	case stepTracer:
		sp.Step, ok = tr.LastStep()
		blocks = tr.StepBlocks
	case ftrlTracer:
		sp.FTRL, ok = tr.LastFTRLStep()
		sp.IsFTRL, blocks = true, tr.StepBlocks
	default:
		sp.Why = p.Name + " takes no step on a matrix C: follow occfm, occfm-lin or occfm-k to see one"
		return sp
	}
	if !ok {
		sp.Why = "no step on record yet: learn a row (Step, or the → key)"
		return sp
	}
	var idx []int
	if d := s.dim(); s.stream == nil && d+1 <= stepCoords {
		for j := 0; j < d; j++ {
			idx = append(idx, j)
		}
	} else {
		if pr := s.latest(0); pr != nil {
			idx = append(idx, pr.ind[:min(pr.nnz, describeFeatures)]...)
		}
		idx = append(idx, s.frequent(stepCoords-1-len(idx), idx)...)
		slices.Sort(idx)
	}
	idx = append(idx, core.BiasCoord)
	k := len(idx)
	sp.Before, sp.Atom, sp.After, sp.Grad = make([]float64, k*k), make([]float64, k*k), make([]float64, k*k), make([]float64, k*k)
	blocks(idx, sp.Before, sp.Atom, sp.After, sp.Grad)
	for _, j := range idx {
		sp.Labels = append(sp.Labels, s.featureLabel(j))
	}
	return sp
}
