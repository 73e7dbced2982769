//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// mainThreadTasks traces the tab (Chromium's trace, as DevTools' Performance
// panel records it) while run runs, and returns the main thread's tasks
// (RunTask events of its renderer's main thread) as the CPU time each took
// on that thread in ms (the events' thread duration), longest first: a
// busy machine stretches a task's wall time, not its own CPU time.
func (s *session) mainThreadTasks(run func()) []float64 {
	s.t.Helper()
	var (
		mu     sync.Mutex
		events []json.RawMessage
	)
	done := make(chan struct{})
	var once sync.Once
	if err := chromedp.Listen(s.ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, v := range e.Value {
				events = append(events, json.RawMessage(v))
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			once.Do(func() { close(done) })
		}
	}); err != nil {
		s.t.Fatalf("listening for the trace: %v", err)
	}
	start := tracing.StartParams{TransferMode: tracing.StartTransferModeReportEvents, TraceConfig: &tracing.TraceConfig{
		IncludedCategories: []string{"toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "__metadata"},
	}}
	if _, err := chromedp.Call(s.ctx, tracing.Start, start); err != nil {
		s.t.Fatalf("Tracing.start: %v", err)
	}
	run()
	if _, err := chromedp.Call(s.ctx, tracing.End, cdp.Empty{}); err != nil {
		s.t.Fatalf("Tracing.end: %v", err)
	}
	select {
	case <-done:
	case <-time.After(e2eHang):
		s.t.Fatal("the trace did not complete")
	case <-s.ctx.Done():
		s.t.Fatal(context.Cause(s.ctx))
	}
	type event struct {
		Name string  `json:"name"`
		Ph   string  `json:"ph"`
		Pid  int     `json:"pid"`
		Tid  int     `json:"tid"`
		Dur  float64 `json:"dur"`
		Tdur float64 `json:"tdur"`
		Args struct {
			Name string `json:"name"`
			Data struct {
				Frames []struct {
					URL       string `json:"url"`
					ProcessID int    `json:"processId"`
				} `json:"frames"`
			} `json:"data"`
		} `json:"args"`
	}
	mu.Lock()
	defer mu.Unlock()
	// The trace holds every tab of the shared browser: the page's main
	// thread is the renderer main thread of the process whose frames are
	// at the test server's origin.
	parsed := make([]event, 0, len(events))
	mine := map[int]bool{}
	for _, raw := range events {
		var e event
		if json.Unmarshal(raw, &e) != nil {
			continue
		}
		for _, f := range e.Args.Data.Frames {
			if strings.HasPrefix(f.URL, s.origin+"/") {
				mine[f.ProcessID] = true
			}
		}
		parsed = append(parsed, e)
	}
	if len(mine) == 0 {
		s.t.Fatalf("the trace names no process of the page at %s", s.origin)
	}
	main := map[[2]int]bool{}
	for _, e := range parsed {
		if e.Ph == "M" && e.Name == "thread_name" && e.Args.Name == "CrRendererMain" && mine[e.Pid] {
			main[[2]int{e.Pid, e.Tid}] = true
		}
	}
	var tasks []float64
	for _, e := range parsed {
		if e.Ph == "X" && (e.Name == "RunTask" || e.Name == "ThreadControllerImpl::RunTask") && main[[2]int{e.Pid, e.Tid}] {
			tasks = append(tasks, e.Tdur/1000)
		}
	}
	slices.SortFunc(tasks, func(a, b float64) int {
		switch {
		case a > b:
			return -1
		case a < b:
			return 1
		}
		return 0
	})
	return tasks
}
