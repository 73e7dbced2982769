//go:build js && wasm

package main

import (
	"errors"
	"runtime/debug"
	"syscall/js"

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
	// In a Web Worker there is no document: the learner API works, and the
	// page's Go-owned views (see render) are not drawn.
	b := &bridge{}
	if js.Global().Get("document").Truthy() {
		b.doc = dom.GetWindow().Document()
	}
	api := js.Global().Get("Object").New()
	fn := func(name string, f func(args []js.Value) any) {
		// The session stops with the error, and the page can start
		// another run.
		setFunc(api, name, f, func(p any) any {
			err := errors.New("internal error in " + name + ": " + panicText(p) + " (please report it, with the file if you can)")
			if b.s != nil {
				b.s.fail(err)
			}
			return jsonText(errorSnapshot(err))
		})
	}
	for _, e := range apiTable {
		fn(e.name, func(args []js.Value) any { return e.f(b, args) })
	}
	b.pictureAPI(fn)
	api.Set("lib", b.libAPI())
	js.Global().Set("occfm", api)
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("occfm-ready"))
	select {}
}

// jsonText is JSON the bridge hands to the page: setFunc passes
// it to JS's JSON.parse, so that every call answers with a plain JS value.
type jsonText string

var errNoSession = errors.New("no session: call start first")

// setFunc sets api[name] to a JS function calling f. A panic in f would end
// the Go program and leave the page dead: it is recovered, and the JS caller
// gets failed(the panic value) instead. Every call answers with a plain JS
// value: a jsonText result (a snapshot, written by the package's own JSON
// writer) reaches JS parsed, as an object.
func setFunc(api js.Value, name string, f func(args []js.Value) any, failed func(p any) any) {
	api.Set(name, js.FuncOf(func(this js.Value, args []js.Value) (out any) {
		defer func() {
			if p := recover(); p != nil {
				out = failed(p)
			}
			if t, ok := out.(jsonText); ok {
				out = jsonParse.Invoke(string(t))
			}
		}()
		return f(args)
	}))
}

// jsonParse is JS's JSON.parse.
var jsonParse = js.Global().Get("JSON").Get("parse").Call("bind", js.Global().Get("JSON"))
