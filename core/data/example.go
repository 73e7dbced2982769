package data

import "sort"

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

// Sort sorts x by increasing index, moving each value with its index. An
// unsorted row is rare and usually almost sorted.
func (x Sparse) Sort() {
	// An insertion sort is quickest on the short, nearly sorted rows of
	// real files, but quadratic: a long unsorted row (a 64 MiB line holds
	// millions of indices) goes to sort.Sort, O(nnz log nnz).
	if len(x.Ind) > 64 {
		sort.Sort(sparseByIndex(x))
		return
	}
	for i := 1; i < len(x.Ind); i++ {
		for j := i; j > 0 && x.Ind[j-1] > x.Ind[j]; j-- {
			x.Ind[j-1], x.Ind[j] = x.Ind[j], x.Ind[j-1]
			x.Val[j-1], x.Val[j] = x.Val[j], x.Val[j-1]
		}
	}
}

// sparseByIndex sorts a Sparse by index, moving each value with its index.
type sparseByIndex Sparse

func (x sparseByIndex) Len() int           { return len(x.Ind) }
func (x sparseByIndex) Less(i, j int) bool { return x.Ind[i] < x.Ind[j] }
func (x sparseByIndex) Swap(i, j int) {
	x.Ind[i], x.Ind[j] = x.Ind[j], x.Ind[i]
	x.Val[i], x.Val[j] = x.Val[j], x.Val[i]
}

// ExampleSource is a stream of examples; data.Stream and every demo
// stream satisfy it.
type ExampleSource interface {
	// Next fills ex with the next example, reusing the slices of ex.X, or
	// returns io.EOF at the end. It may return other errors (see
	// Stream.Next).
	Next(ex *Example) error
}

// dropZeros removes the entries whose value is zero, keeping the order.
func (x *Sparse) dropZeros() {
	k := 0
	for j, v := range x.Val {
		if v != 0 {
			x.Ind[k], x.Val[k] = x.Ind[j], v
			k++
		}
	}
	x.Ind, x.Val = x.Ind[:k], x.Val[:k]
}
