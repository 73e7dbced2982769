package data

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestLabelOrder: files sorted or grouped by label are told; the same
// labels in a seeded random order, and a few classes that alternate, are
// not.
func TestLabelOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	block := func(parts ...[2]float64) []float64 { // [label, count]…
		var ys []float64
		for _, p := range parts {
			for range int(p[1]) {
				ys = append(ys, p[0])
			}
		}
		return ys
	}
	shuffled := func(ys []float64) []float64 {
		ys = slices.Clone(ys)
		rng.Shuffle(len(ys), func(i, j int) { ys[i], ys[j] = ys[j], ys[i] })
		return ys
	}
	issue := block([2]float64{-1, 740}, [2]float64{1, 1479}, [2]float64{-1, 47530})
	ratings := block([2]float64{1, 600}, [2]float64{2, 1100}, [2]float64{3, 2700}, [2]float64{4, 3400}, [2]float64{5, 2200})
	real := make([]float64, 5000)
	for i := range real {
		real[i] = rng.NormFloat64()
	}
	sortedReal := slices.Clone(real)
	slices.Sort(sortedReal)
	falling := slices.Clone(sortedReal)
	slices.Reverse(falling)
	alternate := make([]float64, 3000)
	for i := range alternate {
		alternate[i] = float64(i % 2)
	}
	for _, tc := range []struct {
		name   string
		ys     []float64
		sorted bool
		says   string
	}{
		{"sorted by label (the issue's file)", issue, true, "change 2 times in 49,749 rows"},
		{"the same labels shuffled", shuffled(issue), false, ""},
		{"ratings sorted", ratings, true, "long runs"},
		{"ratings shuffled", shuffled(ratings), false, ""},
		{"real labels sorted", sortedReal, true, "rise from row to row"},
		{"real labels falling", falling, true, "fall from row to row"},
		{"real labels in random order", real, false, ""},
		{"alternating classes", alternate, false, ""},
		{"one label", block([2]float64{1, 5000}), false, ""},
		{"too few rows", block([2]float64{0, 400}, [2]float64{1, 400}), false, ""},
	} {
		var o LabelOrder
		for _, y := range tc.ys {
			o.Observe(y)
		}
		got, text := o.Sorted()
		if got != tc.sorted || !strings.Contains(text, tc.says) {
			t.Errorf("%s: sorted %v, %q; want %v, saying %q", tc.name, got, text, tc.sorted, tc.says)
		}
	}
}
