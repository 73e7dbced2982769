package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The package formats its texts with strconv (text.go); these tests check
// each against the fmt verb it replaced.

func TestFloatTextMatchesFmt(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	xs := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 999.9995, 1000, 0.001, 0.000999, 1e21, 1e-7, 123456}
	for range 100000 {
		xs = append(xs, randFloat(rng))
	}
	for _, x := range xs {
		if got, want := fmtG(x), fmt.Sprintf("%g", x); got != want {
			t.Fatalf("fmtG(%v) = %s, %%g %s", x, got, want)
		}
		if got, want := fmtG(x), fmt.Sprint(x); got != want {
			t.Fatalf("fmtG(%v) = %s, %%v %s", x, got, want)
		}
		want := fmt.Sprintf("%.3f", x)
		if math.Abs(x) >= 1000 || (x != 0 && math.Abs(x) < 0.001) {
			want = fmt.Sprintf("%.3g", x)
		}
		if got := format(x); got != want {
			t.Fatalf("format(%v) = %s, want %s", x, got, want)
		}
		// The model panel's verbs (views.go).
		for _, v := range []struct {
			verb string
			fmt  byte
			prec int
		}{{"%.3g", 'g', 3}, {"%.4g", 'g', 4}, {"%.1f", 'f', 1}, {"%.3f", 'f', 3}} {
			if got, want := strconv.FormatFloat(x, v.fmt, v.prec, 64), fmt.Sprintf(v.verb, x); got != want {
				t.Fatalf("FormatFloat(%v, %c, %d) = %s, %s %s", x, v.fmt, v.prec, got, v.verb, want)
			}
		}
	}
}

type stringer struct{}

func (stringer) String() string { return "a stringer" }

type errorStringer struct{}

func (errorStringer) String() string { return "its String" }
func (errorStringer) Error() string  { return "its Error" }

func TestPanicText(t *testing.T) {
	var runtimeErr error
	func() {
		defer func() { runtimeErr = recover().(error) }()
		var m map[string]int
		m["x"] = 1 //lint:ignore SA5000 the runtime error this panics with is the value under test
	}()
	for _, p := range []any{errors.New("boom"), runtimeErr, "a string", stringer{}, errorStringer{}, time.Second} {
		if got, want := panicText(p), fmt.Sprint(p); got != want {
			t.Errorf("panicText(%#v) = %q, %%v %q", p, got, want)
		}
	}
	for _, p := range []any{42, 1.5, struct{}{}, []int{1}} {
		if got := panicText(p); got != "panic" {
			t.Errorf("panicText(%#v) = %q, want panic", p, got)
		}
	}
}

// TestErrorTexts: the errors the package used to make with fmt.Errorf
// read as they did.
func TestErrorTexts(t *testing.T) {
	for _, tc := range []struct {
		cfg  config
		want string
	}{
		{config{Source: "demo", Demo: "planted-regression", RegretGrowth: 0.5, RegretEvery: -3},
			"core: regret checkpoint every -3 rows: want N ≥ 0 (0: geometric spacing)"},
		{config{Source: "demo", Demo: "planted-regression", RegretGrowth: 1e-7},
			"core: regret checkpoint growth 1e-07: want a ratio in (1, 100]"},
		{config{Source: "demo", Demo: "planted-regression", RegretGrowth: math.Inf(1)},
			"core: regret checkpoint growth +Inf: want a ratio in (1, 100]"},
		{config{Source: "demo", Demo: "planted-regression", RegretGrowth: math.NaN()},
			"core: regret checkpoint growth NaN: want a ratio in (1, 100]"},
		{config{Source: "demo", Demo: "planted-regression", RegretGrowth: 1e300},
			"core: regret checkpoint growth 1e+300: want a ratio in (1, 100]"},
		{config{Source: "demo", Demo: "planted-regression", Clip: "sometimes\x00"}, fmt.Sprintf("clip %q: want auto, on or off", "sometimes\x00")},
		{config{Source: "demo", Demo: "planted-regression", OnDiverge: `"x"`}, fmt.Sprintf("on divergence %q: want reset or pause", `"x"`)},
		{config{Source: "demo", Demo: "δ\xff"}, fmt.Sprintf("unknown demo %q", "δ\xff")},
		{config{Source: "web"}, fmt.Sprintf("unknown source %q (want demo or file)", "web")},
	} {
		if _, err := newSession(tc.cfg); err == nil || err.Error() != tc.want {
			t.Errorf("%+v: %v, want %s", tc.cfg, err, tc.want)
		}
	}
	if _, err := (&session{}).model(); err == nil || err.Error() != "nothing to save yet: the learners start once the task is known" {
		t.Errorf("model: %v", err)
	}
}

// TestDescribeMore: a row of more features than describe shows ends with
// the count of the others.
func TestDescribeMore(t *testing.T) {
	p := &prediction{nnz: describeFeatures + 3}
	for k := range describeFeatures {
		p.ind[k], p.val[k] = k, 1
	}
	got := (&session{}).describe(p)
	if want := fmt.Sprintf(" … (+%d)", 3); !strings.HasSuffix(got, want) {
		t.Errorf("describe: %q, want the suffix %q", got, want)
	}
}
