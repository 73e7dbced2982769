package data_test

// LibSVM rows: features numbered in order of first appearance, through a
// Vocabulary saved in a model file, and a long unsorted row.

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// TestStreamLibSVMNumbering checks that LibSVM features are numbered in order
// of first appearance, so that the feature space follows the number of
// distinct indices and not the largest one, and that the numbering goes on
// through a Vocabulary, saved and loaded, while a Vocabulary without one
// (from a model file saved before) keeps the identity numbering.
func TestStreamLibSVMNumbering(t *testing.T) {
	read := func(text string, v *data.Vocabulary) (*data.Stream, []data.Example) {
		t.Helper()
		s, err := data.NewStream(strings.NewReader(text), data.ReaderSettings{Vocabulary: v})
		if err != nil {
			t.Fatal(err)
		}
		exs, errs, end := readAll(t, s)
		if end != nil || errs != nil {
			t.Fatalf("end %v, errors %v", end, errs)
		}
		return s, exs
	}
	s, exs := read("1 2147483647:1 5:2\n-1 5:1 9:0\n", nil)
	if s.Dim() != 2 || s.FeatureName(0) != "5" || s.FeatureName(1) != "2147483647" {
		t.Errorf("Dim %d, names %q %q, want 2, 5 and 2147483647", s.Dim(), s.FeatureName(0), s.FeatureName(min(1, s.Dim()-1)))
	}
	if !sameExample(exs[0], ex(1, 0, 2, 1, 1)) || !sameExample(exs[1], ex(-1, 0, 1)) {
		t.Errorf("examples %v", exs)
	}
	if m := s.MemoryBytes(); m <= 0 || m > 1<<20 {
		t.Errorf("MemoryBytes() = %d for two features, want a few KiB", m)
	}

	// The numbering survives a model file.
	v := s.Vocabulary()
	if !v.Renumbered || len(v.Indices) != 2 {
		t.Fatalf("Vocabulary %+v", v)
	}
	var buf bytes.Buffer
	if err := core.SaveModel(&buf, core.Model{Learner: core.NewMean(core.MeanSettings{}), Vocabulary: &v}); err != nil {
		t.Fatal(err)
	}
	m, err := core.LoadModel(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	s, exs = read("1 9:1 2147483647:3\n", m.Vocabulary)
	if s.Dim() != 3 || s.FeatureName(2) != "9" || !sameExample(exs[0], ex(1, 2, 1, 1, 3)) {
		t.Errorf("continued: Dim %d, %v", s.Dim(), exs)
	}
	var again bytes.Buffer
	if err := core.SaveModel(&again, m); err != nil || !bytes.Equal(again.Bytes(), buf.Bytes()) {
		t.Errorf("a loaded vocabulary saves to other bytes (%v)", err)
	}
	// An empty numbering is still a numbering, not the identity.
	s, _ = read("1\n", nil)
	v = s.Vocabulary()
	buf.Reset()
	if err := core.SaveModel(&buf, core.Model{Learner: core.NewMean(core.MeanSettings{}), Vocabulary: &v}); err != nil {
		t.Fatal(err)
	}
	if m, err = core.LoadModel(bytes.NewReader(buf.Bytes())); err != nil || !m.Vocabulary.Renumbered {
		t.Fatalf("empty numbering: %+v, %v", m.Vocabulary, err)
	}

	// The identity numbering of an old vocabulary.
	s, exs = read("1 7:1 3:2\n", &data.Vocabulary{Format: data.FormatLibSVM, Dim: 4})
	if s.Dim() != 7 || s.FeatureName(6) != "7" || !sameExample(exs[0], ex(1, 2, 2, 6, 1)) {
		t.Errorf("identity: Dim %d, %v", s.Dim(), exs)
	}
	if v := s.Vocabulary(); v.Renumbered || v.Indices != nil || v.Dim != 7 {
		t.Errorf("identity: Vocabulary %+v", v)
	}

	for _, bad := range []data.Vocabulary{
		{Format: data.FormatLibSVM, Dim: 2, Renumbered: true, Indices: []int32{3, 3}},
		{Format: data.FormatLibSVM, Dim: 1, Renumbered: true, Indices: []int32{0}},
		{Format: data.FormatLibSVM, Dim: 2, Renumbered: true, Indices: []int32{3}},
		{Format: data.FormatLibSVM, Dim: 1, Indices: []int32{3}},
	} {
		if err := bad.Check(); err == nil {
			t.Errorf("check(%+v) = nil", bad)
		}
	}
}

// TestLibSVMLongUnsortedRow: a long row in reverse order reads as the
// sorted row, and a repeat in it is found (through a set and sort.Sort,
// not the insertion sort and linear scan that made a 1.5-million-index row
// take over ten minutes).
func TestLibSVMLongUnsortedRow(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString("1")
	for i := n; i >= 1; i-- {
		fmt.Fprintf(&b, " %d:%d", i, i)
	}
	row := b.String()
	for _, c := range []struct {
		text, err string
	}{
		{row + "\n", ""},
		{row + " 7:1\n", fmt.Sprintf(`core: x.svm:1: field %d: index 7 repeated (want each index once per row)`, n+2)},
	} {
		s, err := data.NewStream(strings.NewReader(c.text), data.ReaderSettings{Name: "x.svm", Format: data.FormatLibSVM})
		if err != nil {
			t.Fatal(err)
		}
		var ex data.Example
		err = s.Next(&ex)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("error %v, want %s", err, c.err)
			}
			continue
		}
		if err != nil || len(ex.X.Ind) != n {
			t.Fatalf("%v, %d features", err, len(ex.X.Ind))
		}
		for k := range n {
			if name := s.FeatureName(ex.X.Ind[k]); name != strconv.Itoa(k+1) || ex.X.Val[k] != float64(k+1) {
				t.Fatalf("feature %d: %s = %v", k, name, ex.X.Val[k])
			}
		}
	}
}
