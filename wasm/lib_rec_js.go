//go:build js && wasm

package main

import (
	"errors"
	"strconv"
	"strings"
	"syscall/js"
)

// The Recommender's calls of occfm.lib (libTable): each takes the id
// recCreate returned first. occfm.js checks the kinds of the values and
// passes lists of strings as one string, the values separated by NUL
// (and an item's tags by U+0001), which no value holds: one crossing of
// the JS boundary for a whole list, and a small bridge.

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

// recTopOf returns the top args[k] (default 10) as one string: an item
// per NUL-separated record, its fields id, title, score, rank and reasons
// separated by U+0001.
func (b *bridge) recTopOf(r *libRecommender, args []js.Value, k int) any {
	n := 10
	if len(args) > k && args[k].Type() == js.TypeNumber {
		n = args[k].Int()
	}
	top, err := r.top(n)
	if err != nil {
		return libError(err)
	}
	var s []byte
	for i, t := range top {
		if i > 0 {
			s = append(s, 0)
		}
		s = strconv.AppendFloat(append(append(append(append(s, t.ID...), 1), t.Title...), 1), t.Score, 'g', -1, 64)
		s = strconv.AppendFloat(append(s, 1), t.Rank, 'g', -1, 64)
		for _, why := range t.Reasons {
			s = append(append(s, 1), why...)
		}
	}
	return string(s)
}

// recRate gives item args[1] args[2] stars and returns the top args[3].
func (b *bridge) recRate(args []js.Value) any {
	r, err := b.rec(args)
	if err != nil {
		return libError(err)
	}
	if len(args) < 3 {
		return libError(errors.New("rate takes an item id and stars"))
	}
	if err := r.rate(args[1].String(), args[2].Float()); err != nil {
		return libError(err)
	}
	return b.recTopOf(r, args, 3)
}

func (b *bridge) recTop(args []js.Value) any {
	r, err := b.rec(args)
	if err != nil {
		return libError(err)
	}
	return b.recTopOf(r, args, 1)
}

func (b *bridge) recClear(args []js.Value) any {
	r, err := b.rec(args)
	if err != nil {
		return libError(err)
	}
	r.clear()
	return true
}
