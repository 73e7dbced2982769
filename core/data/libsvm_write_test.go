package data_test

import (
	"bytes"
	"io"
	"slices"
	"strconv"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
)

// TestAppendLibSVMRoundTrip writes every demo's first rows with AppendLibSVM
// and reads them back with a Stream: the same examples, bit for bit, each
// feature named by the index written (the Stream numbers LibSVM features in
// order of first appearance, so its indices differ).
func TestAppendLibSVMRoundTrip(t *testing.T) {
	for _, d := range demo.All() {
		t.Run(d.Name, func(t *testing.T) {
			const rows = 2000
			var want []data.Example
			var buf []byte
			src := d.NewRows(3, rows)
			var ex data.Example
			for src.Next(&ex) == nil {
				want = append(want, ex.Clone())
				buf = data.AppendLibSVM(buf, ex)
			}
			if len(want) != rows {
				t.Fatalf("NewRows(3, %d) gave %d rows", rows, len(want))
			}
			s, err := data.NewStream(bytes.NewReader(buf), data.ReaderSettings{Name: d.Name, Format: data.FormatLibSVM})
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range want {
				if err := s.Next(&ex); err != nil {
					t.Fatalf("row %d: %v", i+1, err)
				}
				for k, j := range ex.X.Ind {
					idx, err := strconv.Atoi(s.FeatureName(j))
					if err != nil {
						t.Fatal(err)
					}
					ex.X.Ind[k] = idx - 1
				}
				if ex.Y != w.Y || !slices.Equal(ex.X.Ind, w.X.Ind) || !slices.Equal(ex.X.Val, w.X.Val) {
					t.Fatalf("row %d: read %+v, wrote %+v", i+1, ex, w)
				}
			}
			if err := s.Next(&ex); err != io.EOF {
				t.Fatalf("after %d rows: %v, want io.EOF", rows, err)
			}
		})
	}
}

// TestDemoNewRowsPrefix checks that NewRows(seed, n) starts with New(seed)'s
// rows and has n of them.
func TestDemoNewRowsPrefix(t *testing.T) {
	for _, d := range demo.All() {
		long, short := d.NewRows(5, 1500), d.New(5)
		var a, b data.Example
		for i := range 1000 {
			if long.Next(&a) != nil || short.Next(&b) != nil {
				t.Fatalf("%s: row %d missing", d.Name, i+1)
			}
			if a.Y != b.Y || !slices.Equal(a.X.Ind, b.X.Ind) || !slices.Equal(a.X.Val, b.X.Val) {
				t.Fatalf("%s row %d: NewRows %+v, New %+v", d.Name, i+1, a, b)
			}
		}
		n := 1000
		for long.Next(&a) == nil {
			n++
		}
		if n != 1500 {
			t.Errorf("%s: NewRows(5, 1500) gave %d rows", d.Name, n)
		}
	}
}
