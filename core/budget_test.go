package core

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/coretest"
)

// wideStream returns rows of nnz distinct features among d, values in
// [0.5, 1.5), labels 1 to 5, drawn by PCG(3, 4): every row brings new
// pairs to a second-order learner's gradient sum.
func wideStream(d, nnz, rows int) []data.Example {
	rng := rand.New(rand.NewPCG(3, 4))
	out := make([]data.Example, rows)
	for t := range out {
		x := data.Sparse{Ind: make([]int, 0, nnz), Val: make([]float64, 0, nnz)}
		for _, j := range rng.Perm(d)[:nnz] {
			x.Ind = append(x.Ind, j)
			x.Val = append(x.Val, 0.5+rng.Float64())
		}
		x.Sort()
		out[t] = data.Example{X: x, Y: float64(1 + rng.IntN(5))}
	}
	return out
}

// oneHotStream returns MovieLens-like rows of 2 one-hot features, a user
// and an item, numbered as the readers number them (in order of first
// appearance, so no index exceeds the number of distinct features): every
// ID is new until d/2 rows, so the feature space grows by 2 a row.
func oneHotStream(d, rows int) []data.Example {
	out := make([]data.Example, rows)
	for t := range out {
		u, i := (2*t)%d, (2*t+1)%d
		out[t] = data.Example{X: data.Sparse{Ind: []int{u, i}, Val: []float64{1, 1}}, Y: float64(1 + t%5)}
	}
	return out
}

// heapAfterGC returns the live heap after a collection.
func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestMemoryBytes checks every learner's estimate (and Guarded's, Metrics'
// and the comparator's) against the live heap it adds, measured by
// runtime.MemStats after a collection: within a factor of 2 either way,
// once the value holds more than 1 MiB. The streams make each learner grow
// in its own way: second-order learners by pairs (rows of 8 features among
// 3,000), first-order ones by features (2 one-hot features a row, new IDs).
func TestMemoryBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every learner on thousands of rows")
	}
	wide := wideStream(3000, 8, 3000)
	ids := oneHotStream(400_000, 200_000)
	cases := []struct {
		name string
		rows []data.Example
	}{
		{"occfm", wide}, {"ccfm-ftrl", wide}, {"cfm-ftrl", wide},
		{"ccfm-ogd", wide}, {"ccfm-pa", wide},
		{"fm-ftrl", ids}, {"linear", ids}, {"bias", ids}, {"mean", ids},
		{"occfm-lin", wide}, {"occfm-auto", wide}, {"ccfm-pairs", wide}, {"occfm-k", wide},
		{"item-lift", ids},
	}
	if len(cases) != len(Learners()) {
		t.Fatalf("%d cases for %d learners", len(cases), len(Learners()))
	}
	check := func(name string, est int64, live uint64) {
		t.Helper()
		ratio := float64(est) / float64(live)
		t.Logf("%-10s estimate %10s, live heap %10s, ratio %.2f", name, FormatBytes(est), FormatBytes(int64(live)), ratio)
		if live > 1<<20 && !(ratio >= 0.5 && ratio <= 2) || live <= 1<<20 && est > 2<<20 {
			t.Errorf("%s: MemoryBytes %d, live heap %d", name, est, live)
		}
	}
	for _, c := range cases {
		start := time.Now()
		before := heapAfterGC()
		g, err := NewGuarded(c.name, Config{}, GuardSettings{})
		if err != nil {
			t.Fatal(err)
		}
		for _, ex := range c.rows {
			Play(g, ex, nil)
		}
		live := heapAfterGC() - min(before, heapAfterGC())
		check(c.name, g.MemoryBytes(), live)
		runtime.KeepAlive(g)
		t.Logf("%s: %v", c.name, time.Since(start))
	}

	before := heapAfterGC()
	m := NewMetrics(data.Classification, Logistic)
	for i := range 200_000 {
		m.Add(float64(i%1000)-500, float64(1-2*(i%2)))
	}
	check("metrics", m.MemoryBytes(), heapAfterGC()-before)
	runtime.KeepAlive(m)

	before = heapAfterGC()
	cp := NewComparator(ComparatorSettings{})
	for _, ex := range wide[:2000] {
		cp.Add(ex.X, ex.Y)
	}
	cp.Iterate(5)
	check("comparator", cp.MemoryBytes(), heapAfterGC()-before)
	runtime.KeepAlive(cp)
}

// TestMemoryBudget: Check passes under the limit and returns a *BudgetError
// naming the largest part over it.
func TestMemoryBudget(t *testing.T) {
	g, _ := NewGuarded("occfm", Config{}, GuardSettings{})
	for _, ex := range wideStream(500, 10, 200) {
		Play(g, ex, nil)
	}
	m := NewMetrics(data.Regression, Squared)
	parts := []MemoryPart{{"occfm", g}, {"metrics", m}, {"none", nil}}
	if err := (MemoryBudget{}).Check(parts...); err != nil {
		t.Fatalf("default budget: %v", err)
	}
	err := MemoryBudget{Limit: 64 << 10}.Check(parts...)
	var be *BudgetError
	if !errors.As(err, &be) || !errors.Is(err, ErrMemoryBudget) {
		t.Fatalf("64 KiB budget: %v", err)
	}
	if be.Largest != "occfm" || be.Limit != 64<<10 || be.Total != g.MemoryBytes()+m.MemoryBytes() || !be.PerPair {
		t.Errorf("%+v", be)
	}
	for _, want := range []string{"core: the run holds ", "(occfm ", "stored pairs of its gradient sum)",
		", over the memory budget of 64 KiB; raise the budget or use fewer features (linear and fm-ftrl grow per feature, not per pair)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	l, _ := NewGuarded("linear", Config{}, GuardSettings{})
	Play(l, data.Example{X: data.Sparse{Ind: []int{99_999}, Val: []float64{1}}, Y: 1}, nil)
	err = MemoryBudget{Limit: 1000}.Check(MemoryPart{"linear", l})
	if err == nil || strings.Contains(err.Error(), "per pair") || !strings.Contains(err.Error(), "(linear ") {
		t.Errorf("linear: %v", err)
	}
	if err := (MemoryBudget{Limit: -1}).Check(parts...); err != nil {
		t.Errorf("no limit: %v", err)
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"0", 0}, {"800000000", 800000000}, {"512M", 512 << 20}, {"512m", 512 << 20}, {"512MB", 512 << 20},
		{"2G", 2 << 30}, {"1GiB", 1 << 30}, {"1.5G", 3 << 29}, {"64K", 64 << 10}, {"1T", 1 << 40},
		{"100B", 100}, {" 2G ", 2 << 30}, {"2 G", 2 << 30},
	} {
		got, err := ParseSize(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "M", "abc", "-1", "1e9", "12Q", "1.2.3", "5GG", "0x10", "NaN", "Inf", "9999999T", "1_000"} {
		if got, err := ParseSize(in); err == nil || !strings.HasPrefix(err.Error(), "core: memory size") {
			t.Errorf("ParseSize(%q) = %d, %v; want an error", in, got, err)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	for _, c := range []struct {
		in   int64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {1024, "1 KiB"}, {1536, "1.5 KiB"}, {512 << 20, "512 MiB"}, {530 << 20, "530 MiB"}, {3 << 29, "1.5 GiB"}} {
		if got := FormatBytes(c.in); got != c.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestGuardedRowLimit: a row over the learner's MaxRowNonzeros is
// predicted, not learned, and reported; the learners without a limit
// learn it.
func TestGuardedRowLimit(t *testing.T) {
	wide := denseRowOf(1001)
	for _, spec := range Learners() {
		g, _ := NewGuarded(spec.Name, Config{}, GuardSettings{})
		clean, _ := NewGuarded(spec.Name, Config{}, GuardSettings{})
		rows := ratingStream(100, 50)
		for _, ex := range rows[:25] {
			Play(g, ex, nil)
			Play(clean, ex, nil)
		}
		checkFinite(t, spec.Name, 25, Play(g, wide, nil))
		r := g.Report()
		_, limited := g.Learner().(RowLimited)
		if !limited {
			if r.Refused != 0 {
				t.Errorf("%s: %+v", spec.Name, r)
			}
			continue
		}
		if r.Refused != 1 || r.TooWide != 1 || len(r.Events) != 1 {
			t.Fatalf("%s: %+v", spec.Name, r)
		}
		want := "row has 1,001 nonzero features, over " + spec.Name + "'s limit of 1,000 per row (its gradient sum stores every pair: 502,503); predicted, not learned; linear and fm-ftrl have no such limit"
		if r.Events[0].Msg != want {
			t.Errorf("%s: %q", spec.Name, r.Events[0].Msg)
		}
		for i, ex := range rows[25:] {
			if got, want := Play(g, ex, nil), Play(clean, ex, nil); got != want {
				t.Fatalf("%s: row %d: ŷ %v, want %v as without the wide row", spec.Name, i+26, got, want)
			}
		}
	}
}

func denseRowOf(nnz int) data.Example {
	x := data.Sparse{Ind: make([]int, nnz), Val: make([]float64, nnz)}
	for i := range x.Ind {
		x.Ind[i] = 200 + i
		x.Val[i] = 1 + float64(i%7)/10
	}
	return data.Example{X: x, Y: 3}
}

// TestGuardedHugeLabel: a label beyond ±1e9 or not finite is not learned
// and stays out of the label statistics: the fallback and the clipping
// range stay those of the other labels, and Metrics leaves the row out.
func TestGuardedHugeLabel(t *testing.T) {
	rows := ratingStream(100, 300)
	for _, spec := range Learners() {
		g, _ := NewGuarded(spec.Name, Config{}, GuardSettings{Clip: true})
		clean, _ := NewGuarded(spec.Name, Config{}, GuardSettings{Clip: true})
		m, mc := NewMetrics(data.Regression, Squared), NewMetrics(data.Regression, Squared)
		for i, ex := range rows {
			if i%100 == 50 {
				for _, y := range []float64{1e200, math.Inf(-1), math.NaN(), -2e9} {
					bad := ex
					bad.Y = y
					checkFinite(t, spec.Name, i, Play(g, bad, m))
				}
			}
			if got, want := Play(g, ex, m), Play(clean, ex, mc); got != want {
				t.Fatalf("%s: row %d: ŷ %v, want %v as without the bad labels", spec.Name, i+1, got, want)
			}
		}
		r := g.Report()
		if r.Refused != 12 || r.BadLabels != 12 || r.Divergences != 0 || g.fallback() != clean.fallback() {
			t.Errorf("%s: %+v", spec.Name, r)
		}
		if len(r.Events) == 0 || r.Events[0].Msg != "label 1e+200 is beyond ±1e+09: row predicted, not learned, its label left out of the label mean and range" {
			t.Errorf("%s: %v", spec.Name, r.Events)
		}
		if m.Summary() != mc.Summary() || m.LeftOut() != 12 {
			t.Errorf("%s: metrics %+v (left out %d), want %+v", spec.Name, m.Summary(), m.LeftOut(), mc.Summary())
		}
	}
}

// TestGuardReportSaved: the breakdown of the refused rows survives a save
// and a load (it is coded only when not zero, so older files keep their
// bytes).
func TestGuardReportSaved(t *testing.T) {
	g, _ := NewGuarded("occfm", Config{}, GuardSettings{})
	Play(g, data.Example{X: data.Sparse{Ind: []int{1}, Val: []float64{1}}, Y: 1e300}, nil)
	Play(g, denseRowOf(1001), nil)
	m := g.Model()
	b := saveBytes(t, m)
	back, err := LoadModel(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	h, err := ResumeGuarded(back, GuardSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if r := h.Report(); r.Refused != 2 || r.TooWide != 1 || r.BadLabels != 1 {
		t.Errorf("%+v", r)
	}
}

// TestMaxRowNonzerosSaved: a limit other than the default survives a save
// and a load (the default is not written, so older files keep their bytes;
// TestModelFiles checks that).
func TestMaxRowNonzerosSaved(t *testing.T) {
	for _, l := range []Learner{
		NewOCCFM(OCCFMSettings{MaxRowNonzeros: 50}),
		NewCCFMFTRL(CCFMFTRLSettings{MaxRowNonzeros: -7}),
		NewCFMFTRL(CFMFTRLSettings{MaxRowNonzeros: 5000}),
	} {
		for _, ex := range ratingStream(50, 30) {
			Play(l, ex, nil)
		}
		b := saveBytes(t, Model{Learner: l})
		m, err := LoadModel(strings.NewReader(string(b)))
		if err != nil {
			t.Fatalf("%T: %v", l, err)
		}
		got, want := m.Learner.(RowLimited).MaxRowNonzeros(), l.(RowLimited).MaxRowNonzeros()
		if got != want {
			t.Errorf("%T: limit %d after loading, want %d", l, got, want)
		}
		if again := saveBytes(t, m); string(again) != string(b) {
			t.Errorf("%T: saves to other bytes", l)
		}
	}
}

// TestBudgetRefusesRowBeforeGrowth: a row whose new features a learner
// would allocate arrays for at once (a million of them: fm-ftrl's linear
// part and rows of V, 216 MB) stops the run before it is played when they
// would pass the budget, allocating nothing for them, with the budget's
// error naming the row; linear, whose arrays for it fit, plays it. After
// the check, a check after the row could only report what was allocated.
func TestBudgetRefusesRowBeforeGrowth(t *testing.T) {
	wide := data.Example{Y: 1}
	for i := range 1_000_000 {
		wide.X.Ind = append(wide.X.Ind, i)
		wide.X.Val = append(wide.X.Val, 1)
	}
	narrow := data.Example{X: data.Sparse{Ind: []int{0, 1}, Val: []float64{1, 1}}, Y: -1}
	for _, c := range []struct {
		learner string
		rows    int
	}{{"fm-ftrl", 1}, {"linear", 2}, {"occfm-auto", 2}} {
		g, _ := NewGuarded(c.learner, Config{Task: data.Classification}, GuardSettings{})
		ps := []*Player{{Name: c.learner, Learner: g, Metrics: NewMetrics(data.Classification, Logistic)}}
		run := &Run{Source: &sliceRows{rows: []data.Example{narrow, wide}}, Players: ps, Batch: 1,
			Budget: NewBudgetCheck(MemoryBudget{Limit: 64 << 20}, ps)}
		var err error
		alloc := coretest.TotalAlloc(func() {
			for err == nil {
				_, err = run.Step(0, 1)
			}
		})
		t.Logf("%s: %d rows, %v; allocated %s", c.learner, run.Rows, err, FormatBytes(int64(alloc)))
		if run.Rows != c.rows {
			t.Errorf("%s: %d rows played, want %d (%v)", c.learner, run.Rows, c.rows, err)
		}
		if c.rows == 1 && (!errors.Is(err, ErrMemoryBudget) || !strings.Contains(err.Error(), "the next row's 1.0 million nonzeros would take") || alloc > 8<<20) {
			t.Errorf("%s: %v after allocating %s, want the budget's error for the row before allocating for it", c.learner, err, FormatBytes(int64(alloc)))
		}
	}
}

// TestGrowthFloor checks that GrowthFloor is a lower bound of what every
// learner's memory estimate grows by, from empty, on rows that bring new
// features (4 new and 4 seen a row, drawn by PCG(5, 6)). A row over the
// learner's MaxRowNonzeros adds nothing. On the wide rows of the
// library's default learner, occfm-k (100 features, 50 new), it is not a
// loose bound: at least half the growth, so that a list refused by it
// is one that would pass the budget soon after.
func TestGrowthFloor(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const rows, fresh, old = 600, 4, 4
	stream := make([]data.Example, rows)
	for r := range stream {
		var x data.Sparse
		for k := range fresh {
			x.Ind, x.Val = append(x.Ind, fresh*r+k), append(x.Val, 1)
		}
		for _, j := range rng.Perm(max(fresh*r, old))[:old] {
			if j < fresh*r {
				x.Ind, x.Val = append(x.Ind, j), append(x.Val, 0.5+rng.Float64())
			}
		}
		x.Sort()
		stream[r] = data.Example{X: x, Y: float64(1 + rng.IntN(5))}
	}
	for _, spec := range Learners() {
		name := spec.Name
		g, err := NewGuarded(name, Config{}, GuardSettings{})
		if err != nil {
			t.Fatal(err)
		}
		before := g.MemoryBytes()
		var floor int64
		for r, ex := range stream {
			n := fresh
			if r == 0 {
				n = len(ex.X.Ind)
			}
			floor += GrowthFloor(g, len(ex.X.Ind), n)
			Play(g, ex, nil)
		}
		grew := g.MemoryBytes() - before
		t.Logf("%-10s floor %9s, growth %9s", name, FormatBytes(floor), FormatBytes(grew))
		if floor > grew || floor <= 0 {
			t.Errorf("%s: floor %d, growth %d", name, floor, grew)
		}
		if lim := g.rowLimit(1 << 20); lim > 0 && GrowthFloor(g, lim+1, lim+1) != 0 {
			t.Errorf("%s: a row over its limit of %d has a floor", name, lim)
		}
	}
}

func TestGrowthFloorWide(t *testing.T) {
	g, err := NewGuarded("occfm-k", Config{}, GuardSettings{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	before := g.MemoryBytes()
	var floor int64
	for r := range 200 {
		var x data.Sparse
		for k := range 50 {
			x.Ind, x.Val = append(x.Ind, 50*r+k), append(x.Val, 1)
		}
		if r > 0 {
			for _, j := range rng.Perm(50 * r)[:50] {
				x.Ind, x.Val = append(x.Ind, j), append(x.Val, 1)
			}
		}
		x.Sort()
		floor += GrowthFloor(g, len(x.Ind), 50)
		Play(g, data.Example{X: x, Y: float64(1 + rng.IntN(5))}, nil)
	}
	g.inner.(*OCCFMK).g.compress() // as the next product with G does
	grew := g.MemoryBytes() - before
	t.Logf("floor %s, growth %s", FormatBytes(floor), FormatBytes(grew))
	if floor > grew || 2*floor < grew {
		t.Errorf("floor %d, growth %d: want 50 %% to 100 %%", floor, grew)
	}
}
