package str

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

func TestFormatHelpersMatchFmt(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-5, 1e-4, 123456, 1e20, 1e21, 1e100, 5e-324,
		math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 1.0 / 3, 2.5e6, 1e6, 999999, 0.000123}
	for range 2000 {
		floats = append(floats, math.Float64frombits(rng.Uint64()), rng.NormFloat64()*math.Pow(10, float64(rng.IntN(40)-20)))
	}
	for _, x := range floats {
		if got, want := Ftoa(x), fmt.Sprintf("%v", x); got != want {
			t.Errorf("Ftoa(%b) = %q, %%v gives %q", x, got, want)
		}
		if got, want := Ftoa(x), fmt.Sprintf("%g", x); got != want {
			t.Errorf("Ftoa(%b) = %q, %%g gives %q", x, got, want)
		}
	}
	for _, n := range []int{0, 1, -1, 9, 10, -10, 4096, math.MaxInt, math.MinInt, math.MaxInt32, math.MinInt32} {
		if got, want := Itoa(n), fmt.Sprintf("%d", n); got != want {
			t.Errorf("Itoa(%d) = %q, want %q", n, got, want)
		}
	}
	for _, n := range []int64{0, -5, math.MaxInt64, math.MinInt64} {
		if got, want := strconv.FormatInt(n, 10), fmt.Sprintf("%d", n); got != want {
			t.Errorf("FormatInt(%d) = %q, want %q", n, got, want)
		}
	}
	for _, n := range []uint64{0, 7, math.MaxUint64} {
		if got, want := strconv.FormatUint(n, 10), fmt.Sprintf("%d", n); got != want {
			t.Errorf("FormatUint(%d) = %q, want %q", n, got, want)
		}
	}
	strs := []string{"", "a", `"q"`, `back\slash`, "tab\there", "nl\n", "\x00\x7f", "\xff\xfe bad UTF-8", "é ★ 日本", "\u2028", "\U0001F600", "::", ",", "\t"}
	for _, s := range strs {
		if got, want := Quote(s), fmt.Sprintf("%q", s); got != want {
			t.Errorf("Quote(%q) = %s, want %s", s, got, want)
		}
	}
	for _, list := range [][]string{nil, {}, {"a"}, strs, {"user", "item", "rating"}} {
		if got, want := QuoteList(list), fmt.Sprintf("%q", list); got != want {
			t.Errorf("QuoteList(%#v) = %s, want %s", list, got, want)
		}
	}
	type local struct{ _ int }
	type named struct{ _ string }
	type kind int
	type label string
	for _, x := range []any{nil, 1, "s", &named{}, named{}, local{}, &local{}, []int{1}, map[string]int{}, kind(2), label("csv"), errors.New("e")} {
		if got, want := TypeName(x), fmt.Sprintf("%T", x); got != want {
			t.Errorf("TypeName(%#v) = %q, want %q", x, got, want)
		}
	}
}

func TestThousands(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {-12500, "-12,500"}, {1234567, "1,234,567"}, {math.MinInt64, "-9,223,372,036,854,775,808"}} {
		if got := Thousands(tc.n); got != tc.want {
			t.Errorf("Thousands(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
