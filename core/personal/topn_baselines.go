package personal

import (
	"errors"
	"io"
	"slices"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
	"gonum.org/v1/gonum/blas"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
)

// DefaultEASELambda is the ease baseline's λ when none is given: the best,
// in hits@10 and tail hits@10 at K = 10, of the sweep 50, 200, 1,000,
// 5,000, 20,000, 10⁵ and 10⁶ on ML-100K, seed 1 (docs/personalize.md). So
// large a λ leaves B close to the co-occurrence counts XᵀX/λ: in this
// protocol, where what a person rates later is mostly what many rate,
// EASE's usual λ of a few hundred loses a third of its hits.
const DefaultEASELambda = 1e6

// MaxEASEItems bounds the items of the ease baseline, whose dense n×n
// inverse takes 8n² bytes (800 MB at 10,000 items).
const MaxEASEItems = 10_000

// learnStream learns the stream with the named learner as the page learns
// a catalog: guarded for ratings (predictions clipped to the range seen),
// one core.Play a rating.
func learnStream(name string, stream *learned, seed uint64) (core.Learner, error) {
	l, err := core.NewGuarded(name, core.Config{Task: data.Regression, Seed: seed}, core.GuardFor("on", "", true))
	if err != nil {
		return nil, err
	}
	stream.next = 0
	var ex data.Example
	for {
		if err := stream.Next(&ex); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		core.Play(l, ex, nil)
	}
	return l, nil
}

// personModel asks a Personalizer, as the page does.
type personModel struct{ p *Personalizer }

func (m personModel) reset() { m.p.Clear() }
func (m personModel) rate(item int, stars float64) {
	if _, err := m.p.Rate(item, stars); err != nil {
		panic("core: TopN: " + err.Error())
	}
}
func (m personModel) rank(n int, keep func(int) bool) []int { return m.p.Rank(n, keep) }
func (m personModel) predict(item int) (float64, bool)      { return m.p.Predict(item), true }

// scoredList is a baseline: a fixed score per catalog item (score), plus,
// for ease, the person's part (person), ranked over the unrated items.
type scoredList struct {
	cat    *Catalog
	score  []float64 // by catalog index
	rated  map[int]bool
	add    func(item int, person []float64) // adds a rated item's row to person
	person []float64
	yhat   []float64 // clipped predictions by catalog index (highest-bias), or nil
}

func (m *scoredList) reset() {
	clear(m.rated)
	clear(m.person)
}

func (m *scoredList) rate(item int, stars float64) {
	if m.rated[item] {
		return
	}
	m.rated[item] = true
	if m.add != nil {
		m.add(item, m.person)
	}
}

func (m *scoredList) rank(n int, keep func(int) bool) []int {
	var cand []int
	var sc []float64
	for k, it := range m.cat.Items {
		if it.Feature < 0 || m.rated[k] || keep != nil && !keep(k) {
			continue
		}
		cand = append(cand, k)
		v := m.score[k]
		if m.person != nil {
			v += m.person[k]
		}
		sc = append(sc, v)
	}
	top, _ := topByScore(cand, sc, n, m.cat.Items)
	return top
}

func (m *scoredList) predict(item int) (float64, bool) {
	if m.yhat == nil {
		return 0, false
	}
	return m.yhat[item], true
}

// newMostRated ranks by Count: what most people rated, the same for all.
func newMostRated(cat *Catalog) *scoredList {
	m := &scoredList{cat: cat, score: make([]float64, len(cat.Items)), rated: map[int]bool{}}
	for k, it := range cat.Items {
		m.score[k] = float64(it.Count)
	}
	return m
}

// newHighestBias ranks by the bias learner's ŷ({item}), its cold start (for
// a new person it is the same order whatever they rate), and predicts it.
func newHighestBias(stream *learned, cat *Catalog, seed uint64) (*scoredList, error) {
	l, err := learnStream("bias", stream, seed)
	if err != nil {
		return nil, err
	}
	m := &scoredList{cat: cat, score: make([]float64, len(cat.Items)), rated: map[int]bool{}, yhat: make([]float64, len(cat.Items))}
	x := data.Sparse{Ind: []int{0}, Val: []float64{1}}
	for k, it := range cat.Items {
		if it.Feature < 0 {
			continue
		}
		x.Ind[0] = it.Feature
		m.score[k] = l.Predict(x)
		m.yhat[k] = cat.Scale.Clip(m.score[k])
	}
	return m, nil
}

// newEASE is EASE (Steck 2019, "Embarrassingly shallow autoencoders for
// sparse data"): with X the learned people's binary person × item matrix,
// P = (XᵀX + λI)⁻¹ and B = I − P·diag(1/Pⱼⱼ) (the ridge regression of each
// item's column on the others', diagonal constrained to 0), a person who
// rated the set S gets the score Σ_{i∈S} Bᵢⱼ for item j. It holds one dense
// n×n matrix (8n² bytes: 23 MB for ML-100K's 1,682 items, 110 MB for
// 3,700) and costs O(n³) to build; more than MaxEASEItems items are
// refused.
func newEASE(stream *learned, cat *Catalog, lambda float64) (*scoredList, error) {
	sets, err := newItemSets(stream, cat, EASE)
	if err != nil {
		return nil, err
	}
	n := len(sets.items)
	// G = XᵀX + λI, upper triangle, row-major.
	a := make([]float64, n*n)
	for _, s := range sets.people {
		for x, i := range s {
			for _, j := range s[x:] {
				a[i*n+j]++
			}
		}
	}
	for i := range n {
		a[i*n+i] += lambda
	}
	impl := lapackgonum.Implementation{}
	if !impl.Dpotrf(blas.Upper, n, a, n) || !impl.Dpotri(blas.Upper, n, a, n) {
		return nil, errors.New("core: TopN: ease: XᵀX + λI is not positive definite (λ = " + str.Ftoa(lambda) + ")")
	}
	for i := range n {
		for j := range i {
			a[i*n+j] = a[j*n+i]
		}
	}
	diag := make([]float64, n)
	for j := range n {
		diag[j] = a[j*n+j]
	}
	for i := range n {
		row := a[i*n : (i+1)*n]
		for j := range row {
			row[j] = -row[j] / diag[j]
		}
		row[i] = 0
	}
	return sets.list(a), nil
}

// itemSets are the learned people's item sets for the baselines that hold
// a dense item × item matrix (ease, rp3beta): the catalog's items that the
// stream rated, numbered densely, and each person's set, sorted, a rating
// given twice counted once.
type itemSets struct {
	cat    *Catalog
	dense  map[int]int // feature → dense index
	items  []int       // dense index → catalog index
	people [][]int     // each person's dense indices, in the order people first rate
}

// newItemSets returns the item sets of stream; more than MaxEASEItems
// items are refused (8n² bytes for the n×n matrix of the baseline named).
func newItemSets(stream *learned, cat *Catalog, name string) (*itemSets, error) {
	s := &itemSets{cat: cat, dense: map[int]int{}}
	for k, it := range cat.Items {
		if it.Feature >= 0 {
			s.dense[it.Feature] = len(s.items)
			s.items = append(s.items, k)
		}
	}
	if n := len(s.items); n > MaxEASEItems {
		return nil, errors.New("core: TopN: " + name + " on " + str.Itoa(n) + " items would hold a dense " + str.Itoa(n) + "² matrix (" +
			str.Thousands(int64(8*n*n>>20)) + " MiB): at most " + str.Thousands(MaxEASEItems) + " items")
	}
	person := map[int32]int{} // user → index in people
	for _, r := range stream.rows {
		k, ok := person[r.user]
		if !ok {
			k = len(s.people)
			person[r.user] = k
			s.people = append(s.people, nil)
		}
		s.people[k] = append(s.people[k], s.dense[int(r.item)])
	}
	for k, p := range s.people {
		slices.Sort(p)
		s.people[k] = slices.Compact(p)
	}
	return s, nil
}

// list returns the baseline that scores item j, for a person who rated
// the set S, Σ_{i∈S} w[i·n + j] (w row-major n×n over the dense items).
func (s *itemSets) list(w []float64) *scoredList {
	n := len(s.items)
	m := &scoredList{cat: s.cat, score: make([]float64, len(s.cat.Items)), rated: map[int]bool{}, person: make([]float64, len(s.cat.Items))}
	m.add = func(item int, person []float64) {
		i := s.dense[s.cat.Items[item].Feature]
		for j, v := range w[i*n : (i+1)*n] {
			person[s.items[j]] += v
		}
	}
	return m
}
