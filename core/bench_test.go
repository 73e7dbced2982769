package core

import (
	"flag"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/internal/str"
)

// The benchmarks of the learners. Each times rounds of a learner in its
// steady state, after a warm-up, with allocations reported (b.ReportAllocs)
// and the throughput as the custom metric "updates/s" (rounds per second of
// wall-clock time). All go through benchRounds:
//
//   - BenchmarkLearners/<learner>/d=<d>: every registered learner with its
//     default Config, predict-then-update rounds (Play) on MovieLens-like
//     synthetic ratings (ratingStream) with d one-hot features, d = 100,
//     1000, 10000. One pass over the 4096 rows warms the learner up, then the
//     timed rounds cycle over the same rows: no feature or pair is new, so
//     the rounds are the steady state that 0 allocs/op refers to. The
//     sub-benchmarks in slowBench skip unless -slowbench is given.
//   - BenchmarkLearnersData/<data set>/<learner>: the same on real data when
//     ../shared/data is present (skipped otherwise): ML-100K (regression)
//     and IJCNN1 (classification), shuffled with seed 1; the first 10,000
//     rows warm up, the timed rounds continue through the file and wrap
//     around at its end, so they include the growth of a real stream (new
//     users, items and pairs), and allocations with it.
//   - benchmarkUpdate (BenchmarkOCCFMUpdate, BenchmarkCCFMOGDUpdate, …):
//     Update alone on userItemStream, after a warm-up of 4096 rows.

// benchSizes are the feature counts of BenchmarkLearners.
var benchSizes = []int{100, 1000, 10000}

var slowBenchFlag = flag.Bool("slowbench", false, "also run the benchmarks of slowBench, whose warm-up takes minutes")

// slowBench lists the sub-benchmarks of BenchmarkLearners that run only
// with -slowbench (go test -run '^$' -bench Learners ./core/ -args
// -slowbench), with the reason. CCFM-FTRL at d = 10⁴ holds k ≈ 400 Ritz
// vectors after 4096 rounds, so each round rotates a k×k basis (O(k³)) and
// each of its 64 Lanczos refreshes runs ~500 steps with full
// reorthogonalization at n = 10⁴: the warm-up alone took 2 minutes
// (then about 17 ms per round).
var slowBench = map[string]string{
	"ccfm-ftrl/d=10000": "a warm-up of about 2 minutes (k ≈ 400 held Ritz vectors at n = 10⁴)",
}

// benchRounds warms l up by playing warm and then times rounds over timed,
// cyclically, from its start: Play (predict, then update) when play is set,
// Update alone otherwise. It reports allocations and updates/s. The learner
// is warmed up once per measurement (b.Loop runs the function once).
func benchRounds(b *testing.B, l Learner, warm, timed []data.Example, play bool) {
	for _, ex := range warm {
		Play(l, ex, nil)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ex := timed[i]
		if play {
			Play(l, ex, nil)
		} else {
			l.Update(ex.X, ex.Y)
		}
		if i++; i == len(timed) {
			i = 0
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "updates/s")
}

// benchmarkUpdate benchmarks Update on user × item rows (userItemStream, d
// features) after a warm-up of 4096 rows, one sub-benchmark d=<d> per d.
func benchmarkUpdate(b *testing.B, newLearner func() Learner, ds ...int) {
	for _, d := range ds {
		b.Run("d="+str.Itoa(d), func(b *testing.B) {
			stream := userItemStream(d, 4096)
			benchRounds(b, newLearner(), stream, stream, false)
		})
	}
}

// BenchmarkLearners times every registered learner per synthetic data set
// size; see benchRounds.
func BenchmarkLearners(b *testing.B) {
	for _, spec := range Learners() {
		b.Run(spec.Name, func(b *testing.B) {
			for _, d := range benchSizes {
				b.Run("d="+str.Itoa(d), func(b *testing.B) {
					if why, slow := slowBench[spec.Name+"/d="+str.Itoa(d)]; slow && !*slowBenchFlag {
						b.Skipf("skipped without -slowbench: %s", why)
					}
					stream := ratingStream(d, 4096)
					benchRounds(b, spec.New(Config{}), stream, stream, true)
				})
			}
		})
	}
}

// BenchmarkLearnersData times every registered learner on ML-100K and
// IJCNN1 (see benchRounds); it skips when ../shared/data is absent.
func BenchmarkLearnersData(b *testing.B) {
	for _, ds := range []struct {
		name, file string
		task       data.Task
	}{
		{"ml-100k", "movielens-100k/u.data", data.Regression},
		{"ijcnn1", "ijcnn1/ijcnn1.gz", data.Classification},
	} {
		b.Run(ds.name, func(b *testing.B) {
			rows := shuffledRows(b, ds.file, ds.task, 1)
			const warm = 10000
			if len(rows) <= warm {
				b.Fatalf("%s: %d rows, want more than %d", ds.file, len(rows), warm)
			}
			for _, spec := range Learners() {
				b.Run(spec.Name, func(b *testing.B) {
					benchRounds(b, spec.New(Config{Task: ds.task}), rows[:warm], rows[warm:], true)
				})
			}
		})
	}
}

// userItemStream returns rows of user × item pairs: a user among d/2 and
// an item among the other d/2 features, one-hot, rated 1 + (u + i) mod 5
// (a pattern of full rank, the hard case for the low-rank learners), drawn
// by PCG(1, 2).
func userItemStream(d, rows int) []data.Example {
	rng := rand.New(rand.NewPCG(1, 2))
	stream := make([]data.Example, rows)
	for i := range stream {
		u, it := rng.IntN(d/2), d/2+rng.IntN(d/2)
		stream[i] = data.Example{X: data.Sparse{Ind: []int{u, it}, Val: []float64{1, 1}}, Y: float64(1 + (u+it)%5)}
	}
	return stream
}

// ratingStream returns MovieLens-like rows over d one-hot features: a user
// among the first 9d/25 and an item among the other 16d/25 (ML-100K has 943
// users and 1682 items), rated 3.5 + user bias + item bias + a planted
// rank-one interaction + N(0, 0.5²) noise, with biases and factors
// N(0, 0.3²), drawn by PCG(8, 8).
func ratingStream(d, rows int) []data.Example {
	users := max(1, d*9/25)
	items := max(1, d-users)
	rng := rand.New(rand.NewPCG(8, 8))
	f := make([]float64, 2*(users+items))
	for i := range f {
		f[i] = 0.3 * rng.NormFloat64()
	}
	out := make([]data.Example, rows)
	for t := range out {
		u, i := rng.IntN(users), users+rng.IntN(items)
		y := 3.5 + f[2*u] + f[2*i] + f[2*u+1]*f[2*i+1] + 0.5*rng.NormFloat64()
		out[t] = data.Example{X: data.Sparse{Ind: []int{u, i}, Val: []float64{1, 1}}, Y: y}
	}
	return out
}

// benchDeltas are the δ of BenchmarkOCCFMDelta, δ = 10 (the default) first
// so that every other speed can be given as a ratio to it.
var benchDeltas = []float64{10, 1, 3, 30, 100, 300, 1000}

// BenchmarkOCCFMDelta times OCCFM at its defaults but δ on ML-100K, IJCNN1
// and a9a (shuffled with seed 1; skipped when ../shared/data is absent):
// 2,000 rows warm up, then predict-then-update rounds go on through the file
// (see benchRounds). Besides updates/s, each δ ≠ 10 reports "x-delta10", its
// speed as a fraction of δ = 10's in the same run (the machines here are
// shared: a ratio is what compares). Run it with
// go test -run '^$' -bench OCCFMDelta ./core/ (or make bench).
func BenchmarkOCCFMDelta(b *testing.B) {
	for _, ds := range []struct {
		name, file string
		task       data.Task
	}{
		{"ml-100k", "movielens-100k/u.data", data.Regression},
		{"ijcnn1", "ijcnn1/ijcnn1.gz", data.Classification},
		{"a9a", "a9a/a9a", data.Classification},
	} {
		b.Run(ds.name, func(b *testing.B) {
			rows := shuffledRows(b, ds.file, ds.task, 1)
			const warm = 2000
			var ref float64
			for _, d := range benchDeltas {
				b.Run("delta="+strconv.FormatFloat(d, 'g', -1, 64), func(b *testing.B) {
					l := NewOCCFM(OCCFMSettingsFor(Config{Task: ds.task, Delta: d}))
					benchRounds(b, l, rows[:warm], rows[warm:], true)
					rate := float64(b.N) / b.Elapsed().Seconds()
					if d == 10 {
						ref = rate
					} else if ref > 0 {
						b.ReportMetric(rate/ref, "x-delta10")
					}
				})
			}
		})
	}
}

// featureSizes are the feature counts of BenchmarkFeatures.
var featureSizes = []int{1000, 10000, 100000}

// BenchmarkFeatures times occfm-k and fm-ftrl against the number of
// features seen, d = 10³, 10⁴, 10⁵: MovieLens-like ratings (ratingRows:
// a user among 9d/25, an item among the other 16d/25) drawn as they are
// played, 5·d rows of warm-up (all but about 0.7 % of the features seen),
// then timed rounds that go on through the stream, new pairs and all. Once
// its features are seen, a row of occfm-k should cost the same at any d
// (see OCCFMK's costs); fm-ftrl's own fall from d = 10³ to 10⁵ is the
// reference for what the memory of a larger model costs alone (see
// docs/performance.md). "x-fm-ftrl" is occfm-k's speed as a fraction of fm-ftrl's at the same d,
// measured just before it.
func BenchmarkFeatures(b *testing.B) {
	for _, d := range featureSizes {
		var ref float64
		for _, name := range []string{"fm-ftrl", "occfm-k"} {
			b.Run("d="+str.Itoa(d)+"/"+name, func(b *testing.B) {
				l, err := NewLearner(name, Config{})
				if err != nil {
					b.Fatal(err)
				}
				rows := newRatingRows(d)
				var ex data.Example
				for range 5 * d {
					rows.next(&ex)
					Play(l, ex, nil)
				}
				b.ReportAllocs()
				for b.Loop() {
					rows.next(&ex)
					Play(l, ex, nil)
				}
				rate := float64(b.N) / b.Elapsed().Seconds()
				b.ReportMetric(rate, "updates/s")
				if name == "fm-ftrl" {
					ref = rate
				} else if ref > 0 {
					b.ReportMetric(rate/ref, "x-fm-ftrl")
				}
			})
		}
	}
}

// ratingRows draws ratingStream's rows one at a time, without holding
// them: the same model (user and item biases, a rank-one taste, noise),
// drawn by PCG(8, 8).
type ratingRows struct {
	users, items int
	f            []float64
	rng          *rand.Rand
	ind          [2]int
	val          [2]float64
}

func newRatingRows(d int) *ratingRows {
	r := &ratingRows{users: max(1, d*9/25), rng: rand.New(rand.NewPCG(8, 8))}
	r.items = max(1, d-r.users)
	r.f = make([]float64, 2*(r.users+r.items))
	for i := range r.f {
		r.f[i] = 0.3 * r.rng.NormFloat64()
	}
	r.val = [2]float64{1, 1}
	return r
}

func (r *ratingRows) next(ex *data.Example) {
	u, i := r.rng.IntN(r.users), r.users+r.rng.IntN(r.items)
	r.ind = [2]int{u, i}
	ex.X = data.Sparse{Ind: r.ind[:], Val: r.val[:]}
	ex.Y = 3.5 + r.f[2*u] + r.f[2*i] + r.f[2*u+1]*r.f[2*i+1] + 0.5*r.rng.NormFloat64()
}
