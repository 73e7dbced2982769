package data

import (
	"errors"
	"math"
	"strconv"
)

// FirstSeen numbers the features of Source in the order they first appear,
// as a Stream numbers a LibSVM file's indices (a row's new features in
// increasing order of their index, its zeros dropped): a built-in demo
// played through FirstSeen gives the rows that the Stream of its written
// file (occfm gen) gives, so that the page and the command line play the
// same rows with the same feature numbers.
type FirstSeen struct {
	Source ExampleSource
	// Names, when not nil, names Source's features (FeatureName).
	Names interface{ FeatureName(i int) string }

	num firstSeenIndex // Source's feature (as an int32) ↔ its number
}

// Next reads Source's next example and renumbers its features.
func (f *FirstSeen) Next(ex *Example) error {
	if err := f.Source.Next(ex); err != nil {
		return err
	}
	ex.X.dropZeros()
	ex.X.Sort()
	for _, i := range ex.X.Ind {
		if i < 0 || i >= math.MaxInt32 {
			return errors.New("data: feature index " + strconv.Itoa(i) + " outside [0, 2³¹−1), which a LibSVM file can write")
		}
	}
	for k, i := range ex.X.Ind {
		ex.X.Ind[k], _ = f.num.number(int32(i))
	}
	return nil
}

// Dim returns the number of features seen so far.
func (f *FirstSeen) Dim() int { return len(f.num.raw) }

// FeatureName returns the name Names gives feature i's Source feature,
// or its LibSVM index (1-based) without Names.
func (f *FirstSeen) FeatureName(i int) string {
	if i < 0 || i >= len(f.num.raw) {
		return ""
	}
	if f.Names != nil {
		return f.Names.FeatureName(int(f.num.raw[i]))
	}
	return strconv.Itoa(int(f.num.raw[i]) + 1)
}

// firstSeenIndex numbers keys in the order they first appear, the numbering
// of a LibSVM file's indices (Stream) and of a demo's features (FirstSeen):
// raw[i] is the key numbered i.
type firstSeenIndex struct {
	index map[int32]int32
	raw   []int32
}

// number returns key's number, giving it the next one when it is new
// (added).
func (f *firstSeenIndex) number(key int32) (i int, added bool) {
	if j, ok := f.index[key]; ok {
		return int(j), false
	}
	if f.index == nil {
		f.index = make(map[int32]int32)
	}
	j := int32(len(f.raw))
	f.index[key] = j
	f.raw = append(f.raw, key)
	return int(j), true
}

// restore numbers the keys as raw lists them, i for raw[i].
func (f *firstSeenIndex) restore(raw []int32) {
	f.index = make(map[int32]int32, len(raw))
	f.raw = append(make([]int32, 0, len(raw)), raw...)
	for i, key := range raw {
		f.index[key] = int32(i)
	}
}
