package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/evaluate"
)

// paperSettings are the flags of occfm paper.
type paperSettings struct {
	data, out string
	quick     bool
	runs      int
	folds     int
	foldsRun  int
	seed      uint64
	sets      []string
	learners  []string
	quiet     bool
	fresh     bool
}

const paperUsage = `occfm paper runs the paper's experiments (§5): every learner on every data
set with the paper's hyperparameters and protocol (five-fold cross-validation,
random permutations of the training folds, predict-then-update), and prints
Markdown tables laid out like the paper's Tables 2 and 3 with the paper's
numbers beside ours. It writes paper.md, paper.json and one loss-versus-time
figure per data set (PNG and SVG) to -out.

Usage:

  occfm paper [-quick] [flags]

Flags:

  -data DIR      the shared data folder (default ../shared/data)
  -out DIR       where results go (default paper-results)
  -quick         1 run of 1 fold (the first of five), and without the extra
                 rows (full ML-1M, a9a) unless -sets names them: under 5 minutes
  -runs N        random permutations per fold (default 20, the paper's); on
                 the full ML-1M, CCFM-OGD, -PA and -FTRL play only the first
                 permutation of each fold, and the dense-projection variants
                 play only the first pass (their cells say how many passes)
  -folds K       folds of cross-validation (default 5, the paper's)
  -seed S        seeds the fold split, the permutations, the ML-1M sample
                 and the learners (default 1)
  -sets A,B      only these data sets (keys: ml-100k, ml-1m, ml-1m-full,
                 ijcnn1, a9a)
  -learners A,B  only these learners
  -quiet         no progress on stderr
  -fresh         start over: forget the passes -out's journal holds

Every pass is appended to -out/paper-passes.jsonl as it ends. A run stopped
at any point (Ctrl-C, a crash) goes on where it stopped when the same
command is run again, and gives the same tables.
`

func parsePaperFlags(args []string) (paperSettings, error) {
	var s paperSettings
	fs := flag.NewFlagSet("paper", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&s.data, "data", "../shared/data", "")
	fs.StringVar(&s.out, "out", "paper-results", "")
	fs.BoolVar(&s.quick, "quick", false, "")
	fs.IntVar(&s.runs, "runs", 20, "")
	fs.IntVar(&s.folds, "folds", 5, "")
	fs.Uint64Var(&s.seed, "seed", 1, "")
	sets := fs.String("sets", "", "")
	learners := fs.String("learners", "", "")
	fs.BoolVar(&s.quiet, "quiet", false, "")
	fs.BoolVar(&s.fresh, "fresh", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return s, err
		}
		return s, usageError{err}
	}
	if fs.NArg() > 0 {
		return s, usageError{fmt.Errorf("paper takes no arguments, got %q", fs.Args())}
	}
	if s.runs < 1 || s.folds < 1 || s.seed == 0 {
		return s, usageError{errors.New("-runs, -folds and -seed must be positive")}
	}
	if s.quick {
		s.runs, s.foldsRun = 1, 1
	}
	s.sets = splitList(*sets)
	s.learners = splitList(*learners)
	for _, k := range s.sets {
		if !slices.ContainsFunc(paperSets, func(p paperSet) bool { return p.Key == k }) {
			return s, usageError{fmt.Errorf("unknown data set %q in -sets", k)}
		}
	}
	for _, n := range s.learners {
		if !slices.ContainsFunc(paperLearners, func(p paperLearner) bool { return p.Name == n }) {
			return s, usageError{fmt.Errorf("unknown learner %q in -learners", n)}
		}
	}
	return s, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// paperResult is one learner on one data set, aggregated over passes.
type paperResult struct {
	Learner string `json:"learner"`
	Label   string `json:"label"`
	// Dense marks the naive dense-projection variant of Learner.
	Dense bool `json:"dense,omitempty"`
	// Progressive and HeldOut map a metric name (rmse, mae, error_rate,
	// auc, logloss, avg_loss) to its mean and standard deviation.
	Progressive   map[string]evaluate.Stat `json:"progressive"`
	HeldOut       map[string]evaluate.Stat `json:"held_out"`
	Seconds       evaluate.Stat            `json:"seconds"`
	UpdatesPerSec float64                  `json:"updates_per_sec"`
	Paper         []float64                `json:"paper,omitempty"`
	// Trace is the loss-versus-time curve of the first pass.
	Trace []evaluate.TracePoint `json:"trace"`
	// Passes holds every pass's figures, for the paired tests.
	Passes []passFigures `json:"passes"`
	// Builds counts the passes by the build that played them (buildName;
	// "unrecorded" for a journal's passes that do not say).
	Builds map[string]int `json:"builds"`
	// Error is set when the learner failed (a panic), and the metrics are
	// then empty.
	Error string `json:"error,omitempty"`
}

// passFigures are one pass's progressive and held-out figures by metric
// name (as paperResult's).
type passFigures struct {
	Run         int                `json:"run"`
	Fold        int                `json:"fold"`
	Progressive map[string]float64 `json:"progressive"`
	HeldOut     map[string]float64 `json:"held_out"`
}

// paperSetResult is one data set's block of the JSON output.
type paperSetResult struct {
	paperSet
	Rows     int           `json:"rows"`
	Features int           `json:"features"`
	Skipped  string        `json:"skipped,omitempty"`
	Results  []paperResult `json:"results"`
}

// paperReport is the whole JSON output.
type paperReport struct {
	Command  string  `json:"command"`
	Runs     int     `json:"runs"`
	Folds    int     `json:"folds"`
	FoldsRun int     `json:"folds_run"`
	Seed     uint64  `json:"seed"`
	Started  string  `json:"started"`
	Seconds  float64 `json:"seconds"` // of this process
	// Build is the build of this process (buildName).
	Build string `json:"build"`
	// Played counts the passes of the tables this process played,
	// ReadBack those it read back from the journal; PassSeconds sums the learning time of
	// them all, what an uninterrupted run spends learning.
	Played      int              `json:"played"`
	ReadBack    int              `json:"read_back"`
	PassSeconds float64          `json:"pass_seconds"`
	Sets        []paperSetResult `json:"sets"`
}

func paperCommand(args []string, stdout, stderr io.Writer) error {
	s, err := parsePaperFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		_, err := io.WriteString(stdout, paperUsage)
		if err != nil {
			return err
		}
		return flag.ErrHelp
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.out, 0o755); err != nil {
		return err
	}
	start := time.Now()
	rep := paperReport{
		Command: "occfm paper " + strings.Join(args, " "),
		Runs:    s.runs, Folds: s.folds, FoldsRun: s.folds, Seed: s.seed,
		Started: start.UTC().Format(time.RFC3339), Build: buildName(),
	}
	if s.foldsRun > 0 {
		rep.FoldsRun = s.foldsRun
	}
	logf := func(format string, a ...any) {
		if !s.quiet {
			fmt.Fprintf(stderr, "[%5.1fs] %s\n", time.Since(start).Seconds(), fmt.Sprintf(format, a...))
		}
	}
	j, err := openJournal(s.out, journalHead{Runs: s.runs, Folds: s.folds, FoldsRun: rep.FoldsRun, Seed: s.seed}, s.fresh)
	if err != nil {
		return err
	}
	defer j.Close()
	if j.resumed > 0 {
		logf("going on from %s: %d passes already played", j.path, j.resumed)
	}
	pr := &paperRun{s: s, logf: logf, journal: j, intr: watchInterrupt()}
	defer pr.intr.stop()
	if err := pr.playSets(&rep); err != nil {
		return err
	}
	rep.Seconds = time.Since(start).Seconds()
	rep.Played = j.added
	for _, set := range rep.Sets {
		for _, r := range set.Results {
			rep.PassSeconds += r.Seconds.Mean * float64(r.Seconds.N)
			rep.ReadBack += r.Seconds.N
		}
	}
	rep.ReadBack -= rep.Played

	md := paperMarkdown(rep)
	if _, err := io.WriteString(stdout, md); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(s.out, "paper.md"), func(w io.Writer) error {
		_, err := io.WriteString(w, md)
		return err
	}); err != nil {
		return err
	}
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(s.out, "paper.json"), func(w io.Writer) error {
		_, err := w.Write(append(js, '\n'))
		return err
	}); err != nil {
		return err
	}
	figs, err := paperFigures(rep, s.out)
	if err != nil {
		return err
	}
	logf("wrote %s, %s and %d figures (%s) in %.0f s", filepath.Join(s.out, "paper.md"), filepath.Join(s.out, "paper.json"), len(figs), strings.Join(figs, ", "), rep.Seconds)
	return nil
}

// playPaperSet plays every learner asked for on one data set of the paper
// through the protocol, or says why the set is skipped.
func (pr *paperRun) playPaperSet(set paperSet) (paperSetResult, error) {
	s, logf := pr.s, pr.logf
	res := paperSetResult{paperSet: set}
	switch {
	case set.Missing != "":
		res.Skipped = "not available: " + set.Missing
	case s.quick && !set.Quick && len(s.sets) == 0:
		res.Skipped = "left out of -quick (run occfm paper -sets " + set.Key + ")"
	}
	if res.Skipped != "" {
		logf("%s: %s", set.Title, res.Skipped)
		return res, nil
	}
	rows, features, err := loadPaperSet(s.data, set, s.seed)
	if err != nil {
		return res, err
	}
	res.Rows, res.Features = len(rows), features
	logf("%s: %s rows, %s features", set.Title, commas(len(rows)), commas(features))
	var playing []paperLearner
	for _, pl := range paperLearners {
		if len(s.learners) > 0 && !slices.Contains(s.learners, pl.Name) {
			continue
		}
		if pl.Dense != nil && features > denseMaxFeatures {
			continue
		}
		playing = append(playing, pl)
	}
	pr.startSet(set, playing)
	for _, pl := range playing {
		r := pr.runPaperLearner(rows, set, pl)
		if r.Error != "" {
			logf("  %-20s FAILED: %s", pl.Label, r.Error)
		} else {
			logf("  %-20s %s", pl.Label, briefResult(set, r))
		}
		res.Results = append(res.Results, r)
	}
	return res, nil
}

// runPaperLearner plays the protocol for one learner, turning a panic into
// an error so that one broken learner does not hide the others' results.
func (pr *paperRun) runPaperLearner(rows []data.Example, set paperSet, pl paperLearner) (r paperResult) {
	s := pr.s
	r = paperResult{Learner: pl.Name, Label: pl.Label, Paper: set.Paper[pl.Name]}
	defer func() {
		if p := recover(); p != nil {
			if p == errPaperStop {
				panic(p) // an interrupt: not the learner's failure
			}
			r.Error = fmt.Sprint(p)
		}
	}()
	cfg := core.Config{Task: set.Task, Delta: set.Delta, Rank: set.Rank, Seed: s.seed}
	if err := core.CheckLearners([]string{pl.Name}); err != nil {
		r.Error = err.Error()
		return r
	}
	if err := cfg.Check(); err != nil {
		r.Error = err.Error()
		return r
	}
	build, cfg := paperBuilder(pl, cfg)
	r.Dense = pl.Dense != nil
	key := journalKey{set: set.Key, learner: pl.Name, dense: pl.Dense != nil, rows: len(rows)}
	r.Builds = map[string]int{}
	runs, foldsRun := pr.passesOf(set, pl)
	pr.startLearner(runs * foldsRun)
	ps := evaluate.Settings{Runs: runs, Folds: s.folds, FoldsRun: foldsRun, Seed: s.seed,
		Done: func(run, fold int) (evaluate.Pass, bool) {
			p, build, ok := pr.journal.done(keyAt(key, run, fold))
			if ok {
				pr.readBack()
				r.Builds[cmp.Or(build, "unrecorded")]++
			}
			return p, ok
		}}
	progress := func(p evaluate.Pass) {
		r.Builds[buildName()]++
		pr.passDone(keyAt(key, p.Run, p.Fold), pl, p)
	}
	if pr.journal == nil { // a test's run, with no journal
		ps.Done, progress = nil, func(evaluate.Pass) { r.Builds[buildName()]++ }
	}
	passes := evaluate.Protocol(rows, set.Task, core.TaskLoss(set.Task), func() core.Learner { return build(cfg) }, ps, progress)
	r.aggregate(passes, set.Task)
	return r
}

// aggregate sets the result's figures from its passes: mean ± std of each
// metric, the learning time and speed, the first pass's trace, and every
// pass's figures.
func (r *paperResult) aggregate(passes []evaluate.Pass, task data.Task) {
	r.Progressive = statsOf(passes, func(p evaluate.Pass) core.Summary { return p.Progressive }, task)
	r.HeldOut = statsOf(passes, func(p evaluate.Pass) core.Summary { return p.HeldOut }, task)
	var secs []float64
	rowsPlayed := 0
	for _, p := range passes {
		secs = append(secs, p.Seconds)
		rowsPlayed += p.Progressive.Rows
		r.Passes = append(r.Passes, passFigures{Run: p.Run, Fold: p.Fold,
			Progressive: figuresOf(p.Progressive, task), HeldOut: figuresOf(p.HeldOut, task)})
	}
	r.Seconds = evaluate.MeanStd(secs)
	if total := r.Seconds.Mean * float64(r.Seconds.N); total > 0 {
		r.UpdatesPerSec = float64(rowsPlayed) / total
	}
	r.Trace = passes[0].Trace
}

// paperBuilder returns how the protocol builds the learner of a table row
// and the config it builds it from: the registry's learner, the row's own
// builder (OCCFM as the paper's Algorithm 2, a dense variant), and the
// set's δ unless the learner chooses its own.
func paperBuilder(pl paperLearner, cfg core.Config) (func(core.Config) core.Learner, core.Config) {
	build := func(c core.Config) core.Learner {
		l, _ := core.NewLearner(pl.Name, c) // known to the registry (runPaperLearner checked)
		return l
	}
	switch {
	case pl.Dense != nil:
		build = pl.Dense
	case pl.Build != nil:
		build = pl.Build
	}
	if pl.OwnDelta {
		cfg.Delta = 0
	}
	return build, cfg
}

// paperOCCFM builds OCCFM as the paper's Algorithm 2: γₜ = 1/√t alone, no
// rank cap, and an LMO close to the exact top eigenvector it assumes: the
// fixed eigenvalue error 1e-3 (RefreshTol), not the default's error tied
// to γₜ, which is faster but less accurate on IJCNN1 (docs/findings.md).
func paperOCCFM(c core.Config) core.Learner {
	s := core.OCCFMSettingsFor(c)
	s.PaperStep, s.MaxRank = true, -1
	s.RefreshTol = 1e-3
	return core.NewOCCFM(s)
}

// passesOf returns the permutations per fold and the folds a learner
// plays on the set: the protocol's, fewer permutations when the set caps
// the learner (paperSet.Runs), and only the first pass for a dense
// variant, which exists for the efficiency figure (the first pass's trace)
// and the speed table.
func (pr *paperRun) passesOf(set paperSet, pl paperLearner) (runs, foldsRun int) {
	runs, foldsRun = pr.s.runs, cmp.Or(pr.s.foldsRun, pr.s.folds)
	if pl.Dense != nil {
		return 1, 1
	}
	if c, ok := set.Runs[pl.Name]; ok && c < runs {
		runs = c
	}
	return runs, foldsRun
}

// figuresOf returns the metrics of a summary by name (rmse, mae for
// regression; error_rate, auc, logloss for classification; avg_loss), or
// nil for a summary of no rows.
func figuresOf(s core.Summary, task data.Task) map[string]float64 {
	if s.Rows == 0 {
		return nil
	}
	if task == data.Classification {
		return map[string]float64{"avg_loss": s.AvgLoss, "error_rate": s.ErrorRate, "auc": s.AUC, "logloss": s.LogLoss}
	}
	return map[string]float64{"avg_loss": s.AvgLoss, "rmse": s.RMSE, "mae": s.MAE}
}

// statsOf aggregates one summary of every pass into mean ± std per metric.
func statsOf(passes []evaluate.Pass, pick func(evaluate.Pass) core.Summary, task data.Task) map[string]evaluate.Stat {
	byName := map[string][]float64{}
	for _, p := range passes {
		for name, v := range figuresOf(pick(p), task) {
			byName[name] = append(byName[name], v)
		}
	}
	out := map[string]evaluate.Stat{}
	for name, xs := range byName {
		out[name] = evaluate.MeanStd(xs)
	}
	return out
}

func briefResult(set paperSet, r paperResult) string {
	var b strings.Builder
	if set.Task == data.Classification {
		fmt.Fprintf(&b, "error %s, AUC %s", fmtStat(r.Progressive["error_rate"]), fmtStat(r.Progressive["auc"]))
	} else {
		fmt.Fprintf(&b, "RMSE %s (held-out %s)", fmtStat(r.Progressive["rmse"]), fmtStat(r.HeldOut["rmse"]))
	}
	fmt.Fprintf(&b, ", %s updates/s, %.1f s a pass", commas(int(math.Round(r.UpdatesPerSec))), r.Seconds.Mean)
	return b.String()
}

// loadPaperSet reads a data set's files (concatenated, labels mapped to the
// task's form) and applies the user × item sample when the set asks for one.
// It returns the rows and the number of features.
func loadPaperSet(dir string, set paperSet, seed uint64) ([]data.Example, int, error) {
	var rows []data.Example
	var names []string // feature names of the last stream, for sampling
	var vocab *data.Vocabulary
	dim := 0
	for _, rel := range set.Files {
		path := filepath.Join(dir, rel)
		f, err := os.Open(path)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w (the paper's data sets live in ../shared/data; -data sets the folder)", set.Title, err)
		}
		// One feature numbering for all the files of a set: each file
		// continues the vocabulary of the one before, so that a feature has
		// the same index in IJCNN1's training and test files.
		st, err := data.NewStream(f, data.ReaderSettings{Name: rel, Vocabulary: vocab})
		if err != nil {
			f.Close()
			return nil, 0, err
		}
		// The same row source as occfm run: labels mapped by Task.Label,
		// errors naming the file and line.
		// The paper holds its data sets in memory by design: no budget.
		src := &data.Rows{Source: st, File: rel}
		src.SetTask(set.Task)
		held := &data.HeldRows{}
		err = readAll(src, &progress{quiet: true}, held, core.MemoryBudget{Limit: -1}, st)
		f.Close()
		if err != nil {
			return nil, 0, err
		}
		rows = append(rows, held.Rows()...)
		dim = max(dim, st.Dim())
		v := st.Vocabulary()
		vocab = &v
		names = names[:0]
		for i := range st.Dim() {
			names = append(names, st.FeatureName(i))
		}
	}
	if set.Sample > 0 {
		rows, dim = sampleUsersItems(rows, names, set.Sample, seed)
	}
	return rows, dim, nil
}

// sampleUsersItems keeps the ratings of n random users and n random items
// (the paper's "we randomly sample 1000 users and 1000 items"), seeded, and
// renumbers the kept features densely in order of first appearance. Users
// and items are told apart by their feature names ("user=…", "item=…").
// The kept rows reuse rows' storage, renumbered in place.
func sampleUsersItems(rows []data.Example, names []string, n int, seed uint64) ([]data.Example, int) {
	var users, items []int
	for i, name := range names {
		switch {
		case strings.HasPrefix(name, "user="):
			users = append(users, i)
		case strings.HasPrefix(name, "item="):
			items = append(items, i)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 1000))
	keep := map[int]bool{}
	for _, group := range [][]int{users, items} {
		rng.Shuffle(len(group), func(i, j int) { group[i], group[j] = group[j], group[i] })
		for _, f := range group[:min(n, len(group))] {
			keep[f] = true
		}
	}
	renum := map[int]int{}
	out := rows[:0]
	for _, ex := range rows {
		ok := true
		for _, f := range ex.X.Ind {
			ok = ok && keep[f]
		}
		if !ok {
			continue
		}
		for k, f := range ex.X.Ind {
			g, seen := renum[f]
			if !seen {
				g = len(renum)
				renum[f] = g
			}
			ex.X.Ind[k] = g
		}
		out = append(out, ex)
	}
	return out, len(renum)
}
