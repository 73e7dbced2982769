package core

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/occfm/occfm/core/data"

	"github.com/occfm/occfm/core/internal/str"
)

// Sized is implemented by values that can estimate the memory they hold
// (an optional ability, found by type assertion): every registered learner,
// *Guarded, *Metrics and *Comparator.
type Sized interface {
	// MemoryBytes returns an estimate of the bytes the value holds: the
	// capacities of its slices times their element sizes, plus its map
	// entries times an estimated cost per entry, plus the buffers its next
	// update is certain to allocate (a dense d×d matrix, say). It costs
	// O(1) or O(number of fields), cheap enough to call on every row, and
	// does not change the value.
	MemoryBytes() int64
}

// MemoryNoter is implemented by Sized values that can say in a few words
// what most of their memory is (an optional ability): "2.1 million stored
// pairs of its gradient sum", "70,000 features". MemoryBudget's errors quote
// it.
type MemoryNoter interface {
	// MemoryNote returns a short noun phrase; it does not change the value.
	MemoryNote() string
}

// pairGrower is implemented by learners whose memory grows with the pairs
// of features that occur together in a row (their gradient sum stores
// x̂x̂ᵀ's pairs), so that MemoryBudget can suggest a learner that grows per
// feature instead.
type pairGrower interface{ growsPerPair() bool }

// DefaultMemoryLimit is the limit of a MemoryBudget whose Limit is zero:
// 512 MiB, below what a browser tab gives a wasm module and far below a
// laptop's memory.
const DefaultMemoryLimit = 512 << 20

// MemoryBudget bounds the memory of a run. The CLI (-max-memory) and the
// page check the parts of a run (the learner, usually a *Guarded, and the
// *Metrics, and the *Comparator when regret is tracked) every row or every
// few rows:
//
//	budget := core.MemoryBudget{Limit: limit} // 0: DefaultMemoryLimit
//	for … {
//	    core.Play(g, ex, m)
//	    if err := budget.Check(core.MemoryPart{Name: g.Name(), Value: g},
//	        core.MemoryPart{Name: "metrics", Value: m}); err != nil {
//	        return err // stop the run; err.Error() is the message to show
//	    }
//	}
//
// Check costs O(number of parts), a few nanoseconds each: every learner's
// MemoryBytes is O(1) in its data. The estimate counts what the learners
// hold, not the garbage the Go runtime has yet to collect (up to about
// twice as much with the default GOGC), nor the reader's buffers.
type MemoryBudget struct {
	// Limit is the budget in bytes. Zero means DefaultMemoryLimit; negative
	// means no limit.
	Limit int64
}

// Max returns the effective limit in bytes (math.MaxInt64 for no limit).
func (b MemoryBudget) Max() int64 {
	switch {
	case b.Limit == 0:
		return DefaultMemoryLimit
	case b.Limit < 0:
		return math.MaxInt64
	}
	return b.Limit
}

// MemoryPart is one part of a run for MemoryBudget.Check: a name for the
// message ("occfm", "metrics") and the value.
type MemoryPart struct {
	Name  string
	Value Sized
}

// BudgetError is the error of MemoryBudget.Check: the run holds Total bytes,
// over Limit; Largest is the part that holds the most.
type BudgetError struct {
	Total, Limit int64
	// Largest is the name of the largest part, LargestBytes its estimate
	// and Note what most of it is (its MemoryNote, or "").
	Largest      string
	LargestBytes int64
	Note         string
	// PerPair is set when the largest part grows per pair of features (the
	// second-order learners but FM-FTRL): the message then suggests the
	// learners that grow per feature.
	PerPair bool
}

// ErrMemoryBudget is matched by every *BudgetError (errors.Is).
var ErrMemoryBudget = errors.New("over the memory budget")

// Is makes errors.Is(err, ErrMemoryBudget) true.
func (e *BudgetError) Is(target error) bool { return target == ErrMemoryBudget }

// Error is a sentence that says what holds the memory and what to do, e.g.
// "core: the run holds 530 MiB (occfm 498 MiB: 21.3 million stored pairs
// of its gradient sum), over the memory budget of 512 MiB; raise the budget
// or use fewer features (linear and fm-ftrl grow per feature, not per
// pair)".
func (e *BudgetError) Error() string {
	var sb strings.Builder
	sb.WriteString("core: the run holds ")
	sb.WriteString(FormatBytes(e.Total))
	if e.Largest != "" {
		sb.WriteString(" (" + e.Largest + " " + FormatBytes(e.LargestBytes))
		if e.Note != "" {
			sb.WriteString(": " + e.Note)
		}
		sb.WriteString(")")
	}
	sb.WriteString(", over the memory budget of " + FormatBytes(e.Limit) + "; raise the budget or use fewer features")
	if e.PerPair {
		sb.WriteString(" (linear and fm-ftrl grow per feature, not per pair)")
	}
	return sb.String()
}

// Check returns a *BudgetError when the parts together hold more than the
// budget (nil parts are skipped), nil otherwise. It does not change the
// parts.
func (b MemoryBudget) Check(parts ...MemoryPart) error {
	var total, big int64
	largest := -1
	for i, p := range parts {
		if p.Value == nil {
			continue
		}
		n := p.Value.MemoryBytes()
		total += n
		if largest < 0 || n > big {
			largest, big = i, n
		}
	}
	limit := b.Max()
	if total <= limit {
		return nil
	}
	e := &BudgetError{Total: total, Limit: limit}
	if largest >= 0 {
		p := parts[largest]
		e.Largest, e.LargestBytes = p.Name, big
		if n, ok := p.Value.(MemoryNoter); ok {
			e.Note = n.MemoryNote()
		}
		if g, ok := p.Value.(pairGrower); ok {
			e.PerPair = g.growsPerPair()
		}
	}
	return e
}

// FormatBytes formats a size in binary units with three significant
// digits at most: "512 MiB", "1.25 GiB", "1.5 KiB", "980 B".
func FormatBytes(n int64) string {
	if n < 1024 && n > -1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	v := float64(n)
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB", "PiB"} {
		v /= 1024
		if math.Abs(v) < 1024 || u == "PiB" {
			f := strconv.FormatFloat(v, 'f', max(0, 2-int(math.Floor(math.Log10(math.Abs(v))))), 64)
			if strings.Contains(f, ".") {
				f = strings.TrimRight(strings.TrimRight(f, "0"), ".")
			}
			return f + " " + u
		}
	}
	panic("unreachable")
}

// ParseSize parses a memory size for the CLI's -max-memory: a non-negative
// number of bytes, an integer or a decimal fraction, with an optional unit
// K, M, G or T (case-insensitive, optionally followed by "B" or "iB"), or
// "B" alone. Units are binary whatever the spelling, as in Java's -Xmx and
// Docker's --memory: 1K = 1KB = 1KiB = 1024 bytes, 512M = 512 MiB, 2G =
// 2 GiB; "800000000" is 800,000,000 bytes. It returns an error for anything
// else, and for sizes of 2⁶³ bytes or more.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	num := t
	unit := ""
	if i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' }); i >= 0 {
		num, unit = strings.TrimSpace(t[:i]), strings.ToLower(strings.TrimSpace(t[i:]))
	}
	shift := -1
	switch unit {
	case "", "b":
		shift = 0
	default:
		if p := strings.IndexByte("kmgt", unit[0]); p >= 0 {
			switch unit[1:] {
			case "", "b", "ib":
				shift = 10 * (p + 1)
			}
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if shift < 0 || err != nil || num == "" || strings.ContainsAny(num, "eEinfxp+-_") {
		return 0, errors.New("core: memory size " + str.Quote(s) + ": want a number of bytes with an optional unit K, M, G or T (1K = 1024), such as 512M or 2G")
	}
	v = math.Ldexp(v, shift)
	if !(v < math.MaxInt64) {
		return 0, errors.New("core: memory size " + str.Quote(s) + " is too large")
	}
	return int64(v), nil
}

// rowLimiter is a learner that refuses rows wider than a limit of its own
// (Guarded.rowLimit: the inner learner's MaxRowNonzeros), and learns none
// of such a row: rowLimit returns that limit for a row of nnz nonzeros, or
// 0 when it learns the row.
type rowLimiter interface{ rowLimit(nnz int) int }

// GrowthFloor returns a lower bound on the bytes l adds to its memory in
// learning one row of nnz nonzero features of which fresh are new to it
// (counted once its gradient sum's product form holds the row's pairs, as
// the next product with it makes it; see symAccum): for each new feature
// the bytes a feature of its per-feature arrays (see rowGrower; 8, a
// weight, at least) and, when l grows per pair (its gradient sum stores
// x̂x̂ᵀ's pairs, see pairGrower), pairFloorBytes for each pair that holds a
// new feature, C(nnz, 2) − C(nnz − fresh, 2) pairs none of which l can
// hold yet (x̂'s leading 1 left out). A row over l's MaxRowNonzeros (see
// RowLimited) is not learned and adds nothing. A caller that checks a list
// before it learns any (the library's all-or-nothing learn) sums the bound
// over the rows, and refuses the list once the sum would take the run past
// its budget, before a byte is allocated: the feature limit is then what
// fits, for the learner at hand.
func GrowthFloor(l Learner, nnz, fresh int) int64 {
	fresh = min(max(fresh, 0), nnz)
	if fresh == 0 {
		return 0
	}
	if g, ok := l.(rowLimiter); ok && g.rowLimit(nnz) > 0 {
		return 0
	}
	if r, ok := l.(RowLimited); ok {
		if lim := r.MaxRowNonzeros(); lim > 0 && nnz > lim {
			return 0
		}
	}
	perFeature := int64(8)
	if g, ok := l.(rowGrower); ok {
		// Per-feature arrays far beyond their capacity grow to the row's
		// dimension exactly (see grownCap): their bytes a feature.
		const far = 1 << 30
		perFeature = max(perFeature, g.growthBytes(nnz, far)/far)
	}
	b := perFeature * int64(fresh)
	if GrowsPerPair(l) {
		n, old := int64(nnz), int64(nnz-fresh)
		b += (n*(n-1)/2 - old*(old-1)/2) * pairFloorBytes
	}
	return b
}

// GrowsPerPair reports whether l's memory grows with the pairs of features
// that occur together in its rows (its gradient sum stores x̂x̂ᵀ's pairs:
// the second-order learners but FM-FTRL), not only with its features.
func GrowsPerPair(l Learner) bool {
	p, ok := l.(pairGrower)
	return ok && p.growsPerPair()
}

// Estimated costs of memory, in bytes, for MemoryBytes.
const (
	// mapEntryBytes is the cost of one entry of a map with 8-byte keys and
	// values of at most 8 bytes (Go's swiss tables: 16-byte slots plus a
	// control byte, at a load between 7/16 and 7/8, so about 19 to 39 bytes
	// an entry; measured: docs/findings.md, "Memory and big files").
	mapEntryBytes = 28
	// structBytes is a rough size of a learner's own fields.
	structBytes = 512
	// pairFloorBytes is the least a pair of G costs (see symAccum): 16
	// bytes in coordinate form, 24 in its CSR mirror, 8 for its positions
	// there, and 19 or more for its entry in the hash index.
	pairFloorBytes = 67
)

func f64Bytes(s []float64) int64 { return 8 * int64(cap(s)) }
func i32Bytes(s []int32) int64   { return 4 * int64(cap(s)) }
func intBytes(s []int) int64     { return 8 * int64(cap(s)) }

// sumF64Bytes adds f64Bytes over slices.
func sumF64Bytes(ss ...[]float64) int64 {
	var n int64
	for _, s := range ss {
		n += f64Bytes(s)
	}
	return n
}

// FormatCount formats a count as MemoryBudget's errors do: "950",
// "12,500", "2.1 million".
func FormatCount(n int64) string { return countText(n) }

// countText formats a count for a note: "950", "12,500", "2.1 million".
func countText(n int64) string {
	switch {
	case n >= 1e12:
		return strconv.FormatFloat(float64(n)/1e12, 'f', 1, 64) + " trillion"
	case n >= 1e9:
		return strconv.FormatFloat(float64(n)/1e9, 'f', 1, 64) + " billion"
	case n >= 1e6:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " million"
	}
	return str.Thousands(n)
}

// BudgetCheck holds a Run to a MemoryBudget after every row, at O(1) a
// row: calling MemoryBytes on every part every row would cost as much as a
// fast learner's update, so the parts that do not change while player j
// plays a batch (the other players, the comparator, the dictionaries, the
// rows held in memory) are summed once per batch, and only player j's
// learner and metrics are asked each row. A nil *BudgetCheck checks
// nothing.
type BudgetCheck struct {
	// Every spaces the checks: after every Every-th row of the run, and
	// after any row of more than Wide nonzeros. Zero means every row. A
	// row of at most Wide nonzeros adds at most Wide² pairs to a
	// learner's gradient sum, so a spaced check lets a run pass the budget
	// by a bounded amount, for a cost of O(learners) calls of MemoryBytes
	// every Every rows (the page spaces its checks: each call is dearer
	// under wasm than the row of a fast learner).
	Every, Wide int

	budget  MemoryBudget
	parts   []MemoryPart // the players' learners and metrics (2 a player), then the rest
	players int          // how many players parts begins with
	j       int          // the player whose batch is being played
	rest    int64        // the sum of every part but player j's two, once summed
	summed  bool         // rest is summed for this batch
	refused *BudgetError // the error of the row admits refused
}

// NewBudgetCheck returns the check of the players' learners and metrics
// and of the other parts of a run, against b.
func NewBudgetCheck(b MemoryBudget, players []*Player, rest ...MemoryPart) *BudgetCheck {
	c := &BudgetCheck{budget: b, players: len(players)}
	for _, p := range players {
		var size Sized = zeroSize{}
		if s, ok := p.Learner.(Sized); ok {
			size = s
		}
		c.parts = append(c.parts, MemoryPart{Name: p.Name, Value: size},
			MemoryPart{Name: p.Name + " metrics", Value: p.Metrics})
	}
	c.parts = append(c.parts, rest...)
	return c
}

// zeroSize stands for a learner that does not say its size.
type zeroSize struct{}

func (zeroSize) MemoryBytes() int64 { return 0 }

// start prepares the rows of player j's batch: the other parts are summed
// at its first check (a batch of the page's one row may have none).
func (c *BudgetCheck) start(j int) {
	if c == nil {
		return
	}
	c.j, c.summed = j, false
}

// sumRest sums every part's MemoryBytes but player j's two.
func (c *BudgetCheck) sumRest() {
	c.rest = 0
	for i, p := range c.parts {
		if i == 2*c.j || i == 2*c.j+1 {
			continue
		}
		c.rest += p.Value.MemoryBytes()
	}
	c.summed = true
}

// over reports whether the run, after player j's row ex, the run's row
// number row (1-based), holds more than the budget, when a check is due.
func (c *BudgetCheck) over(j, row int, ex data.Example) bool {
	if c == nil || c.Every > 1 && row%c.Every != 0 && len(ex.X.Ind) <= c.Wide {
		return false
	}
	if !c.summed {
		c.sumRest()
	}
	if c.rest+c.parts[2*j].Value.MemoryBytes()+c.parts[2*j+1].Value.MemoryBytes() <= c.budget.Max() {
		return false
	}
	return !c.shrink(0)
}

// rowGrower is implemented by learners whose per-feature arrays grow at
// once to a row's largest feature: growthBytes returns what learning a row
// of nnz nonzeros and dimension dim (its largest index plus one, rowDim)
// would allocate for them, 0 when the row brings no feature beyond their
// capacity. The allocation comes whole, before any check after the row can
// stop it (a row of 1.5 million new features makes fm-ftrl allocate 378 MiB
// at once), so BudgetCheck asks it before the row is played.
type rowGrower interface{ growthBytes(nnz, dim int) int64 }

// rowDim returns the dimension x needs: its largest index plus one.
func rowDim(x data.Sparse) int {
	n := 0
	for _, i := range x.Ind {
		n = max(n, i+1)
	}
	return n
}

// grownCap returns the capacity append gives a slice of capacity c grown to
// n elements: n, or 1.25·c when that is more (Go's growth of a large
// slice).
func grownCap(c, n int) int64 { return int64(max(n, c+c/4)) }

// admits reports whether player j may play ex: false when the arrays its
// learner would allocate at once for the features ex brings (see
// rowGrower), beyond what it holds now, would take the run past the budget
// even after its Shrinkers gave what they can; Err then says so. An
// ordinary growth, to 1.25 times what the arrays hold, is left to the check
// after the row (the CLI counts room for it); a row that brings a million
// features to a learner that held a thousand is stopped here, before the
// allocation. A row that brings no new feature costs one call and a scan
// of its indices.
func (c *BudgetCheck) admits(j int, ex data.Example) bool {
	if c == nil {
		return true
	}
	g, ok := c.parts[2*j].Value.(rowGrower)
	if !ok {
		return true
	}
	grow := g.growthBytes(len(ex.X.Ind), rowDim(ex.X))
	if grow == 0 {
		return true
	}
	if !c.summed {
		c.sumRest()
	}
	held := c.parts[2*j].Value.MemoryBytes()
	extra := max(0, grow-held)
	if c.rest+held+c.parts[2*j+1].Value.MemoryBytes()+extra <= c.budget.Max() || c.shrink(extra) {
		return true
	}
	held = c.parts[2*j].Value.MemoryBytes()
	total := c.total()
	c.refused = &BudgetError{Total: total + grow, Limit: c.budget.Max(), Largest: c.parts[2*j].Name,
		LargestBytes: held + grow,
		Note:         "the next row's " + countText(int64(len(ex.X.Ind))) + " nonzeros would take " + FormatBytes(grow) + " at once"}
	return false
}

// Shrinker is a learner that can give memory back when its run passes the
// memory budget (an optional ability, found by type assertion): Shrink
// frees what it can spare, such as an expert far behind, and returns the
// bytes freed, 0 when it has nothing left to give. BudgetCheck asks the
// players' Shrinkers before it stops a run.
type Shrinker interface {
	Shrink() int64
}

// shrink asks the players' learners that are Shrinkers for memory until
// the run and extra bytes fit the budget, and reports whether they do.
func (c *BudgetCheck) shrink(extra int64) bool {
	for {
		freed := int64(0)
		for i := 0; i+1 < len(c.parts) && i/2 < c.players; i += 2 {
			if s, ok := c.parts[i].Value.(Shrinker); ok {
				freed += s.Shrink()
			}
			if c.total()+extra <= c.budget.Max() {
				c.summed = false // the sizes changed: sum them again
				return true
			}
		}
		if freed == 0 {
			c.summed = false
			return false
		}
	}
}

// total sums every part's MemoryBytes.
func (c *BudgetCheck) total() int64 {
	var n int64
	for _, p := range c.parts {
		n += p.Value.MemoryBytes()
	}
	return n
}

// Err is the budget's error for the parts as they are now (see
// MemoryBudget.Check): their sizes, the largest named; or the error of the
// row admits refused.
func (c *BudgetCheck) Err() error {
	if c.refused != nil {
		return c.refused
	}
	return c.budget.Check(c.parts...)
}

// Player is one learner of a run: its name, the learner, its progressive
// metrics (every row scored before it is learned) and the time it has spent
// in Play.
type Player struct {
	Name    string
	Learner Learner
	Metrics *Metrics
	Elapsed time.Duration
}
