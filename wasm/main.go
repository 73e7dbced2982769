//go:build js && wasm

package main

import (
	"encoding/json"
	"fmt"
	"math"
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
	lastView time.Time
	doc      dom.Document
}

func main() {
	b := &bridge{doc: dom.GetWindow().Document()}
	api := js.Global().Get("Object").New()
	fn := func(name string, f func(args []js.Value) any) {
		api.Set(name, js.FuncOf(func(this js.Value, args []js.Value) any { return f(args) }))
	}
	fn("learners", func([]js.Value) any {
		var out []any
		for _, s := range core.Learners() {
			out = append(out, map[string]any{"name": s.Name, "summary": s.Summary})
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
		n := args[0].Get("length").Int()
		if cap(b.chunk) < n {
			b.chunk = make([]byte, n)
		}
		b.chunk = b.chunk[:n]
		js.CopyBytesToGo(b.chunk, args[0])
		b.s.feed(b.chunk)
		return n
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
		b.render(false)
		return b.s.snapshotJSON()
	})
	fn("snapshot", func([]js.Value) any {
		if b.s == nil {
			return errorSnapshot(fmt.Errorf("no session: call start first"))
		}
		b.render(true)
		return b.s.snapshotJSON()
	})
	fn("reset", func([]js.Value) any {
		return b.start(b.cfg)
	})
	js.Global().Set("occfm", api)
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("occfm-ready"))
	select {}
}

func errorSnapshot(err error) string {
	b, _ := json.Marshal(map[string]any{"state": "error", "error": err.Error(), "rows": 0, "learners": []any{}, "points": []any{}})
	return string(b)
}

func (b *bridge) start(cfg config) string {
	s, err := newSession(cfg)
	if err != nil {
		b.s = nil
		return errorSnapshot(err)
	}
	b.s, b.cfg = s, cfg
	b.render(true)
	return s.snapshotJSON()
}

// inspector is the optional ability of learners with a matrix model.
type inspector interface {
	NuclearNorm() float64
	Rank() int
	Eigenvalues() []float64
}

// render refreshes the Go-owned views at most 10 times a second.
func (b *bridge) render(force bool) {
	if !force && time.Since(b.lastView) < 100*time.Millisecond {
		return
	}
	b.lastView = time.Now()
	b.renderPredictions()
	b.renderModel()
}

func (b *bridge) renderPredictions() {
	body := b.doc.GetElementByID("predictions-body")
	if body == nil {
		return
	}
	clearChildren(body)
	preds := b.s.preds
	for i := len(preds) - 1; i >= 0; i-- {
		p := preds[i]
		tr := b.doc.CreateElement("tr")
		for _, text := range []string{p.Features, format(p.Yhat), format(p.Y), format(p.Loss)} {
			td := b.doc.CreateElement("td")
			td.SetTextContent(text) // text, never HTML: file content is not trusted
			tr.AppendChild(td)
		}
		body.AppendChild(tr)
	}
}

func (b *bridge) renderModel() {
	panel := b.doc.GetElementByID("model-panel")
	if panel == nil {
		return
	}
	clearChildren(panel)
	h := b.doc.CreateElement("h3")
	h.SetTextContent("Model")
	panel.AppendChild(h)
	if len(b.s.players) == 0 {
		p := b.doc.CreateElement("p")
		p.SetTextContent("waiting for the first rows…")
		panel.AppendChild(p)
		return
	}
	pl := b.s.players[0]
	dl := b.doc.CreateElement("dl")
	add := func(term, def string) {
		dt := b.doc.CreateElement("dt")
		dt.SetTextContent(term)
		dd := b.doc.CreateElement("dd")
		dd.SetTextContent(def)
		dl.AppendChild(dt)
		dl.AppendChild(dd)
	}
	add("learner", pl.name)
	if c, ok := pl.learner.(core.Configured); ok {
		cfg := c.Config()
		add("settings", fmt.Sprintf("δ = %g, η = %g, loss %s", cfg.Delta, cfg.Eta, cfg.LossOf()))
		if in, ok := pl.learner.(inspector); ok {
			nn := in.NuclearNorm()
			add("nuclear norm", fmt.Sprintf("‖C‖* = %.4g of δ = %g (%.1f%%)", nn, cfg.Delta, 100*nn/cfg.Delta))
			add("rank", fmt.Sprint(in.Rank()))
			ev := in.Eigenvalues()
			var parts []string
			for i, v := range ev {
				if i == 6 {
					parts = append(parts, "…")
					break
				}
				parts = append(parts, fmt.Sprintf("%.3g", v))
			}
			add("top eigenvalues of C", strings.Join(parts, ", "))
		}
	}
	panel.AppendChild(dl)
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
