package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/occfm/occfm/core"
)

// The package writes its JSON by hand (jsonw.go); these tests check it byte
// for byte against encoding/json on the same values. num and numRows get
// their MarshalJSON here, in the test only: encoding/json's reference for
// them (null for NaN and ±Inf, [] for nil rows), written without the
// package's writer.

func (x num) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(x))
}

func (r numRows) MarshalJSON() ([]byte, error) {
	rows := make([][]num, len(r))
	for i, row := range r {
		rows[i] = make([]num, len(row))
		for j, x := range row {
			rows[i][j] = num(x)
		}
	}
	return json.Marshal(rows)
}

// UnmarshalJSON reads null as NaN, so that a num reads back as it was
// written.
func (x *num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*x = num(math.NaN())
		return nil
	}
	return json.Unmarshal(b, (*float64)(x))
}

func (r *numRows) UnmarshalJSON(b []byte) error {
	var rows [][]num
	if err := json.Unmarshal(b, &rows); err != nil {
		return err
	}
	*r = make(numRows, len(rows))
	for i, row := range rows {
		(*r)[i] = make([]float64, len(row))
		for j, x := range row {
			(*r)[i][j] = float64(x)
		}
	}
	return nil
}

// randFloat returns a float64 of random sign, mantissa and binary exponent
// across the whole range, subnormals included, or a special value.
func randFloat(rng *rand.Rand) float64 {
	switch rng.IntN(10) {
	case 0:
		specials := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-7, 1e-6, 9.999999999999999e-7, 1e21, 1e20, 9.999999999999999e20,
			1e-6 * (1 - 1e-16), 123456789.125, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64,
			2.2250738585072014e-308, 2.225073858507201e-308, 5e-324, 1e-300, 1e300, 0.000001, 0.0000001, 1e22, 1.5, 100, 1e6, 1e7}
		return specials[rng.IntN(len(specials))]
	case 1:
		return math.Float64frombits(rng.Uint64() &^ (0x7ff << 52)) // subnormal (or ±0)
	case 2:
		return float64(rng.IntN(2001) - 1000) // an integer
	case 3:
		return math.Round(rng.NormFloat64()*1e6) / 1000 // 3 decimals
	}
	x := math.Float64frombits(rng.Uint64())
	for math.IsNaN(x) || math.IsInf(x, 0) {
		x = math.Float64frombits(rng.Uint64())
	}
	return x
}

func TestAppendNumMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		x := randFloat(rng)
		want, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		if got := core.AppendNum(nil, x); !bytes.Equal(got, want) {
			t.Fatalf("core.AppendNum(%v (bits %#x)) = %s, encoding/json %s", x, math.Float64bits(x), got, want)
		}
	}
	// Every decade, and its neighbours, around the cutoffs.
	for e := -330; e <= 308; e++ {
		x := math.Pow(10, float64(e))
		for _, y := range []float64{x, math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1)), -x} {
			want, _ := json.Marshal(y)
			if got := core.AppendNum(nil, y); !bytes.Equal(got, want) {
				t.Fatalf("core.AppendNum(%v) = %s, encoding/json %s", y, got, want)
			}
		}
	}
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := core.AppendNum(nil, x); string(got) != "null" {
			t.Errorf("core.AppendNum(%v) = %s, want null", x, got)
		}
		if got := appendNumPtr(nil, &x); string(got) != "null" {
			t.Errorf("appendNumPtr(%v) = %s, want null", x, got)
		}
	}
	if got := appendNumPtr([]byte("x"), nil); string(got) != "xnull" {
		t.Errorf("appendNumPtr(nil) = %s", got)
	}
}

// stringPieces are what random strings are made of: every ASCII byte that
// encoding/json escapes, HTML's <, > and &, the line and paragraph
// separators, invalid UTF-8 (lone continuation bytes, truncated sequences,
// an encoded surrogate, overlong forms, bytes never in UTF-8) and valid
// runes of every length.
var stringPieces = func() []string {
	p := []string{"<", ">", "&", `"`, `\`, "/", "\u2028", "\u2029", "\u2027", "\u202a", "é", "δ", "€", "😀", "\ufffd", "\x7f",
		"\x80", "\xbf", "\xc0\x80", "\xc3", "\xe2\x80", "\xed\xa0\x80", "\xed\xbf\xbf", "\xf0\x9f\x98", "\xf4\x90\x80\x80", "\xfe", "\xff",
		"a", "Z", "0", " ", "abc", "u.data", "\\u0041", "</script>"}
	for c := 0; c < 0x20; c++ {
		p = append(p, string(rune(c)))
	}
	return p
}()

func randString(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(12) {
		b.WriteString(stringPieces[rng.IntN(len(stringPieces))])
	}
	return b.String()
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	check := func(s string) {
		t.Helper()
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := core.AppendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("core.AppendString(%q) = %s, encoding/json %s", s, got, want)
		}
	}
	for _, s := range append([]string{"", "plain", "a\x00b", "<b>&amp;</b>", "line\u2028para\u2029", "\xff\xfe", "tab\tnew\nline\r"}, stringPieces...) {
		check(s)
	}
	for c := range 256 {
		check(string([]byte{byte(c)}))
		check("x" + string([]byte{byte(c)}) + "y")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50000 {
		check(randString(rng))
	}
	for range 20000 { // random bytes
		b := make([]byte, rng.IntN(16))
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		check(string(b))
	}
	if got := appendStrings(nil, nil); string(got) != "null" {
		t.Errorf("appendStrings(nil) = %s", got)
	}
}

// randStrings returns nil, an empty slice or a few strings.
func randStrings(rng *rand.Rand) []string {
	switch rng.IntN(4) {
	case 0:
		return nil
	case 1:
		return []string{}
	}
	s := make([]string, 1+rng.IntN(3))
	for i := range s {
		s[i] = randString(rng)
	}
	return s
}

// maybe returns the zero value of its type or a random one, half the time
// each, so that every omitempty field is both left out and written.
func maybe[T any](rng *rand.Rand, f func() T) T {
	var zero T
	if rng.IntN(2) == 0 {
		return zero
	}
	return f()
}

func randInt(rng *rand.Rand) int {
	switch rng.IntN(3) {
	case 0:
		return rng.IntN(10)
	case 1:
		return int(rng.Int64()) // wide, of either sign
	}
	return -rng.IntN(1000)
}

func randFinitePtr(rng *rand.Rand) *float64 {
	x := randFloat(rng)
	return &x
}

func randRows(rng *rand.Rand) numRows {
	if rng.IntN(4) == 0 {
		return nil
	}
	r := make(numRows, rng.IntN(4))
	for i := range r {
		r[i] = make([]float64, rng.IntN(5))
		for j := range r[i] {
			switch rng.IntN(8) {
			case 0:
				r[i][j] = math.NaN()
			case 1:
				r[i][j] = math.Inf(1 - 2*rng.IntN(2))
			default:
				r[i][j] = randFloat(rng)
			}
		}
	}
	return r
}

func randNum(rng *rand.Rand) num {
	switch rng.IntN(6) {
	case 0:
		return num(math.NaN())
	case 1:
		return num(math.Inf(-1))
	}
	return num(randFloat(rng))
}

func randResult(rng *rand.Rand) core.Result {
	r := core.Result{Learner: randString(rng), Delta: randFloat(rng), Eta: randFloat(rng), Rows: randInt(rng),
		Seconds: core.Num(randNum(rng)), UpdatesPerSec: core.Num(randNum(rng)), AvgLoss: core.Num(randNum(rng)), Clip: rng.IntN(2) == 0}
	r.Divergences, r.Resets, r.Refused = randInt(rng), randInt(rng), randInt(rng)
	r.PausedAt = maybe(rng, func() int { return randInt(rng) })
	r.RefusedWhy = maybe(rng, func() string { return randString(rng) })
	r.GuardAdvice = maybe(rng, func() string { return randString(rng) })
	r.GuardEvents = maybe(rng, func() []string { return randStrings(rng) })
	metric := func() *core.Num {
		x := core.Num(randNum(rng))
		return &x
	}
	r.RMSE = maybe(rng, metric)
	r.MAE = maybe(rng, metric)
	r.ErrorRate = maybe(rng, metric)
	r.AUC = maybe(rng, metric)
	r.LogLoss = maybe(rng, metric)
	r.Experts = maybe(rng, func() []core.Expert {
		e := make([]core.Expert, rng.IntN(4))
		for i := range e {
			e[i] = core.Expert{Name: randString(rng), Delta: randFloat(rng), Eta: randFloat(rng), Weight: randFloat(rng), Loss: randFloat(rng), Retired: rng.IntN(2) == 0}
		}
		return e
	})
	r.ExpertRegret = maybe(rng, metric)
	r.ExpertRegretBound = maybe(rng, metric)
	return r
}

func randSnapshot(rng *rand.Rand) snapshot {
	s := snapshot{State: randString(rng), Source: randString(rng), Rows: randInt(rng), Features: randInt(rng), Points: randRows(rng), Decimated: rng.IntN(2) == 0}
	s.Error = maybe(rng, func() string { return randString(rng) })
	s.Layout = maybe(rng, func() string { return randString(rng) })
	s.Task = maybe(rng, func() string { return randString(rng) })
	s.Known = maybe(rng, func() string { return randString(rng) })
	s.BadRow = rng.IntN(2) == 0
	s.Skipped = maybe(rng, func() int { return randInt(rng) })
	s.SkippedFirst = randStrings(rng)
	s.Warnings = randStrings(rng)
	if rng.IntN(5) > 0 {
		s.Learners = make([]core.Result, rng.IntN(4))
		for i := range s.Learners {
			s.Learners[i] = randResult(rng)
		}
	}
	s.Preview = maybe(rng, func() *preview {
		p := &preview{Format: randString(rng), Layout: randString(rng), Lines: randStrings(rng), Warnings: randStrings(rng), sent: rng.IntN(2) == 0}
		p.Columns = maybe(rng, func() []previewColumn {
			c := make([]previewColumn, rng.IntN(3))
			for i := range c {
				c[i] = previewColumn{Name: randString(rng), Role: randString(rng)}
			}
			return c
		})
		return p
	})
	s.Regret = maybe(rng, func() *regretStatus {
		r := &regretStatus{Points: randRows(rng), Pending: randInt(rng), Lag: randInt(rng), D: randNum(rng), MaxRows: randInt(rng),
			Truncated: rng.IntN(2) == 0, LeftOut: randInt(rng), NoDelta: rng.IntN(2) == 0}
		if rng.IntN(4) > 0 {
			r.Slope = make([]*float64, rng.IntN(4))
			for i := range r.Slope {
				r.Slope[i] = maybe(rng, func() *float64 { return randFinitePtr(rng) })
			}
		}
		return r
	})
	return s
}

// sameJSON fails unless v's appendJSON writes what encoding/json writes
// for it.
func sameJSON(t *testing.T, v jsonAppender) {
	t.Helper()
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	if got := v.appendJSON(nil); !bytes.Equal(got, want) {
		t.Fatalf("%T:\nappendJSON    %s\nencoding/json %s", v, got, want)
	}
	// Appended to something, as the writer is used.
	if got := v.appendJSON([]byte("[")); !bytes.Equal(got, append([]byte("["), want...)) {
		t.Fatalf("%T appended to [: %s", v, got)
	}
}

func TestSnapshotJSONMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		s := randSnapshot(rng)
		sameJSON(t, &s)
	}
	// Every optional field left out, then every one written.
	sameJSON(t, &snapshot{})
	x, y := 0.5, core.Num(0.5)
	full := snapshot{State: "running", Error: "e", Source: "u.data", Layout: "l", Task: "regression", Rows: 1, Features: 2,
		Learners: []core.Result{{Learner: "occfm-auto", Delta: 1, Eta: 2, Clip: true, Divergences: 1, Resets: 2, Refused: 3, RefusedWhy: "why", PausedAt: 4,
			GuardAdvice: "advice", GuardEvents: []string{"ev"}, Rows: 1, Seconds: 0.25, UpdatesPerSec: 4, AvgLoss: 1, RMSE: &y, MAE: &y, ErrorRate: &y, AUC: &y, LogLoss: &y,
			Experts: []core.Expert{{Name: "δ=10", Delta: 10, Eta: 0.1, Weight: 0.5, Loss: 12.5, Retired: true}}, ExpertRegret: &y, ExpertRegretBound: &y}},
		Points: numRows{{1, 2}}, Decimated: true,
		Preview: &preview{Format: "csv", Layout: "csv (,)", Lines: []string{"a,b"}, Columns: []previewColumn{{"a", "label"}}, Warnings: []string{"w"}},
		Known:   "k", Regret: &regretStatus{Points: numRows{{1}}, Pending: 1, Lag: 2, Slope: []*float64{&x, nil}, D: 20, MaxRows: 3, Truncated: true, LeftOut: 4, NoDelta: true},
		BadRow: true, Skipped: 5, SkippedFirst: []string{"s"}, Warnings: []string{"w"}}
	sameJSON(t, &full)
}

// TestSessionSnapshotsMatchEncodingJSON runs sessions that fill the
// snapshot's parts (an occfm-auto race with its experts and the regret
// comparator, a guard that diverges, a file's preview, skipped rows) and
// checks that each snapshot they write is what encoding/json writes for
// the snapshot it reads back (null nums read back as NaN). A field the
// writer left out would read back as left out: the tests on random
// snapshots above catch that. A demo is checked for its first 400
// snapshots (27,000–37,000 rows), by then every part has appeared; a file
// to its end.
func TestSessionSnapshotsMatchEncodingJSON(t *testing.T) {
	seen := map[string]bool{}
	for _, cfg := range []config{
		{Source: "demo", Demo: "planted-regression", Learners: []string{"occfm-auto", "occfm", "mean"}, RegretEvery: 50},
		{Source: "demo", Demo: "planted-classification", Learners: []string{"occfm-auto", "fm-ftrl"}},
		{Source: "file", File: "u.data", OnError: "skip", Learners: []string{"occfm", "bias"}},
		{Source: "file", File: "huge.svm", RegretEvery: 1, Learners: []string{"occfm"}, Delta: 1e6, Eta: 1e6},
	} {
		s, err := newSession(cfg)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		check := func() {
			text := s.snapshotJSONAt(n%2 == 0)
			var snap snapshot
			if err := json.Unmarshal([]byte(text), &snap); err != nil {
				t.Fatalf("%v: %s", err, text)
			}
			if want := mustMarshal(t, &snap); text != want {
				t.Fatalf("snapshot:\n%s\nencoding/json\n%s", text, want)
			}
			n++
			seen["preview"] = seen["preview"] || snap.Preview != nil
			seen["skippedFirst"] = seen["skippedFirst"] || len(snap.SkippedFirst) > 0
			seen["regret points"] = seen["regret points"] || snap.Regret != nil && len(snap.Regret.Points) > 0
			for _, l := range snap.Learners {
				seen["experts"] = seen["experts"] || len(l.Experts) > 0
				seen["guard"] = seen["guard"] || l.Divergences > 0 || l.Refused > 0
				seen["auc"] = seen["auc"] || l.AUC != nil
				seen["rmse"] = seen["rmse"] || l.RMSE != nil
			}
		}
		if s.file != nil {
			text := ratingsText(400, 11)
			if cfg.File == "huge.svm" {
				text = "1 1:1\n-1 2:1\n1e300 3:1e300\n" + strings.Repeat("1e5 1:1e5 2:0.5\n-1 2:1\n", 50)
			} else {
				text = strings.Replace(text, "\n", "\nbad row\n", 3)
			}
			for off := 0; off < len(text); off += 512 {
				s.feed([]byte(text[off:min(off+512, len(text))]))
				s.step(time.Now().Add(50*time.Millisecond), 37)
				check()
			}
			s.end()
		}
		for guard := time.Now().Add(hangGuard); s.state != "done" && s.state != "error" && (s.file != nil || n < 400) && time.Now().Before(guard); {
			s.step(time.Now().Add(10*time.Millisecond), 97)
			check()
		}
		check()
		t.Logf("%s %v: %d snapshots, %d rows, state %s", cfg.Source, cfg.Learners, n, s.rows, s.state)
	}
	for _, part := range []string{"preview", "skippedFirst", "regret points", "experts", "guard", "auc", "rmse"} {
		if !seen[part] {
			t.Errorf("no snapshot had %s", part)
		}
	}
}

// TestModelInfoJSONMatchesEncodingJSON: what loadModel answers.
func TestModelInfoJSONMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		m := modelInfo{Learner: randString(rng), Rows: randInt(rng), Features: randInt(rng), Task: randString(rng), Bytes: randInt(rng)}
		m.Format = maybe(rng, func() string { return randString(rng) })
		sameJSON(t, &m)
	}
	sameJSON(t, &modelInfo{})
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestErrorJSONMatchesEncodingJSON: the error objects that were maps.
func TestErrorJSONMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 5000 {
		msg := randString(rng)
		if got, want := errorSnapshot(errors.New(msg)), mustMarshal(t, map[string]any{"state": "error", "error": msg, "rows": 0, "learners": []any{}, "points": []any{}}); got != want {
			t.Fatalf("errorSnapshot: %s, encoding/json %s", got, want)
		}
		if got, want := errorOnlyJSON(msg), mustMarshal(t, map[string]string{"error": msg}); got != want {
			t.Fatalf("errorOnlyJSON: %s, encoding/json %s", got, want)
		}
		if got, want := stateErrorJSON(msg), mustMarshal(t, map[string]string{"state": "error", "error": msg}); got != want {
			t.Fatalf("stateErrorJSON: %s, encoding/json %s", got, want)
		}
	}
}

// TestNonFiniteJSON is the writer's one deliberate difference from
// encoding/json: a NaN or ±Inf where encoding/json fails is null.
func TestNonFiniteJSON(t *testing.T) {
	inf := math.Inf(1)
	rmse := core.Num(inf)
	l := core.Result{Learner: "x", Seconds: core.Num(math.NaN()), AvgLoss: core.Num(inf), RMSE: &rmse, Experts: []core.Expert{{Loss: inf}}}
	got := string(l.AppendJSON(nil))
	want := `{"learner":"x","delta":0,"eta":0,"rows":0,"seconds":null,"updates_per_sec":0,"avg_loss":null,"rmse":null,` +
		`"experts":[{"name":"","delta":0,"eta":0,"weight":0,"loss":null,"retired":false}],"clip":false,"divergences":0,"resets":0,"refused":0}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, err := json.Marshal(l); err == nil {
		t.Error("encoding/json wrote a NaN")
	}
	var v any
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Error(err)
	}
}

// The writer allocates only its output.
func TestAppendJSONAllocs(t *testing.T) {
	s := randSnapshot(rand.New(rand.NewPCG(11, 12)))
	buf := make([]byte, 0, 1<<16)
	if n := testing.AllocsPerRun(100, func() { buf = s.appendJSON(buf[:0]) }); n != 0 {
		t.Errorf("snapshot.appendJSON into a big enough buffer: %v allocations", n)
	}
}

func BenchmarkSnapshotJSON(b *testing.B) {
	rng := rand.New(rand.NewPCG(13, 14))
	snaps := make([]snapshot, 64)
	for i := range snaps {
		snaps[i] = randSnapshot(rng)
	}
	b.Run("appendJSON", func(b *testing.B) {
		var buf []byte
		for i := 0; b.Loop(); i++ {
			buf = snaps[i%len(snaps)].appendJSON(buf[:0])
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			json.Marshal(&snaps[i%len(snaps)])
		}
	})
}
