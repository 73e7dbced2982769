package main

import (
	"strings"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// memoryCheck applies -max-memory (core.MemoryBudget) to a run, every row:
// a learner whose model grows past the budget stops the run with
// core.BudgetError's message, before the Go runtime could die of an
// allocation it cannot make. Calling MemoryBytes on every part every row
// would cost as much as a fast learner's update, so the parts that do not
// change while learner j plays a batch (the others, the comparator, the
// dictionaries, the rows held for -shuffle) are summed once per batch, and
// only learner j and its metrics are asked each row: O(1) per row.
type memoryCheck struct {
	budget core.MemoryBudget
	parts  []core.MemoryPart // players' learners and metrics (2 per player), then the rest
	sizes  []int64           // parts' MemoryBytes at the batch's start
	rest   int64             // the sum of every part but learner j's two
}

// newMemoryCheck returns the check of the run's parts; reg and held may be
// nil.
func newMemoryCheck(budget core.MemoryBudget, players []*player, reg *core.Regret, stream *data.Stream, held *heldRows) *memoryCheck {
	c := &memoryCheck{budget: budget}
	for _, p := range players {
		c.parts = append(c.parts, core.MemoryPart{Name: p.name, Value: p.learner.(core.Sized)},
			core.MemoryPart{Name: p.name + " metrics", Value: p.metrics})
	}
	if reg != nil {
		c.parts = append(c.parts, core.MemoryPart{Name: "regret comparator", Value: reg})
	}
	c.parts = append(c.parts, core.MemoryPart{Name: "feature dictionaries", Value: stream})
	if held != nil {
		c.parts = append(c.parts, core.MemoryPart{Name: "rows held for -shuffle", Value: held})
	}
	c.sizes = make([]int64, len(c.parts))
	return c
}

// start prepares the rows of learner j's batch.
func (c *memoryCheck) start(j int) {
	c.rest = 0
	for i, p := range c.parts {
		if i == 2*j || i == 2*j+1 {
			continue
		}
		c.sizes[i] = p.Value.MemoryBytes()
		c.rest += c.sizes[i]
	}
}

// over reports whether the run, after learner j's last row, holds more
// than the budget.
func (c *memoryCheck) over(j int) bool {
	return c.rest+c.parts[2*j].Value.MemoryBytes()+c.parts[2*j+1].Value.MemoryBytes() > c.budget.Max()
}

// err is the budget's error, for the message: the parts' sizes now, the
// largest named, with the flag to raise.
func (c *memoryCheck) err() error { return budgetFlag(c.budget.Check(c.parts...)) }

// flagged is a core.BudgetError whose advice names the flag.
type flagged struct{ err error }

func (f flagged) Error() string {
	return strings.Replace(f.err.Error(), "raise the budget", "raise -max-memory", 1)
}

func (f flagged) Unwrap() error { return f.err }

// budgetFlag returns err with its advice naming -max-memory.
func budgetFlag(err error) error {
	if err == nil {
		return nil
	}
	return flagged{err}
}
