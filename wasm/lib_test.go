package main

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/occfm/occfm/core/data"
)

// plantedLibRows returns n rows of 20 numeric features f0…f19, each
// N(0, 1), with y = 1 + Σ wᵢxᵢ + 2·x₀x₁ − 1.5·x₂x₃ + N(0, 0.1²), drawn by
// PCG(seed, 7) (the weights by PCG(1, 7), the same for every seed).
func plantedLibRows(n int, seed uint64) []libRow {
	wr := rand.New(rand.NewPCG(1, 7))
	w := make([]float64, 20)
	for i := range w {
		w[i] = 0.3 * wr.NormFloat64()
	}
	r := rand.New(rand.NewPCG(seed, 7))
	rows := make([]libRow, n)
	for k := range rows {
		x := make([]libField, 20)
		y := 1.0
		v := make([]float64, 20)
		for i := range x {
			v[i] = r.NormFloat64()
			x[i] = libField{name: "f" + strconv.Itoa(i), num: v[i]}
			y += w[i] * v[i]
		}
		y += 2*v[0]*v[1] - 1.5*v[2]*v[3] + 0.1*r.NormFloat64()
		rows[k] = libRow{x: x, y: y}
	}
	return rows
}

func newLib(t *testing.T, s libSettings) *libLearner {
	t.Helper()
	l, err := newLibLearner(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func mustSave(t *testing.T, l *libLearner) []byte {
	t.Helper()
	b, err := l.save()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLibLearner learns a planted regression of 20 named features with
// occfm-k in chunks, and checks that it predicts 200 fresh rows better
// than their mean, that a saved and loaded copy predicts them to the bit,
// and that a second learner with other settings, learning other rows in
// between, changes nothing of the first.
func TestLibLearner(t *testing.T) {
	train, fresh := plantedLibRows(4000, 1), plantedLibRows(200, 2)
	a, b, solo := newLib(t, libSettings{Learner: "occfm-k"}), newLib(t, libSettings{Learner: "occfm-k", Eta: 1}), newLib(t, libSettings{Learner: "occfm-k"})
	for c := 0; c < len(train); c += 500 {
		if err := a.learn(train[c:c+500], 0); err != nil {
			t.Fatal(err)
		}
		if err := b.learn(plantedLibRows(300, uint64(10+c)), 0); err != nil {
			t.Fatal(err)
		}
		if err := solo.learn(train[c:c+500], 0); err != nil {
			t.Fatal(err)
		}
	}
	loaded, err := loadLibLearner(mustSave(t, a))
	if err != nil {
		t.Fatal(err)
	}
	var mean float64
	for _, r := range fresh {
		mean += r.y / float64(len(fresh))
	}
	var se, sm float64
	for i, r := range fresh {
		p, err := a.predict(r.x, "x")
		if err != nil {
			t.Fatal(err)
		}
		if q, _ := loaded.predict(r.x, "x"); math.Float64bits(q) != math.Float64bits(p) {
			t.Fatalf("row %d: ŷ = %v, %v after a save and a load", i, p, q)
		}
		if q, _ := solo.predict(r.x, "x"); math.Float64bits(q) != math.Float64bits(p) {
			t.Fatalf("row %d: ŷ = %v beside another learner, %v alone", i, p, q)
		}
		se += (p - r.y) * (p - r.y)
		sm += (mean - r.y) * (mean - r.y)
	}
	t.Logf("fresh rows: MSE %.3f, their mean's %.3f; progressive RMSE %.3f over %d rows", se/200, sm/200, a.summary().RMSE, a.rows)
	if !(se < 0.5*sm) {
		t.Errorf("fresh rows: MSE %.3f, their mean's %.3f: want under half", se/200, sm/200)
	}
	if loaded.rows != 4000 || loaded.name != "occfm-k" {
		t.Errorf("loaded: %s after %d rows", loaded.name, loaded.rows)
	}
}

// TestLibClassification learns labels 0/1 of the sign of x₀x₁ + 0.5·x₂
// (pairs carry them) with string and boolean features beside: the
// predictions are probabilities, and a fresh row is right more often than
// the majority class.
func TestLibClassification(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	row := func() libRow {
		x0, x1, x2 := r.NormFloat64(), r.NormFloat64(), r.NormFloat64()
		y := 0.0
		if x0*x1+0.5*x2 > 0 {
			y = 1
		}
		shop := []string{"north", "south", "east"}[r.IntN(3)]
		return libRow{x: []libField{{name: "a", num: x0}, {name: "b", num: x1}, {name: "c", num: x2},
			{name: "shop", str: shop, isStr: true}, {name: "member", num: float64(r.IntN(2))}}, y: y}
	}
	l := newLib(t, libSettings{Task: "classification"})
	rows := make([]libRow, 6000)
	for i := range rows {
		rows[i] = row()
	}
	if err := l.learn(rows, 0); err != nil {
		t.Fatal(err)
	}
	right, pos := 0, 0
	for range 500 {
		rw := row()
		p, err := l.predict(rw.x, "x")
		if err != nil {
			t.Fatal(err)
		}
		if !(p >= 0 && p <= 1) {
			t.Fatalf("P(y = 1) = %v", p)
		}
		if (p > 0.5) == (rw.y == 1) {
			right++
		}
		if rw.y == 1 {
			pos++
		}
	}
	t.Logf("%d of 500 fresh rows right (%d positive); progressive error %.3f", right, pos, l.summary().ErrorRate)
	if right < max(pos, 500-pos)+50 {
		t.Errorf("%d of 500 right, the majority class %d", right, max(pos, 500-pos))
	}
}

// TestLibBadInput checks that each bad input gives an error saying what
// and where, and leaves the learner as it was (the same model file) and
// still predicting.
func TestLibBadInput(t *testing.T) {
	for _, s := range []libSettings{{Learner: "no-such-learner"}, {Task: "ranking"}, {Delta: -1}, {Eta: math.NaN()}} {
		if _, err := newLibLearner(s); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
	l := newLib(t, libSettings{})
	if err := l.learn(plantedLibRows(300, 1), 0); err != nil {
		t.Fatal(err)
	}
	before := mustSave(t, l)
	good := plantedLibRows(3, 5)
	for _, c := range []struct {
		rows []libRow
		want string
	}{
		{[]libRow{good[0], {x: good[1].x, y: math.NaN()}}, "row 1: y is NaN"},
		{[]libRow{good[0], good[1], {x: []libField{{name: "f0", num: math.Inf(1)}}, y: 1}}, `row 2: feature "f0" is +Inf`},
		{[]libRow{{x: []libField{{name: "f3", str: "high", isStr: true}}, y: 1}}, `row 0: feature "f3" is the string "high", and a number before`},
		{[]libRow{{x: []libField{{name: "", num: 1}}, y: 1}}, "row 0: a feature with an empty name"},
		{[]libRow{{x: []libField{{name: "new", num: 1}}, y: 1}, {x: []libField{{name: "new", str: "x", isStr: true}}, y: 1}}, `row 1: feature "new" is the string "x", and a number in an earlier row`},
	} {
		err := l.learn(c.rows, 0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("learn: error %v, want %q", err, c.want)
		}
		if !bytes.Equal(mustSave(t, l), before) {
			t.Fatalf("after the error %v the learner changed", err)
		}
	}
	if _, err := l.predict([]libField{{name: "f1", num: math.NaN()}}, "x"); err == nil || !strings.Contains(err.Error(), `x: feature "f1" is NaN`) {
		t.Errorf("predict: error %v", err)
	}
	if p, err := l.predict(good[2].x, "x"); err != nil || math.IsNaN(p) {
		t.Errorf("predict after the errors: %v, %v", p, err)
	}
	c := newLib(t, libSettings{Task: "classification"})
	if err := c.learn([]libRow{{x: good[0].x, y: 0.5}}, 0); err == nil || !strings.Contains(err.Error(), "row 0") {
		t.Errorf("a label 0.5 for classification: error %v", err)
	}
	for _, b := range [][]byte{nil, []byte("not a model"), before[:len(before)/2]} {
		if _, err := loadLibLearner(b); err == nil {
			t.Errorf("load of %d bytes: no error", len(b))
		}
	}
}

// TestLibSparse checks how a row's names become features: a name given
// twice sums, a zero is left out, a string is the one-hot feature of its
// value, and a name never learned is left out of a prediction.
func TestLibSparse(t *testing.T) {
	l := newLib(t, libSettings{Learner: "linear"})
	x := []libField{{name: "b", num: 2}, {name: "a", num: 1}, {name: "b", num: 3}, {name: "z", num: 0}, {name: "city", str: "Oslo", isStr: true}}
	if err := l.learn([]libRow{{x: x, y: 3}}, 0); err != nil {
		t.Fatal(err)
	}
	if d := l.vocab; d.Dim != 3 || len(d.Columns) != 5 {
		t.Fatalf("%d features of %d columns, want 3 (b, a, city=Oslo) of 5 (y, b, a, z, city)", d.Dim, len(d.Columns))
	}
	if err := l.learn([]libRow{{x: []libField{{name: "y", num: 1}}, y: 1}}, 0); err == nil || !strings.Contains(err.Error(), `feature "y" is a column the model does not read`) {
		t.Errorf("a feature named y: error %v", err)
	}
	var s data.Sparse
	l.sparse(append(x, libField{name: "never", num: 7}, libField{name: "city", str: "Rome", isStr: true}), false, &s)
	if !slices.Equal(s.Ind, []int{0, 1, 2}) || !slices.Equal(s.Val, []float64{5, 1, 1}) {
		t.Errorf("features %v, values %v; want [0 1 2], [5 1 1]", s.Ind, s.Val)
	}
}

// clickRows returns n click rows as people write them, {device, hour, ad,
// price, dwell_seconds}, with raw numbers (hour 0–23, price 1–5,000, dwell
// 0–600 s) or, with byHand, each number divided by its range as a person
// scaling them first would. The click's log-odds are −0.4 + a planted
// device × ad effect N(0, 1.5²) + 0.06·(hour − 12) − 0.0002·(price −
// 2500) + 0.002·(dwell − 300); draws by PCG(seed, 58), the effects by
// PCG(1, 58).
func clickRows(n int, seed uint64, byHand bool) []libRow {
	devices := []string{"mobile", "desktop", "tablet"}
	er := rand.New(rand.NewPCG(1, 58))
	effect := make([]float64, 3*30)
	for i := range effect {
		effect[i] = 1.5 * er.NormFloat64()
	}
	r := rand.New(rand.NewPCG(seed, 58))
	rows := make([]libRow, n)
	for k := range rows {
		d, ad := r.IntN(3), r.IntN(30)
		hour, price, dwell := float64(r.IntN(24)), 1+float64(r.IntN(5000)), float64(r.IntN(601))
		z := -0.4 + effect[d*30+ad] + 0.06*(hour-12) - 0.0002*(price-2500) + 0.002*(dwell-300)
		y := 0.0
		if r.Float64() < 1/(1+math.Exp(-z)) {
			y = 1
		}
		if byHand {
			hour, price, dwell = hour/23, price/5000, dwell/600
		}
		rows[k] = libRow{y: y, x: []libField{{name: "device", str: devices[d], isStr: true}, {name: "hour", num: hour},
			{name: "ad", str: "a" + strconv.Itoa(ad), isStr: true}, {name: "price", num: price}, {name: "dwell_seconds", num: dwell}}}
	}
	return rows
}

// TestLibRawNumbers learns 5,000 click rows with raw numbers with the
// default learner and checks its log loss on 500 fresh rows: within 5 % of
// the same rows with their numbers scaled by hand, and at least 10 % below
// the base rate's (predicting the positive rate of the rows learned).
func TestLibRawNumbers(t *testing.T) {
	logLoss := func(byHand bool) (model, base float64) {
		l := newLib(t, libSettings{Task: "classification"})
		train := clickRows(5000, 1, byHand)
		if err := l.learn(train, 0); err != nil {
			t.Fatal(err)
		}
		pos := 0.0
		for _, r := range train {
			pos += r.y / float64(len(train))
		}
		fresh := clickRows(500, 2, byHand)
		for _, r := range fresh {
			p, err := l.predict(r.x, "x")
			if err != nil {
				t.Fatal(err)
			}
			q := pos
			if r.y == 0 {
				p, q = 1-p, 1-q
			}
			model -= math.Log(max(p, 1e-15)) / float64(len(fresh))
			base -= math.Log(q) / float64(len(fresh))
		}
		return model, base
	}
	raw, base := logLoss(false)
	hand, _ := logLoss(true)
	t.Logf("fresh rows' log loss: raw numbers %.4f, scaled by hand %.4f, base rate %.4f", raw, hand, base)
	if raw > 1.05*hand {
		t.Errorf("log loss %.4f with raw numbers, over 1.05 × %.4f with the numbers scaled by hand", raw, hand)
	}
	if raw > 0.9*base {
		t.Errorf("log loss %.4f with raw numbers, not 10 %% below the base rate's %.4f", raw, base)
	}
}

// wideLibRows returns n rows of k features each, all new (named
// "w<row>_<k>"), labels 1 to 5.
func wideLibRows(n, k int) []libRow {
	rows := make([]libRow, n)
	for r := range rows {
		rows[r].y = float64(1 + r%5)
		for j := range k {
			rows[r].x = append(rows[r].x, libField{name: "w" + strconv.Itoa(r) + "_" + strconv.Itoa(j), num: 1})
		}
	}
	return rows
}

// TestLibMemoryFloor: a list whose new features cannot fit the memory
// budget (see libFloor) is refused whole, before a row is learned, by an
// error that names the row, the memory and what would hold it; the
// learner is then as it was, and a list that fits is learned. The row
// named is where the floor passes the budget, within a quarter of where
// learning the rows one call each meets it (the floor is a lower bound of
// what the budget counts once occfm-k's pairs are in its product form, not
// of the slack of a slice grown by a quarter, so it may be either side).
func TestLibMemoryFloor(t *testing.T) {
	const budget = 16 << 20
	for _, c := range []struct {
		learner  string
		k        int
		lo, hi   int    // the row named
		wantText string // in the error
	}{
		{"occfm-k", 100, 30, 80, "pairs of features new together, each of which occfm-k stores"},
		{"linear", 100, 500, 1000, "new features), over the memory budget of 16 MiB (maxMemory)"},
	} {
		l := newLib(t, libSettings{Learner: c.learner, MaxMemory: budget})
		if err := l.learn(plantedLibRows(50, 1), 0); err != nil {
			t.Fatal(err)
		}
		before := mustSave(t, l)
		err := l.learn(wideLibRows(4000, c.k), 0)
		if err == nil {
			t.Fatalf("%s: 4,000 rows of %d new features under 16 MiB: no error", c.learner, c.k)
		}
		var row int
		if _, e := fmt.Sscanf(err.Error(), "row %d:", &row); e != nil || row < c.lo || row > c.hi ||
			!strings.Contains(err.Error(), c.wantText) || !strings.Contains(err.Error(), "none of these rows was learned") {
			t.Errorf("%s: error %q: want a row in [%d, %d] and %q", c.learner, err, c.lo, c.hi, c.wantText)
		}
		if !bytes.Equal(mustSave(t, l), before) {
			t.Errorf("%s: refused, but the learner changed", c.learner)
		}
		// Row by row, the same rows meet the budget as they are learned,
		// after the row the floor named, never before it.
		one := newLib(t, libSettings{Learner: c.learner, MaxMemory: budget})
		if err := one.learn(plantedLibRows(50, 1), 0); err != nil {
			t.Fatal(err)
		}
		met := -1
		for r, x := range wideLibRows(4000, c.k) {
			if err := one.learn([]libRow{x}, r); err != nil {
				met = r
				break
			}
		}
		t.Logf("%s: the floor names row %d; learned row by row, the budget is met at row %d", c.learner, row, met)
		if met < 0 || 4*row < 3*met || 4*row > 5*met {
			t.Errorf("%s: the budget was met at row %d, the floor's row is %d", c.learner, met, row)
		}
		if err := l.learn(wideLibRows(10, c.k), 0); err != nil {
			t.Errorf("%s: 10 rows after the refusal: %v", c.learner, err)
		}
	}
}
