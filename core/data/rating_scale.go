package data

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/occfm/occfm/core/internal/str"
)

// ratingScale watches the ratings of a MovieLens stream for ratings off the
// scale of the others: a 1000, a 0 or a 6 among ratings 1–5 is no
// malformed row, and is learned, but it weighs on every figure (a 1000 on
// line 5001 of MovieLens-100K's u.data takes linear's RMSE from 0.97 to
// 3.3), so it is warned of with its line.
//
// The scale is the range of the first scaleRows ratings, less those far off
// all the others (see farOff), which are then off the scale too. After it,
// a rating more than scaleSlack of the scale's width outside it is off the
// scale; the others widen it (a continuous scale reaching its ends late).
// Ratings beyond ±MaxMetricLabel are left to BadRows.Label, which counts
// them apart.
//
// MovieLens' own files have known scales (ratingScaleFor, by the file's
// name): u.data and ratings.dat 1 to 5 in whole stars, ratings.csv 0.5 to 5
// in half stars. For them the scale is set from the first row, and any
// rating off it, or between its steps, is off the scale.
type ratingScale struct {
	early  []scaleRating // the first ratings, until the scale is set
	set    bool
	lo, hi float64 // the scale, once set; before, +Inf and −Inf (newRatingScale)
	step   float64 // a known scale's step (1 or 0.5), 0 otherwise
	known  string  // the known scale in words, "" for one learned
	seen   int     // ratings observed
	out    int     // ratings off the scale
	first  string  // the sentence of the first of them
	lines  []int   // the lines of the first scaleLines of them
}

// scaleRating is a rating and its line.
type scaleRating struct {
	y    float64
	line int
}

const (
	// scaleRows is how many ratings set the scale.
	scaleRows = 1000
	// scaleSlack is how far outside the scale, as a fraction of its width,
	// a rating is still on it.
	scaleSlack = 0.05
	// scaleFewest is the fewest ratings among which one can be far off.
	scaleFewest = 20
	// scaleLines is how many lines of ratings off the scale are listed.
	scaleLines = 5
	// scaleRatingBytes is the size of a scaleRating.
	scaleRatingBytes = 16
)

// newRatingScale returns a ratingScale with no rating seen.
func newRatingScale() ratingScale { return ratingScale{lo: math.Inf(1), hi: math.Inf(-1)} }

// ratingScaleFor returns the ratingScale of the file name: the known scale
// of MovieLens' u.data, ratings.dat or ratings.csv (the name's last path
// element, less ".gz"), else one the first ratings set.
func ratingScaleFor(name string) ratingScale {
	base := strings.TrimSuffix(name[strings.LastIndexAny(name, `/\`)+1:], ".gz")
	switch base {
	case "u.data", "ratings.dat":
		return ratingScale{set: true, lo: 1, hi: 5, step: 1, known: "the 1–5 whole-star scale of MovieLens' " + base}
	case "ratings.csv":
		return ratingScale{set: true, lo: 0.5, hi: 5, step: 0.5, known: "the 0.5–5 half-star scale of MovieLens' ratings.csv"}
	}
	return newRatingScale()
}

// observe watches the rating y of line of the file name.
func (r *ratingScale) observe(name string, y float64, line int) {
	if y >= r.lo && y <= r.hi && r.step == 0 { // most ratings once a learned scale is set; inlined
		r.seen++
		return
	}
	r.observeOff(name, y, line)
}

// observeOff is observe for a rating before the scale is set or outside it.
func (r *ratingScale) observeOff(name string, y float64, line int) {
	if !(math.Abs(y) <= MaxMetricLabel) {
		return
	}
	if r.known != "" {
		if k := (y - r.lo) / r.step; y < r.lo || y > r.hi || k != math.Trunc(k) {
			r.note(name, scaleRating{y, line}, "")
		}
		r.seen++
		return
	}
	if !r.set {
		if r.early == nil {
			r.early = make([]scaleRating, 0, scaleRows)
		}
		r.early = append(r.early, scaleRating{y, line})
		r.seen++
		if len(r.early) == scaleRows {
			r.setScale(name)
		}
		return
	}
	slack := scaleSlack * (r.hi - r.lo)
	if y < r.lo-slack || y > r.hi+slack {
		r.note(name, scaleRating{y, line}, "seen in the first "+str.Thousands(int64(r.seen))+" rows")
	} else {
		r.lo, r.hi = min(r.lo, y), max(r.hi, y)
	}
	r.seen++
}

// setScale sets the scale from the first ratings, and notes those far off
// the others.
func (r *ratingScale) setScale(name string) {
	off := farOff(r.early)
	rest := r.early[len(off.low) : len(r.early)-len(off.high)]
	r.lo, r.hi = rest[0].y, rest[0].y
	for _, o := range rest {
		r.lo, r.hi = min(r.lo, o.y), max(r.hi, o.y)
	}
	odd := append(slices.Clone(off.low), off.high...)
	// sort.Slice, not slices.SortFunc: a generic sort of a new element
	// type costs the wasm kilobytes of code; sort is linked anyway.
	sort.Slice(odd, func(i, j int) bool { return odd[i].line < odd[j].line })
	for _, o := range odd {
		r.note(name, o, "of the other ratings in the first "+str.Thousands(int64(len(r.early)))+" rows")
	}
	r.early, r.set = nil, true
}

// note counts the rating o off the scale, seen against the ratings where
// says.
func (r *ratingScale) note(name string, o scaleRating, where string) {
	if r.out == 0 && r.known != "" {
		r.first = name + ":" + str.Itoa(o.line) + ": rating " + str.Ftoa(o.y) + " is off " + r.known
	} else if r.out == 0 {
		r.first = name + ":" + str.Itoa(o.line) + ": rating " + str.Ftoa(o.y) + " is outside the " +
			str.Ftoa(r.lo) + "–" + str.Ftoa(r.hi) + " " + where
	}
	r.out++
	if len(r.lines) < scaleLines {
		r.lines = append(r.lines, o.line)
	}
}

// warning returns the warning of the ratings off the scale, or "". Before
// the scale is set (a stream of fewer ratings, or one left early), it is
// the warning the scale would give if it were set on the ratings so far.
func (r *ratingScale) warning(name string) string {
	if !r.set && len(r.early) > 0 {
		now := *r
		now.setScale(name) // sorts r.early, which keeps it a set of ratings
		return now.warning(name)
	}
	switch {
	case r.out == 0:
		return ""
	case r.out == 1:
		return r.first + "; learned as it is."
	}
	lines := ""
	for i, l := range r.lines {
		if i > 0 {
			lines += ", "
		}
		lines += str.Itoa(l)
	}
	if r.out > len(r.lines) {
		lines += ", …"
	}
	return r.first + "; " + str.Thousands(int64(r.out)) + " rows in all have a rating off it (lines " + lines + "), learned as they are."
}

// offRatings are the ratings far off the others, below and above them.
type offRatings struct{ low, high []scaleRating }

// farOff returns the ratings of rs far off all the others: a rating (or a
// few of equal value, at most 1 % of rs) further from the rest than the
// rest's width and than its largest magnitude, so that a 1000 or a −1000
// among ratings 1–5 is far off, and a 0 or a 6 is not (it is off the scale
// once the scale is set), nor a 5 among ratings all 4. When there may be
// some, it sorts rs by rating: they are then its ends.
func farOff(rs []scaleRating) offRatings {
	if len(rs) < scaleFewest {
		return offRatings{}
	}
	// Most often the largest and the smallest ratings are near the others:
	// one pass tells, without a sort.
	lo, hi := rs[0].y, rs[0].y
	for _, r := range rs {
		lo, hi = min(lo, r.y), max(hi, r.y)
	}
	below, above := lo, hi // the ratings next to hi and to lo
	for _, r := range rs {
		if r.y < hi && r.y > below {
			below = r.y
		}
		if r.y > lo && r.y < above {
			above = r.y
		}
	}
	if lo == hi || !farFrom(hi-below, lo, below) && !farFrom(above-lo, above, hi) {
		return offRatings{}
	}
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].y != rs[j].y {
			return rs[i].y < rs[j].y
		}
		return rs[i].line < rs[j].line
	})
	most := max(1, len(rs)/100)
	i, j := 0, len(rs)-1 // the rest is rs[i : j+1]
	far := farFrom
	for changed := true; changed; {
		changed = false
		// The top: the ratings equal to rs[j].
		k := j
		for k > i && rs[k-1].y == rs[j].y {
			k--
		}
		if k > i && j-k+1 <= most-(i+len(rs)-1-j) && far(rs[j].y-rs[k-1].y, rs[i].y, rs[k-1].y) {
			j, changed = k-1, true
		}
		// The bottom: the ratings equal to rs[i].
		k = i
		for k < j && rs[k+1].y == rs[i].y {
			k++
		}
		if k < j && k-i+1 <= most-(i+len(rs)-1-j) && far(rs[k+1].y-rs[i].y, rs[k+1].y, rs[j].y) {
			i, changed = k+1, true
		}
	}
	return offRatings{low: rs[:i], high: rs[j+1:]}
}

// farFrom reports whether a gap between a rating and the ratings in [lo, hi]
// makes it far off them: the gap is wider than the range and than its
// largest magnitude.
func farFrom(gap, lo, hi float64) bool { return gap > hi-lo && gap > max(math.Abs(lo), math.Abs(hi)) }
