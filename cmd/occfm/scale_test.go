package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRunRefusesScaleOutOfRange checks that run refuses a -delta or -eta
// outside the range in which OCCFM's arithmetic stays inside float64, with
// an error naming the value and the range. Without it, -learner occfm
// -delta 1e200 learned nothing (AUC 0.5, loss ln 2) with no word, and the
// default learner at -delta 1e308 was reset three times and paused at row 8.
func TestRunRefusesScaleOutOfRange(t *testing.T) {
	svm := writeTemp(t, "tiny.svm", "+1 1:1 2:0.5\n-1 1:0.2 3:1\n+1 2:1 3:0.3\n-1 1:1\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-learner", "occfm", "-delta", "1e200"}, "1e+200"},
		{[]string{"-delta", "1e308"}, "1e+308"},
		{[]string{"-learner", "occfm", "-delta", "1e-310"}, "1e-310"},
		{[]string{"-learner", "occfm", "-eta", "1e-170"}, "1e-170"},
	} {
		args := append([]string{"run", "-data", svm}, tc.args...)
		var out, errOut strings.Builder
		err := run(args, &out, &errOut)
		if err == nil {
			t.Errorf("run %q: no error; stdout:\n%s", tc.args, out.String())
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tc.want) || !strings.Contains(msg, "1e+150]") {
			t.Errorf("run %q: error %q does not name the value and the range", tc.args, msg)
		}
	}
}

// TestCheckScale checks checkScale, the usage error of -delta and -eta.
func TestCheckScale(t *testing.T) {
	for _, tc := range []struct {
		delta, eta float64
		want       string
	}{
		{0, 0, ""}, {1e150, 1e150, ""}, {1e-300, 1e-150, ""}, {10, 1, ""},
		{1e200, 0, "run: -delta 1e+200: want 0 (each learner's default) or a number in [1e-300, 1e+150]"},
		{5e-324, 0, "run: -delta 5e-324: want 0"},
		{0, 1e300, "run: -eta 1e+300: want 0 (each learner's default) or a number in [1e-150, 1e+150]"},
		{0, 1e-170, "run: -eta 1e-170: want 0"},
	} {
		err := checkScale(tc.delta, tc.eta)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("δ=%g η=%g: %v", tc.delta, tc.eta, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.As(err, new(usageError))):
			t.Errorf("δ=%g η=%g: %v, want a usage error %q…", tc.delta, tc.eta, err, tc.want)
		}
	}
}

// TestRunAutoExpertFailure checks the report of an occfm-auto expert that
// fails within the range allowed: the default learner at -delta 1e150 on
// regression rows with a feature of 10⁸ on one row in 50 (its OCCFM
// expert's eigensolver meets an infinite H). The expert is retired, the
// mixture goes on without a reset, and the advice names -delta. Without
// it, the whole mixture was reset and the advice named -eta.
func TestRunAutoExpertFailure(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for i := range 600 {
		a, f := rng.Float64(), rng.Float64()
		if i%50 == 7 {
			f = 1e8
		}
		fmt.Fprintf(&b, "%.4f 1:%.4f 2:%.6g %d:1\n", 3*a+0.1*rng.NormFloat64(), a, f, 3+i%5)
	}
	svm := writeTemp(t, "big.svm", b.String())
	// -scale off: scaled as they come, the feature of 1e8 becomes 1 and no
	// expert fails.
	out, _ := runOK(t, "run", "-data", svm, "-delta", "1e150", "-scale", "off")
	for _, want := range []string{
		"occfm-auto: 1 expert failed and was retired (the others learn on)",
		": retired: expert δ=1e+150 failed (",
		"try a smaller -delta",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not contain %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "diverged") || strings.Contains(out, "reset") {
		t.Errorf("the mixture diverged or was reset:\n%s", out)
	}
}
