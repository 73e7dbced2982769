package core

// Sparse is a sparse feature vector: Val[k] is the value of feature Ind[k].
// Indices are 0-based positions in a feature space that may grow while
// streaming. Indices need not be sorted; a well-formed vector has no
// duplicate index.
type Sparse struct {
	Ind []int
	Val []float64
}

// Len returns the number of stored entries, nnz(x).
func (x Sparse) Len() int { return len(x.Ind) }

// Clone returns a deep copy of x.
func (x Sparse) Clone() Sparse {
	return Sparse{
		Ind: append([]int(nil), x.Ind...),
		Val: append([]float64(nil), x.Val...),
	}
}

// Example is one labelled row of a data stream.
type Example struct {
	X Sparse
	// Y is the label as read. For classification, readers and Task.Label map
	// it to ±1 before it reaches a learner.
	Y float64
}

// Clone returns a deep copy of e.
func (e Example) Clone() Example { return Example{X: e.X.Clone(), Y: e.Y} }
