//go:build (amd64 || arm64) && !noasm

package spectral

import "gonum.org/v1/gonum/floats"

// dotLong returns a·b for len(a) = len(b) ≥ 16, through gonum's assembly.
func dotLong(a, b []float64) float64 { return floats.Dot(a, b) }

// axpyLong sets y = y + α·x for len(x) = len(y) ≥ 16, through gonum's
// assembly.
func axpyLong(alpha float64, x, y []float64) { floats.AddScaled(y, alpha, x) }
