package main

import (
	"errors"
	"math"
	"runtime/debug"
	"runtime/metrics"
	"strings"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// budgetCheck returns -max-memory's check of a run (core.BudgetCheck):
// the players, then the comparator (reg, when not nil), the stream's
// feature dictionaries and the rows held for -shuffle (held, when not nil).
func budgetCheck(budget core.MemoryBudget, players []*core.Player, reg *core.Regret, stream *data.Stream, held *data.HeldRows) *core.BudgetCheck {
	var rest []core.MemoryPart
	if reg != nil {
		rest = append(rest, core.MemoryPart{Name: "regret comparator", Value: reg})
	}
	rest = append(rest, core.MemoryPart{Name: "feature dictionaries", Value: stream})
	if held != nil {
		rest = append(rest, core.MemoryPart{Name: "rows held for -shuffle", Value: held})
	}
	// The estimates the heap is measured against: the players' learners
	// and metrics, and the parts above.
	var estimated []core.MemoryPart
	for _, p := range players {
		if l, ok := p.Learner.(core.Sized); ok {
			estimated = append(estimated, core.MemoryPart{Value: l})
		}
		if p.Metrics != nil {
			estimated = append(estimated, core.MemoryPart{Value: p.Metrics})
		}
	}
	estimated = append(estimated, rest...)
	rest = append(rest, core.MemoryPart{Name: "room to grow", Value: growthRoom(players)})
	if measureHeap {
		rest = append(rest, core.MemoryPart{Name: "the rest of the heap", Value: newHeapRest(estimated)})
	}
	return core.NewBudgetCheck(budget, players, rest...)
}

// measureHeap makes a run count the live heap beyond its parts' estimates
// (heapRest). The package's tests turn it off (TestMain): they run the
// command in a process that holds more than the run.
var measureHeap = true

// growthRoom is the room a learner needs to grow: its arrays are slices
// that grow by Go's append, to 1.25 times their capacity once they are
// large, and while one is copied the old and the new are both held. Every
// array of a learner may grow in the same row (a row of new features
// extends each per-feature array), so the room is 4/5 of the largest
// learner: what it holds twice for a moment.
type growthRoom []*core.Player

func (g growthRoom) MemoryBytes() int64 {
	var most int64
	for _, p := range g {
		if s, ok := p.Learner.(core.Sized); ok {
			most = max(most, s.MemoryBytes())
		}
	}
	return most / 5 * 4
}

func (g growthRoom) MemoryNote() string {
	return "its largest learner's arrays held twice while they grow"
}

// heapRest is the part of the Go heap that the other parts of a run do not
// count: the reader's buffers, what their estimates miss. At each garbage
// collection it becomes the live heap the collector found less what the
// other parts count then, so that the budget holds the heap as measured
// when it is larger than the estimates. Between collections it does not
// change: a part freed (an expert retired) is not counted twice.
type heapRest struct {
	estimated []core.MemoryPart // the other parts, but the room to grow
	samples   []metrics.Sample
	cycles    uint64
	gap       int64
}

func newHeapRest(estimated []core.MemoryPart) *heapRest {
	return &heapRest{estimated: estimated,
		samples: []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/live:bytes"}}}
}

// counted sums the other parts' estimates.
func (h *heapRest) counted() int64 {
	var n int64
	for _, p := range h.estimated {
		n += p.Value.MemoryBytes()
	}
	return n
}

// MemoryBytes reads two of the runtime's metrics (a few hundred
// nanoseconds); the run asks it once per batch of rows.
func (h *heapRest) MemoryBytes() int64 {
	metrics.Read(h.samples)
	if h.samples[0].Value.Kind() != metrics.KindUint64 || h.samples[1].Value.Kind() != metrics.KindUint64 {
		return 0 // not supported by this runtime
	}
	if c := h.samples[0].Value.Uint64(); c != h.cycles {
		h.cycles = c
		h.gap = max(0, int64(h.samples[1].Value.Uint64())-h.counted())
	}
	return h.gap
}

func (h *heapRest) MemoryNote() string {
	return "the live heap beyond the estimates of the parts above"
}

// -max-memory M bounds the process's resident memory. occfm itself (its
// code, the Go runtime's own structures, the goroutines' stacks) takes
// runtimeFloor of it; debug.SetMemoryLimit keeps the Go heap within the rest,
// M − runtimeFloor, collecting more often near it; and the run stops, with a
// message naming what holds the memory, when what it keeps (the learners,
// metrics, comparator, feature dictionaries, a loaded model, -shuffle's
// rows: core.MemoryBudget's parts) passes M − runtimeFloor − M/4. The
// quarter is the collector's room: what the run allocates while a
// collection runs, which on a busy machine takes longer (an eighth was
// too little: docs/findings.md, "Memory and big files"). So
// M − runtimeFloor − M/4 is the budget of the run's parts, and M the
// process's peak.
const (
	// runtimeFloor is what occfm takes besides its heap: the resident
	// memory of a run of a tiny file, and as much again for the lag with
	// which the runtime returns freed pages to the system (the measurements
	// behind it: docs/findings.md, "Memory and big files").
	runtimeFloor = 24 << 20
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
	return core.MemoryBudget{Limit: m - runtimeFloor - m/4}
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
