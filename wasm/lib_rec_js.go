//go:build js && wasm

package main

import (
	"errors"
	"strconv"
	"strings"
	"syscall/js"
	"time"
)

// The Recommender's calls of occfm.lib (libTable): each takes the id
// recCreate returned first. Their callers are occfm.js's Recommender and
// the page's Personalize view (ui/js/personalize). occfm.js checks the
// kinds of the values and passes lists of strings as one string, the
// values separated by NUL (and an item's tags by U+0001), which no value
// holds: one crossing of the JS boundary for a whole list, and a small
// bridge. The answers that are lists or records (a top list, the catalog,
// a catalog's progress) are JSON the bridge hands to JSON.parse
// (jsonText): plain JS values in one crossing.

// rec returns the recommender whose id is args[0].
func (b *bridge) rec(args []js.Value) (*libRecommender, error) {
	if len(args) == 0 || args[0].Type() != js.TypeNumber {
		return nil, errors.New("no recommender id: pass the id recCreate returned")
	}
	r := b.recs[args[0].Int()]
	if r == nil {
		return nil, errors.New("no recommender " + strconv.Itoa(args[0].Int()) + ": closed, or never made")
	}
	return r, nil
}

// recCreate makes a recommender of the learner args[0] ("": the default)
// and seed args[1]; returns [id, learner].
func (b *bridge) recCreate(args []js.Value) any {
	name, seed := "", uint64(0)
	if len(args) > 1 {
		name, seed = args[0].String(), uint64(args[1].Float())
	}
	r, err := newLibRecommender(name, seed)
	if err != nil {
		return libError(err)
	}
	if b.recs == nil {
		b.recs = map[int]*libRecommender{}
	}
	b.nextLib++
	b.recs[b.nextLib] = r
	return []any{b.nextLib, r.name}
}

// recItems adds the args[1] items of ids args[2], titles args[3] and tags
// args[4].
func (b *bridge) recItems(args []js.Value) any {
	r, err := b.rec(args)
	if err != nil {
		return libError(err)
	}
	if len(args) < 5 {
		return libError(errors.New("items: missing"))
	}
	var lists [3][]string
	for k := range lists {
		if lists[k], err = split(args[2+k], args[1].Int()); err != nil {
			return libError(err)
		}
	}
	ids, titles, tags := lists[0], lists[1], lists[2]
	items := make([]libItem, len(ids))
	for k := range items {
		items[k] = libItem{id: ids[k], title: titles[k]}
		if tags[k] != "" {
			items[k].tags = strings.Split(tags[k], "\x01")
		}
	}
	if err := r.setItems(items); err != nil {
		return libError(err)
	}
	return len(r.items)
}

// recLearn learns the ratings of users args[1], items args[2] and values
// args[3] (a Float64Array), numbered from args[4].
func (b *bridge) recLearn(args []js.Value) any {
	r, err := b.rec(args)
	if err != nil {
		return libError(err)
	}
	if len(args) < 4 {
		return libError(errors.New("ratings: missing"))
	}
	values := floatsOf(args[3])
	users, err := split(args[1], len(values))
	if err != nil {
		return libError(err)
	}
	items, err := split(args[2], len(values))
	if err != nil {
		return libError(err)
	}
	ratings := make([]libRating, len(users))
	for k := range ratings {
		ratings[k] = libRating{user: users[k], item: items[k], rating: values[k]}
	}
	if err := r.learn(ratings, firstOf(args, 4)); err != nil {
		return libError(err)
	}
	sc := r.scale()
	return []any{r.rows, r.m.Summary().RMSE, sc.Lo, sc.Hi, sc.Step}
}

// topN returns args[k], the number of items a top list holds, or 10.
func topN(args []js.Value, k int) int {
	if len(args) > k && args[k].Type() == js.TypeNumber {
		return args[k].Int()
	}
	return 10
}

// recRate gives item args[1] args[2] stars and returns {top, before, ms}
// (libRateAnswer).
func (b *bridge) recRate(args []js.Value) any {
	r, err := b.rec(args)
	if err != nil {
		return libError(err)
	}
	if len(args) < 3 {
		return libError(errors.New("rate takes an item id and stars"))
	}
	a, err := r.rateTop(args[1].String(), args[2].Float(), topN(args, 3))
	if err != nil {
		return libError(err)
	}
	return jsonText(jsonString(&a))
}

// recTop returns the visitor's top args[1].
func (b *bridge) recTop(args []js.Value) any {
	r, err := b.rec(args)
	if err != nil {
		return libError(err)
	}
	top, err := r.top(topN(args, 1))
	if err != nil {
		return libError(err)
	}
	return jsonText(jsonString(libTop(top)))
}

func (b *bridge) recClear(args []js.Value) any {
	r, err := b.rec(args)
	if err != nil {
		return libError(err)
	}
	r.clear()
	return true
}

// recRated returns the visitor's ratings [{id, stars, before}].
func (b *bridge) recRated(args []js.Value) any {
	r, err := b.rec(args)
	if err != nil {
		return libError(err)
	}
	g, err := r.given()
	if err != nil {
		return libError(err)
	}
	return jsonText(jsonString(g))
}

// recCSV returns the visitor's ratings as CSV.
func (b *bridge) recCSV(args []js.Value) any {
	r, err := b.rec(args)
	if err != nil {
		return libError(err)
	}
	csv, err := r.ratingsCSV()
	if err != nil {
		return libError(err)
	}
	return csv
}

// recCatalog returns the catalog (libCatalog).
func (b *bridge) recCatalog(args []js.Value) any {
	r, err := b.rec(args)
	if err != nil {
		return libError(err)
	}
	c, err := r.catalog()
	if err != nil {
		return libError(err)
	}
	return jsonText(jsonString(&c))
}

// recItemFile adds the items of the item list args[1] (a Uint8Array)
// named args[2]; returns the number of items.
func (b *bridge) recItemFile(args []js.Value) any {
	r, err := b.rec(args)
	if err != nil {
		return libError(err)
	}
	if len(args) < 3 || !args[1].InstanceOf(js.Global().Get("Uint8Array")) {
		return libError(errors.New("an item list: want its bytes as a Uint8Array"))
	}
	if err := r.itemFile(bytesOf(args[1]), args[2].String()); err != nil {
		return libError(err)
	}
	return len(r.items)
}

// recLearnSynthetic starts learning the synthetic catalog.
func (b *bridge) recLearnSynthetic(args []js.Value) any {
	r, err := b.rec(args)
	if err == nil {
		err = r.learnCatalog("", 0)
	}
	if err != nil {
		return libError(err)
	}
	return true
}

// recLearnFile starts learning the ratings file named args[1] of args[2]
// bytes, which recFeed and recEnd give.
func (b *bridge) recLearnFile(args []js.Value) any {
	r, err := b.rec(args)
	if err == nil && (len(args) < 3 || args[1].String() == "") {
		err = errors.New("a ratings file: its name and size are missing")
	}
	if err == nil {
		err = r.learnCatalog(args[1].String(), int64(args[2].Float()))
	}
	if err != nil {
		return libError(err)
	}
	return true
}

// recFeed gives the ratings file the chunk args[1] (a Uint8Array); returns
// the bytes taken.
func (b *bridge) recFeed(args []js.Value) any {
	r, err := b.rec(args)
	var c *libCatalogRun
	if err == nil {
		c, err = r.catalogFile()
	}
	if err == nil && len(args) < 2 {
		err = errors.New("feed takes a chunk")
	}
	if err != nil {
		return libError(err)
	}
	p := b.readChunk(args[1])
	c.feed(p)
	return len(p)
}

// recEnd says the ratings file has no more chunks.
func (b *bridge) recEnd(args []js.Value) any {
	r, err := b.rec(args)
	var c *libCatalogRun
	if err == nil {
		c, err = r.catalogFile()
	}
	if err != nil {
		return libError(err)
	}
	c.s.end()
	return true
}

// recWanted returns the bytes the ratings file's reader would like fed (0
// when it has enough, or no file is being learned).
func (b *bridge) recWanted(args []js.Value) any {
	r, err := b.rec(args)
	if err != nil {
		return 0
	}
	c, err := r.catalogFile()
	if err != nil {
		return 0
	}
	return c.s.wanted()
}

// recRun learns the catalog for at most args[1] ms; returns its progress
// (libProgress).
func (b *bridge) recRun(args []js.Value) any {
	r, err := b.rec(args)
	if err != nil {
		return libError(err)
	}
	ms := 0.0
	if len(args) > 1 {
		ms = args[1].Float()
	}
	p, err := r.run(time.Duration(ms * float64(time.Millisecond)))
	if err != nil {
		return libError(err)
	}
	return jsonText(jsonString(&p))
}

// recStop stops the catalog being learned, nothing of it learned.
func (b *bridge) recStop(args []js.Value) any {
	r, err := b.rec(args)
	if err != nil {
		return libError(err)
	}
	r.stopCatalog()
	return true
}
