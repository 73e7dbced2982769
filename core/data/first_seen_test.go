package data

import (
	"bytes"
	"io"
	"math/rand/v2"
	"slices"
	"testing"
)

// rowsSource plays a fixed list of examples.
type rowsSource struct{ rows []Example }

func (r *rowsSource) Next(ex *Example) error {
	if len(r.rows) == 0 {
		return io.EOF
	}
	ex.Y = r.rows[0].Y
	ex.X.Ind = append(ex.X.Ind[:0], r.rows[0].X.Ind...)
	ex.X.Val = append(ex.X.Val[:0], r.rows[0].X.Val...)
	r.rows = r.rows[1:]
	return nil
}

// TestFirstSeenIsLibSVM checks FirstSeen against the Stream of the rows
// written as LibSVM (AppendLibSVM): the same rows, features numbered the
// same, the same names, on random rows that are unsorted and hold zeros.
func TestFirstSeenIsLibSVM(t *testing.T) {
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 9))
		var rows []Example
		var file []byte
		for range 300 {
			var ex Example
			for _, i := range rng.Perm(60)[:rng.IntN(8)] {
				ex.X.Ind = append(ex.X.Ind, i)
				ex.X.Val = append(ex.X.Val, float64(rng.IntN(3)))
			}
			ex.Y = rng.NormFloat64()
			rows = append(rows, ex)
			file = AppendLibSVM(file, ex)
		}
		st, err := NewStream(bytes.NewReader(file), ReaderSettings{Name: "rows.svm", Format: FormatLibSVM})
		if err != nil {
			t.Fatal(err)
		}
		fs := &FirstSeen{Source: &rowsSource{rows}}
		for n := 0; ; n++ {
			var a, b Example
			ea, eb := st.Next(&a), fs.Next(&b)
			if ea != eb {
				t.Fatalf("seed %d row %d: Stream %v, FirstSeen %v", seed, n, ea, eb)
			}
			if ea != nil {
				break
			}
			if a.Y != b.Y || !slices.Equal(a.X.Ind, b.X.Ind) || !slices.Equal(a.X.Val, b.X.Val) {
				t.Fatalf("seed %d row %d: Stream %v, FirstSeen %v", seed, n, a, b)
			}
		}
		if st.Dim() != fs.Dim() {
			t.Fatalf("seed %d: Dim %d and %d", seed, st.Dim(), fs.Dim())
		}
		for i := range st.Dim() {
			if st.FeatureName(i) != fs.FeatureName(i) {
				t.Errorf("seed %d: feature %d named %q and %q", seed, i, st.FeatureName(i), fs.FeatureName(i))
			}
		}
	}
}
