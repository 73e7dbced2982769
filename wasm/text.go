package main

import (
	"math"
	"strconv"
)

// The texts the package formats with strconv rather than fmt (jsonw.go
// says why): each is what the fmt verb named in its comment writes, which
// text_test.go checks.

// format writes a figure of the predictions table: 3 significant digits
// (%.3g) when it is large or tiny, 3 decimals (%.3f) otherwise.
func format(x float64) string {
	if math.Abs(x) >= 1000 || (x != 0 && math.Abs(x) < 0.001) {
		return strconv.FormatFloat(x, 'g', 3, 64)
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

// fmtG writes x as %g (and %v) do: the shortest decimal that reads back as
// x.
func fmtG(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// panicText is what %v writes for a recovered panic value p of the usual
// kinds: an error (a runtime error too), a String method's text, or a
// string. Any other value is "panic", without its value.
func panicText(p any) string {
	switch v := p.(type) {
	case error:
		return v.Error()
	case interface{ String() string }:
		return v.String()
	case string:
		return v
	}
	return "panic"
}
