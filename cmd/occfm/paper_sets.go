package main

import (
	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// The rows and columns of the paper's Tables 2 and 3: its learners, our
// references, and its data sets with their hyperparameters.

// paperLearner is one row of the paper's tables: a label and a learner
// built from the data set's hyperparameters.
type paperLearner struct {
	Label string // as printed in the tables
	Name  string // registry name
	Paper bool   // compared in the paper (the others are our references)
	// Dense, when not nil, builds the learner instead of the registry: the
	// naive dense-projection variants of the paper's cost model, run only
	// on data sets with at most denseMaxFeatures features, for the first
	// pass of the protocol only, and shown only in the efficiency figures
	// and the speed table.
	Dense func(core.Config) core.Learner
	// Build, when not nil, builds the learner instead of the registry
	// with the settings the paper states (OCCFM as its Algorithm 2).
	Build func(core.Config) core.Learner
	// OwnDelta: the learner chooses its own δ; the set's is not given
	// (ours: the set's δ would make occfm-auto's grid that one δ, and fix
	// occfm-k's ball, which grows with the features seen).
	OwnDelta bool
	// Main marks the paper's own learner, drawn wider in the figures.
	Main bool
}

// paperLearners lists the rows of Tables 2 and 3 in the paper's order, then
// our honest references.
var paperLearners = []paperLearner{
	{Label: "FM-FTRL", Name: "fm-ftrl", Paper: true},
	{Label: "CFM-FTRL", Name: "cfm-ftrl", Paper: true},
	{Label: "CCFM-OGD", Name: "ccfm-ogd", Paper: true},
	{Label: "CCFM-PA", Name: "ccfm-pa", Paper: true},
	{Label: "CCFM-FTRL", Name: "ccfm-ftrl", Paper: true},
	{Label: "OCCFM", Name: "occfm", Paper: true, Build: paperOCCFM, Main: true},
	{Label: "mean (reference)", Name: "mean"},
	{Label: "bias (reference)", Name: "bias"},
	{Label: "linear (reference)", Name: "linear"},
	{Label: "occfm-auto (ours, no δ)", Name: "occfm-auto", OwnDelta: true},
	{Label: "occfm-k (ours, tastes)", Name: "occfm-k", OwnDelta: true},
	{Label: "CCFM-OGD, dense Π", Name: "ccfm-ogd", Paper: true, Dense: func(c core.Config) core.Learner {
		s := core.ProjectedSettingsFor(c)
		s.DenseProjection = true
		return core.NewCCFMOGD(s)
	}},
	{Label: "CCFM-PA, dense Π", Name: "ccfm-pa", Paper: true, Dense: func(c core.Config) core.Learner {
		s := core.ProjectedSettingsFor(c)
		s.DenseProjection = true
		return core.NewCCFMPA(s)
	}},
	{Label: "CCFM-FTRL, dense Π", Name: "ccfm-ftrl", Paper: true, Dense: func(c core.Config) core.Learner {
		s := core.CCFMFTRLSettingsFor(c)
		s.DenseProjection = true
		return core.NewCCFMFTRL(s)
	}},
}

// denseMaxFeatures bounds d for the dense-projection variants, which
// eigendecompose a (d+1)×(d+1) matrix every round.
const denseMaxFeatures = 200

// paperSet is one data set column of the paper's Tables 2 and 3.
type paperSet struct {
	Key   string    `json:"key"`
	Title string    `json:"title"`
	Table int       `json:"table"` // 2 (RMSE) or 3 (error rate, AUC)
	Task  data.Task `json:"-"`
	Files []string  `json:"files"` // relative to -data, concatenated
	// Sample, when > 0, keeps Sample random users × Sample random items
	// (the paper's ML-1M/10M protocol).
	Sample int     `json:"sample,omitempty"`
	Delta  float64 `json:"delta"`
	Rank   int     `json:"rank"`
	// Extra marks a set the paper did not use.
	Extra bool `json:"extra"`
	// Missing explains why a set of the paper cannot be run here.
	Missing string `json:"missing,omitempty"`
	// Quick is false for sets left out of -quick.
	Quick bool `json:"-"`
	// Runs caps a learner's permutations per fold on this set, named by
	// registry name, when its passes are too slow for the protocol's
	// count: it plays the first Runs[name] of them in every fold.
	Runs map[string]int `json:"runs_of,omitempty"`
	// Paper holds the paper's numbers by learner name: RMSE for Table 2,
	// error rate then AUC for Table 3.
	Paper map[string][]float64 `json:"paper,omitempty"`
}

// paperSets are the data sets of the paper's §5 with its hyperparameters
// (δ for CCFM and CFM, the rank for FM), in table order, plus our
// extra rows. The numbers are the paper's Tables 2 and 3.
var paperSets = []paperSet{
	{Key: "ml-100k", Title: "MovieLens-100K", Table: 2, Task: data.Regression,
		Files: []string{"movielens-100k/u.data"}, Delta: 10, Rank: 10, Quick: true,
		Paper: map[string][]float64{"fm-ftrl": {1.2781}, "cfm-ftrl": {1.1036}, "ccfm-ogd": {1.2721}, "ccfm-pa": {1.2164}, "ccfm-ftrl": {1.0873}, "occfm": {1.0359}}},
	{Key: "ml-1m", Title: "MovieLens-1M (1000×1000)", Table: 2, Task: data.Regression,
		Files: []string{"movielens-1m/ratings_uir.tsv.gz"}, Sample: 1000, Delta: 10, Rank: 10, Quick: true,
		Paper: map[string][]float64{"fm-ftrl": {1.1074}, "cfm-ftrl": {1.0552}, "ccfm-ogd": {1.0645}, "ccfm-pa": {1.0570}, "ccfm-ftrl": {1.0441}, "occfm": {0.9702}}},
	{Key: "ml-10m", Title: "MovieLens-10M (1000×1000)", Table: 2, Task: data.Regression, Delta: 20, Rank: 10,
		Missing: "MovieLens-10M is not in ../shared/data (see its README)",
		Paper:   map[string][]float64{"fm-ftrl": {1.0237}, "cfm-ftrl": {1.0078}, "ccfm-ogd": {1.0291}, "ccfm-pa": {1.0142}, "ccfm-ftrl": {0.9725}, "occfm": {0.9441}}},
	{Key: "ml-1m-full", Title: "MovieLens-1M (all 6040×3706)", Table: 2, Task: data.Regression,
		Files: []string{"movielens-1m/ratings_uir.tsv.gz"}, Delta: 10, Rank: 10, Extra: true,
		// A projection onto the ball of 9,747 × 9,747 matrices every round:
		// CCFM-OGD's pass took 16 minutes here, so 20 × 5 of the three
		// would take about 80 hours.
		Runs: map[string]int{"ccfm-ogd": 1, "ccfm-pa": 1, "ccfm-ftrl": 1}},
	{Key: "ijcnn1", Title: "IJCNN1", Table: 3, Task: data.Classification,
		Files: []string{"ijcnn1/ijcnn1.gz", "ijcnn1/ijcnn1.t.gz"}, Delta: 300, Rank: 20, Quick: true,
		Paper: map[string][]float64{"fm-ftrl": {0.0663, 0.9647}, "cfm-ftrl": {0.0544, 0.9736}, "ccfm-ogd": {0.0911, 0.9192}, "ccfm-pa": {0.0711, 0.9312}, "ccfm-ftrl": {0.0520, 0.9757}, "occfm": {0.0243, 0.9859}}},
	{Key: "spam", Title: "Spam", Table: 3, Task: data.Classification, Delta: 1000, Rank: 50,
		Missing: "LibSVM webspam is not in ../shared/data (see its README)",
		Paper:   map[string][]float64{"fm-ftrl": {0.0867, 0.9070}, "cfm-ftrl": {0.0598, 0.9390}, "ccfm-ogd": {0.1076, 0.9239}, "ccfm-pa": {0.0976, 0.9201}, "ccfm-ftrl": {0.0588, 0.9398}, "occfm": {0.0567, 0.9414}}},
	{Key: "epsilon", Title: "Epsilon", Table: 3, Task: data.Classification, Delta: 200, Rank: 50,
		Missing: "LibSVM epsilon is not in ../shared/data (see its README)",
		Paper:   map[string][]float64{"fm-ftrl": {0.1773, 0.8213}, "cfm-ftrl": {0.1654, 0.8319}, "ccfm-ogd": {0.1742, 0.8277}, "ccfm-pa": {0.1412, 0.8575}, "ccfm-ftrl": {0.1380, 0.8668}, "occfm": {0.1202, 0.8737}}},
	{Key: "a9a", Title: "a9a", Table: 3, Task: data.Classification,
		Files: []string{"a9a/a9a", "a9a/a9a.t"}, Delta: 10, Rank: 20, Extra: true},
}
