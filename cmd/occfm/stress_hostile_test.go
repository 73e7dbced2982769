//go:build linux

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/internal/badinput"
)

// hostileMaxRSS is the bar of the hostile inputs: no input may take a
// learner over its -max-memory (by default 512 MiB) of resident memory,
// read from the child's rusage (maxRSS). The
// child also runs with its address space capped at hostileAS (prlimit
// --as), so that a runaway allocation is Go's "fatal error: out of memory",
// which the test catches, rather than the machine swapping. The cap is 4
// GiB, not 1 GiB: a Go program reserves
// about 1.2–1.5 GB of address space it never touches (the page allocator's
// summaries alone are a 512 MB PROT_NONE mapping), so under --as=1GiB it
// dies at about 240 MB of heap, which says nothing of its memory use.
const (
	hostileMaxRSS = 512 // MiB, the default -max-memory
	hostileAS     = 4 << 30
)

// hostileOutcome is what one child run did.
type hostileOutcome struct {
	learner  string
	exit     int // -1: killed at the time limit
	stdout   string
	stderr   string
	peakMB   float64
	wall     time.Duration
	timedOut bool
}

// TestStressHostile is the hostile-input part of `make stress`: inputs that
// once crashed or exhausted memory (a huge LibSVM index, the
// hashing trick's 2²⁴, one row of 5,000 and 15,000 nonzeros, a CSV of
// 20,000 numeric columns, 2 million distinct IDs, a model file that is
// /dev/zero or a big data file) go through occfm run with every registered
// learner, each in a child process under prlimit --as=4 GiB. No run may
// panic, print a goroutine dump, exit with a usage status (2) or peak over
// its -max-memory (512 MiB) of RSS; each input's own check says what it must report. It is
// skipped unless OCCFM_STRESS_HOSTILE is set (make stress sets it): it takes
// a few minutes. Each child has OCCFM_STRESS_HOSTILE_SECONDS (default 120)
// before it is killed, which is reported, not failed: a learner that is
// slow on 2 million features is slow, not broken.
func TestStressHostile(t *testing.T) {
	exe, limit := hostileSetup(t)
	dir := filepath.Dir(exe)
	for _, in := range badinput.HostileInputs() {
		path, err := in.WriteFile(dir)
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(path)
		t.Run(in.Name, func(t *testing.T) {
			for _, spec := range core.Learners() {
				o := runHostile(t, exe, limit, spec.Name, "run", "-data", path, "-learner", spec.Name, "-quiet")
				t.Logf("%s (%s bytes) %-9s exit %2d  %6.1f MiB  %6.1f s  %s", in.Name, commas(int(fi.Size())), spec.Name,
					o.exit, o.peakMB, o.wall.Seconds(), summary(o))
				// Each learns the file, or stops with the memory budget's
				// message (in terms of -max-memory), or is still at it at
				// the time limit.
				if o.exit != 0 && !o.timedOut && !strings.Contains(o.stderr, "that -max-memory 512 MiB leaves to the run") {
					t.Errorf("%s: exit %d: %s", o.learner, o.exit, firstLine(o.stderr))
				}
			}
		})
		os.Remove(path)
	}

}

// TestStressHostileModelFile is the model-file part of make stress's hostile
// inputs, skipped as TestStressHostile is. Model files that are not: -load
// of an endless stream of zeros and of a 1 GiB data file (sparse: it costs
// no disk) must be refused at once, which is counted in bytes read, not
// seconds: the same two streams through a pipe (-load /dev/stdin), of which
// the child may take at most 1 MiB (the pipe holds 64 KiB more). The time
// is logged; the child's time limit only stops a run that would never end.
// Then -save to the targets a shell gives it (stressSaveTargets).
func TestStressHostileModelFile(t *testing.T) {
	exe, limit := hostileSetup(t)
	dir := filepath.Dir(exe)
	big := filepath.Join(dir, "big.svm")
	if err := os.WriteFile(big, []byte("1 1:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 1<<30); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(dir, "small.svm")
	os.WriteFile(small, []byte("1 1:1\n-1 2:1\n"), 0o644)
	for _, model := range []string{"/dev/zero", big} {
		o := runHostile(t, exe, limit, "occfm", "run", "-data", small, "-load", model, "-quiet")
		t.Logf("-load %s: exit %d  %.1f MiB  %.2f s  %s", model, o.exit, o.peakMB, o.wall.Seconds(), summary(o))
		if o.exit != 1 || !strings.Contains(o.stderr, "is not an OCCFM model file") || o.peakMB > 100 || o.timedOut {
			t.Errorf("-load %s: exit %d, %.1f MB, %v: %s", model, o.exit, o.peakMB, o.wall, o.stderr)
		}
	}
	for _, c := range []struct {
		name string
		line string
	}{{"zeros", "\x00"}, {"a 1 GiB data file", "1 1:1\n"}} {
		in := &countingReader{r: io.LimitReader(repeatReader(c.line), 1<<30)}
		o := runHostileIn(t, exe, limit, "occfm", in, "run", "-data", small, "-load", "/dev/stdin", "-quiet")
		t.Logf("-load of %s through a pipe: exit %d  %.1f MiB  %.2f s  %d bytes taken  %s", c.name, o.exit, o.peakMB, o.wall.Seconds(), in.n, summary(o))
		if o.exit != 1 || !strings.Contains(o.stderr, "is not an OCCFM model file") || in.n > 1<<20 || o.timedOut {
			t.Errorf("-load of %s through a pipe: exit %d, %d bytes taken (want ≤ 1 MiB), %v: %s", c.name, o.exit, in.n, o.wall, o.stderr)
		}
	}
	t.Run("save", func(t *testing.T) { stressSaveTargets(t, exe, limit) }) // stress_save_test.go
}

// repeatReader reads s over and over.
type repeatReader string

func (r repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], r)
	}
	return n, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// hostileSetup skips the test unless OCCFM_STRESS_HOSTILE is set and
// prlimit is installed, and builds occfm into a temporary directory. It
// returns the binary and each child's time limit, a hang guard:
// OCCFM_STRESS_HOSTILE_SECONDS, default 120.
func hostileSetup(t *testing.T) (exe string, limit time.Duration) {
	t.Helper()
	if os.Getenv("OCCFM_STRESS_HOSTILE") == "" {
		t.Skip("set OCCFM_STRESS_HOSTILE=1 (or run make stress) to run the hostile inputs")
	}
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("prlimit (util-linux) is not installed")
	}
	limit = 120 * time.Second
	if v := os.Getenv("OCCFM_STRESS_HOSTILE_SECONDS"); v != "" {
		d, err := time.ParseDuration(v + "s")
		if err != nil {
			t.Fatalf("OCCFM_STRESS_HOSTILE_SECONDS=%q: %v", v, err)
		}
		limit = d
	}
	exe = filepath.Join(t.TempDir(), "occfm")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return exe, limit
}

// runHostile runs exe with args under prlimit --as=hostileAS, kills it at
// limit, and checks what no input may cause: a panic, a goroutine dump, Go's
// fatal errors, a usage status or more than hostileMaxRSS of RSS.
func runHostile(t *testing.T, exe string, limit time.Duration, learner string, args ...string) hostileOutcome {
	t.Helper()
	return runHostileIn(t, exe, limit, learner, nil, args...)
}

// runHostileIn is runHostile with stdin as the child's standard input.
func runHostileIn(t *testing.T, exe string, limit time.Duration, learner string, stdin io.Reader, args ...string) hostileOutcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "prlimit", append([]string{fmt.Sprintf("--as=%d", hostileAS), exe}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	o := hostileOutcome{learner: learner, stdout: stdout.String(), stderr: stderr.String(), wall: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		o.exit, o.timedOut = -1, true
	case errors.As(err, &ee):
		o.exit = ee.ExitCode()
	default:
		t.Fatalf("%v: %v", args, err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		o.peakMB = float64(ru.Maxrss) / 1024
	}
	for _, bad := range []string{"goroutine ", "fatal error", "panic", "internal error"} {
		if strings.Contains(o.stderr, bad) {
			t.Errorf("%s %v: stderr has %q:\n%.600s", learner, args[1:], bad, o.stderr)
		}
	}
	if o.exit == 2 {
		t.Errorf("%s %v: exit 2 (reserved for usage errors): %s", learner, args[1:], firstLine(o.stderr))
	}
	if bar := maxRSS(t, args); o.peakMB > bar {
		t.Errorf("%s %v: peak RSS %.1f MiB, over its -max-memory of %.0f MiB", learner, args[1:], o.peakMB, bar)
	}
	return o
}

// maxRSS returns the peak RSS in MiB a run with args may reach: its
// -max-memory, or the default hostileMaxRSS.
func maxRSS(t *testing.T, args []string) float64 {
	for i, a := range args[:len(args)-1] {
		if a == "-max-memory" {
			n, err := core.ParseSize(args[i+1])
			if err != nil || n == 0 {
				t.Fatalf("-max-memory %s: %v", args[i+1], err)
			}
			return float64(n) / (1 << 20)
		}
	}
	return hostileMaxRSS
}

// summary is the outcome of a child run on one line: its error, or its
// rows and what its guard refused.
func summary(o hostileOutcome) string {
	if o.timedOut {
		return "killed at the time limit (slow, not failed)"
	}
	if o.exit != 0 {
		return firstLine(o.stderr)
	}
	var parts []string
	for _, l := range strings.Split(o.stdout, "\n") {
		if strings.HasPrefix(l, "rows ") || strings.Contains(l, "not learned") {
			parts = append(parts, strings.Join(strings.Fields(l), " "))
		}
	}
	return strings.Join(parts, "; ")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
