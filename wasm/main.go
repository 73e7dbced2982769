//go:build js && wasm

// Command wasm is the in-browser edge of OCCFM: the core compiled with
// GOOS=js GOARCH=wasm. For now it only exposes the learner registry as
// globalThis.occfm.learners(); the session API and the DOM views arrive with
// the page.
package main

import (
	"syscall/js"

	"github.com/occfm/occfm/core"
)

func main() {
	api := js.Global().Get("Object").New()
	learners := js.FuncOf(func(this js.Value, args []js.Value) any {
		out := js.Global().Get("Array").New()
		for _, s := range core.Learners() {
			out.Call("push", map[string]any{"name": s.Name, "summary": s.Summary})
		}
		return out
	})
	api.Set("learners", learners)
	js.Global().Set("occfm", api)
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("occfm-ready"))
	select {}
}
