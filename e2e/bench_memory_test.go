//go:build e2e

package e2e

// The memory part of `make bench` (see bench_test.go): OCCFM learns the
// whole of MovieLens 1M, shuffled, in the page; its wasm linear memory at
// the end plus the JS heap's peak must stay within the target.

import (
	"bufio"
	"compress/gzip"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
)

func benchMemoryRun(t *testing.T) *benchMemory {
	const target = 256 << 20
	path := shuffledML1M(t)
	m := &benchMemory{File: "ratings_uir.tsv.gz, shuffled (seed 1)", Learner: "occfm", TargetBytes: target}
	s := newSession(t, 30*time.Minute)
	if _, err := chromedp.Call(s.ctx, performance.Enable, performance.EnableParams{}); err != nil {
		t.Fatalf("Performance.enable: %v", err)
	}
	sample := func() {
		// Best effort (the page may be navigating): a missed sample only
		// misses the tasks before the next one.
		chromedp.Run(s.ctx, chromedp.Evaluate[bool](`(window.benchLong ||= (new PerformanceObserver((l) => { for (const e of l.getEntries()) window.benchLong.push(e.duration); }).observe({type: "longtask"}), []), true)`))
		r, err := chromedp.Call(s.ctx, performance.GetMetrics, cdp.Empty{})
		if err != nil {
			return
		}
		for _, x := range r.Metrics {
			switch x.Name {
			case "JSHeapUsedSize":
				m.JSHeapPeak = math.Max(m.JSHeapPeak, x.Value)
			case "JSHeapTotalSize":
				m.JSHeapTotalMax = math.Max(m.JSHeapTotalMax, x.Value)
			}
		}
	}
	pr, err := pageRun(s, 0, benchHash("occfm"), path, 3600, sample)
	if err != nil {
		m.Error = err.Error()
		t.Errorf("ML-1M: %v", err)
		return m
	}
	sample()
	m.Rows, m.Features, m.Seconds, m.Rate = pr.rows, pr.features, pr.seconds, float64(pr.rows)/pr.seconds
	m.WasmBytes = evalJS[float64](s, `occfmPage.page.memory ? occfmPage.page.memory.buffer.byteLength : 0`)
	if m.WasmBytes == 0 {
		t.Error("the page does not expose its wasm memory (occfmPage.page.memory)")
	}
	m.TotalBytes = m.WasmBytes + m.JSHeapPeak
	for _, d := range evalJS[[]float64](s, `window.benchLong || []`) {
		m.LongTasks++
		m.LongTaskMaxMS = math.Max(m.LongTaskMaxMS, d)
		if d > 100 {
			m.LongTasks100++
		}
	}
	t.Logf("ML-1M, occfm: main-thread tasks over 50 ms: %d, over 100 ms: %d, longest %.0f ms", m.LongTasks, m.LongTasks100, m.LongTaskMaxMS)
	t.Logf("ML-1M, occfm: %d rows, %d features in %.1f s (%.0f rows/s); wasm memory %.1f MB + JS heap peak %.1f MB = %.1f MB (target %d MB)",
		m.Rows, m.Features, m.Seconds, m.Rate, m.WasmBytes/(1<<20), m.JSHeapPeak/(1<<20), m.TotalBytes/(1<<20), target>>20)
	if m.Rows != 1000209 {
		t.Errorf("ML-1M: the page learned %d rows, want 1,000,209 (state %s)", m.Rows, pr.state)
	}
	if m.TotalBytes > target {
		t.Errorf("ML-1M: peak memory %.1f MB, want ≤ %d MB", m.TotalBytes/(1<<20), target>>20)
	}
	return m
}

// shuffledML1M writes MovieLens 1M's rows in a seeded random order to a
// temporary file (removed after the test; never into the repository).
func shuffledML1M(t *testing.T) string {
	t.Helper()
	f, err := os.Open(ml1mPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		if l := sc.Text(); l != "" {
			lines = append(lines, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	path := filepath.Join(t.TempDir(), "ratings-ml1m-shuffled.tsv")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
