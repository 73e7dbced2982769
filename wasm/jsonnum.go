package main

import (
	"encoding/json"
	"math"
)

// Every number the session marshals for the page is finite: JSON has no
// NaN or ±Inf (encoding/json fails on them, and the page would show that
// error instead of the run). A float that can be non-finite (a loss on a
// label of 1e300, a metric before its first row) is a num, a *float64 made
// by finite (omitted when nil), or a row of numRows; a non-finite value is
// written as null.

// num is a float64 written as JSON null when it is NaN or ±Inf.
type num float64

func (x num) MarshalJSON() ([]byte, error) { return appendNum(nil, float64(x)), nil }

// numRows is a list of rows of numbers, written with null for each NaN or
// ±Inf.
type numRows [][]float64

func (r numRows) MarshalJSON() ([]byte, error) {
	if r == nil {
		return []byte("[]"), nil
	}
	b := make([]byte, 0, 16*len(r))
	b = append(b, '[')
	for i, row := range r {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for j, x := range row {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendNum(b, x)
		}
		b = append(b, ']')
	}
	return append(b, ']'), nil
}

// finite returns &x, or nil when x is NaN or ±Inf.
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// appendNum appends x as encoding/json writes a float64, or null.
func appendNum(b []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(b, "null"...)
	}
	f, _ := json.Marshal(x) // a finite float64 always marshals
	return append(b, f...)
}
