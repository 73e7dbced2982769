//go:build !(amd64 || arm64) || noasm

package spectral

// dotLong returns a·b for len(a) = len(b) ≥ 16. Without gonum's assembly
// (js/wasm among others) the loop is unrolled four ways, with four partial
// sums, which roughly halves the time per element under wasm.
func dotLong(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		x, y := a[i:i+4:i+4], b[i:i+4:i+4]
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// axpyLong sets y = y + α·x for len(x) = len(y) ≥ 16, unrolled four ways.
func axpyLong(alpha float64, x, y []float64) {
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		u, v := x[i:i+4:i+4], y[i:i+4:i+4]
		v[0] += alpha * u[0]
		v[1] += alpha * u[1]
		v[2] += alpha * u[2]
		v[3] += alpha * u[3]
	}
	for ; i < len(x); i++ {
		y[i] += alpha * x[i]
	}
}
