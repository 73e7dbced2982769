package main

import (
	"strconv"
	"strings"

	"github.com/occfm/occfm/core"
)

// mixFloor is the least weight an expert of occfm-auto needs to enter the
// weighted mix the picture draws: a colour scale fitted to pairs that
// weigh less would show, at full colour, what hardly moves a prediction.
const mixFloor = 0.01

// shownModel is the one answer to "which C do the views show": the
// followed learner's own; for occfm-auto, the weighted mix Σ pₖCₖ of its
// live experts of weight pₖ ≥ mixFloor (each expert's prediction is
// ½x̂ᵀCₖx̂; the aggregating algorithm's prediction lies between theirs),
// or the one expert that carries nearly all of the weight. session.picture draws it,
// and the Model card names the model the last picture drew.
type shownModel struct {
	p     *player
	l     core.Learner // the model drawn; nil for a mix
	parts []mixPart    // a mix's experts
	// What says which model is drawn ("" for the followed learner itself).
	What string
	// Pairs: the model can hold pairs of features (bias, linear and mean
	// cannot: their C is a bias row and corner).
	Pairs bool
}

// mixPart is an expert of a mix and its weight.
type mixPart struct {
	l    core.Learner
	w    float64
	name string
}

// shown returns the model the views show for the followed player (p nil
// before the learners start).
func (s *session) shown() shownModel {
	p := s.followed()
	if p == nil {
		return shownModel{}
	}
	s.traceFollowed()
	l := p.inner()
	a, ok := l.(core.Mixture)
	if !ok {
		return shownModel{p: p, l: l, Pairs: hasPairs(l)}
	}
	sm := shownModel{p: p}
	var names []string
	for k, e := range a.Experts() {
		x := a.Expert(k)
		if x == nil || e.Weight < mixFloor {
			continue
		}
		sm.parts = append(sm.parts, mixPart{x, e.Weight, e.Name})
		sm.Pairs = sm.Pairs || hasPairs(x)
		names = append(names, e.Name+" "+weight(e.Weight))
	}
	if len(sm.parts) == 1 {
		one := sm.parts[0]
		sm.l, sm.parts = one.l, nil
		sm.What = "of " + p.Name + "'s expert " + one.name + ", weight " + weight(one.w) +
			" (the others' are under " + weight(mixFloor) + ")"
		return sm
	}
	sm.What = "of " + p.Name + ": its experts' C weighted as it trusts them, Σ pₖCₖ, with " + strings.Join(names, ", ")
	return sm
}

// weight formats an expert's weight.
func weight(w float64) string { return strconv.FormatFloat(w, 'f', 2, 64) }

// hasPairs reports whether l's C can hold pairs of features.
func hasPairs(l core.Learner) bool { return core.HasPairs(l) }

// exact reports whether the model's C is known exactly at any size: a
// core.MatrixModel, or a learner without pairs (its bias row costs one
// prediction a coordinate). A mix is drawn on a block only: its spectrum
// is that of the block.
func (sm shownModel) exact() bool {
	if sm.l == nil {
		return false
	}
	_, ok := sm.l.(core.MatrixModel)
	return ok || !sm.Pairs
}

// block writes the model's C on idx.
func (sm shownModel) block(idx []int, dst []float64) {
	if sm.l != nil {
		block(sm.l, idx, dst)
		return
	}
	k := len(idx)
	clear(dst[:k*k])
	tmp := make([]float64, k*k)
	for _, pt := range sm.parts {
		block(pt.l, idx, tmp)
		for i, v := range tmp {
			dst[i] += pt.w * v
		}
	}
}

// block writes l's C on idx: exactly for a core.MatrixModel or a learner
// without pairs, by polarization of its predictions otherwise
// (core.QuadraticBlock).
func block(l core.Learner, idx []int, dst []float64) {
	if m, ok := l.(core.MatrixModel); ok {
		m.MatrixBlock(idx, dst)
		return
	}
	if hasPairs(l) {
		core.QuadraticBlock(l.Predict, idx, dst)
		return
	}
	affineBlock(l, idx, dst)
}

// drawnModel is what the picture on the page shows, which the Model card
// names: the page says when it has drawn a picture (pictureDrawn), so that
// the picture and the card never disagree.
type drawnModel struct {
	p     *player
	what  string
	pairs bool
}

// drawnText says which C the model picture shows, for the Model card: the
// last picture's, or the model it would draw now when it has not drawn the
// followed player yet (off screen). "" before the learners start.
func (s *session) drawnText() string {
	d := s.drawn
	if p := s.followed(); p == nil {
		return ""
	} else if d.p != p {
		sm := s.shown()
		d = drawnModel{p, sm.What, sm.Pairs}
	}
	text := d.p.Name + "'s own"
	if d.what != "" {
		text = strings.TrimPrefix(d.what, "of ")
	}
	if !d.pairs {
		text += " (no pairs of features: its C is a bias row and corner)"
	}
	return text
}
