package data

import (
	"errors"
	"io"
	"math/rand/v2"
)

// HeldRows holds rows in memory, compactly: their indices and values in
// shared chunks of heldChunk nonzeros, their Examples in blocks of
// heldBlock, so that nothing is copied as they grow and MemoryBytes counts
// what they take (a row of k nonzeros takes 16k + 56 bytes, and each
// chunk's tail too short for the next row is counted as taken). The
// command line's -shuffle and the page's shuffle hold a file's rows in one.
type HeldRows struct {
	blocks   [][]Example
	ind      []int // the chunk being filled
	val      []float64
	n        int
	bytes    int64
	readNext int // the next row Next yields
}

const (
	heldChunk    = 1 << 16 // nonzeros a chunk holds (1 MiB)
	heldBlock    = 1 << 12 // rows a block holds
	exampleBytes = 56      // an Example: two slice headers and the label
)

// Add copies ex into h.
func (h *HeldRows) Add(ex *Example) {
	k := len(ex.X.Ind)
	if cap(h.ind)-len(h.ind) < k {
		c := max(k, heldChunk)
		h.ind, h.val = make([]int, 0, c), make([]float64, 0, c)
		h.bytes += 16 * int64(c)
	}
	i := len(h.ind)
	h.ind = append(h.ind, ex.X.Ind...)
	h.val = append(h.val, ex.X.Val...)
	if h.n%heldBlock == 0 {
		h.blocks = append(h.blocks, make([]Example, 0, heldBlock))
		h.bytes += exampleBytes*heldBlock + 24
	}
	b := &h.blocks[len(h.blocks)-1]
	*b = append(*b, Example{X: Sparse{Ind: h.ind[i : i+k : i+k], Val: h.val[i : i+k : i+k]}, Y: ex.Y})
	h.n++
}

// Len returns the number of rows held.
func (h *HeldRows) Len() int { return h.n }

// at returns the i-th row held.
func (h *HeldRows) at(i int) *Example { return &h.blocks[i/heldBlock][i%heldBlock] }

// Shuffle puts the rows in a random order fixed by seed: a Fisher-Yates
// shuffle driven by PCG(seed, seed), the order of the command line's
// -shuffle SEED.
func (h *HeldRows) Shuffle(seed uint64) {
	ShuffleOrder(h.n, func(i, j int) { *h.at(i), *h.at(j) = *h.at(j), *h.at(i) }, seed)
}

// ShuffleOrder puts n things in a random order fixed by seed, swapping
// them with swap: a Fisher-Yates shuffle driven by PCG(seed, seed).
func ShuffleOrder(n int, swap func(i, j int), seed uint64) {
	r := rand.New(rand.NewPCG(seed, seed))
	for i := n - 1; i > 0; i-- {
		swap(i, r.IntN(i+1))
	}
}

// Next fills ex with the next row held (see ExampleSource); the rows
// share h's memory.
func (h *HeldRows) Next(ex *Example) error {
	if h.readNext == h.n {
		return io.EOF
	}
	*ex = *h.at(h.readNext)
	h.readNext++
	return nil
}

// Rows returns the rows held, in a slice whose rows share h's memory.
func (h *HeldRows) Rows() []Example {
	all := make([]Example, 0, h.n)
	for _, b := range h.blocks {
		all = append(all, b...)
	}
	return all
}

// MemoryBytes returns the bytes the rows take (see core.Sized).
func (h *HeldRows) MemoryBytes() int64 { return h.bytes }

// MemoryNote says what the bytes are, for a budget's message.
func (h *HeldRows) MemoryNote() string { return "the rows held to be shuffled" }

// Shuffled is a row source that reads every row of Source into Held, then
// yields them in the order HeldRows.Shuffle(Seed) gives: a file's rows in a
// seeded random order, as the command line's -shuffle SEED plays them.
// While it reads, it answers ErrAgain after every shuffledSlice rows, and
// whenever Source does (its rows so far kept), so that a caller on a
// deadline keeps control; Check, when set, is called after each of those
// stretches with the bytes held, and its error ends the reading.
type Shuffled struct {
	Source ExampleSource
	Seed   uint64
	Check  func(held int64) error
	Held   HeldRows
	ready  bool
	ex     Example
}

// shuffledSlice is how many rows Shuffled reads per call while reading.
const shuffledSlice = 4096

// Next reads or yields the next row (see Shuffled).
func (s *Shuffled) Next(ex *Example) error {
	for read := 0; !s.ready; read++ {
		if read == shuffledSlice {
			if err := s.check(); err != nil {
				return err
			}
			return ErrAgain
		}
		switch err := s.Source.Next(&s.ex); {
		case err == io.EOF:
			if err := s.check(); err != nil {
				return err
			}
			s.Held.Shuffle(s.Seed)
			s.ready = true
		case errors.Is(err, ErrAgain):
			if err := s.check(); err != nil {
				return err
			}
			return err
		case err != nil:
			return err
		default:
			s.Held.Add(&s.ex)
		}
	}
	return s.Held.Next(ex)
}

// Reading reports whether the rows are still being read.
func (s *Shuffled) Reading() bool { return !s.ready }

func (s *Shuffled) check() error {
	if s.Check == nil {
		return nil
	}
	return s.Check(s.Held.MemoryBytes())
}
