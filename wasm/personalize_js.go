//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"
	"time"
)

// personalAPI returns globalThis.occfm.personal (doc.go): the Personalize
// view's calls. Its state is b.pe, apart from the Learn view's session.
func (b *bridge) personalAPI() js.Value {
	api := js.Global().Get("Object").New()
	fn := func(name string, f func(args []js.Value) any) {
		// A panic ends the personal session with the error, not the Go
		// program.
		setFunc(api, name, f, func(p any) any {
			msg := "internal error in personal." + name + ": " + panicText(p) + " (please report it)"
			if b.pe != nil {
				b.pe.err = msg
			}
			return stateErrorJSON(msg)
		})
	}
	noSession := func() string {
		return stateErrorJSON("no catalog: call personal.start first")
	}
	fn("start", func(args []js.Value) any {
		var cfg personalConfig
		if err := cfg.decodeJSON(args[0].String()); err != nil {
			return stateErrorJSON("personal.start: " + err.Error())
		}
		if b.pe != nil {
			b.pe.s.release() // the old ratings file's reading coroutine
		}
		pe, err := newPersonal(cfg)
		b.pe = pe
		if err != nil {
			return stateErrorJSON(err.Error())
		}
		return pe.snapshotJSON()
	})
	fn("items", func(args []js.Value) any {
		if b.pe == nil {
			return noSession()
		}
		data := make([]byte, args[0].Get("length").Int())
		js.CopyBytesToGo(data, args[0])
		n, err := b.pe.setItems(data, args[1].String())
		if err != nil {
			return errorOnlyJSON(err.Error())
		}
		return `{"items":` + strconv.Itoa(n) + `}`
	})
	fn("feed", func(args []js.Value) any {
		if b.pe == nil {
			return 0
		}
		c := b.readChunk(args[0])
		b.pe.feed(c)
		return len(c)
	})
	fn("end", func([]js.Value) any {
		if b.pe != nil {
			b.pe.s.end()
		}
		return nil
	})
	fn("wanted", func([]js.Value) any {
		if b.pe == nil {
			return 0
		}
		return b.pe.s.wanted()
	})
	fn("run", func(args []js.Value) any {
		if b.pe == nil {
			return noSession()
		}
		b.pe.run(time.Duration(args[0].Float() * float64(time.Millisecond)))
		return b.pe.snapshotJSON()
	})
	fn("catalog", func([]js.Value) any {
		if b.pe == nil {
			return `{"items":[]}`
		}
		return b.pe.catalogJSON()
	})
	topN := func(args []js.Value, k int) int {
		if len(args) > k && args[k].Type() == js.TypeNumber {
			return args[k].Int()
		}
		return 10
	}
	fn("rate", func(args []js.Value) any {
		if b.pe == nil {
			return noSession()
		}
		return b.pe.rate(args[0].Int(), args[1].Float(), topN(args, 2))
	})
	fn("recommend", func(args []js.Value) any {
		if b.pe == nil {
			return noSession()
		}
		return b.pe.recommend(topN(args, 0))
	})
	fn("clear", func(args []js.Value) any {
		if b.pe == nil {
			return noSession()
		}
		return b.pe.clear(topN(args, 0))
	})
	fn("ratingsCSV", func([]js.Value) any {
		if b.pe == nil || b.pe.p == nil {
			return ""
		}
		return string(b.pe.p.RatingsCSV())
	})
	return api
}
