//go:build e2e

// The page's cold load, for `make bench` and `make bench-load`: the time from
// the start of the navigation to the first row learned (the rows count first
// showing a row), in a fresh browser profile (no HTTP cache, no service
// worker) with the cache disabled (Network.setCacheDisabled), under
// Chromium's network emulation of a slow classroom connection: 10 Mbit/s
// down, 5 Mbit/s up, 40 ms of latency. As references in the same run: the
// same load unthrottled (loopback); throttled with the page sent gzipped, as
// a host that compresses with gzip only would (serve.go sends make dist's
// Brotli copies, occfm.wasm.br and the text files', to a browser that
// accepts br, as Chromium does); throttled with the page sent
// uncompressed, as a host that does not compress would; and a second visit
// (a reload with the service worker in control and the HTTP cache on) with
// 40 ms of latency (see Warm).
//
// It runs only when OCCFM_BENCH names the results folder (make bench sets
// bench-results) and writes load.json there; OCCFM_BENCH_LOAD_RUNS (default
// 3) rounds, each condition once per round, and the median is reported. No
// threshold on the times: a measurement, not a test. A throttled round fails
// when the throttle did not reach the page (see throttled), since its time
// would then be the unthrottled one under the throttled name.
package e2e

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// loadCondition is one network of the cold-load measurement.
type loadCondition struct {
	Name     string  `json:"name"`
	DownMbit float64 `json:"down_mbit_s"` // 0: unthrottled
	UpMbit   float64 `json:"up_mbit_s"`
	Latency  float64 `json:"latency_ms"`
	// Host is the Accept-Encoding the server reads in place of the
	// browser's: "" the browser's own (br, gzip and more: make dist's Brotli
	// copies), "gzip" a host that compresses with gzip only, "identity" a
	// host that does not compress.
	Host string `json:"host_encoding"`
	// Second visit: a reload after a first, unthrottled visit has left the
	// service worker in control, with the HTTP cache on. Chromium's network
	// emulation does not reach the worker's own fetches (a 500 ms latency
	// left this reload at 0.4 s), so the server waits Latency before each
	// answer instead: every request costs at least one round trip, and the
	// bodies are all 304s, which the bandwidth does not matter for.
	Warm bool `json:"second_visit"`
}

var loadConditions = []loadCondition{
	{Name: "10/5 Mbit/s, 40 ms", DownMbit: 10, UpMbit: 5, Latency: 40},
	{Name: "unthrottled", DownMbit: 0},
	{Name: "10/5 Mbit/s, 40 ms, a host that sends gzip", DownMbit: 10, UpMbit: 5, Latency: 40, Host: "gzip"},
	{Name: "10/5 Mbit/s, 40 ms, a host that does not compress", DownMbit: 10, UpMbit: 5, Latency: 40, Host: "identity"},
	{Name: "second visit, 40 ms per response", Latency: 40, Warm: true},
}

// loadClock is what the page measured, in ms since the start of the
// navigation (performance.now()).
type loadClock struct {
	FirstRow      *float64 `json:"first_row_ms"`   // the rows count first shows a row
	Ready         *float64 `json:"ready_ms"`       // occfm-ready: the wasm loaded and Go started
	DOMContent    float64  `json:"dom_content_ms"` // DOMContentLoaded
	WasmStart     float64  `json:"wasm_request_ms"`
	WasmEnd       float64  `json:"wasm_response_end_ms"`
	WasmTransfer  float64  `json:"wasm_transfer_bytes"` // headers and body as received
	WasmEncoded   float64  `json:"wasm_encoded_bytes"`  // body as received
	WasmDecoded   float64  `json:"wasm_decoded_bytes"`
	TotalTransfer float64  `json:"total_transfer_bytes"` // the page and every resource
	Resources     int      `json:"resources"`
	// Timeline: the page, then each resource: its file name, request start and response end
	// (ms) and bytes as received, in the order the page asked for them.
	Timeline [][]any `json:"timeline"`
}

// loadClockJS runs before the page's scripts: it times the first row shown
// and occfm-ready.
const loadClockJS = `(() => {
	const T = window.__load = {firstRow: null, ready: null};
	addEventListener("occfm-ready", () => { T.ready = performance.now(); }, {once: true});
	document.addEventListener("DOMContentLoaded", () => {
		const el = document.querySelector('[data-testid="rows"]');
		if (!el) return;
		const check = () => {
			if (T.firstRow === null && parseInt(el.textContent.replace(/[^0-9]/g, "") || "0", 10) > 0) T.firstRow = performance.now();
		};
		new MutationObserver(check).observe(el, {childList: true, characterData: true, subtree: true});
	});
})()`

const loadReadJS = `(() => {
	const nav = performance.getEntriesByType("navigation")[0];
	const res = performance.getEntriesByType("resource");
	const w = res.find((r) => r.name.endsWith("/occfm.wasm")) || {};
	return {
		first_row_ms: window.__load.firstRow, ready_ms: window.__load.ready,
		dom_content_ms: nav.domContentLoadedEventStart,
		wasm_request_ms: w.startTime || 0, wasm_response_end_ms: w.responseEnd || 0,
		wasm_transfer_bytes: w.transferSize || 0, wasm_encoded_bytes: w.encodedBodySize || 0, wasm_decoded_bytes: w.decodedBodySize || 0,
		total_transfer_bytes: nav.transferSize + res.reduce((a, r) => a + (r.transferSize || 0), 0),
		resources: res.length,
		timeline: [[location.pathname.replace(/^.*\//, "") || "(page)", 0, Math.round(nav.responseEnd), nav.transferSize]].concat(res.map((r) => [r.name.replace(/^.*\//, ""), Math.round(r.startTime), Math.round(r.responseEnd), r.transferSize || 0])),
	};
})()`

type loadRun struct {
	Condition string    `json:"condition"`
	Round     int       `json:"round"`
	Clock     loadClock `json:"page"`
	// What the server sent from the navigation to the first row: requests
	// and body bytes (the page's transferSize does not see through the
	// service worker on a second visit).
	ServerRequests int64  `json:"server_requests"`
	ServerBytes    int64  `json:"server_body_bytes"`
	Error          string `json:"error,omitempty"`
}

// byteCounter counts the requests a handler answers and the body bytes it
// writes, after waiting delay (nanoseconds) before each.
type byteCounter struct {
	h                 http.Handler
	reqs, body, delay atomic.Int64
}

func (c *byteCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.reqs.Add(1)
	time.Sleep(time.Duration(c.delay.Load()))
	c.h.ServeHTTP(countingWriter{w, &c.body}, r)
}

type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (w countingWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.n.Add(int64(n))
	return n, err
}

type loadSummary struct {
	Condition   loadCondition `json:"condition"`
	FirstRowMS  []float64     `json:"first_row_ms"`
	MedianMS    float64       `json:"first_row_median_ms"`
	WasmMedian  float64       `json:"wasm_response_end_median_ms"`
	WasmBytes   float64       `json:"wasm_transfer_bytes"`
	TotalBytes  float64       `json:"total_transfer_bytes"`
	ServerBytes int64         `json:"server_body_bytes"`
	ServerReqs  int64         `json:"server_requests"`
	ReadyMedian float64       `json:"ready_median_ms"`
}

type loadReport struct {
	Date      string        `json:"date"`
	Command   string        `json:"command"`
	Commit    string        `json:"commit"`
	Machine   benchMachine  `json:"machine"`
	WasmBytes int64         `json:"wasm_bytes"`
	WasmGzip9 int64         `json:"wasm_gzip9_bytes"`
	WasmBr    int64         `json:"wasm_br_bytes"` // dist/occfm.wasm.br
	Summary   []loadSummary `json:"summary"`
	Runs      []loadRun     `json:"runs"`
	LoadAvg   []string      `json:"load_average"`
}

func TestBenchLoad(t *testing.T) {
	out := os.Getenv("OCCFM_BENCH")
	if out == "" {
		t.Skip("OCCFM_BENCH is not set: run make bench-load (or make bench)")
	}
	rounds := 3
	if v := os.Getenv("OCCFM_BENCH_LOAD_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("OCCFM_BENCH_LOAD_RUNS=%q: want a count ≥ 1", v)
		}
		rounds = n
	}
	wasm, err := os.ReadFile(filepath.Join(e2eDist, "occfm.wasm"))
	if err != nil {
		t.Fatalf("%v (run make dist)", err)
	}
	gz := gzip9(t, wasm)
	br, err := os.Stat(filepath.Join(e2eDist, "occfm.wasm.br"))
	if err != nil {
		t.Fatalf("%v (run make dist)", err)
	}
	rep := &loadReport{
		Date:      time.Now().UTC().Format(time.RFC3339),
		Command:   fmt.Sprintf("go test -tags e2e -run '^TestBenchLoad$' ./e2e with OCCFM_BENCH=%s, OCCFM_BENCH_LOAD_RUNS=%d", out, rounds),
		Commit:    gitCommit(),
		Machine:   machine(),
		WasmBytes: int64(len(wasm)),
		WasmGzip9: int64(len(gz)),
		WasmBr:    br.Size(),
		LoadAvg:   []string{loadAvg()},
	}
	t.Logf("occfm.wasm: %d bytes, %d gzip -9, %d Brotli (serve.go sends make dist's occfm.wasm.br to a browser that accepts br, its .gz to one that accepts gzip only)", len(wasm), len(gz), br.Size())

	for round := 1; round <= rounds; round++ {
		for _, c := range loadConditions {
			r := loadRun{Condition: c.Name, Round: round}
			clock, reqs, body, err := pageLoad(t, c, rep)
			if err != nil {
				r.Error = err.Error()
				t.Errorf("%s, round %d: %v", c.Name, round, err)
			} else {
				r.Clock, r.ServerRequests, r.ServerBytes = clock, reqs, body
				t.Logf("%-50s round %d: first row %6.0f ms (wasm received %6.0f ms, %8.0f bytes; Go ready %6.0f ms); the server sent %d responses, %d body bytes",
					c.Name, round, *clock.FirstRow, clock.WasmEnd, clock.WasmTransfer, deref(clock.Ready), reqs, body)
			}
			rep.Runs = append(rep.Runs, r)
		}
	}
	rep.LoadAvg = append(rep.LoadAvg, loadAvg())

	for _, c := range loadConditions {
		sum := loadSummary{Condition: c}
		var wasmEnd, ready []float64
		for _, r := range rep.Runs {
			if r.Condition != c.Name || r.Error != "" {
				continue
			}
			sum.FirstRowMS = append(sum.FirstRowMS, *r.Clock.FirstRow)
			wasmEnd = append(wasmEnd, r.Clock.WasmEnd)
			ready = append(ready, deref(r.Clock.Ready))
			sum.WasmBytes, sum.TotalBytes = r.Clock.WasmTransfer, r.Clock.TotalTransfer
			sum.ServerBytes, sum.ServerReqs = r.ServerBytes, r.ServerRequests
		}
		sum.MedianMS, sum.WasmMedian, sum.ReadyMedian = median(sum.FirstRowMS), median(wasmEnd), median(ready)
		rep.Summary = append(rep.Summary, sum)
		if len(sum.FirstRowMS) == 0 {
			t.Logf("%s: no round succeeded (see the errors above)", c.Name)
			continue
		}
		t.Logf("%s: first row at %.2f s (median of %d: %v ms); wasm received at %.2f s, Go ready at %.2f s; the server sent %d responses, %d body bytes",
			c.Name, sum.MedianMS/1000, len(sum.FirstRowMS), roundAll(sum.FirstRowMS), sum.WasmMedian/1000, sum.ReadyMedian/1000, sum.ServerReqs, sum.ServerBytes)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	j, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "load.json"), append(j, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", filepath.Join(out, "load.json"))
}

// pageLoad opens the page in a fresh browser under the condition (for a
// second visit: reloads it there) and returns the page's clock once the
// first row shows.
func pageLoad(t *testing.T, c loadCondition, rep *loadReport) (clock loadClock, reqs, body int64, err error) {
	t.Run(strings.NewReplacer(" ", "_", "/", "-", ",", "").Replace(c.Name), func(t *testing.T) {
		s := newSession(t, 3*time.Minute)
		if rep.Machine.Chromium == "" {
			rep.Machine.Chromium = chromiumVersion(s)
		}
		h := e2eHandler(e2eDist)
		if c.Host != "" {
			h = hostHandler(h, c.Host)
		}
		counter := &byteCounter{h: h}
		servePage(s, counter)
		if _, e := chromedp.Call(s.ctx, network.Enable, network.EnableParams{}); e != nil {
			err = fmt.Errorf("Network.enable: %w", e)
			return
		}
		if c.Warm {
			s.openDemo()
			s.waitWorker(swVersion(t, e2eDist), distFiles(t, e2eDist), 30*time.Second)
		} else if _, e := chromedp.Call(s.ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); e != nil {
			err = fmt.Errorf("Network.setCacheDisabled: %w", e)
			return
		}
		if c.Warm {
			counter.delay.Store(int64(c.Latency * float64(time.Millisecond)))
		} else if c.DownMbit > 0 {
			res, e := chromedp.Call(s.ctx, emulateByRule, emulateByRuleParams{
				MatchedNetworkConditions: []*network.Conditions{{
					URLPattern:         "", // every request
					Latency:            c.Latency,
					DownloadThroughput: c.DownMbit * 1e6 / 8,
					UploadThroughput:   c.UpMbit * 1e6 / 8,
				}},
			})
			if e != nil {
				err = fmt.Errorf("Network.emulateNetworkConditionsByRule: %w", e)
				return
			}
			if len(res.RuleIDs) != 1 {
				err = fmt.Errorf("Network.emulateNetworkConditionsByRule answered rule ids %q, want one for the one rule", res.RuleIDs)
				return
			}
		}
		if _, e := chromedp.Call(s.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: loadClockJS}); e != nil {
			err = fmt.Errorf("Page.addScriptToEvaluateOnNewDocument: %w", e)
			return
		}
		counter.reqs.Store(0)
		counter.body.Store(0)
		if c.Warm {
			s.do("reload", chromedp.Reload())
		} else {
			s.open()
		}
		s.waitJS("the first row", `window.__load && window.__load.firstRow !== null`, 2*time.Minute)
		reqs, body = counter.reqs.Load(), counter.body.Load()
		clock = evalJS[loadClock](s, loadReadJS)
		if clock.FirstRow == nil {
			err = fmt.Errorf("no first row timed")
		}
		if sw := evalJS[bool](s, `!!(navigator.serviceWorker && navigator.serviceWorker.controller)`); sw != c.Warm {
			err = fmt.Errorf("service worker in control: %v, want %v", sw, c.Warm)
		}
		if err == nil && c.DownMbit > 0 && !c.Warm {
			err = throttled(c, clock)
		}
		s.checkExceptions()
	})
	if err == nil && clock.FirstRow == nil {
		err = fmt.Errorf("the run failed (see its log)")
	}
	return clock, reqs, body, err
}

// emulateByRule is Network.emulateNetworkConditionsByRule with the
// parameters of Chromium 148's protocol (its /json/protocol): there, offline
// is a required parameter of the command itself, next to
// matchedNetworkConditions, and a call without it fails with "Invalid
// parameters (-32602)". cdproto's EmulateNetworkConditionsByRuleParams
// follows a later protocol, where offline is a field of each NetworkConditions
// and the command takes emulateOfflineServiceWorker instead, so it cannot
// send the top-level offline. emulateByRuleParams sends both: Chromium 148
// ignores the per-condition fields it does not know (network.Conditions
// carries offline and packetReordering). A browser that rejected the
// top-level offline would fail this call with an error, not skip the
// throttle.
var emulateByRule = cdp.Command[emulateByRuleParams, network.EmulateNetworkConditionsByRuleResult]{Method: network.CommandEmulateNetworkConditionsByRule}

type emulateByRuleParams struct {
	Offline                  bool                  `json:"offline"`
	MatchedNetworkConditions []*network.Conditions `json:"matchedNetworkConditions"`
}

// throttled checks that the network emulation of c reached the page: the
// wasm's download, from its request to its last byte, takes at least the
// time its body as received needs at c's download rate. A throttle that
// does not apply leaves it at loopback speed, under 0.1 s here.
func throttled(c loadCondition, clock loadClock) error {
	if clock.WasmEncoded <= 0 || clock.WasmEnd <= 0 {
		return fmt.Errorf("occfm.wasm has no resource timing (encodedBodySize %.0f, responseEnd %.0f ms): cannot check that the %v Mbit/s throttle applied", clock.WasmEncoded, clock.WasmEnd, c.DownMbit)
	}
	need := clock.WasmEncoded * 8 / (c.DownMbit * 1e6) * 1000
	if took := clock.WasmEnd - clock.WasmStart; took < need {
		return fmt.Errorf("the network throttle did not apply: occfm.wasm (%.0f bytes as received) downloaded in %.0f ms, while %v Mbit/s needs at least %.0f ms for it", clock.WasmEncoded, took, c.DownMbit, need)
	}
	return nil
}

// hostHandler serves through h as if the browser's Accept-Encoding were
// accept: what a host that sends only that coding sends.
func hostHandler(h http.Handler, accept string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = r.Clone(r.Context())
		r.Header.Set("Accept-Encoding", accept)
		h.ServeHTTP(w, r)
	})
}

// gzip9 is `gzip -9 -c` of b (docs/performance.md's measure), or Go's best
// compression when there is no gzip command.
func gzip9(t *testing.T, b []byte) []byte {
	t.Helper()
	cmd := exec.Command("gzip", "-9", "-c", "-n")
	cmd.Stdin = bytes.NewReader(b)
	if out, err := cmd.Output(); err == nil {
		return out
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func roundAll(xs []float64) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x + 0.5)
	}
	return out
}

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}
