package personal

import (
	"errors"
	"math"
	"strconv"
)

// Scale is a catalog's rating scale: its lowest and highest rating and its
// step, 1 (whole stars: MovieLens' u.data and ratings.dat, 1 to 5), 0.5
// (half stars: ratings.csv, 0.5 to 5) or 0 (any number between the two). The
// zero Scale means DefaultScale. A person's ratings are taken on it, the
// predictions shown are clipped to it, and "liked" means above its middle.
type Scale struct {
	Lo, Hi, Step float64
}

// DefaultScale is the scale of a catalog with no ratings seen: 1 to 5
// whole stars.
var DefaultScale = Scale{Lo: 1, Hi: 5, Step: 1}

// orDefault returns s, or DefaultScale for the zero Scale.
func (s Scale) orDefault() Scale {
	if s == (Scale{}) {
		return DefaultScale
	}
	return s
}

// Check returns nil when stars is a rating of the scale: within [Lo, Hi]
// and, for a step, Lo plus a whole number of steps. Its error names the
// scale: "0.7 stars: off this catalog's scale, 0.5 to 5 in half stars".
func (s Scale) Check(stars float64) error {
	s = s.orDefault()
	on := stars >= s.Lo && stars <= s.Hi
	if on && s.Step > 0 {
		k := (stars - s.Lo) / s.Step
		on = math.Abs(k-math.Round(k)) < 1e-9
	}
	if on {
		return nil
	}
	return errors.New(strconv.FormatFloat(stars, 'g', -1, 64) + " stars: off this catalog's scale, " + s.String())
}

// Clip returns v clipped to [Lo, Hi].
func (s Scale) Clip(v float64) float64 {
	s = s.orDefault()
	return min(max(v, s.Lo), s.Hi)
}

// Mid returns the middle of the scale, (Lo + Hi) / 2: a rating above it is
// liked, one below it disliked.
func (s Scale) Mid() float64 {
	s = s.orDefault()
	return (s.Lo + s.Hi) / 2
}

// Weight maps a rating to [−1, 1]: −1 at Lo, 0 at the middle, 1 at Hi.
func (s Scale) Weight(stars float64) float64 {
	s = s.orDefault()
	if s.Hi <= s.Lo {
		return 0
	}
	return (2*stars - s.Lo - s.Hi) / (s.Hi - s.Lo)
}

// String says the scale in words: "1 to 5 in whole stars", "0.5 to 5 in
// half stars", "1 to 10 in steps of 0.25", "0 to 100".
func (s Scale) String() string {
	s = s.orDefault()
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	out := f(s.Lo) + " to " + f(s.Hi)
	switch s.Step {
	case 0:
		return out
	case 1:
		return out + " in whole stars"
	case 0.5:
		return out + " in half stars"
	}
	return out + " in steps of " + f(s.Step)
}

// scaleWatch finds the scale of a stream's ratings: their lowest and
// highest, and whether all are whole or half numbers. The zero value has
// seen none.
type scaleWatch struct {
	n             int
	lo, hi        float64
	notWhole, odd bool // a rating that is not whole; one that is not a half either
}

// observe counts the rating y.
func (w *scaleWatch) observe(y float64) {
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return
	}
	if w.n == 0 || y < w.lo {
		w.lo = y
	}
	if w.n == 0 || y > w.hi {
		w.hi = y
	}
	w.n++
	if y != math.Trunc(y) {
		w.notWhole = true
		if 2*y != math.Trunc(2*y) {
			w.odd = true
		}
	}
}

// scale returns the scale of the ratings observed: DefaultScale with none,
// else their range with step 1 when all are whole, 0.5 when all are halves,
// 0 otherwise. A half-star scale starts at a half or a whole star, so its
// step counts from Lo.
func (w *scaleWatch) scale() Scale {
	if w.n == 0 {
		return DefaultScale
	}
	s := Scale{Lo: w.lo, Hi: w.hi}
	switch {
	case !w.notWhole:
		s.Step = 1
	case !w.odd:
		s.Step = 0.5
	}
	return s
}
