package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// heldRows holds the rows -shuffle reads into memory, compactly: their
// indices and values in shared chunks of heldChunk nonzeros, their Examples
// in blocks of heldBlock, so that nothing is copied as they grow and
// MemoryBytes counts what they take (a row of k nonzeros takes 16k + 56
// bytes, and each chunk's tail too short for the next row is counted as
// taken).
type heldRows struct {
	blocks   [][]data.Example
	ind      []int // the chunk being filled
	val      []float64
	n        int
	bytes    int64
	readNext int // the next row Next yields
}

const (
	heldChunk    = 1 << 16 // nonzeros a chunk holds (1 MiB)
	heldBlock    = 1 << 12 // rows a block holds
	exampleBytes = 56      // a data.Example: two slice headers and the label
)

// add copies ex into h.
func (h *heldRows) add(ex *data.Example) {
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
		h.blocks = append(h.blocks, make([]data.Example, 0, heldBlock))
		h.bytes += exampleBytes*heldBlock + 24
	}
	b := &h.blocks[len(h.blocks)-1]
	*b = append(*b, data.Example{X: data.Sparse{Ind: h.ind[i : i+k : i+k], Val: h.val[i : i+k : i+k]}, Y: ex.Y})
	h.n++
}

// at returns the i-th row held.
func (h *heldRows) at(i int) *data.Example { return &h.blocks[i/heldBlock][i%heldBlock] }

// swap swaps the i-th and j-th rows.
func (h *heldRows) swap(i, j int) { *h.at(i), *h.at(j) = *h.at(j), *h.at(i) }

// Next fills ex with the next row held (see data.ExampleSource).
func (h *heldRows) Next(ex *data.Example) error {
	if h.readNext == h.n {
		return io.EOF
	}
	*ex = *h.at(h.readNext)
	h.readNext++
	return nil
}

// rows returns the rows held, in a slice whose rows share h's memory.
func (h *heldRows) rows() []data.Example {
	all := make([]data.Example, 0, h.n)
	for _, b := range h.blocks {
		all = append(all, b...)
	}
	return all
}

func (h *heldRows) MemoryBytes() int64 { return h.bytes }

func (h *heldRows) MemoryNote() string { return "the rows held for -shuffle" }

// readAll reads every row of src into held, stopping when they and the
// stream's dictionaries pass the budget.
func readAll(src data.ExampleSource, prog *progress, held *heldRows, budget core.MemoryBudget, stream *data.Stream) error {
	var ex data.Example
	for {
		err := src.Next(&ex)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		held.add(&ex)
		if err := budget.Check(core.MemoryPart{Name: "rows", Value: held}, core.MemoryPart{Name: "feature dictionaries", Value: stream}); err != nil {
			return fmt.Errorf("%w; -shuffle holds every row in memory, -shuffle 0 streams the file", err)
		}
		if held.n%batchSize == 0 && prog.due() {
			prog.show(fmt.Sprintf("reading %s rows", commas(held.n)))
		}
	}
}

// shuffled returns the rows to play: src itself, or with -shuffle every
// row read into memory (held counts them for the budget) in a seeded
// random order.
func shuffled(src data.ExampleSource, stream *data.Stream, rs runSettings, prog *progress) (data.ExampleSource, *heldRows, error) {
	if rs.shuffle == 0 {
		return src, nil, nil
	}
	held := &heldRows{}
	if err := readAll(src, prog, held, rs.budget, stream); err != nil {
		return nil, nil, budgetFlag(err, rs.maxMemory)
	}
	shuffleRows(held.n, held.swap, rs.shuffle)
	prog.start = time.Now()
	return held, held, nil
}

// shuffleRows puts n rows in a random order fixed by seed, swapping them
// with swap: a Fisher-Yates shuffle driven by PCG(seed, seed).
func shuffleRows(n int, swap func(i, j int), seed uint64) {
	r := rand.New(rand.NewPCG(seed, seed))
	for i := n - 1; i > 0; i-- {
		swap(i, r.IntN(i+1))
	}
}
