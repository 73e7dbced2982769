//go:build js && wasm

package main

import (
	"errors"
	"strconv"
	"syscall/js"
)

// libAPI returns globalThis.occfm.lib: learners for other pages (see
// libLearner), any number of them, each named by the id create or load
// returns. They never touch the DOM, so they work in a Web Worker. A call
// that fails answers {error: "…"} and leaves the learner as it was.
func (b *bridge) libAPI() js.Value {
	api := js.Global().Get("Object").New()
	for _, e := range libTable {
		setFunc(api, e.name, func(args []js.Value) any { return e.f(b, args) }, func(p any) any {
			return map[string]any{"error": "internal error in lib." + e.name + ": " + panicText(p) + " (please report it)"}
		})
	}
	return api
}

// libTable is globalThis.occfm.lib's functions.
var libTable = []struct {
	name string
	f    func(b *bridge, args []js.Value) any
}{
	{"create", (*bridge).libCreate},           // makes a learner for the settings args[0]; returns {id}
	{"learn", (*bridge).libLearn},             // learner args[0] learns the rows args[1]; returns its progressive metrics
	{"predict", (*bridge).libPredict},         // learner args[0]'s ŷ for the features args[1], without learning them
	{"predictMany", (*bridge).libPredictMany}, // the same for an array of feature objects; returns an array
	{"save", (*bridge).libSave},               // returns learner args[0]'s model file (a Uint8Array)
	{"load", (*bridge).libLoad},               // makes a learner from the model file args[0]; returns {id, learner, task, rows}
	{"close", (*bridge).libClose},             // forgets learner args[0]
}

func libError(err error) any { return map[string]any{"error": err.Error()} }

// lib returns the learner whose id is args[0].
func (b *bridge) lib(args []js.Value) (*libLearner, error) {
	if len(args) == 0 || args[0].Type() != js.TypeNumber {
		return nil, errors.New("no learner id: pass the id create or load returned")
	}
	l := b.libs[args[0].Int()]
	if l == nil {
		return nil, errors.New("no learner " + strconv.Itoa(args[0].Int()) + ": closed, or never made")
	}
	return l, nil
}

// keep stores l under a new id and returns its description.
func (b *bridge) keep(l *libLearner) any {
	if b.libs == nil {
		b.libs = map[int]*libLearner{}
	}
	b.nextLib++
	b.libs[b.nextLib] = l
	return map[string]any{"id": b.nextLib, "learner": l.name, "task": l.cfg.Task.String(), "rows": l.rows}
}

func (b *bridge) libCreate(args []js.Value) any {
	var s libSettings
	if len(args) > 0 && args[0].Type() == js.TypeObject {
		o := args[0]
		for _, f := range []struct {
			name string
			dst  *string
		}{{"learner", &s.Learner}, {"task", &s.Task}} {
			switch v := o.Get(f.name); v.Type() {
			case js.TypeUndefined:
			case js.TypeString:
				*f.dst = v.String()
			default:
				return libError(errors.New(f.name + " must be a string"))
			}
		}
		for _, f := range []struct {
			name string
			dst  *float64
		}{{"delta", &s.Delta}, {"eta", &s.Eta}} {
			switch v := o.Get(f.name); v.Type() {
			case js.TypeUndefined:
			case js.TypeNumber:
				*f.dst = v.Float()
			default:
				return libError(errors.New(f.name + " must be a number"))
			}
		}
		if v := o.Get("seed"); v.Type() == js.TypeNumber && v.Float() >= 0 {
			s.Seed = uint64(v.Float())
		} else if v.Type() != js.TypeUndefined {
			return libError(errors.New("seed must be a number ≥ 0"))
		}
	}
	l, err := newLibLearner(s)
	if err != nil {
		return libError(err)
	}
	return b.keep(l)
}

// fields reads the JS object x ({name: value}) as a row's features.
func fields(x js.Value, where string) ([]libField, error) {
	if x.Type() != js.TypeObject || x.InstanceOf(js.Global().Get("Array")) {
		return nil, errors.New(where + ": x must be an object of named values, {name: value}")
	}
	keys := js.Global().Get("Object").Call("keys", x)
	out := make([]libField, 0, keys.Length())
	for i := 0; i < keys.Length(); i++ {
		name := keys.Index(i).String()
		switch v := x.Get(name); v.Type() {
		case js.TypeNumber:
			out = append(out, libField{name: name, num: v.Float()})
		case js.TypeString:
			out = append(out, libField{name: name, str: v.String(), isStr: true})
		case js.TypeBoolean:
			if v.Bool() {
				out = append(out, libField{name: name, num: 1})
			}
		default:
			return nil, errors.New(where + `: feature "` + name + `" is ` + v.Type().String() + ": want a number, a string or a boolean")
		}
	}
	return out, nil
}

func (b *bridge) libLearn(args []js.Value) any {
	l, err := b.lib(args)
	if err != nil {
		return libError(err)
	}
	if len(args) < 2 || !args[1].InstanceOf(js.Global().Get("Array")) {
		return libError(errors.New("rows must be an array of {x: {name: value}, y}"))
	}
	rows := make([]libRow, args[1].Length())
	for r := range rows {
		where := "row " + strconv.Itoa(r)
		o := args[1].Index(r)
		if o.Type() != js.TypeObject {
			return libError(errors.New(where + ": want an object {x, y}"))
		}
		x, err := fields(o.Get("x"), where)
		if err != nil {
			return libError(err)
		}
		switch y := o.Get("y"); y.Type() {
		case js.TypeNumber:
			rows[r] = libRow{x: x, y: y.Float()}
		case js.TypeBoolean:
			rows[r] = libRow{x: x, y: map[bool]float64{true: 1, false: 0}[y.Bool()]}
		default:
			return libError(errors.New(where + ": y is " + y.Type().String() + ": want a number"))
		}
	}
	if err := l.learn(rows); err != nil {
		return libError(err)
	}
	s := l.summary()
	out := map[string]any{"rows": l.rows}
	if l.cfg.Task.String() == "classification" {
		out["errorRate"], out["logLoss"], out["auc"] = s.ErrorRate, s.LogLoss, s.AUC
	} else {
		out["rmse"], out["mae"] = s.RMSE, s.MAE
	}
	return out
}

func (b *bridge) libPredict(args []js.Value) any {
	l, err := b.lib(args)
	if err != nil {
		return libError(err)
	}
	if len(args) < 2 {
		return libError(errors.New("x: missing"))
	}
	x, err := fields(args[1], "x")
	if err != nil {
		return libError(err)
	}
	y, err := l.predict(x, "x")
	if err != nil {
		return libError(err)
	}
	return y
}

func (b *bridge) libPredictMany(args []js.Value) any {
	l, err := b.lib(args)
	if err != nil {
		return libError(err)
	}
	if len(args) < 2 || !args[1].InstanceOf(js.Global().Get("Array")) {
		return libError(errors.New("xs must be an array of {name: value} objects"))
	}
	out := make([]any, args[1].Length())
	for i := range out {
		where := "xs[" + strconv.Itoa(i) + "]"
		x, err := fields(args[1].Index(i), where)
		if err != nil {
			return libError(err)
		}
		y, err := l.predict(x, where)
		if err != nil {
			return libError(err)
		}
		out[i] = y
	}
	return out
}

func (b *bridge) libSave(args []js.Value) any {
	l, err := b.lib(args)
	if err != nil {
		return libError(err)
	}
	file, err := l.save()
	if err != nil {
		return libError(err)
	}
	return uint8Array(file)
}

func (b *bridge) libLoad(args []js.Value) any {
	if len(args) == 0 || !args[0].InstanceOf(js.Global().Get("Uint8Array")) {
		return libError(errors.New("load takes a model file as a Uint8Array"))
	}
	buf := make([]byte, args[0].Length())
	js.CopyBytesToGo(buf, args[0])
	l, err := loadLibLearner(buf)
	if err != nil {
		return libError(err)
	}
	return b.keep(l)
}

func (b *bridge) libClose(args []js.Value) any {
	if len(args) == 0 || args[0].Type() != js.TypeNumber || b.libs[args[0].Int()] == nil {
		return false
	}
	delete(b.libs, args[0].Int())
	return true
}
