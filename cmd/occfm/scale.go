package main

import (
	"fmt"

	"github.com/occfm/occfm/core"
)

// checkScale returns the usage error of a -delta or -eta that is neither 0
// (each learner's default) nor in its range, [core.MinDelta,
// core.MaxDelta] or [core.MinEta, core.MaxEta], outside which OCCFM's
// arithmetic leaves float64's and the learner learns nothing or fails (see
// core.MaxDelta and core.Config.Check). checkNumbers ends with it, once
// the flags are known to be finite and not negative.
func checkScale(delta, eta float64) error {
	bad := func(flag string, v, lo, hi float64) error {
		return usageError{fmt.Errorf("run: %s %v: want 0 (each learner's default) or a number in [%g, %g]: beyond, OCCFM's arithmetic leaves float64's range, and its model stays 0 or its eigensolver fails",
			flag, v, lo, hi)}
	}
	c := core.Config{Delta: delta}
	if c.Check() != nil {
		return bad("-delta", delta, core.MinDelta, core.MaxDelta)
	}
	c = core.Config{Eta: eta}
	if c.Check() != nil {
		return bad("-eta", eta, core.MinEta, core.MaxEta)
	}
	return nil
}
