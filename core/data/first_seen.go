package data

import "strconv"

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

	index map[int]int // Source's feature → its number
	orig  []int       // number → Source's feature
}

// Next reads Source's next example and renumbers its features.
func (f *FirstSeen) Next(ex *Example) error {
	if err := f.Source.Next(ex); err != nil {
		return err
	}
	ex.X.dropZeros()
	ex.X.Sort()
	if f.index == nil {
		f.index = make(map[int]int)
	}
	for k, i := range ex.X.Ind {
		j, ok := f.index[i]
		if !ok {
			j = len(f.orig)
			f.index[i] = j
			f.orig = append(f.orig, i)
		}
		ex.X.Ind[k] = j
	}
	return nil
}

// Dim returns the number of features seen so far.
func (f *FirstSeen) Dim() int { return len(f.orig) }

// FeatureName returns the name Names gives feature i's Source feature,
// or its LibSVM index (1-based) without Names.
func (f *FirstSeen) FeatureName(i int) string {
	if i < 0 || i >= len(f.orig) {
		return ""
	}
	if f.Names != nil {
		return f.Names.FeatureName(f.orig[i])
	}
	return strconv.Itoa(f.orig[i] + 1)
}
