package main

import (
	"errors"
	"math"
	"runtime/debug"
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

// -max-memory M bounds the process's resident memory. occfm itself (its
// code, the Go runtime's own structures, the goroutines' stacks) takes
// runtimeFloor of it; debug.SetMemoryLimit keeps the Go heap within the rest,
// M − runtimeFloor, collecting more often near it; and the run stops, with a
// message naming what holds the memory, when what it keeps (the learners,
// metrics, comparator, feature dictionaries, a loaded model, -shuffle's
// rows: core.MemoryBudget's parts) passes M − runtimeFloor − M/8. The
// eighth is the collector's room: what a row allocates and drops before the
// next collection. So M − runtimeFloor − M/8 is the budget of the run's
// parts, and M the process's peak.
const (
	// runtimeFloor is what occfm takes besides its heap: 7–10 MB of
	// resident memory measured for a run of a 3-row file (GNU time's
	// maximum RSS), rounded up.
	runtimeFloor = 16 << 20
	// minMaxMemory is the smallest -max-memory: below it the floor and the
	// collector's room leave the run almost nothing.
	minMaxMemory = 64 << 20
)

// partsBudget returns the budget of a run's parts under -max-memory m
// (bytes; negative: no limit).
func partsBudget(m int64) core.MemoryBudget {
	if m < 0 {
		return core.MemoryBudget{Limit: -1}
	}
	return core.MemoryBudget{Limit: m - runtimeFloor - m/8}
}

// setMemoryLimit sets the Go runtime's memory limit for -max-memory m
// (bytes; negative: no limit, Go's default).
func setMemoryLimit(m int64) {
	if m < 0 {
		debug.SetMemoryLimit(math.MaxInt64)
		return
	}
	debug.SetMemoryLimit(m - runtimeFloor)
}

// flagged is a core.BudgetError (or a model file over the budget) said in
// terms of -max-memory: the budget it leaves to the run's parts, the flag
// to raise.
type flagged struct {
	err       error
	maxMemory int64
}

func (f flagged) Error() string {
	msg := f.err.Error()
	if strings.Contains(msg, "raise the budget") {
		msg = strings.Replace(msg, "raise the budget", "raise -max-memory", 1)
	} else {
		msg += "; raise -max-memory"
	}
	if f.maxMemory < 0 {
		return msg
	}
	limit := core.FormatBytes(partsBudget(f.maxMemory).Limit)
	return strings.Replace(msg, "over the memory budget of "+limit,
		"over the "+limit+" that -max-memory "+core.FormatBytes(f.maxMemory)+" leaves to the run", 1)
}

func (f flagged) Unwrap() error { return f.err }

// budgetFlag returns err, when it is over the memory budget, said in terms
// of -max-memory m (see flagged).
func budgetFlag(err error, m int64) error {
	if !errors.Is(err, core.ErrMemoryBudget) {
		return err
	}
	return flagged{err, m}
}
