package personal

import "math"

// RP3Beta is the name of the RP3beta baseline of TopN.
const RP3Beta = "rp3beta"

// DefaultRP3Alpha and DefaultRP3Beta are RP3beta's α and β when none are
// given: the best, in hits@10 and tail hits@10 at K = 10, of the sweep of
// α ∈ {0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1, 1.2} and β ∈ {0, 0.05, 0.1,
// 0.2, 0.4, 0.6} on ML-100K, seed 1 (docs/personalize.md): α near 0 (the
// walk's weights close to the co-occurrence counts) and no division by
// popularity, as ease's best λ is the largest tried. In this protocol
// what a person rates later is mostly what many rate.
const (
	DefaultRP3Alpha = 0.01
	DefaultRP3Beta  = 0
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
	sets, err := newItemSets(stream, cat, RP3Beta)
	if err != nil {
		return nil, err
	}
	n := len(sets.items)
	deg := make([]float64, n)
	for _, s := range sets.people {
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
	for _, s := range sets.people {
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
	return sets.list(w), nil
}
