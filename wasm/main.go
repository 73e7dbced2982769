//go:build js && wasm

package main

import (
	"encoding/json"
	"fmt"
	"math"
	"runtime/debug"
	"strings"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"github.com/occfm/occfm/core"
)

// bridge holds the current session and the buffers reused across calls.
type bridge struct {
	s        *session
	cfg      config
	chunk    []byte
	lastRows int
	lastErr  string // the session's error at the last render
	doc      dom.Document

	predRows  []dom.Element    // the rows of the predictions table
	predCells [][4]dom.Element // their cells
	modelDD   map[string]dom.Element

	// loaded is the model file loadModel accepted, or nil: every start
	// continues it (decoded afresh, so a reset starts from it again).
	loaded []byte
	// fresh is loaded as loadModel decoded it, not yet used by a start
	// (which then need not decode it again), or nil.
	fresh *core.Model

	pe *personal // the Personalize view's catalog and person (personalize.go), or nil
}

// memoryLimit is Go's soft memory limit in the page. A wasm module's
// linear memory only grows: the page keeps the largest heap the session
// ever had. With Go's default heap goal alone (twice the live heap), OCCFM
// on the whole of MovieLens 1M left 261 MB of wasm memory in headless
// Chromium, with the collector working harder as the heap nears this limit
// 218 MB, when its gradient sum stored both triangles (about 150 MB); with
// each pair stored once, 153.5 MB (make bench measures it; it varies by
// some 10 % from run to run, as the big slices grow). The limit is soft:
// past it the collector runs more often (at most half the time), nothing
// fails.
const memoryLimit = 128 << 20

func main() {
	debug.SetMemoryLimit(memoryLimit)
	b := &bridge{doc: dom.GetWindow().Document()}
	api := js.Global().Get("Object").New()
	fn := func(name string, f func(args []js.Value) any) {
		// The session stops with the error, and the page can start
		// another run.
		setFunc(api, name, f, func(p any) any {
			err := fmt.Errorf("internal error in %s: %v (please report it, with the file if you can)", name, p)
			if b.s != nil {
				b.s.fail(err)
			}
			return errorSnapshot(err)
		})
	}
	fn("learners", func([]js.Value) any {
		var out []any
		for _, s := range core.Learners() {
			l := map[string]any{"name": s.Name, "summary": s.Summary}
			if s.Regret.Exponent > 0 {
				l["regretExponent"], l["regretSource"] = s.Regret.Exponent, s.Regret.Source
			}
			out = append(out, l)
		}
		return out
	})
	fn("demos", func([]js.Value) any {
		var out []any
		for _, d := range core.Demos() {
			out = append(out, map[string]any{"name": d.Name, "title": d.Title, "task": d.Task.String()})
		}
		return out
	})
	fn("start", func(args []js.Value) any {
		var cfg config
		if err := json.Unmarshal([]byte(args[0].String()), &cfg); err != nil {
			return errorSnapshot(fmt.Errorf("start: %v", err))
		}
		return b.start(cfg)
	})
	fn("feed", func(args []js.Value) any {
		if b.s == nil {
			return 0
		}
		c := b.readChunk(args[0])
		b.s.feed(c)
		return len(c)
	})
	fn("end", func([]js.Value) any {
		if b.s != nil {
			b.s.end()
		}
		return nil
	})
	fn("wanted", func([]js.Value) any {
		if b.s == nil {
			return 0
		}
		return b.s.wanted()
	})
	fn("run", func(args []js.Value) any {
		if b.s == nil {
			return errorSnapshot(fmt.Errorf("no session: call start first"))
		}
		ms, maxRows := args[0].Float(), 0
		if len(args) > 1 {
			maxRows = args[1].Int()
		}
		b.s.step(time.Now().Add(time.Duration(ms*float64(time.Millisecond))), maxRows)
		return b.s.runSnapshotJSON()
	})
	fn("render", func([]js.Value) any {
		if b.s != nil {
			b.render(false)
		}
		return nil
	})
	fn("snapshot", func([]js.Value) any {
		if b.s == nil {
			return errorSnapshot(fmt.Errorf("no session: call start first"))
		}
		b.render(true)
		return b.s.snapshotJSON()
	})
	fn("follow", func(args []js.Value) any {
		if b.s == nil || len(args) < 1 {
			return false
		}
		ok := b.s.setFollow(args[0].String())
		b.cfg.Follow = b.s.cfg.Follow
		b.render(true)
		return ok
	})
	fn("reset", func([]js.Value) any {
		return b.start(b.cfg)
	})
	fn("saveModel", func([]js.Value) any {
		if b.s == nil {
			return map[string]any{"error": "no session"}
		}
		file, m, err := b.s.saveModel()
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		arr := js.Global().Get("Uint8Array").New(len(file))
		js.CopyBytesToJS(arr, file)
		return map[string]any{"bytes": arr, "learner": m.Name, "rows": m.Rows}
	})
	fn("modelHead", func(args []js.Value) any {
		head := make([]byte, min(args[0].Get("length").Int(), core.ModelHeaderLen))
		js.CopyBytesToGo(head, args[0])
		return modelHeadError(head, int64(args[1].Float()))
	})
	fn("loadModel", func(args []js.Value) any {
		file := make([]byte, args[0].Get("length").Int())
		js.CopyBytesToGo(file, args[0])
		out, m := loadModelJSON(file)
		if m != nil {
			b.loaded, b.fresh = file, m
		}
		return out
	})
	fn("forgetModel", func([]js.Value) any {
		b.loaded, b.fresh = nil, nil
		return nil
	})
	fn("head", func(args []js.Value) any {
		return string(headText(b.readChunk(args[0])))
	})
	api.Set("personal", b.personalAPI())
	js.Global().Set("occfm", api)
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("occfm-ready"))
	select {}
}

// setFunc sets api[name] to a JS function calling f. A panic in f would end
// the Go program and leave the page dead: it is recovered, and the JS caller
// gets failed(the panic value) instead.
func setFunc(api js.Value, name string, f func(args []js.Value) any, failed func(p any) any) {
	api.Set(name, js.FuncOf(func(this js.Value, args []js.Value) (out any) {
		defer func() {
			if p := recover(); p != nil {
				out = failed(p)
			}
		}()
		return f(args)
	}))
}

// readChunk copies the Uint8Array v into the bridge's reused chunk buffer
// and returns it (valid until the next call).
func (b *bridge) readChunk(v js.Value) []byte {
	n := v.Get("length").Int()
	if cap(b.chunk) < n {
		b.chunk = make([]byte, n)
	}
	b.chunk = b.chunk[:n]
	js.CopyBytesToGo(b.chunk, v)
	return b.chunk
}

func errorSnapshot(err error) string {
	b, _ := json.Marshal(map[string]any{"state": "error", "error": err.Error(), "rows": 0, "learners": []any{}, "points": []any{}})
	return string(b)
}

func (b *bridge) start(cfg config) string {
	var s *session
	var err error
	switch {
	case b.fresh != nil:
		s, err = newSessionFrom(cfg, *b.fresh)
		b.fresh = nil
	case b.loaded != nil:
		var m core.Model
		if m, _, err = parseModel(b.loaded); err == nil {
			s, err = newSessionFrom(cfg, m)
		}
	default:
		s, err = newSession(cfg)
	}
	if b.s != nil {
		b.s.release() // the old file's reading coroutine
	}
	if err != nil {
		b.s = nil
		b.renderModel() // not the last run's model
		return errorSnapshot(err)
	}
	b.s, b.cfg = s, cfg
	b.lastRows = -1
	b.render(true)
	return s.snapshotJSON()
}

// inspector is the optional ability of learners with a matrix model.
type inspector interface {
	NuclearNorm() float64
	Rank() int
	Eigenvalues() []float64
}

// render refreshes the Go-owned views, when rows were learned since the
// last time or force is set. The page calls it with its own views, at most
// 10 times a second; the elements are built once per session and then only
// their text changes: each DOM call crosses the JS bridge.
func (b *bridge) render(force bool) {
	if !force && b.s.rows == b.lastRows && b.s.err == b.lastErr {
		return
	}
	b.lastRows, b.lastErr = b.s.rows, b.s.err
	b.renderPredictions()
	b.renderModel()
}

// renderPredictions shows the latest predictions, newest first.
func (b *bridge) renderPredictions() {
	if b.predRows == nil {
		body := b.doc.GetElementByID("predictions-body")
		if body == nil {
			return
		}
		clearChildren(body)
		for range keepPredictions {
			tr := b.doc.CreateElement("tr")
			var cells [4]dom.Element
			for c := range cells {
				cells[c] = b.doc.CreateElement("td")
				tr.AppendChild(cells[c])
			}
			body.AppendChild(tr)
			b.predRows = append(b.predRows, tr)
			b.predCells = append(b.predCells, cells)
		}
	}
	// Classification shows the probability σ(ŷ) of the positive class, the
	// score ŷ on hover: "0.991" reads better than "4.666" against y = 1.
	prob := b.s.taskSet && b.s.task == core.Classification
	head := "ŷ"
	if prob {
		head = "P(y = 1)"
	}
	if th := b.doc.QuerySelector("#predictions thead th:nth-child(2)"); th != nil && th.TextContent() != head {
		th.SetTextContent(head)
	}
	for i, tr := range b.predRows {
		if i >= len(b.s.preds) {
			tr.Underlying().Set("hidden", true)
			continue
		}
		p := b.s.latest(i)
		tr.Underlying().Set("hidden", false)
		yhat, title := format(p.Yhat), ""
		if prob {
			yhat, title = fmt.Sprintf("%.3f", 1/(1+math.Exp(-p.Yhat))), "score ŷ = "+format(p.Yhat)
		}
		for c, text := range []string{b.s.describe(p), yhat, format(p.Y), format(p.Loss)} {
			b.predCells[i][c].SetTextContent(text) // text, never HTML: file content is not trusted
		}
		if b.predCells[i][1].GetAttribute("title") != title {
			b.predCells[i][1].SetAttribute("title", title)
		}
	}
}

// modelFields are the rows of the model panel, in order.
var modelFields = []string{"learner", "settings", "nuclear norm", "rank", "top eigenvalues of C"}

// renderModel shows the followed learner's model (session.followed): ‖C‖* against δ, rank and
// the top eigenvalues of C, for learners with a matrix model.
func (b *bridge) renderModel() {
	if b.modelDD == nil {
		panel := b.doc.GetElementByID("model-panel")
		if panel == nil {
			return
		}
		clearChildren(panel)
		h := b.doc.CreateElement("h3")
		h.SetTextContent("Model")
		panel.AppendChild(h)
		dl := b.doc.CreateElement("dl")
		b.modelDD = map[string]dom.Element{}
		for _, f := range modelFields {
			dt := b.doc.CreateElement("dt")
			dt.SetTextContent(f)
			dd := b.doc.CreateElement("dd")
			dl.AppendChild(dt)
			dl.AppendChild(dd)
			b.modelDD[f] = dd
		}
		panel.AppendChild(dl)
	}
	set := func(f, text string) { b.modelDD[f].SetTextContent(text) }
	// Every field is written on every render: a learner without a matrix,
	// or a run that failed, shows "–", never the last learner's values.
	for _, f := range modelFields {
		set(f, "–")
	}
	if b.s == nil {
		return
	}
	pl := b.s.followed()
	if pl == nil {
		if b.s.err == "" {
			set("learner", "waiting for the first rows…")
		} else {
			set("learner", "– (the run stopped before its learners started)")
		}
		return
	}
	set("learner", pl.name)
	c, ok := pl.learner.(core.Configured)
	if !ok {
		return
	}
	cfg := c.Config()
	in, ok := pl.inner().(inspector)
	a, auto := pl.inner().(*core.OCCFMAuto)
	if !auto {
		if cfg.Delta > 0 {
			set("settings", fmt.Sprintf("δ = %g, η = %g, loss %s", cfg.Delta, cfg.Eta, cfg.LossOf()))
		} else {
			set("settings", fmt.Sprintf("η = %g, loss %s (no δ: no matrix C to bound)", cfg.Eta, cfg.LossOf()))
		}
	} else {
		// No δ of its own: show the δ expert of largest weight.
		var names []string
		for _, e := range a.Experts() {
			names = append(names, e.Name)
		}
		set("settings", fmt.Sprintf("no δ to choose: exponential weights over %s; loss %s", strings.Join(names, ", "), cfg.LossOf()))
		lead, w := a.Leading()
		if lead == nil {
			for _, f := range modelFields[2:] {
				set(f, "– (every δ expert retired)")
			}
			return
		}
		in, ok = lead, true
		cfg = lead.Config()
		set("learner", fmt.Sprintf("%s (C below: its δ = %g expert, weight %.3g)", pl.name, cfg.Delta, w))
	}
	if !ok {
		return
	}
	nn := in.NuclearNorm()
	set("nuclear norm", fmt.Sprintf("‖C‖* = %.4g of δ = %g (%.1f%%)", nn, cfg.Delta, 100*nn/cfg.Delta))
	set("rank", fmt.Sprint(in.Rank()))
	var parts []string
	for i, v := range in.Eigenvalues() {
		if i == 6 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("%.3g", v))
	}
	set("top eigenvalues of C", strings.Join(parts, ", "))
}

func clearChildren(n dom.Element) {
	for c := n.FirstChild(); c != nil; c = n.FirstChild() {
		n.RemoveChild(c)
	}
}

func format(x float64) string {
	if math.Abs(x) >= 1000 || (x != 0 && math.Abs(x) < 0.001) {
		return fmt.Sprintf("%.3g", x)
	}
	return fmt.Sprintf("%.3f", x)
}
