//go:build unix

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestStreamBigFile is the bounded-memory check of `make stress`: occfm gen
// writes OCCFM_STRESS bytes (say 1G) of planted-classification rows, the
// occfm command built from this tree learns them in file order (-shuffle 0)
// with learner OCCFM_STRESS_LEARNER (default occfm), and its peak resident
// set size, read from the kernel's rusage of the child process, must stay
// under OCCFM_STRESS_MAX_MB (default 300) MB. It is skipped unless
// OCCFM_STRESS is set: 1G takes about two minutes on one core. The file
// goes to $TMPDIR and is removed afterwards.
func TestStreamBigFile(t *testing.T) {
	size := os.Getenv("OCCFM_STRESS")
	if size == "" {
		t.Skip("set OCCFM_STRESS=1G (or run make stress) to stream a big generated file")
	}
	learner := os.Getenv("OCCFM_STRESS_LEARNER")
	if learner == "" {
		learner = "occfm"
	}
	maxMB := 300.0
	if v := os.Getenv("OCCFM_STRESS_MAX_MB"); v != "" {
		var err error
		if maxMB, err = strconv.ParseFloat(v, 64); err != nil {
			t.Fatalf("OCCFM_STRESS_MAX_MB=%q: %v", v, err)
		}
	}
	dir := t.TempDir()
	exe := filepath.Join(dir, "occfm")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data := filepath.Join(dir, "big.svm")
	start := time.Now()
	_, stderr := runOK(t, "gen", "-size", size, "-out", data)
	fi, err := os.Stat(data)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s (%v)", stderr[:len(stderr)-1], time.Since(start).Round(time.Second))

	cmd := exec.Command(exe, "run", "-data", data, "-learner", learner, "-shuffle", "0", "-json", "-quiet")
	cmd.Stderr = os.Stderr
	start = time.Now()
	out, err := cmd.Output()
	wall := time.Since(start)
	if err != nil {
		t.Fatalf("%v: %v", cmd.Args, err)
	}
	var rec struct {
		Rows    int     `json:"rows"`
		AUC     float64 `json:"auc"`
		Error   float64 `json:"error_rate"`
		PerSec  float64 `json:"updates_per_sec"`
		Seconds float64 `json:"seconds"`
	}
	if err := json.Unmarshal(out, &rec); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatal("no rusage for the child process")
	}
	peakMB := float64(ru.Maxrss) / 1024 // Linux reports kilobytes
	t.Logf("occfm run -learner %s on %s bytes (%.2f GiB): %d rows in %v (%.0f rows/s in core.Play), AUC %.4f, error rate %.4f; peak RSS %.1f MB",
		learner, commas(int(fi.Size())), float64(fi.Size())/(1<<30), rec.Rows, wall.Round(time.Second), rec.PerSec, rec.AUC, rec.Error, peakMB)
	if peakMB >= maxMB {
		t.Errorf("peak RSS %.1f MB, want < %v MB", peakMB, maxMB)
	}
	if rec.Rows == 0 {
		t.Errorf("no rows learned: %s", out)
	}
}
