package main

import (
	"math"

	"github.com/occfm/occfm/core"
)

// Every number the session writes for the page is finite: JSON has no NaN
// or ±Inf (encoding/json fails on them, and the page would show that error
// instead of the run). A float that can be non-finite (a loss on a label of
// 1e300, a metric before its first row) is a num, a *float64 made by finite
// (omitted when nil), or a row of numRows; a non-finite value is written as
// null. appendNum writes every float64 of the package's JSON (jsonw.go), so
// a non-finite plain float64 is null too.

// num is a float64 written as JSON null when it is NaN or ±Inf.
type num float64

// numRows is a list of rows of numbers, written with null for each NaN or
// ±Inf; nil is written as [].
type numRows [][]float64

func (r numRows) appendJSON(b []byte) []byte {
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
			b = core.AppendNum(b, x)
		}
		b = append(b, ']')
	}
	return append(b, ']')
}

// finite returns &x, or nil when x is NaN or ±Inf.
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}
