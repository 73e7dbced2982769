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
			return jsonText(stateErrorJSON(msg))
		})
	}
	for _, e := range personalTable {
		fn(e.name, func(args []js.Value) any { return e.f(b, args) })
	}
	return api
}

// personalTable is globalThis.occfm.personal's functions, as apiTable is
// the page's.
var personalTable = []struct {
	name string
	f    func(b *bridge, args []js.Value) any
}{
	{"start", (*bridge).personalStart},           // starts a Personalize session for the JSON config args[0]
	{"items", (*bridge).personalItems},           // reads the item list args[0] (bytes) named args[1]
	{"feed", (*bridge).personalFeed},             // gives the ratings file the chunk args[0]; returns the bytes taken
	{"end", (*bridge).personalEnd},               // says the ratings file has no more chunks
	{"wanted", (*bridge).personalWanted},         // returns the bytes the session wants fed
	{"run", (*bridge).personalRun},               // learns for args[0] ms; returns the snapshot
	{"catalog", (*bridge).personalCatalog},       // returns the catalog
	{"rate", (*bridge).personalRate},             // rates item args[0] with args[1] stars; returns the top args[2] (default 10)
	{"recommend", (*bridge).personalRecommend},   // returns the top args[0] (default 10)
	{"clear", (*bridge).personalClear},           // forgets your ratings; returns the top args[0]
	{"ratingsCSV", (*bridge).personalRatingsCSV}, // returns your ratings as CSV
}

// noPersonal is the answer of a call that needs a Personalize session.
func noPersonal() jsonText { return jsonText(stateErrorJSON("no catalog: call personal.start first")) }

// topN is the argument k, the number of recommendations asked for, or 10.
func topN(args []js.Value, k int) int {
	if len(args) > k && args[k].Type() == js.TypeNumber {
		return args[k].Int()
	}
	return 10
}

func (b *bridge) personalStart(args []js.Value) any {
	var cfg personalConfig
	if err := cfg.decodeJSON(args[0].String()); err != nil {
		return jsonText(stateErrorJSON("personal.start: " + err.Error()))
	}
	if b.pe != nil {
		b.pe.s.release() // the old ratings file's reading coroutine
	}
	pe, err := newPersonal(cfg)
	b.pe = pe
	if err != nil {
		return jsonText(stateErrorJSON(err.Error()))
	}
	return jsonText(pe.snapshotJSON())
}

func (b *bridge) personalItems(args []js.Value) any {
	if b.pe == nil {
		return noPersonal()
	}
	data := make([]byte, args[0].Get("length").Int())
	js.CopyBytesToGo(data, args[0])
	n, err := b.pe.setItems(data, args[1].String())
	if err != nil {
		return jsonText(errorOnlyJSON(err.Error()))
	}
	return jsonText(`{"items":` + strconv.Itoa(n) + `}`)
}

func (b *bridge) personalFeed(args []js.Value) any {
	if b.pe == nil {
		return 0
	}
	c := b.readChunk(args[0])
	b.pe.feed(c)
	return len(c)
}

func (b *bridge) personalEnd(args []js.Value) any {
	if b.pe != nil {
		b.pe.s.end()
	}
	return nil
}

func (b *bridge) personalWanted(args []js.Value) any {
	if b.pe == nil {
		return 0
	}
	return b.pe.s.wanted()
}

func (b *bridge) personalRun(args []js.Value) any {
	if b.pe == nil {
		return noPersonal()
	}
	b.pe.run(time.Duration(args[0].Float() * float64(time.Millisecond)))
	return jsonText(b.pe.snapshotJSON())
}

func (b *bridge) personalCatalog(args []js.Value) any {
	if b.pe == nil {
		return jsonText(`{"items":[]}`)
	}
	return jsonText(b.pe.catalogJSON())
}

func (b *bridge) personalRate(args []js.Value) any {
	if b.pe == nil {
		return noPersonal()
	}
	return jsonText(b.pe.rate(args[0].Int(), args[1].Float(), topN(args, 2)))
}

func (b *bridge) personalRecommend(args []js.Value) any {
	if b.pe == nil {
		return noPersonal()
	}
	return jsonText(b.pe.recommend(topN(args, 0)))
}

func (b *bridge) personalClear(args []js.Value) any {
	if b.pe == nil {
		return noPersonal()
	}
	return jsonText(b.pe.clear(topN(args, 0)))
}

func (b *bridge) personalRatingsCSV(args []js.Value) any {
	if b.pe == nil || b.pe.p == nil {
		return ""
	}
	return string(b.pe.p.RatingsCSV())
}
