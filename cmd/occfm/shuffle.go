package main

import (
	"fmt"
	"io"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// readAll reads every row of src into held, stopping when they and the
// stream's dictionaries pass the budget.
func readAll(src data.ExampleSource, prog *progress, held *data.HeldRows, budget core.MemoryBudget, stream *data.Stream) error {
	var ex data.Example
	for {
		err := src.Next(&ex)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		held.Add(&ex)
		if err := budget.Check(core.MemoryPart{Name: "rows", Value: held}, core.MemoryPart{Name: "feature dictionaries", Value: stream}); err != nil {
			return fmt.Errorf("%w; -shuffle holds every row in memory, -shuffle 0 streams the file", err)
		}
		if held.Len()%batchSize == 0 && prog.due() {
			prog.show(fmt.Sprintf("reading %s rows", commas(held.Len())))
		}
	}
}

// shuffled returns the rows to play: src itself, or with -shuffle every
// row read into memory (held counts them for the budget) in a seeded
// random order.
func shuffled(src data.ExampleSource, stream *data.Stream, rs runSettings, prog *progress) (data.ExampleSource, *data.HeldRows, error) {
	if rs.shuffle == 0 {
		return src, nil, nil
	}
	held := &data.HeldRows{}
	if err := readAll(src, prog, held, rs.budget, stream); err != nil {
		return nil, nil, budgetFlag(err, rs.maxMemory)
	}
	held.Shuffle(rs.shuffle)
	prog.start = time.Now()
	return held, held, nil
}
