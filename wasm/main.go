//go:build js && wasm

package main

import (
	"errors"
	"runtime/debug"
	"syscall/js"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/demo"
	"honnef.co/go/js/dom/v2"
)

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
			err := errors.New("internal error in " + name + ": " + panicText(p) + " (please report it, with the file if you can)")
			if b.s != nil {
				b.s.fail(err)
			}
			return errorSnapshot(err)
		})
	}
	fn("learners", func([]js.Value) any {
		var out []any
		for _, s := range core.Learners() {
			l := map[string]any{"name": s.Name, "plain": s.Plain, "summary": s.Summary}
			if s.Regret.Exponent > 0 {
				l["regretExponent"], l["regretSource"] = s.Regret.Exponent, s.Regret.Source
			}
			out = append(out, l)
		}
		return out
	})
	fn("demos", func([]js.Value) any {
		var out []any
		for _, d := range demo.All() {
			out = append(out, map[string]any{"name": d.Name, "title": d.Title, "short": d.Short, "task": d.Task.String(), "best": d.Best})
		}
		return out
	})
	fn("start", func(args []js.Value) any {
		var cfg config
		if err := cfg.decodeJSON(args[0].String()); err != nil {
			return errorSnapshot(errors.New("start: " + err.Error()))
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
			return errorSnapshot(errNoSession)
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
			return errorSnapshot(errNoSession)
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
		return map[string]any{"bytes": uint8Array(file), "learner": m.Name, "rows": m.Rows}
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
	b.pictureAPI(fn)
	api.Set("personal", b.personalAPI())
	js.Global().Set("occfm", api)
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("occfm-ready"))
	select {}
}

var errNoSession = errors.New("no session: call start first")

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
