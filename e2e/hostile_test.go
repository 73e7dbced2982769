//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/occfm/occfm/internal/badinput"
)

// hostileEnv turns TestE2EHostile on; make stress sets it.
const hostileEnv = "OCCFM_STRESS_HOSTILE"

// TestE2EHostile is the page's part of the hostile stress inputs
// (internal/badinput.HostileInputs: huge LibSVM indices, rows of 5,000 and
// 15,000 nonzeros, a CSV of 20,000 columns, 2 million IDs), picked through
// the file input with OCCFM and FM-FTRL racing. Each must end in done, or
// in error with the memory budget's message, or still be learning at the
// time limit (2 million features are slow for OCCFM), with no exception,
// the Go program alive, and the page's wasm memory (which never shrinks,
// so its size is its peak) under 1 GB. Skipped unless OCCFM_STRESS_HOSTILE
// is set.
func TestE2EHostile(t *testing.T) {
	t.Parallel()
	if os.Getenv(hostileEnv) == "" {
		t.Skipf("set %s=1 (or run make stress) to learn the hostile inputs in the page", hostileEnv)
	}
	dir := t.TempDir()
	s := newSession(t, 40*time.Minute)
	s.url += "#learners=occfm,fm-ftrl&speed=max"
	s.openDemo()
	for _, in := range badinput.HostileInputs() {
		path, err := in.WriteFile(dir)
		if err != nil {
			t.Fatal(err)
		}
		before := evalJS[int](s, "occfmPage.session.gen")
		start := time.Now()
		s.upload(path)
		ended := fmt.Sprintf(`occfmPage.session.gen > %d && occfmPage.session.file && occfmPage.session.file.name === %q &&
			(document.body.dataset.state === "done" || document.body.dataset.state === "error")`, before, in.File)
		deadline := time.Now().Add(3 * time.Minute)
		for time.Now().Before(deadline) && !evalJS[bool](s, ended) {
			time.Sleep(250 * time.Millisecond)
		}
		o := evalJS[badOutcome](s, badOutcomeJS)
		wasm := evalJS[float64](s, `occfmPage.page.memory ? occfmPage.page.memory.buffer.byteLength : 0`)
		t.Logf("%-12s %10d bytes  %6.1f s  state %-7s rows %-9s wasm %6.1f MB  %.300s", in.Name, fileSize(path),
			time.Since(start).Seconds(), o.State, o.Rows, wasm/(1<<20), o.Error)
		s.checkExceptions()
		if o.State == "error" && !strings.Contains(o.Error, "memory budget") {
			t.Errorf("%s: %s", in.Name, o.Error)
		}
		if wasm >= 1e9 {
			t.Errorf("%s: wasm memory %.1f MB, want < 1 GB", in.Name, wasm/(1<<20))
		}
		if n := evalJS[int](s, "occfm.learners().length"); n == 0 {
			t.Errorf("%s: the Go program is gone", in.Name)
		}
		os.Remove(path)
	}
	s.screenshot("hostile-last")
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return fi.Size()
}
