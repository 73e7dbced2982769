package core

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

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
