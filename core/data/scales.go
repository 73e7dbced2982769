package data

import (
	"errors"
	"math"
	"strconv"

	"github.com/occfm/occfm/core/internal/str"
)

// Scales makes rows scale-free as they come: each feature i keeps its
// running scale sᵢ = max |xᵢ| over the rows seen so far, and the row a
// learner sees is x̃ with x̃ᵢ = xᵢ/sᵢ, so that |x̃ᵢ| ≤ 1 on every row that
// has been observed. It is the per-feature normalization of Vowpal Wabbit's
// default update (Ross, Mineiro and Langford, "Normalized Online Learning",
// UAI 2013), applied to the row instead of inside each learner, so that one
// stage serves every learner:
//
//   - multiplying feature i by any factor c > 0 multiplies xᵢ and sᵢ alike,
//     so x̃ is the same row (to rounding): the learners' error does not
//     depend on a number's units;
//   - no pass over the data first: sᵢ grows with the rows, and a feature's
//     first value is seen as ±1;
//   - a feature that is one-hot or 0/1 has sᵢ = 1 and keeps its value,
//     bit for bit (Apply returns the row itself), so learning on such
//     streams is unchanged.
//
// For a CCFM the stage is the diagonal change of basis x̃ = S⁻¹x: a model C̃
// learned on x̃ is C = S̃⁻¹C̃S̃⁻¹ on the raw rows (S̃ = diag(1, s)). When sᵢ
// grows the learner's weights are not rescaled, so the feature's part of ŷ
// shrinks by s_old/s_new at that row and the learner relearns it; sᵢ grows
// about ln t times in t rows of a feature drawn independently.
//
// Apply divides by max(sᵢ, |xᵢ|): a value beyond its feature's scale so
// far, or of a feature never observed (sᵢ = 0), is seen as ±1, as it will
// be once observed, so that a prediction made before the row is learned
// (Predict) and one made as it is learned (PredictUpdate) agree.
//
// Scales made with a floor of 1 (RestoreScales, for model files saved
// without scales) start every feature at sᵢ = 1: values within ±1 keep
// their value, larger ones are scaled.
//
// Features with an index of MaxScaledFeature or above pass unscaled, which
// bounds the memory of Scales to 8 bytes a feature below it.
type Scales struct {
	s     []float64 // sᵢ, 0 (or floor) beyond len(s)
	floor float64   // 0, or 1 for Scales restored without a saved scale
	buf   Sparse    // Apply's result when it is not the row itself

	// Summary's figures, kept as the scales grow (a page asks for them
	// after every slice): the features with sᵢ neither 0 nor 1, and 1 + the
	// index of the largest such sᵢ (the first of equals), 0 when none.
	nScaled, top int
}

// MaxScaledFeature bounds the feature indices Scales keeps a scale for.
// The readers number features densely from 0 and the learners stop at far
// fewer, so it is never reached by a file's features.
const MaxScaledFeature = 1 << 24

// scaleOf returns sᵢ.
func (sc *Scales) scaleOf(i int) float64 {
	if i < len(sc.s) {
		return sc.s[i]
	}
	return sc.floor
}

// Observe grows the scales to cover x: sᵢ = max(sᵢ, |xᵢ|). Values that are
// not finite are skipped (callers refuse such rows before learning).
func (sc *Scales) Observe(x Sparse) {
	for k, i := range x.Ind {
		a := math.Abs(x.Val[k])
		if uint(i) < uint(len(sc.s)) && a <= sc.s[i] {
			continue // the common case: within the scale so far
		}
		if i < 0 || i >= MaxScaledFeature || !(a <= math.MaxFloat64) || a <= sc.scaleOf(i) {
			continue
		}
		if i >= len(sc.s) {
			n := len(sc.s)
			sc.s = append(sc.s, make([]float64, i+1-n)...)
			for j := n; j < len(sc.s); j++ {
				sc.s[j] = sc.floor
			}
		}
		sc.grow(i, a)
	}
}

// grow sets sᵢ to a > sᵢ and keeps Summary's figures.
func (sc *Scales) grow(i int, a float64) {
	old := sc.s[i]
	sc.s[i] = a
	was := old != 0 && old != 1
	switch {
	case a != 1 && !was:
		sc.nScaled++
	case a == 1 && was:
		sc.nScaled--
		if sc.top == i+1 {
			sc.recount() // the largest left the scaled features
			return
		}
	}
	if a != 1 {
		if cur := sc.top - 1; sc.top == 0 || a > sc.s[cur] || a == sc.s[cur] && i < cur {
			sc.top = i + 1
		}
	}
}

// recount computes Summary's figures from the scales.
func (sc *Scales) recount() {
	sc.nScaled, sc.top = 0, 0
	for i, s := range sc.s {
		if s == 0 || s == 1 {
			continue
		}
		sc.nScaled++
		if sc.top == 0 || s > sc.s[sc.top-1] {
			sc.top = i + 1
		}
	}
}

// Apply returns x̃ under the current scales as if x had been observed:
// x̃ᵢ = xᵢ/max(sᵢ, |xᵢ|), so that a value beyond its feature's scale so far
// (or of a feature not observed yet) is seen as ±1, as Observe then Apply
// would give; it does not change the scales. It returns x itself when
// every value keeps its value (sᵢ = 1 and |xᵢ| ≤ 1, or xᵢ = 0): the common
// case of one-hot and 0/1 rows costs no copy. Otherwise the result lives
// in a buffer of sc that the next call of Apply overwrites. It does not
// change x.
func (sc *Scales) Apply(x Sparse) Sparse {
	k := 0
	for ; k < len(x.Ind); k++ {
		i, v := x.Ind[k], x.Val[k]
		if uint(i) < uint(len(sc.s)) && sc.s[i] == 1 && math.Abs(v) <= 1 {
			continue // the common case: a 0/1 feature
		}
		if v != sc.scaled(i, v) {
			break
		}
	}
	if k == len(x.Ind) {
		return x
	}
	sc.buf.Ind = append(sc.buf.Ind[:0], x.Ind...)
	sc.buf.Val = sc.buf.Val[:0]
	for k, i := range x.Ind {
		sc.buf.Val = append(sc.buf.Val, sc.scaled(i, x.Val[k]))
	}
	return sc.buf
}

// scaled returns v/max(sᵢ, |v|) for feature i: v itself for a scale of 1
// and |v| ≤ 1, for 0, for a value that is not finite (the caller refuses
// it) and for an index beyond MaxScaledFeature.
func (sc *Scales) scaled(i int, v float64) float64 {
	a := math.Abs(v)
	if i < 0 || i >= MaxScaledFeature || v == 0 || !(a <= math.MaxFloat64) {
		return v
	}
	s := max(sc.scaleOf(i), a)
	if s == 1 {
		return v
	}
	return v / s
}

// Scale returns feature i's scale sᵢ: 0 for a feature not observed yet.
func (sc *Scales) Scale(i int) float64 {
	if i < 0 || i >= MaxScaledFeature {
		return 1
	}
	return sc.scaleOf(i)
}

// ScaleSummary says what Scales did: how many features it scales (sᵢ
// neither 0 nor 1) and the one with the largest scale.
type ScaleSummary struct {
	// Scaled counts the features whose values are divided by a scale other
	// than 1: the numeric ones. One-hot and 0/1 features are not counted.
	Scaled int
	// Largest is the largest scale (max |xᵢ|) of a scaled feature, and
	// LargestFeature its index (−1 when Scaled is 0).
	Largest        float64
	LargestFeature int
}

// Summary returns what sc does to the features observed so far, in O(1).
func (sc *Scales) Summary() ScaleSummary {
	sum := ScaleSummary{Scaled: sc.nScaled, LargestFeature: sc.top - 1}
	if sc.top > 0 {
		sum.Largest = sc.s[sc.top-1]
	}
	return sum
}

// Trivial reports whether sc scales nothing: every feature observed has
// scale 1 (or 0). A model file omits such scales (see RestoreScales).
func (sc *Scales) Trivial() bool { return sc.nScaled == 0 }

// State returns the scales (sᵢ for i < len, sc's floor beyond) for a model
// file. The slice is sc's own: the caller must not change it.
func (sc *Scales) State() (s []float64, floor float64) { return sc.s, sc.floor }

// RestoreScales returns Scales with the given state (see State). A model
// file without saved scales restores with floor 1: its features keep their
// values, as when it was learned, until a value beyond ±1 comes. It
// returns an error for a scale that is negative or not finite, a floor
// other than 0 and 1, or more than MaxScaledFeature scales.
func RestoreScales(s []float64, floor float64) (Scales, error) {
	ok := (floor == 0 || floor == 1) && len(s) <= MaxScaledFeature
	for _, v := range s {
		ok = ok && v >= 0 && v <= math.MaxFloat64
	}
	if !ok {
		return Scales{}, errors.New("core: feature scales: a scale negative or not finite, too many, or a floor other than 0 and 1")
	}
	sc := Scales{s: append([]float64(nil), s...), floor: floor}
	sc.recount()
	return sc, nil
}

// MemoryBytes estimates the bytes sc holds.
func (sc *Scales) MemoryBytes() int64 {
	return int64(cap(sc.s))*8 + int64(cap(sc.buf.Ind))*8 + int64(cap(sc.buf.Val))*8
}

// Text says in one line what the summary says, for the CLI's report and
// the page's file note: "numbers scaled as they come: 30 features, largest
// |value| 4,254 (area)", with name naming a feature (nil: its number); ""
// when no feature is scaled (one-hot and 0/1 rows).
func (s ScaleSummary) Text(name func(int) string) string {
	if s.Scaled == 0 {
		return ""
	}
	feature := "#" + strconv.Itoa(s.LargestFeature+1)
	if name != nil {
		if n := name(s.LargestFeature); n != "" {
			feature = n
			if _, err := strconv.Atoi(n); err == nil {
				feature = "index " + n // a LibSVM file's
			}
		}
	}
	count := str.Thousands(int64(s.Scaled)) + " features"
	if s.Scaled == 1 {
		count = "1 feature"
	}
	return "numbers scaled as they come: " + count + ", largest |value| " + numberText(s.Largest) + " (" + feature + ")"
}

// numberText writes v as a person reads it: rounded to a whole number,
// thousands separated, from 1,000 to 10¹⁵ ("4,254"), else with 4
// significant digits ("0.0523", "12.5").
func numberText(v float64) string {
	if v >= 1000 && v < 1e15 {
		return str.Thousands(int64(math.Round(v)))
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
