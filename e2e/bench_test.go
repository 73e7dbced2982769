//go:build e2e

// The browser half of `make bench`: the page built by `make dist`, driven in
// headless Chromium as the e2e tests drive it (e2e_test.go's helpers), against
// the same core natively in this test process.
//
//   - Throughput: for each registered learner on ML-100K (u.data) and IJCNN1
//     (ijcnn1.gz), the page learns the file alone at full speed, and
//     core.Play learns the same rows in the same order natively; both
//     updates/s are printed side by side with their ratio.
//   - Memory: OCCFM on the whole of MovieLens 1M in the page: the wasm linear
//     memory at the end (it never shrinks: the Go heap's peak) plus the JS
//     heap's peak (CDP Performance.getMetrics, sampled every half second):
//     bench_memory_test.go.
//   - Clicks: while OCCFM learns u.data at full speed, the Play/Pause button
//     is clicked and the time until the page answers is measured:
//     bench_clicks_test.go.
//
// It runs only when OCCFM_BENCH names the results folder (make bench sets
// bench-results), and writes bench.json and bench.md there.
// OCCFM_BENCH_SECONDS caps each throughput run (default 20 s of learning; a
// learner that is slower learns fewer rows, and native plays the same
// ones). OCCFM_BENCH_LEARNERS (comma-separated names) keeps the throughput
// table to those learners, and OCCFM_E2E_DIST serves another build's page
// (see e2eDist): the two together compare an older page with this one.
package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// benchData are the data sets of the throughput table.
var benchData = []struct{ name, path string }{
	{"ML-100K", "../shared/data/movielens-100k/u.data"},
	{"IJCNN1", "../shared/data/ijcnn1/ijcnn1.gz"},
}

// ml1mPath is MovieLens 1M as user-item-rating, sorted by item (see the data
// README): the memory run shuffles it with a fixed seed into a temporary
// file first.
const ml1mPath = "../shared/data/movielens-1m/ratings_uir.tsv.gz"

// benchHash is the page's URL hash for one learner at full speed with the
// page's defaults (regret comparator on).
func benchHash(learner string) string {
	return "#demo=ratings&learners=" + learner + "&speed=max"
}

// benchReport is bench.json.
type benchReport struct {
	Date       string            `json:"date"`
	Command    string            `json:"command"`
	Commit     string            `json:"commit"`
	Machine    benchMachine      `json:"machine"`
	CapSeconds float64           `json:"cap_seconds"`
	Throughput []benchRun        `json:"throughput"`
	Skipped    []string          `json:"skipped,omitempty"`
	Memory     *benchMemory      `json:"memory,omitempty"`
	Clicks     *benchClicks      `json:"clicks,omitempty"`
	RaceClicks *benchClicks      `json:"race_clicks,omitempty"`
	Controls   []benchControl    `json:"controls,omitempty"`
	CoreBench  []string          `json:"core_benchmarks,omitempty"`
	Notes      []string          `json:"notes"`
	LoadAvg    map[string]string `json:"load_average"`
}

type benchMachine struct {
	CPU      string `json:"cpu"`
	Cores    int    `json:"cores"`
	OS       string `json:"os"`
	Go       string `json:"go"`
	Chromium string `json:"chromium"`
}

// benchRun is one learner on one data set.
type benchRun struct {
	Data    string `json:"data"`
	File    string `json:"file"`
	Learner string `json:"learner"`
	Hash    string `json:"page_hash"`
	Rows    int    `json:"rows"`
	Capped  bool   `json:"capped"` // stopped at the time cap before the end of the file
	Error   string `json:"error,omitempty"`
	// Page: rows over the wall time from the start of the first slice that
	// learned a row to the end of the last one; the same over the second
	// half of the rows; and rows over the time the page's learner spent in
	// core.Play (the snapshot's seconds).
	PageRate     float64 `json:"page_updates_per_sec"`
	PageHalfRate float64 `json:"page_second_half_updates_per_sec"`
	PagePlayRate float64 `json:"page_core_play_updates_per_sec"`
	PageSeconds  float64 `json:"page_seconds"`
	// Native: core.Play over the same rows in the same order, in this
	// process (time in core.Play only, as the CLI's updates_per_sec).
	NativeRate     float64 `json:"native_updates_per_sec"`
	NativeHalfRate float64 `json:"native_second_half_updates_per_sec"`
	NativeSeconds  float64 `json:"native_seconds"`
	Ratio          float64 `json:"wasm_native_ratio"`
	HalfRatio      float64 `json:"wasm_native_ratio_second_half"`
}

type benchMemory struct {
	File           string  `json:"file"`
	Learner        string  `json:"learner"`
	Rows           int     `json:"rows"`
	Features       int     `json:"features"`
	Seconds        float64 `json:"seconds"`
	Rate           float64 `json:"page_updates_per_sec"`
	WasmBytes      float64 `json:"wasm_memory_bytes"`
	JSHeapPeak     float64 `json:"js_heap_used_peak_bytes"`
	JSHeapTotalMax float64 `json:"js_heap_total_peak_bytes"`
	TotalBytes     float64 `json:"total_peak_bytes"`
	TargetBytes    float64 `json:"target_bytes"`
	// Main-thread tasks over 50 ms during the run (PerformanceObserver
	// "longtask", installed at the first sample): how long one slice can
	// block the page when an OCCFM update refreshes its subspace on 10⁶
	// stored pairs.
	LongTasks     int     `json:"long_tasks"`
	LongTaskMaxMS float64 `json:"long_task_max_ms"`
	LongTasks100  int     `json:"long_tasks_over_100ms"`
	Error         string  `json:"error,omitempty"`
}

type benchClicks struct {
	File        string    `json:"file"`
	Learner     string    `json:"learner"`
	Clicks      int       `json:"clicks"`
	HandlerMax  float64   `json:"handler_latency_max_ms"`
	HandlerMean float64   `json:"handler_latency_mean_ms"`
	FrameMax    float64   `json:"next_frame_latency_max_ms"`
	FrameMean   float64   `json:"next_frame_latency_mean_ms"`
	Handler     []float64 `json:"handler_latency_ms"`
	Frame       []float64 `json:"next_frame_latency_ms"`
	LongTasks   []float64 `json:"long_tasks_ms"`
	Rows        int       `json:"rows_learned_meanwhile"`
	TargetMS    float64   `json:"target_ms"`
	Error       string    `json:"error,omitempty"`
}

func TestBench(t *testing.T) {
	out := os.Getenv("OCCFM_BENCH")
	if out == "" {
		t.Skip("OCCFM_BENCH is not set: run make bench")
	}
	capSec := 20.0
	if v := os.Getenv("OCCFM_BENCH_SECONDS"); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f > 0) {
			t.Fatalf("OCCFM_BENCH_SECONDS=%q: want seconds > 0", v)
		}
		capSec = f
	}
	rep := &benchReport{
		Date:       time.Now().UTC().Format(time.RFC3339),
		Command:    "make bench (go test -tags e2e -run '^TestBench$' ./e2e with OCCFM_BENCH=" + out + fmt.Sprintf(", OCCFM_BENCH_SECONDS=%g)", capSec),
		Commit:     gitCommit(),
		Machine:    machine(),
		CapSeconds: capSec,
		LoadAvg:    map[string]string{"start": loadAvg()},
	}
	if b, err := os.ReadFile(filepath.Join(out, "core-bench.txt")); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "Benchmark") || strings.HasPrefix(l, "cpu:") {
				rep.CoreBench = append(rep.CoreBench, strings.Join(strings.Fields(l), " "))
			}
		}
	}

	for _, d := range benchData {
		if _, err := os.Stat(d.path); err != nil {
			msg := fmt.Sprintf("%s: %s is absent (%v): skipped", d.name, d.path, err)
			t.Log(msg)
			rep.Skipped = append(rep.Skipped, msg)
			continue
		}
		t.Run(d.name, func(t *testing.T) {
			rows := nativeRows(t, d.path)
			s := newSession(t, 90*time.Minute)
			if rep.Machine.Chromium == "" {
				rep.Machine.Chromium = chromiumVersion(s)
			}
			type variant struct {
				label, learner, hash string
				delta                float64 // 0: the learner's default
			}
			var runs []variant
			only := os.Getenv("OCCFM_BENCH_LEARNERS")
			for _, sp := range core.Learners() {
				if only != "" && !slices.Contains(strings.Split(only, ","), sp.Name) {
					continue
				}
				runs = append(runs, variant{sp.Name, sp.Name, benchHash(sp.Name), 0})
				if sp.Name == "occfm" {
					// The same without the regret comparator: the page's
					// own overhead alone; then OCCFM at large δ.
					runs = append(runs, variant{"occfm, no regret", sp.Name, benchHash(sp.Name) + "&checkpoints=off", 0})
					for _, d := range []float64{100, 1000} {
						runs = append(runs, variant{fmt.Sprintf("occfm, δ = %g", d), sp.Name, benchHash(sp.Name) + fmt.Sprintf("&delta=%g", d), d})
					}
				}
			}
			for i, sp := range runs {
				r := benchRun{Data: d.name, File: filepath.Base(d.path), Learner: sp.label, Hash: sp.hash}
				pr, err := pageRun(s, i, r.Hash, d.path, capSec, nil)
				if err != nil {
					r.Error = err.Error()
					t.Errorf("%s %s: page: %v", d.name, sp.label, err)
					rep.Throughput = append(rep.Throughput, r)
					continue
				}
				r.Rows, r.Capped = pr.rows, pr.rows < len(rows.ex)
				r.PageSeconds = pr.seconds
				r.PageRate = float64(pr.rows) / pr.seconds
				r.PageHalfRate = pr.halfRate
				r.PagePlayRate = pr.playRate
				nat := nativePlay(rows, sp.learner, sp.delta, pr.rows, pr.halfRows)
				r.NativeSeconds = nat.seconds
				r.NativeRate = float64(pr.rows) / nat.seconds
				r.NativeHalfRate = nat.halfRate
				r.Ratio = r.PageRate / r.NativeRate
				r.HalfRatio = r.PageHalfRate / r.NativeHalfRate
				t.Logf("%-8s %-16s %7d rows: page %9.0f/s (2nd half %9.0f/s, in core.Play %9.0f/s)  native %10.0f/s (2nd half %10.0f/s)  wasm/native %.2f",
					d.name, sp.label, r.Rows, r.PageRate, r.PageHalfRate, r.PagePlayRate, r.NativeRate, r.NativeHalfRate, r.Ratio)
				rep.Throughput = append(rep.Throughput, r)
			}
		})
	}

	if _, err := os.Stat(ml1mPath); err != nil {
		msg := fmt.Sprintf("ML-1M: %s is absent (%v): memory not measured", ml1mPath, err)
		t.Log(msg)
		rep.Skipped = append(rep.Skipped, msg)
	} else {
		t.Run("ML-1M-memory", func(t *testing.T) { rep.Memory = benchMemoryRun(t) })
	}

	if _, err := os.Stat(benchData[0].path); err != nil {
		rep.Skipped = append(rep.Skipped, fmt.Sprintf("clicks: %s is absent: not measured", benchData[0].path))
	} else {
		t.Run("clicks", func(t *testing.T) { rep.Clicks = benchClickRun(t, benchData[0].path) })
	}
	t.Run("race-clicks", func(t *testing.T) { rep.RaceClicks = benchRaceClickRun(t) })
	t.Run("control-clicks", func(t *testing.T) { rep.Controls = benchControlsRun(t) })

	rep.LoadAvg["end"] = loadAvg()
	rep.Notes = benchNotes(rep)
	if err := writeBench(out, rep); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s and %s", filepath.Join(out, "bench.json"), filepath.Join(out, "bench.md"))
}

// ---- The page -------------------------------------------------------------

// pageResult is one file learned by the page.
type pageResult struct {
	rows     int
	seconds  float64 // wall time from the first slice with rows to the end
	halfRows int     // rows at the end of the first slice past half the rows
	halfRate float64 // rows/s from there to the end
	playRate float64 // rows over the page's learner seconds in core.Play
	features int
	state    string
}

// benchHookJS wraps occfm.run to time every slice of the file's session
// (recognized by its "source"): [start, end, rows] per call, from the first
// call that learned a row. At capMS after that start it clicks Pause.
const benchHookJS = `((source, capMS) => {
	const B = window.__bench = {calls: [], first: null, end: false, capped: false, last: ""};
	const run = occfm.run;
	occfm.run = (ms, max) => {
		const t0 = performance.now();
		const snap = run(ms, max);
		const t1 = performance.now();
		if (!B.end && snap && snap.source === source) {
			const rows = snap.rows || 0, state = snap.state;
			if (B.first === null && rows > 0) B.first = t0;
			if (B.first !== null) B.calls.push([t0, t1, rows]);
			B.last = JSON.stringify(snap);
			if (state === "done" || state === "error") B.end = true;
			else if (B.first !== null && t1 - B.first >= capMS) {
				B.end = B.capped = true;
				document.querySelector('[data-testid="play"]').click();
			}
		}
		return snap;
	};
	return true;
})`

type benchHook struct {
	Calls  [][3]float64 `json:"calls"`
	First  *float64     `json:"first"`
	End    bool         `json:"end"`
	Capped bool         `json:"capped"`
	Last   string       `json:"last"`
}

// pageRun opens the page at hash (a fresh load: the query string changes),
// uploads path and learns it to the end or for capSec, and returns the
// page's throughput. sample, when set, runs every half second meanwhile.
func pageRun(s *session, n int, hash, path string, capSec float64, sample func()) (pageResult, error) {
	var res pageResult
	ctx, cancel := context.WithTimeout(s.ctx, time.Duration(capSec)*time.Second+20*time.Minute)
	defer cancel()
	url := fmt.Sprintf("%s?bench=%d%s", s.url, n, hash)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return res, fmt.Errorf("navigate %s: %w", url, err)
	}
	ok := false
	for start := time.Now(); time.Since(start) < 30*time.Second; time.Sleep(50 * time.Millisecond) {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.body.dataset.state === "running" && !!globalThis.occfm`))
		if err != nil {
			return res, err
		}
		if ok = v; ok {
			break
		}
	}
	if !ok {
		return res, fmt.Errorf("the page is not running 30 s after loading (%s)", s.status())
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf("%s(%q, %g)", benchHookJS, filepath.Base(path), capSec*1000))); err != nil {
		return res, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return res, err
	}
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(sel("file-input"), []string{abs})); err != nil {
		return res, fmt.Errorf("file input: %w", err)
	}
	for {
		end, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__bench.end`))
		if err != nil {
			return res, fmt.Errorf("waiting for the end of %s: %w (%s)", filepath.Base(path), err, s.status())
		}
		if end {
			break
		}
		if sample != nil {
			sample()
		}
		time.Sleep(500 * time.Millisecond)
	}
	h, err := chromedp.Run(ctx, chromedp.Evaluate[benchHook](`window.__bench`))
	if err != nil {
		return res, err
	}
	var snap struct {
		State    string `json:"state"`
		Error    string `json:"error"`
		Rows     int    `json:"rows"`
		Features int    `json:"features"`
		Learners []struct {
			Seconds float64 `json:"seconds"`
		} `json:"learners"`
	}
	if err := json.Unmarshal([]byte(h.Last), &snap); err != nil {
		return res, fmt.Errorf("last snapshot: %w", err)
	}
	if snap.State == "error" {
		return res, fmt.Errorf("the page stopped with an error: %s", snap.Error)
	}
	if len(h.Calls) == 0 || snap.Rows == 0 {
		return res, errors.New("the page learned no row")
	}
	last := h.Calls[len(h.Calls)-1]
	res.rows, res.state, res.features = int(last[2]), snap.State, snap.Features
	res.seconds = (last[1] - h.Calls[0][0]) / 1000
	for _, c := range h.Calls {
		if int(c[2]) >= res.rows/2 {
			res.halfRows = int(c[2])
			if d := (last[1] - c[1]) / 1000; d > 0 && res.rows > res.halfRows {
				res.halfRate = float64(res.rows-res.halfRows) / d
			}
			break
		}
	}
	if len(snap.Learners) > 0 && snap.Learners[0].Seconds > 0 {
		res.playRate = float64(snap.Rows) / snap.Learners[0].Seconds
	}
	return res, nil
}

// ---- Native ---------------------------------------------------------------

// benchRows are a file's rows as the page reads them: file order, the task
// guessed as the page guesses it, labels in the task's form.
type benchRows struct {
	task data.Task
	ex   []data.Example
}

func nativeRows(t *testing.T, path string) benchRows {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := data.NewStream(f, data.ReaderSettings{Name: filepath.Base(path), Format: data.FormatAuto})
	if err != nil {
		t.Fatal(err)
	}
	var raw []data.Example
	var ex data.Example
	for {
		err := st.Next(&ex)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		raw = append(raw, ex.Clone())
	}
	var rows benchRows
	if st.Format() == data.FormatMovieLens {
		rows.task = data.Regression
	} else {
		labels := make([]float64, 0, 1000)
		for _, e := range raw[:min(len(raw), 1000)] {
			labels = append(labels, e.Y)
		}
		rows.task = data.GuessTask(labels)
	}
	for _, e := range raw {
		y, err := rows.task.Label(e.Y)
		if err != nil {
			t.Fatal(err)
		}
		rows.ex = append(rows.ex, data.Example{X: e.X, Y: y})
	}
	return rows
}

type nativeResult struct {
	seconds  float64
	halfRate float64
}

// nativePlay plays the first n rows through a fresh learner with the page's
// settings (defaults but δ, 0 meaning the default; seed 1), timing core.Play in chunks, and returns the
// time and the rate from row half to n: the best of three runs (fewer when
// they take more than 10 s), since the machine may be shared.
func nativePlay(rows benchRows, name string, delta float64, n, half int) nativeResult {
	best := nativePlayOnce(rows, name, delta, n, half)
	spent := best.seconds
	for range 2 {
		if spent > 10 {
			break
		}
		r := nativePlayOnce(rows, name, delta, n, half)
		spent += r.seconds
		if r.seconds < best.seconds {
			best.seconds = r.seconds
		}
		best.halfRate = max(best.halfRate, r.halfRate)
	}
	return best
}

func nativePlayOnce(rows benchRows, name string, delta float64, n, half int) nativeResult {
	const chunk = 256
	l, err := core.NewLearner(name, core.Config{Task: rows.task, Seed: 1, Delta: delta})
	if err != nil {
		panic(err)
	}
	m := core.NewMetrics(rows.task, core.TaskLoss(rows.task))
	var total, atHalf time.Duration
	for i := 0; i < n; i += chunk {
		start := time.Now()
		for _, ex := range rows.ex[i:min(i+chunk, n)] {
			core.Play(l, ex, m)
		}
		total += time.Since(start)
		if i+chunk <= half {
			atHalf = total
		}
	}
	res := nativeResult{seconds: total.Seconds()}
	from := half / chunk * chunk
	if d := (total - atHalf).Seconds(); d > 0 && n > from {
		res.halfRate = float64(n-from) / d
	}
	return res
}

// ---- The machine -------------------------------------------------------------

func machine() benchMachine {
	m := benchMachine{Cores: runtime.NumCPU(), Go: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/etc/os-release"); err == nil {
		if mm := regexp.MustCompile(`(?m)^PRETTY_NAME="?([^"\n]*)"?`).FindSubmatch(b); mm != nil {
			m.OS = string(mm[1]) + ", " + m.OS
		}
	}
	if out, err := exec.Command("uname", "-r").Output(); err == nil {
		m.OS += ", Linux " + strings.TrimSpace(string(out))
	}
	return m
}

func chromiumVersion(s *session) string {
	v, err := chromedp.CallBrowser(s.ctx, browser.GetVersion, cdp.Empty{})
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	return v.Product + " (" + chromiumPath(s.t) + ", headless)"
}

func gitCommit() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
		c += " (with uncommitted changes)"
	}
	return c
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// ---- Output --------------------------------------------------------------------

func benchNotes(rep *benchReport) []string {
	return []string{
		"page: the page (dist/, wasm) in headless Chromium learning the file alone at full speed with its defaults (regret comparator on; 'no regret': checkpoints=off); rows over the wall time from the start of the first slice that learned a row to the end of the last one (parsing, slices, views and comparator included)",
		"page in core.Play: rows over the time the page's learner spent in core.Play (the snapshot's seconds): the wasm core without the page around it",
		"native: core.Play over the same rows in the same order in the test process (time in core.Play only, like the CLI's updates_per_sec), the best of three runs (fewer when they take over 10 s)",
		"2nd half: the same over the second half of the rows (learners whose rows get cheaper or dearer over time differ there)",
		fmt.Sprintf("a run stops after %g s of learning (capped): both sides then count the rows the page learned", rep.CapSeconds),
		"the page: one run per cell, on a possibly shared machine: the load average at start and end is recorded",
	}
}

func writeBench(dir string, rep *benchReport) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	j, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "bench.json"), append(j, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "bench.md"), []byte(benchMarkdown(rep)), 0o644)
}

func benchMarkdown(rep *benchReport) string {
	var b strings.Builder
	mb := func(x float64) string { return fmt.Sprintf("%.1f MB", x/(1<<20)) }
	rate := func(x float64) string {
		switch {
		case x <= 0 || math.IsNaN(x) || math.IsInf(x, 0):
			return "–"
		case x >= 1e6:
			return fmt.Sprintf("%.2f M", x/1e6)
		case x >= 1e4:
			return fmt.Sprintf("%.1f k", x/1e3)
		default:
			return fmt.Sprintf("%.0f", x)
		}
	}
	ratio := func(x float64) string {
		if x <= 0 || math.IsNaN(x) || math.IsInf(x, 0) {
			return "–"
		}
		return fmt.Sprintf("%.2f", x)
	}
	fmt.Fprintf(&b, "# OCCFM benchmark\n\n")
	fmt.Fprintf(&b, "- date: %s, commit %s\n", rep.Date, rep.Commit)
	fmt.Fprintf(&b, "- command: `%s`\n", rep.Command)
	fmt.Fprintf(&b, "- machine: %s, %d cores; %s; %s; %s\n", rep.Machine.CPU, rep.Machine.Cores, rep.Machine.OS, rep.Machine.Go, rep.Machine.Chromium)
	fmt.Fprintf(&b, "- load average (1, 5, 15 min): %s at the start, %s at the end\n", rep.LoadAvg["start"], rep.LoadAvg["end"])
	if len(rep.CoreBench) > 0 {
		fmt.Fprintf(&b, "- Go benchmarks of the core: core-bench.txt (%d lines, also in bench.json)\n", len(rep.CoreBench))
	}
	fmt.Fprintf(&b, "\n## Updates/s: the page in Chromium (wasm) against native\n\n")
	fmt.Fprintf(&b, "| data | learner | rows | page | page, 2nd half | page in core.Play | native | native, 2nd half | wasm/native | wasm/native, 2nd half |\n")
	fmt.Fprintf(&b, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rep.Throughput {
		if r.Error != "" {
			fmt.Fprintf(&b, "| %s | %s | error: %s | | | | | | | |\n", r.Data, r.Learner, r.Error)
			continue
		}
		rows := fmt.Sprintf("%d", r.Rows)
		if r.Capped {
			rows += fmt.Sprintf(" (%g s cap)", rep.CapSeconds)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.Data, r.Learner, rows,
			rate(r.PageRate), rate(r.PageHalfRate), rate(r.PagePlayRate), rate(r.NativeRate), rate(r.NativeHalfRate), ratio(r.Ratio), ratio(r.HalfRatio))
	}
	if m := rep.Memory; m != nil {
		fmt.Fprintf(&b, "\n## Memory: OCCFM on MovieLens 1M in the page\n\n")
		if m.Error != "" {
			fmt.Fprintf(&b, "error: %s\n", m.Error)
		} else {
			fmt.Fprintf(&b, "%s: %d rows, %d features, learned in %.1f s (%s rows/s).\n\n", m.File, m.Rows, m.Features, m.Seconds, rate(m.Rate))
			fmt.Fprintf(&b, "| wasm memory (Go heap peak) | JS heap peak (used) | total | target |\n|---:|---:|---:|---:|\n")
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mb(m.WasmBytes), mb(m.JSHeapPeak), mb(m.TotalBytes), mb(m.TargetBytes))
			fmt.Fprintf(&b, "\nMain-thread tasks over 50 ms during the run: %d, over 100 ms: %d, the longest %.0f ms (one OCCFM update that refreshes its subspace cannot be split by the page's slices).\n",
				m.LongTasks, m.LongTasks100, m.LongTaskMaxMS)
		}
	}
	for _, c := range []*benchClicks{rep.Clicks, rep.RaceClicks} {
		if c == nil {
			continue
		}
		if c == rep.Clicks {
			fmt.Fprintf(&b, "\n## Clicks while OCCFM learns %s at full speed\n\n", c.File)
		} else {
			fmt.Fprintf(&b, "\n## Clicks in %s\n\n", c.File)
		}
		fmt.Fprintf(&b, "%d clicks on Play/Pause (%d rows learned meanwhile). Latency from the click (event.timeStamp) to the page's state change, and to the next frame after it:\n\n", c.Clicks, c.Rows)
		fmt.Fprintf(&b, "| | max | mean | target |\n|---|---:|---:|---:|\n")
		fmt.Fprintf(&b, "| state changed | %.1f ms | %.1f ms | |\n", c.HandlerMax, c.HandlerMean)
		fmt.Fprintf(&b, "| next frame | %.1f ms | %.1f ms | ≤ %g ms |\n", c.FrameMax, c.FrameMean, c.TargetMS)
		fmt.Fprintf(&b, "\nMain-thread tasks over 50 ms meanwhile: %d %v.\n", len(c.LongTasks), c.LongTasks)
		if c.Error != "" {
			fmt.Fprintf(&b, "\nerror: %s\n", c.Error)
		}
	}
	if len(rep.Controls) > 0 {
		b.WriteString(controlsMarkdown(rep.Controls))
	}
	if len(rep.Skipped) > 0 {
		fmt.Fprintf(&b, "\n## Skipped\n\n")
		for _, s := range rep.Skipped {
			fmt.Fprintf(&b, "- %s\n", s)
		}
	}
	fmt.Fprintf(&b, "\n## Notes\n\n")
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "- %s\n", n)
	}
	return b.String()
}
