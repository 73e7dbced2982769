//go:build js && wasm

package main

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/occfm/occfm/core/personal"
)

// libAPI returns globalThis.occfm.lib: learners and recommenders for
// other pages (see libLearner and libRecommender), any number of them,
// each named by the id its create or load returns. They never touch the
// DOM, so they work in a Web Worker. A call that fails answers
// {error: "…"} and leaves the object as it was.
//
// occfm.js (ui/lib) is their caller, and the page's Personalize view,
// which drives a Recommender with the same calls: occfm.js checks the
// kinds of the values a page gives and passes lists of rows packed (see
// rowsOf): one crossing of the JS boundary per list rather than a few per
// value, which keeps both the calls and this bridge small.
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
	{"create", (*bridge).libCreate},                    // makes a learner (learner, task, delta, eta, seed, maxMemory); returns [id, learner, task]
	{"check", (*bridge).libCheck},                      // learner args[0] checks the packed rows args[1:7] numbered from args[7], a part of one list (args[8]: its first); learns none
	{"learn", (*bridge).libLearn},                      // learner args[0] learns the packed rows args[1:7] numbered from args[7]; returns its metrics
	{"predictMany", (*bridge).libPredictMany},          // learner args[0]'s ŷ for the packed rows args[1:6], without learning them; a Float64Array
	{"learnFile", (*bridge).libLearnFile},              // learner args[0] learns the data file args[1] (a Uint8Array) named args[2]; returns its metrics
	{"predictFile", (*bridge).libPredictFile},          // learner args[0]'s ŷ for each row of the data file args[1] named args[2]; a Float64Array
	{"save", (*bridge).libSave},                        // returns learner args[0]'s model file (a Uint8Array)
	{"load", (*bridge).libLoad},                        // makes a learner from the model file args[0]; returns [id, learner, task]
	{"close", (*bridge).libClose},                      // forgets learner or recommender args[0]
	{"defaults", (*bridge).libDefaults},                // returns [the learner Learner.create makes, the one Recommender.create makes] when none is named
	{"recCreate", (*bridge).recCreate},                 // makes a recommender (learner, seed); returns [id, learner]
	{"recItems", (*bridge).recItems},                   // recommender args[0] adds the items: count, ids, titles, tags
	{"recItemFile", (*bridge).recItemFile},             // recommender args[0] adds the items of the item list args[1] (bytes) named args[2]
	{"recLearn", (*bridge).recLearn},                   // recommender args[0] learns ratings: users, items, values, numbered from args[4]; returns [rows, rmse, the scale's lo, hi, step]
	{"recLearnSynthetic", (*bridge).recLearnSynthetic}, // recommender args[0] starts learning the synthetic catalog (recRun)
	{"recLearnFile", (*bridge).recLearnFile},           // recommender args[0] starts learning the ratings file named args[1] of args[2] bytes (recFeed, recEnd, recRun)
	{"recFeed", (*bridge).recFeed},                     // gives the ratings file the chunk args[1]; returns the bytes taken
	{"recEnd", (*bridge).recEnd},                       // says the ratings file has no more chunks
	{"recWanted", (*bridge).recWanted},                 // returns the bytes the ratings file's reader wants fed
	{"recRun", (*bridge).recRun},                       // learns the catalog for args[1] ms; returns its progress
	{"recStop", (*bridge).recStop},                     // stops the catalog being learned, nothing of it learned
	{"recCatalog", (*bridge).recCatalog},               // returns the catalog: items, their ratings' count and mean, the scale
	{"recRate", (*bridge).recRate},                     // the visitor gives item args[1] args[2] stars; returns the top args[3], ŷ before and the time in Go
	{"recTop", (*bridge).recTop},                       // returns the visitor's top args[1]
	{"recRated", (*bridge).recRated},                   // returns the visitor's ratings, each with ŷ before it
	{"recCSV", (*bridge).recCSV},                       // returns the visitor's ratings as CSV
	{"recClear", (*bridge).recClear},                   // forgets the visitor's ratings
}

// libDefaults returns the registry names of the learners Learner.create
// and Recommender.create make when none is named: libDefaultLearner and
// personal.DefaultLearner, the one place each is written.
func (b *bridge) libDefaults(args []js.Value) any {
	return []any{libDefaultLearner, personal.DefaultLearner}
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

// keep stores l under a new id and returns [id, learner, task].
func (b *bridge) keep(l *libLearner) any {
	if b.libs == nil {
		b.libs = map[int]*libLearner{}
	}
	b.nextLib++
	b.libs[b.nextLib] = l
	return []any{b.nextLib, l.name, l.cfg.Task.String()}
}

func (b *bridge) libCreate(args []js.Value) any {
	if len(args) < 5 {
		return libError(errors.New("create takes the learner, task, delta, eta and seed"))
	}
	var maxMemory int64
	if len(args) > 5 && args[5].Type() == js.TypeNumber {
		maxMemory = int64(args[5].Float())
	}
	l, err := newLibLearner(libSettings{Learner: args[0].String(), Task: args[1].String(),
		Delta: args[2].Float(), Eta: args[3].Float(), Seed: uint64(args[4].Float()), MaxMemory: maxMemory})
	if err != nil {
		return libError(err)
	}
	return b.keep(l)
}

// split returns s's n values separated by NUL (none for n = 0).
func split(s js.Value, n int) ([]string, error) {
	if n == 0 {
		return nil, nil
	}
	v := strings.Split(s.String(), "\x00")
	if len(v) != n {
		return nil, errors.New("packed list: " + strconv.Itoa(len(v)) + " values where " + strconv.Itoa(n) + " were counted")
	}
	return v, nil
}

// bytesOf copies the bytes of the typed array v.
func bytesOf(v js.Value) []byte {
	buf := make([]byte, v.Get("byteLength").Int())
	js.CopyBytesToGo(buf, js.Global().Get("Uint8Array").New(v.Get("buffer"), v.Get("byteOffset"), len(buf)))
	return buf
}

// floatsOf returns the values of the Float64Array v.
func floatsOf(v js.Value) []float64 {
	buf := bytesOf(v)
	out := make([]float64, len(buf)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(buf[8*i:]))
	}
	return out
}

// rowsOf unpacks the rows occfm.js packed (packRows) into args[k:k+6]:
// the features' names and string values (each list one string, NUL
// between values), their numbers (a Float64Array), their kinds (a
// Uint8Array, 1 for a string), the features of each row (a Uint32Array)
// and the labels (a Float64Array, empty when the rows have none).
func rowsOf(args []js.Value, k int) ([]libRow, error) {
	if len(args) < k+6 {
		return nil, errors.New("packed rows: missing")
	}
	kinds := bytesOf(args[k+3])
	counts := bytesOf(args[k+4])
	names, err := split(args[k], len(kinds))
	if err != nil {
		return nil, err
	}
	strs, err := split(args[k+1], len(kinds))
	if err != nil {
		return nil, err
	}
	nums, ys := floatsOf(args[k+2]), floatsOf(args[k+5])
	rows := make([]libRow, len(counts)/4)
	at := 0
	for r := range rows {
		n := int(binary.LittleEndian.Uint32(counts[4*r:]))
		if at+n > len(kinds) || len(nums) != len(kinds) || (len(ys) != 0 && len(ys) != len(rows)) {
			return nil, errors.New("packed rows: the lists differ in length")
		}
		x := make([]libField, n)
		for i := range x {
			x[i] = libField{name: names[at], num: nums[at], str: strs[at], isStr: kinds[at] == 1}
			at++
		}
		rows[r].x = x
		if len(ys) > 0 {
			rows[r].y = ys[r]
		}
	}
	return rows, nil
}

// libCheck checks a part of a list of rows as libLearn would learn it,
// and learns none: occfm.js checks every part of a list before it learns
// the first, so that a bad row leaves the learner as it was. args[8] true
// starts a new list.
func (b *bridge) libCheck(args []js.Value) any {
	l, rows, err := b.libRows(args)
	if err != nil {
		return libError(err)
	}
	st := b.checks[l]
	if st == nil || len(args) > 8 && args[8].Truthy() {
		if b.checks == nil {
			b.checks = map[*libLearner]*libCheck{}
		}
		st = newLibCheck()
		b.checks[l] = st
	}
	if _, err := l.checkRows(rows, firstOf(args, 7), st); err != nil {
		delete(b.checks, l)
		return libError(err)
	}
	return true
}

// libRows returns the learner args[0] and the packed rows args[1:7].
func (b *bridge) libRows(args []js.Value) (*libLearner, []libRow, error) {
	l, err := b.lib(args)
	if err != nil {
		return nil, nil, err
	}
	rows, err := rowsOf(args, 1)
	return l, rows, err
}

func (b *bridge) libLearn(args []js.Value) any {
	l, rows, err := b.libRows(args)
	if err != nil {
		return libError(err)
	}
	delete(b.checks, l) // the list's check is over: its names need not be held
	if err := l.learn(rows, firstOf(args, 7)); err != nil {
		return libError(err)
	}
	return l.metrics()
}

// metrics returns what learn returns: the rows learned and the
// progressive metrics of the task.
func (l *libLearner) metrics() any {
	s := l.summary()
	if l.cfg.Task.String() == "classification" {
		return []any{l.rows, s.ErrorRate, s.LogLoss, s.AUC}
	}
	return []any{l.rows, s.RMSE, s.MAE}
}

// firstOf returns args[k], the number of the first row of a part of a
// longer list (0 when absent), for the errors to name rows as the caller
// counts them.
func firstOf(args []js.Value, k int) int {
	if len(args) > k && args[k].Type() == js.TypeNumber && args[k].Int() > 0 {
		return args[k].Int()
	}
	return 0
}

func (b *bridge) libPredictMany(args []js.Value) any {
	l, rows, err := b.libRows(args)
	if err != nil {
		return libError(err)
	}
	out := make([]float64, len(rows))
	for i, r := range rows {
		if out[i], err = l.predict(r.x, "row "+strconv.Itoa(i)); err != nil {
			return libError(err)
		}
	}
	return float64Array(out)
}

// fileOf returns the learner args[0], and the bytes args[1] and name
// args[2] of a data file.
func (b *bridge) fileOf(args []js.Value) (*libLearner, []byte, string, error) {
	l, err := b.lib(args)
	if err != nil {
		return nil, nil, "", err
	}
	if len(args) < 3 || !args[1].InstanceOf(js.Global().Get("Uint8Array")) {
		return nil, nil, "", errors.New("a data file: want its bytes as a Uint8Array")
	}
	return l, bytesOf(args[1]), args[2].String(), nil
}

func (b *bridge) libLearnFile(args []js.Value) any {
	l, file, name, err := b.fileOf(args)
	if err == nil {
		err = l.learnFile(file, name)
	}
	if err != nil {
		return libError(err)
	}
	return l.metrics()
}

func (b *bridge) libPredictFile(args []js.Value) any {
	l, file, name, err := b.fileOf(args)
	var ys []float64
	if err == nil {
		ys, err = l.predictFile(file, name)
	}
	if err != nil {
		return libError(err)
	}
	return float64Array(ys)
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
	l, err := loadLibLearner(bytesOf(args[0]))
	if err != nil {
		return libError(err)
	}
	return b.keep(l)
}

func (b *bridge) libClose(args []js.Value) any {
	if len(args) == 0 || args[0].Type() != js.TypeNumber {
		return false
	}
	id := args[0].Int()
	l, isLib := b.libs[id]
	r, isRec := b.recs[id]
	if isRec {
		r.stopCatalog() // its file's reading coroutine
	}
	delete(b.checks, l)
	delete(b.libs, id)
	delete(b.recs, id)
	return isLib || isRec
}
