//go:build e2e

// Privacy, safety and bounded memory of the page: the
// Content-Security-Policy holds and is enforced, file content shows as text,
// and a big file streams through the page in bounded memory.

package e2e

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
)

// takeCSPViolations returns the CSP violations recorded so far (see
// cspReporterJS) and forgets them, leaving other page errors in place.
func (s *session) takeCSPViolations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var csp, rest []string
	for _, e := range s.exceptions {
		if strings.HasPrefix(e, "CSP violation: ") {
			csp = append(csp, e)
		} else {
			rest = append(rest, e)
		}
	}
	s.exceptions = rest
	return csp
}

// 9. The policy is enforced and its violations are seen: with the demo
// running, an inline <style> and an image from another origin, added by a
// script as an injected payload would, are both blocked and reported (so
// that every other test, which fails on any violation, can fail).
func TestE2ECSP(t *testing.T) {
	t.Parallel()
	s := newSession(t, time.Minute)
	s.openDemo()
	if v := s.takeCSPViolations(); len(v) > 0 {
		t.Fatalf("the page itself violates its policy: %v", v)
	}
	evalJS[chromedp.Void](s, `(() => {
		const st = document.createElement("style");
		st.textContent = "body { background: red }";
		document.head.append(st);
		const img = document.createElement("img");
		img.src = "https://example.com/pixel.png";
		document.body.append(img);
	})()`)
	// Each is reported twice: once for the <meta> policy, once for the
	// header's. The style's come at once, the image's when its load is
	// refused, later: the wait is for both kinds.
	wants := []string{"style-src-elem blocked inline", "img-src blocked https://example.com/pixel.png"}
	seen := func(joined string) bool {
		for _, want := range wants {
			if !strings.Contains(joined, want) {
				return false
			}
		}
		return true
	}
	var v []string
	deadline := time.Now().Add(5 * time.Second)
	for !seen(strings.Join(v, "\n")) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		v = append(v, s.takeCSPViolations()...)
	}
	joined := strings.Join(v, "\n")
	t.Logf("violations reported:\n%s", joined)
	for _, want := range wants {
		if !strings.Contains(joined, want) {
			t.Errorf("no violation %q reported", want)
		}
	}
	if bg := evalJS[string](s, `getComputedStyle(document.body).backgroundColor`); bg == "rgb(255, 0, 0)" {
		t.Error("the inline <style> applied")
	}
	s.checkExceptions()
}

// xssPayloads are what the CSV of TestE2EXSS puts in its header and its
// values: markup that would run script if the page parsed it as HTML.
var xssPayloads = struct{ colA, colB, label, valA, valB string }{
	colA:  `<img src=x onerror="window.__xss=1">`,
	colB:  `<script>window.__xss=2</script>`,
	label: `<svg onload="window.__xss=3">`,
	valA:  `<img src=y onerror="window.__xss=4">`,
	valB:  `</td><script>window.__xss=5</script><td>`,
}

// csvQuote quotes a CSV field, doubling its quotes.
func csvQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// 10. File content is text, never markup: a CSV whose column names,
// categorical values and label column name are HTML/script payloads learns
// to done; the names and values show literally in the roles table, the
// preview and the predictions table; no element, event handler or script
// came from them; window.__xss stays undefined; and no CSP violation was
// reported (an inline handler that got into the DOM would be one).
func TestE2EXSS(t *testing.T) {
	t.Parallel()
	p := xssPayloads
	var b strings.Builder
	fmt.Fprintf(&b, "%s,%s,amount,%s\n", csvQuote(p.colA), csvQuote(p.colB), csvQuote(p.label))
	const rows = 3000
	for i := range rows {
		a, bv := p.valA, "plain"
		if i%3 != 0 {
			a = "other"
		}
		if i%2 == 0 {
			bv = p.valB
		}
		y := 0
		if (i%3 != 0) != (i%5 == 0) {
			y = 1
		}
		fmt.Fprintf(&b, "%s,%s,%.2f,%d\n", csvQuote(a), csvQuote(bv), float64(i%17)/4, y)
	}
	path := filepath.Join(t.TempDir(), "xss <img src=z onerror=window.__xss=6>.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	s := newSession(t, 2*time.Minute)
	s.openDemo()
	s.maxSpeed()
	s.learnFile(path, rows, 60*time.Second)
	s.waitJS("the predictions table to show the file's rows",
		`document.querySelector('[data-testid="predictions"] tbody').textContent.includes("other")`, 5*time.Second)

	type view struct {
		Roles, Preview, Predictions, Body string
		Imgs, Svgs, Scripts, OnAttrs      int
		XSS                               bool
	}
	v := evalJS[view](s, `(() => {
		const text = (sel) => (document.querySelector(sel) || {}).textContent || "";
		let on = 0;
		for (const el of document.querySelectorAll("*")) for (const a of el.attributes) if (a.name.startsWith("on")) on++;
		return {
			Roles: text('[data-testid="preview-columns"]'),
			Preview: text('[data-testid="preview-lines"]'),
			Predictions: text('[data-testid="predictions"]'),
			Body: document.body.innerText,
			Imgs: document.querySelectorAll("img").length,
			Svgs: document.querySelectorAll("svg").length,
			Scripts: document.querySelectorAll("script").length,
			OnAttrs: on,
			XSS: window.__xss !== undefined,
		};
	})()`)
	t.Logf("roles table: %q", v.Roles)
	t.Logf("predictions table: %.300q", v.Predictions)
	for _, c := range []struct{ where, text, want string }{
		{"roles table", v.Roles, p.colA},
		{"roles table", v.Roles, p.colB},
		{"roles table", v.Roles, p.label},
		{"preview", v.Preview, csvQuote(p.valA)}, // the raw line
		{"predictions table", v.Predictions, p.valA},
		{"predictions table", v.Predictions, p.valB},
		{"page", v.Body, p.colA},
	} {
		if !strings.Contains(c.text, c.want) {
			t.Errorf("the %s does not show %q as text", c.where, c.want)
		}
	}
	// The page's own markup has no img and no svg (uPlot draws on canvas)
	// and five scripts: wasm-start.js, wasm_exec.js, uPlot, app.js and start-check.js.
	if v.Imgs != 0 || v.Svgs != 0 || v.Scripts != 5 || v.OnAttrs != 0 {
		t.Errorf("elements from the file: %d img, %d svg, %d script (want 5), %d on… attributes", v.Imgs, v.Svgs, v.Scripts, v.OnAttrs)
	}
	if v.XSS {
		t.Errorf("window.__xss = %v: a payload ran", evalJS[any](s, "window.__xss"))
	}
	s.screenshot("xss-csv")
	s.checkExceptions() // includes CSP violations
}

// bigFileEnv sets the size of TestE2EBigFile's file in MiB ("200M");
// make stress runs it.
const bigFileEnv = "OCCFM_STRESS_PAGE"

// 11. A big file streams through the page in bounded memory: a
// planted-classification LibSVM file of $OCCFM_STRESS_PAGE MiB (say 200M;
// written to a temporary folder, as occfm gen writes it) learns to done
// with OCCFM. The page's wasm memory (which never shrinks, so its last size
// is its peak) plus its peak JS heap must stay under 96 MB, and the wasm
// memory must grow by at most 4 MB from a quarter of the rows to the end:
// the page holds a bounded window of the file, not the file. Skipped unless
// OCCFM_STRESS_PAGE is set (make stress): 200M takes about a minute.
func TestE2EBigFile(t *testing.T) {
	t.Parallel()
	size := os.Getenv(bigFileEnv)
	if size == "" {
		t.Skipf("set %s=200M (or run make stress) to stream a big file through the page", bigFileEnv)
	}
	mb, err := strconv.Atoi(strings.TrimSuffix(strings.ToUpper(size), "M"))
	if err != nil || mb <= 0 {
		t.Fatalf("%s=%q: want a size in MiB such as 200M", bigFileEnv, size)
	}
	bytesWanted := int64(mb) << 20
	path := filepath.Join(t.TempDir(), "planted-big.svm")
	rows, fileBytes := writeDemoLibSVM(t, path, bytesWanted)
	t.Logf("%s: %d rows, %d bytes (%.1f MB)", filepath.Base(path), rows, fileBytes, float64(fileBytes)/(1<<20))

	s := newSession(t, 30*time.Minute)
	if _, err := chromedp.Call(s.ctx, performance.Enable, performance.EnableParams{}); err != nil {
		t.Fatalf("Performance.enable: %v", err)
	}
	var heapPeak float64
	var quarterWasm float64 // the wasm memory once a quarter of the rows are learned
	var samples []string    // rows and memory every few seconds, for the log
	lastLog := time.Now()
	sample := func() {
		r, err := chromedp.Call(s.ctx, performance.GetMetrics, cdp.Empty{})
		if err != nil {
			return
		}
		var heap float64
		for _, x := range r.Metrics {
			if x.Name == "JSHeapUsedSize" {
				heap = x.Value
				heapPeak = math.Max(heapPeak, heap)
			}
		}
		if time.Since(lastLog) >= 5*time.Second {
			lastLog = time.Now()
			m, err := chromedp.Run(s.ctx, chromedp.Evaluate[[2]float64](`[`+jsRows+`, occfmPage.page.memory ? occfmPage.page.memory.buffer.byteLength : 0]`))
			if err == nil && quarterWasm == 0 && m[0] >= float64(rows)/4 {
				quarterWasm = m[1]
			}
			if err == nil {
				samples = append(samples, fmt.Sprintf("%.0f rows: wasm %.1f MB, JS heap %.1f MB", m[0], m[1]/(1<<20), heap/(1<<20)))
			}
		}
	}
	s.url += "#learners=occfm&speed=max"
	s.openDemo()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(500 * time.Millisecond):
				sample()
			}
		}
	}()
	start := time.Now()
	rate := s.learnFile(path, rows, 25*time.Minute)
	took := time.Since(start)
	close(stop)
	<-done
	sample()
	wasm := evalJS[float64](s, `occfmPage.page.memory ? occfmPage.page.memory.buffer.byteLength : 0`)
	auc, _ := s.metric("metric-auc")
	total := wasm + heapPeak
	t.Logf("while learning: %s", strings.Join(samples, "; "))
	t.Logf("page, occfm: %d rows (%.1f MB) in %v from the upload, %.0f rows/s; AUC %.4f; wasm memory %.1f MB + JS heap peak %.1f MB = %.1f MB, %.1f%% of the file",
		rows, float64(fileBytes)/(1<<20), took.Round(time.Second), rate, auc, wasm/(1<<20), heapPeak/(1<<20), total/(1<<20), 100*total/float64(fileBytes))
	if wasm == 0 {
		t.Error("the page does not expose its wasm memory (occfmPage.page.memory)")
	}
	if total > 96<<20 {
		t.Errorf("peak memory %.1f MB, want ≤ 96 MB", total/(1<<20))
	}
	if quarterWasm == 0 {
		t.Error("no memory sample past a quarter of the rows")
	} else if grew := wasm - quarterWasm; grew > 4<<20 {
		t.Errorf("the wasm memory grew by %.1f MB from a quarter of the rows (%.1f MB) to the end: want ≤ 4 MB", grew/(1<<20), quarterWasm/(1<<20))
	}
	s.screenshot("big-file-done")
	s.checkExceptions()
}

// writeDemoLibSVM writes planted-classification rows (seed 1) to path until
// it holds at least size bytes, as occfm gen -size does, and returns the
// rows and bytes written.
func writeDemoLibSVM(t *testing.T, path string, size int64) (rows int, written int64) {
	t.Helper()
	d, _ := demo.ByName("planted-classification")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<16)
	src := d.NewRows(1, math.MaxInt)
	var ex data.Example
	var line []byte
	for written < size {
		if err := src.Next(&ex); err != nil {
			t.Fatal(err)
		}
		line = data.AppendLibSVM(line[:0], ex)
		w.Write(line)
		rows++
		written += int64(len(line))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return rows, written
}
