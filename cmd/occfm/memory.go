package main

import (
	"strings"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// budgetCheck returns -max-memory's check of a run (core.BudgetCheck):
// the players, then the comparator (reg, when not nil), the stream's
// feature dictionaries and the rows held for -shuffle (held, when not nil).
func budgetCheck(budget core.MemoryBudget, players []*core.Player, reg *core.Regret, stream *data.Stream, held *heldRows) *core.BudgetCheck {
	var rest []core.MemoryPart
	if reg != nil {
		rest = append(rest, core.MemoryPart{Name: "regret comparator", Value: reg})
	}
	rest = append(rest, core.MemoryPart{Name: "feature dictionaries", Value: stream})
	if held != nil {
		rest = append(rest, core.MemoryPart{Name: "rows held for -shuffle", Value: held})
	}
	return core.NewBudgetCheck(budget, players, rest...)
}

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
