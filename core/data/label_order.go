package data

import (
	"math"

	"github.com/occfm/occfm/core/internal/str"
)

// LabelOrder watches the order in which a stream's labels arrive, to tell
// a file sorted or grouped by label: online learning on it meets one label
// for thousands of rows, and its progressive numbers (an error of 0.0004,
// an AUC of 1.0000) say nothing of what it learned.
//
// For labels of at most labelKinds values it counts the changes of label
// between consecutive rows against the (n − 1)(1 − Σₖpₖ²) a random order
// of the same labels would give on average (pₖ the share of label k; the
// Wald–Wolfowitz runs test, Wald and Wolfowitz 1940, "On a test whether
// two samples are from the same population"); for labels of more values,
// the share of consecutive pairs that rise against those that fall (a
// sorted file rises, or falls, nearly always). Real files in their own
// order are far from both: IJCNN1, a9a, ML-100K and ML-1M give 0.93–1.09
// of the changes a random order would. It keeps O(labelKinds) memory.
type LabelOrder struct {
	n, changes, ups, downs int
	last                   float64
	counts                 map[float64]int // nil once there are more than labelKinds labels
	many                   bool
}

const (
	// labelKinds is the most distinct labels LabelOrder counts.
	labelKinds = 64
	// orderRows is the fewest rows LabelOrder judges.
	orderRows = 1000
	// orderRuns: fewer changes than this share of the expected is "long runs".
	orderRuns = 0.5
	// orderExpected is the fewest expected changes that make the test
	// meaningful (a file of one label has none).
	orderExpected = 30
	// orderMonotone: a share of rises (or falls) past this is "sorted".
	orderMonotone = 0.9
)

// Observe records the next label.
func (o *LabelOrder) Observe(y float64) {
	if o.n > 0 {
		switch {
		case y > o.last:
			o.ups++
			o.changes++
		case y < o.last:
			o.downs++
			o.changes++
		}
	}
	o.n++
	o.last = y
	if o.many {
		return
	}
	if o.counts == nil {
		o.counts = make(map[float64]int)
	}
	o.counts[y]++
	if len(o.counts) > labelKinds {
		o.counts, o.many = nil, true
	}
}

// Sorted reports whether the labels so far arrive in long runs or sorted,
// with a sentence that says so with its figures ("" when not).
func (o *LabelOrder) Sorted() (bool, string) {
	if o.n < orderRows {
		return false, ""
	}
	if !o.many {
		var sq float64
		for _, c := range o.counts {
			p := float64(c) / float64(o.n)
			sq += p * p
		}
		want := float64(o.n-1) * (1 - sq)
		if want >= orderExpected && float64(o.changes) < orderRuns*want {
			return true, "the labels arrive in long runs: they change " + str.Thousands(int64(o.changes)) + " times in " +
				str.Thousands(int64(o.n)) + " rows, where a random order of the same labels would change about " +
				str.Thousands(int64(math.Round(want))) + " times. The file looks sorted by label, so its progressive numbers say little: shuffle it"
		}
	}
	if moved := o.ups + o.downs; moved >= 100 {
		up := float64(o.ups) / float64(moved)
		if up > orderMonotone || up < 1-orderMonotone {
			way := "rise"
			if up < 0.5 {
				way = "fall"
			}
			return true, "the labels " + way + " from row to row " + str.Itoa(int(math.Round(100*max(up, 1-up)))) +
				" % of the time in " + str.Thousands(int64(o.n)) + " rows. The file looks sorted by label, so its progressive numbers say little: shuffle it"
		}
	}
	return false, ""
}
