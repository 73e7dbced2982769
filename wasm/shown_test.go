package main

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/occfm/occfm/core"
)

// TestShownMix checks the model the views show for occfm-auto as it
// learns the ratings demo: its experts of weight ≥ mixFloor, their C
// weighted as it trusts them (a cross-check against each expert's own
// block), one expert alone when it carries all of the weight, and the
// Model card's text naming what the last picture drew.
func TestShownMix(t *testing.T) {
	s := demoSession(t, "ratings", 0, "occfm-auto")
	mixes, alone := 0, 0
	for _, rows := range []int{300, 3000, 12000} {
		for s.rows < rows {
			s.step(time.Now().Add(time.Second), rows-s.rows)
		}
		sm := s.shown()
		a := s.followed().inner().(*core.OCCFMAuto)
		idx := append(s.frequent(12, nil), core.BiasCoord)
		k := len(idx)
		got, want, one := make([]float64, k*k), make([]float64, k*k), make([]float64, k*k)
		sm.block(idx, got)
		var sum float64
		for i, e := range a.Experts() {
			x := a.Expert(i)
			if x == nil || e.Weight < mixFloor {
				continue
			}
			sum += e.Weight
			block(x, idx, one)
			for j, v := range one {
				want[j] += e.Weight * v
			}
		}
		if sm.l != nil {
			alone++
			if sum < 1-mixFloor*float64(len(a.Experts())) {
				t.Errorf("row %d: one expert drawn alone, with the experts' weights over the floor summing to %v", rows, sum)
			}
			block(sm.l, idx, want)
		} else {
			mixes++
		}
		for j := range got {
			if math.Abs(got[j]-want[j]) > 1e-9*max(1, math.Abs(want[j])) {
				t.Fatalf("row %d: the drawn C[%d] = %v, Σ pₖCₖ = %v", rows, j, got[j], want[j])
			}
		}
		pic := s.picture()
		if txt := s.drawnText(); !strings.HasPrefix(txt, strings.TrimPrefix(pic.Note, "of ")) || !strings.HasPrefix(pic.Note, "of occfm-auto") {
			t.Errorf("row %d: the picture draws %q and the card says %q", rows, pic.Note, txt)
		}
		t.Logf("row %d: %s", rows, pic.Note)
	}
	if mixes == 0 {
		t.Error("never a mix on the ratings demo")
	}
}
