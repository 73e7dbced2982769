package personal

import (
	"errors"
	"math"
	"slices"

	"github.com/occfm/occfm/core/internal/str"
)

// RP3Beta is the name of the RP3beta baseline of TopN.
const RP3Beta = "rp3beta"

// NoRP3Beta, as TopNSettings.RP3Beta, asks for β = 0 (no division by
// popularity), since zero means the default.
const NoRP3Beta = -1

// DefaultRP3Alpha and DefaultRP3Beta are RP3beta's α and β when none are
// given: the best, in hits@10 and tail hits@10 at K = 10, of the sweep of
// α ∈ {0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1, 1.2} and β ∈ {0, 0.05, 0.1,
// 0.2, 0.4, 0.6} on ML-100K, seed 1 (docs/personalize.md): α near 0 (the
// walk's weights close to the co-occurrence counts) and no division by
// popularity, as ease's best λ is the largest tried. In this protocol
// what a person rates later is mostly what many rate.
const (
	DefaultRP3Alpha = 0.01
	DefaultRP3Beta  = NoRP3Beta
)

// newRP3Beta is RP3beta (Paudel, Christoffel, Newell and Bernstein 2017,
// "Updatable, accurate, diverse, and scalable recommendations for
// interactive applications"; the strongest of the tuned baselines of
// Dacrema, Cremonesi and Jannach, RecSys 2019): a random walk of three
// steps, item → person → item, on the learned people's binary person ×
// item graph, each transition probability raised to α, and the arrival
// item's score divided by its popularity to the power β:
//
//	W_ij = deg(j)^−β · Σ_u (1/deg(i))^α · (1/deg(u))^α  over the people u who rated i and j
//
// with W_ii = 0. A person who rated the set S gets the score Σ_{i∈S} W_ij
// for item j. Like ease, it holds one dense n×n matrix (8n² bytes) and
// refuses more than MaxEASEItems items; building it costs Σ_u deg(u)².
func newRP3Beta(stream *learned, cat *Catalog, alpha, beta float64) (*scoredList, error) {
	dense := make(map[int]int) // feature → dense index
	var items []int            // dense index → catalog index
	for k, it := range cat.Items {
		if it.Feature >= 0 {
			dense[it.Feature] = len(items)
			items = append(items, k)
		}
	}
	n := len(items)
	if n > MaxEASEItems {
		return nil, errors.New("core: TopN: rp3beta on " + str.Itoa(n) + " items would hold a dense " + str.Itoa(n) + "² matrix (" +
			str.Thousands(int64(8*n*n>>20)) + " MiB): at most " + str.Thousands(MaxEASEItems) + " items")
	}
	byUser := map[int32][]int{}
	var users []int32
	for _, r := range stream.rows {
		if _, ok := byUser[r.user]; !ok {
			users = append(users, r.user)
		}
		byUser[r.user] = append(byUser[r.user], dense[int(r.item)])
	}
	deg := make([]float64, n)
	for _, u := range users {
		s := byUser[u]
		slices.Sort(s)
		s = slices.Compact(s)
		byUser[u] = s
		for _, i := range s {
			deg[i]++
		}
	}
	from := make([]float64, n) // (1/deg(i))^α
	to := make([]float64, n)   // deg(j)^−β
	for i, d := range deg {
		if d > 0 {
			from[i], to[i] = math.Pow(d, -alpha), math.Pow(d, -beta)
		}
	}
	w := make([]float64, n*n)
	for _, u := range users {
		s := byUser[u]
		pu := math.Pow(float64(len(s)), -alpha)
		for _, i := range s {
			row := w[i*n : (i+1)*n]
			f := from[i] * pu
			for _, j := range s {
				row[j] += f
			}
		}
	}
	for i := range n {
		row := w[i*n : (i+1)*n]
		for j := range row {
			row[j] *= to[j]
		}
		row[i] = 0
	}
	m := &scoredList{cat: cat, score: make([]float64, len(cat.Items)), rated: map[int]bool{}, person: make([]float64, len(cat.Items))}
	m.add = func(item int, person []float64) {
		i := dense[cat.Items[item].Feature]
		for j, v := range w[i*n : (i+1)*n] {
			person[items[j]] += v
		}
	}
	return m, nil
}
