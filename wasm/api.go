//go:build js && wasm

package main

import (
	"errors"
	"syscall/js"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
)

// apiTable is the page's API, globalThis.occfm (see doc.go): one bridge method
// a function, each called with the JS arguments, each returning a value for
// JS. The picture and the library add theirs (pictureAPI, libAPI).
var apiTable = []struct {
	name string
	f    func(b *bridge, args []js.Value) any
}{
	{"learners", (*bridge).apiLearners},       // the registry: name, plain words, summary, regret guarantee, tasks, settings and defaults of every learner
	{"demos", (*bridge).apiDemos},             // the built-in demos
	{"start", (*bridge).apiStart},             // starts a session for the JSON config args[0]; returns its snapshot
	{"feed", (*bridge).apiFeed},               // gives the session's file the chunk args[0] (a Uint8Array); returns the bytes taken
	{"end", (*bridge).apiEnd},                 // says the file has no more chunks
	{"wanted", (*bridge).apiWanted},           // returns the bytes the session wants fed before it can go on
	{"run", (*bridge).apiRun},                 // learns for args[0] ms (at most args[1] rows); returns the run snapshot
	{"render", (*bridge).apiRender},           // redraws the Go-owned views if due
	{"snapshot", (*bridge).apiSnapshot},       // redraws the views and returns the full snapshot
	{"follow", (*bridge).apiFollow},           // makes the model views follow the learner args[0]
	{"reset", (*bridge).apiReset},             // starts the session again with the same config
	{"saveModel", (*bridge).apiSaveModel},     // returns the followed learner's model file
	{"modelHead", (*bridge).apiModelHead},     // checks a model file's header args[0] of a file of args[1] bytes
	{"loadModel", (*bridge).apiLoadModel},     // reads the model file args[0] for the next start
	{"forgetModel", (*bridge).apiForgetModel}, // forgets the loaded model
	{"head", (*bridge).apiHead},               // returns the first lines of the chunk args[0] as text
}

func (b *bridge) apiLearners(args []js.Value) any {
	var out []any
	for _, s := range core.Learners() {
		l := map[string]any{"name": s.Name, "plain": s.Plain, "summary": s.Summary}
		if s.Guarantee.Exponent > 0 {
			l["regretExponent"], l["regretSource"] = s.Guarantee.Exponent, s.Guarantee.Source
		}
		if s.Personal != "" {
			l["personal"] = s.Personal
		}
		if s.Mixture() {
			l["mixture"] = true
		}
		if s.Name == core.DefaultLearner {
			l["runDefault"] = true
		}
		if s.DeltaRule != "" {
			l["deltaText"] = s.DeltaRule
		}
		reg, regErr := core.DefaultConfig(s.Name, data.Regression)
		cls, clsErr := core.DefaultConfig(s.Name, data.Classification)
		var tasks []any
		if regErr == nil {
			tasks = append(tasks, "regression")
		}
		if clsErr == nil {
			tasks = append(tasks, "classification")
		}
		l["tasks"] = tasks
		l["takesDelta"], l["takesEta"] = s.Takes&core.TakesDelta != 0, s.Takes&core.TakesEta != 0
		l["pairs"], l["ball"] = !s.NoPairs, s.Ball
		if reg.Delta > 0 {
			l["delta"] = reg.Delta
		}
		if reg.Eta > 0 {
			l["eta"] = reg.Eta
		}
		if cls.Eta > 0 && cls.Eta != reg.Eta {
			l["etaClassification"] = cls.Eta
		}
		out = append(out, l)
	}
	return out
}

func (b *bridge) apiDemos(args []js.Value) any {
	var out []any
	for _, d := range demo.All() {
		out = append(out, map[string]any{"name": d.Name, "title": d.Title, "short": d.Short, "task": d.Task.String(), "best": d.Best})
	}
	return out
}

func (b *bridge) apiStart(args []js.Value) any {
	var cfg config
	if err := cfg.decodeJSON(args[0].String()); err != nil {
		return jsonText(errorSnapshot(errors.New("start: " + err.Error())))
	}
	return jsonText(b.start(cfg))
}

func (b *bridge) apiFeed(args []js.Value) any {
	if b.s == nil {
		return 0
	}
	c := b.readChunk(args[0])
	b.s.feed(c)
	return len(c)
}

func (b *bridge) apiEnd(args []js.Value) any {
	if b.s != nil {
		b.s.end()
	}
	return nil
}

func (b *bridge) apiWanted(args []js.Value) any {
	if b.s == nil {
		return 0
	}
	return b.s.wanted()
}

func (b *bridge) apiRun(args []js.Value) any {
	if b.s == nil {
		return jsonText(errorSnapshot(errNoSession))
	}
	ms, maxRows := args[0].Float(), 0
	if len(args) > 1 {
		maxRows = args[1].Int()
	}
	b.s.step(time.Now().Add(time.Duration(ms*float64(time.Millisecond))), maxRows)
	return jsonText(b.s.runSnapshotJSON())
}

func (b *bridge) apiRender(args []js.Value) any {
	if b.s != nil {
		b.render(false)
	}
	return nil
}

func (b *bridge) apiSnapshot(args []js.Value) any {
	if b.s == nil {
		return jsonText(errorSnapshot(errNoSession))
	}
	b.render(true)
	return jsonText(b.s.snapshotJSON())
}

func (b *bridge) apiFollow(args []js.Value) any {
	if b.s == nil || len(args) < 1 {
		return false
	}
	ok := b.s.setFollow(args[0].String())
	b.cfg.Follow = b.s.cfg.Follow
	b.render(true)
	return ok
}

func (b *bridge) apiReset(args []js.Value) any {
	return jsonText(b.start(b.cfg))
}

func (b *bridge) apiSaveModel(args []js.Value) any {
	if b.s == nil {
		return map[string]any{"error": "no session"}
	}
	file, m, err := b.s.saveModel()
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	return map[string]any{"bytes": uint8Array(file), "learner": m.Name, "rows": m.Rows}
}

func (b *bridge) apiModelHead(args []js.Value) any {
	head := make([]byte, min(args[0].Get("length").Int(), core.ModelHeaderLen))
	js.CopyBytesToGo(head, args[0])
	return modelHeadError(head, int64(args[1].Float()))
}

func (b *bridge) apiLoadModel(args []js.Value) any {
	file := make([]byte, args[0].Get("length").Int())
	js.CopyBytesToGo(file, args[0])
	out, m := loadModelJSON(file)
	if m != nil {
		b.loaded, b.fresh = file, m
	}
	return jsonText(out)
}

func (b *bridge) apiForgetModel(args []js.Value) any {
	b.loaded, b.fresh = nil, nil
	return nil
}

func (b *bridge) apiHead(args []js.Value) any {
	return string(headText(b.readChunk(args[0])))
}
