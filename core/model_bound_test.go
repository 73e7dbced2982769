package core

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/coretest"
)

// zeros is an io.Reader of n zero bytes (forever when n < 0) that counts
// the bytes read from it.
type zeros struct{ n, read int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n >= 0 && z.read >= z.n {
		return 0, io.EOF
	}
	k := int64(len(p))
	if z.n >= 0 {
		k = min(k, z.n-z.read)
	}
	clear(p[:k])
	z.read += k
	return int(k), nil
}

// TestLoadModelUnboundedInput: LoadModel stops after the signature on an
// input that is not a model, whatever its length (/dev/zero, a 1 GB data
// file read by mistake), and a model followed by endless bytes is rejected
// without reading them.
func TestLoadModelUnboundedInput(t *testing.T) {
	for _, n := range []int64{-1, 1 << 30} {
		z := &zeros{n: n}
		var err error
		alloc := coretest.TotalAlloc(func() { _, err = LoadModel(z) })
		if !errors.Is(err, ErrNotModel) || z.read > 64 || alloc > 1<<20 {
			t.Errorf("%d zeros: %v after reading %d bytes, allocating %d", n, err, z.read, alloc)
		}
	}
	good := saveBytes(t, Model{Learner: NewMean(MeanSettings{})})
	z := &zeros{n: -1}
	_, err := LoadModel(io.MultiReader(bytes.NewReader(good), z))
	if !errors.Is(err, ErrModelCorrupt) || !strings.Contains(err.Error(), "data after the end") || z.read > 1<<16 {
		t.Errorf("a model then endless zeros: %v after reading %d zeros", err, z.read)
	}
	// A header that declares more than the budget is refused before the
	// body is read; one that declares more than the input holds, too.
	huge := bytes.Clone(good[:modelHeaderLen])
	huge[len(modelMagic)+2+4] = 1 // 2³² bytes and more
	z = &zeros{n: -1}
	if _, err := LoadModel(io.MultiReader(bytes.NewReader(huge), z)); !errors.Is(err, ErrMemoryBudget) || z.read != 0 {
		t.Errorf("a header of 4 GiB: %v after reading %d bytes", err, z.read)
	}
	var alloc uint64
	alloc = coretest.TotalAlloc(func() { _, err = LoadModelWith(bytes.NewReader(huge), LoadSettings{MaxBytes: -1}) })
	if !errors.Is(err, ErrModelCorrupt) || alloc > 1<<20 {
		t.Errorf("a header of 4 GiB and no body, no limit: %v, allocating %d", err, alloc)
	}
	alloc = coretest.TotalAlloc(func() {
		_, err = LoadModelWith(io.LimitReader(io.MultiReader(bytes.NewReader(huge), &zeros{n: -1}), 3<<20), LoadSettings{MaxBytes: -1})
	})
	if !errors.Is(err, ErrModelCorrupt) || alloc > 32<<20 {
		t.Errorf("a header of 4 GiB and 3 MiB of body, no limit: %v, allocating %d", err, alloc)
	}
}

// TestLoadModelCrafted: model files whose few bytes ask for gigabytes are
// refused, allocating little: a CCFM-OGD with the dense projection at
// dimension 65,536 (its first row would allocate a 32 GiB matrix), an OCCFM
// with a subspace of 4,096 (6·4096² floats, 768 MiB).
func TestLoadModelCrafted(t *testing.T) {
	ogd := NewCCFMOGD(CCFMOGDSettings{DenseProjection: true})
	ogd.c.grow(1 << 16)
	dense := saveBytes(t, Model{Learner: ogd})
	t.Logf("CCFM-OGD file: %d bytes", len(dense))

	o := NewOCCFM(OCCFMSettings{})
	o.s.Subspace = 4096 // saved as is: the codec writes the settings it is given
	big := saveBytes(t, Model{Learner: o})

	for name, b := range map[string][]byte{"ccfm-ogd": dense, "occfm": big} {
		var err error
		alloc := coretest.TotalAlloc(func() { _, err = LoadModel(bytes.NewReader(b)) })
		if !errors.Is(err, ErrMemoryBudget) || alloc > 16<<20 {
			t.Errorf("%s: %v, allocating %s", name, err, FormatBytes(int64(alloc)))
		}
		t.Logf("%s: %v (allocated %s)", name, err, FormatBytes(int64(alloc)))
	}
}

// onlyReader hides every method of its reader but Read (Len, Stat), as a
// pipe would.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// TestModelStreams: saving and loading a model holds the model and a few
// 64 KiB windows, never a copy of the file. A vocabulary of 16 values of 1
// MiB saves allocating under 1 MiB, and loads through a reader that only
// reads allocating its values and under 1 MiB more; it comes back equal.
// What a vocabulary decodes to is counted against the budget, not only the
// file's size: a million short values, 8.3 MB of file but 31 MB decoded,
// are refused under a budget of 16 MiB.
func TestModelStreams(t *testing.T) {
	const n, size = 16, 1 << 20
	v := &data.Vocabulary{Format: data.FormatMovieLens, Dim: n}
	for i := range n {
		v.Features = append(v.Features, data.VocabularyFeature{Field: i % 2, Value: strconv.Itoa(i) + strings.Repeat("x", size)})
	}
	m := Model{Learner: NewMean(MeanSettings{}), Vocabulary: v, Rows: 3}
	var file bytes.Buffer
	if err := SaveModel(&file, m); err != nil {
		t.Fatal(err)
	}
	var err error
	if alloc := coretest.TotalAlloc(func() { err = SaveModel(io.Discard, m) }); err != nil || alloc > 1<<20 {
		t.Errorf("SaveModel of a %d-byte file: %v, allocating %d bytes (want ≤ 1 MiB)", file.Len(), err, alloc)
	}
	var got Model
	alloc := coretest.TotalAlloc(func() { got, err = LoadModel(onlyReader{bytes.NewReader(file.Bytes())}) })
	if err != nil || alloc > n*size+1<<20 {
		t.Errorf("LoadModel of a %d-byte file: %v, allocating %d bytes (want ≤ its %d bytes of values + 1 MiB)", file.Len(), err, alloc, n*size)
	}
	if err == nil && !reflect.DeepEqual(got.Vocabulary, v) {
		t.Error("the vocabulary did not come back equal")
	}

	many := &data.Vocabulary{Format: data.FormatMovieLens, Dim: 1 << 20}
	for i := range many.Dim {
		many.Features = append(many.Features, data.VocabularyFeature{Value: strconv.Itoa(i)})
	}
	file.Reset()
	if err := SaveModel(&file, Model{Learner: NewMean(MeanSettings{}), Vocabulary: many}); err != nil {
		t.Fatal(err)
	}
	_, err = LoadModelWith(bytes.NewReader(file.Bytes()), LoadSettings{MaxBytes: 16 << 20})
	if !errors.Is(err, ErrMemoryBudget) || !strings.Contains(err.Error(), "vocabulary") {
		t.Errorf("a %d-byte file of %d values under a budget of 16 MiB: %v, want the vocabulary over the budget", file.Len(), many.Dim, err)
	}
}
