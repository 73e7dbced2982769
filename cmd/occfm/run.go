package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// runSettings are the flags of occfm run.
type runSettings struct {
	data     string
	format   data.Format
	task     string // "auto" or a data.ParseTask name
	learners []string
	delta    float64
	eta      float64
	gamma    core.Schedule // -gamma: OCCFM's Frank-Wolfe step schedule
	loss     *core.Loss    // -loss: nil is the task's own
	seed     uint64        // -seed: 0 is each learner's default
	shuffle  uint64
	limit    int
	json     bool
	quiet    bool
	// -regret: checkpoints of regret against the comparator in hindsight.
	regret       bool
	regretFirst  int
	regretGrowth float64
	regretEvery  int
	// The guard (core.Guarded): -clip auto|on|off, -on-diverge reset|pause,
	// -scale auto|off.
	clip      string
	onDiverge string
	scale     string
	onError   data.OnError // -on-error: stop or skip malformed rows
	// -max-memory: the bound on the process's memory in bytes (-1: none),
	// and the budget it leaves to the run's learners, metrics, comparator,
	// feature dictionaries and -shuffle rows (memory.go).
	maxMemory int64
	budget    core.MemoryBudget
	model     modelFlags // -save and -load (model.go)
	// -predictions: the file of every row's predictions (predictions.go).
	predictions string
}

// batchSize is how many rows each learner plays per timed stretch: timing
// every row would cost more than a fast learner's update, and progress is
// checked between batches.
const batchSize = 64

// runFlagText holds the flags of occfm run that are parsed after
// fs.Parse.
type runFlagText struct {
	format, learners, onError, maxMemory, gamma, loss string
}

// defineRunFlags defines the flags of occfm run on fs, into rs and t.
func defineRunFlags(fs *flag.FlagSet, rs *runSettings, t *runFlagText) {
	fs.SetOutput(io.Discard) // mistakes are reported once, by main
	fs.StringVar(&rs.data, "data", "", "data file (-: standard input)")
	fs.StringVar(&t.format, "format", "auto", "auto, libsvm, csv or movielens")
	fs.StringVar(&rs.task, "task", "auto", "auto, regression or classification")
	fs.StringVar(&t.learners, "learner", core.DefaultLearner, "comma-separated learners")
	fs.Float64Var(&rs.delta, "delta", 0, "nuclear-norm bound (0: default)")
	fs.Float64Var(&rs.eta, "eta", 0, "learning rate (0: default)")
	fs.StringVar(&t.gamma, "gamma", core.InvSqrt.String(), "OCCFM's step schedule: 1/sqrt(t), 2/(t+1) or constant")
	fs.StringVar(&t.loss, "loss", "auto", "auto (the task's), squared or logistic")
	fs.Uint64Var(&rs.seed, "seed", 0, "the learners' seed (0: default)")
	fs.Uint64Var(&rs.shuffle, "shuffle", 0, "shuffle seed (0: file order)")
	fs.IntVar(&rs.limit, "limit", 0, "read at most N rows (0: all)")
	fs.BoolVar(&rs.json, "json", false, "one JSON object per learner")
	fs.BoolVar(&rs.quiet, "quiet", false, "no progress line")
	fs.BoolVar(&rs.regret, "regret", false, "regret checkpoints against the best C in K in hindsight")
	fs.IntVar(&rs.regretFirst, "regret-first", 0, "first regret checkpoint T (0: 100, or N with -regret-every N)")
	fs.Float64Var(&rs.regretGrowth, "regret-growth", 1.5, "ratio between successive regret checkpoints")
	fs.IntVar(&rs.regretEvery, "regret-every", 0, "a regret checkpoint every N rows instead (0: geometric)")
	fs.StringVar(&rs.scale, "scale", "auto", "auto (each feature divided by its running max |x| as the rows come) or off (the rows as they are)")
	fs.StringVar(&rs.clip, "clip", "auto", "clip regression predictions to the label range seen: auto (on for ratings), on or off")
	fs.StringVar(&rs.onDiverge, "on-diverge", "reset", "a diverged learner is reset (up to 3 times, then paused) or paused at once: reset or pause")
	fs.StringVar(&t.onError, "on-error", "stop", "malformed rows: stop, or skip and count them")
	fs.StringVar(&t.maxMemory, "max-memory", "512M", "the most memory the process may take (e.g. 512M, 2G; at least 64M; 0: no limit); the run stops when what it keeps passes this less 24 MiB and a quarter")
	fs.StringVar(&rs.predictions, "predictions", "", "write each row's predictions, made before it is learned, to this CSV file (-: stdout)")
}

// parseRunFlags parses the flags of occfm run.
func parseRunFlags(args []string) (runSettings, error) {
	var rs runSettings
	var t runFlagText
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	defineRunFlags(fs, &rs, &t)
	rs.model.define(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return rs, err
		}
		return rs, usageError{fmt.Errorf("run: %w (see occfm help)", err)}
	}
	bad := func(format string, a ...any) (runSettings, error) {
		return rs, usageError{fmt.Errorf("run: "+format, a...)}
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q (flags come as -name value)", fs.Arg(0))
	}
	if rs.data == "" {
		return bad("-data PATH is required")
	}
	switch f := data.Format(t.format); f {
	case data.FormatAuto, data.FormatLibSVM, data.FormatCSV, data.FormatMovieLens:
		rs.format = f
	default:
		return bad("-format %q: want auto, libsvm, csv or movielens", t.format)
	}
	if rs.task != "auto" {
		if _, err := data.ParseTask(rs.task); err != nil {
			return bad("-task %q: want auto, regression or classification", rs.task)
		}
	}
	var err error
	if rs.learners, err = parseLearners(t.learners); err != nil {
		return rs, err
	}
	if rs.gamma, err = core.ParseSchedule(t.gamma); err != nil {
		return bad("-gamma %q: want 1/sqrt(t), 2/(t+1) or constant", t.gamma)
	}
	if rs.loss, err = core.ParseLoss(t.loss); err != nil {
		return bad("-loss %q: want auto, squared or logistic", t.loss)
	}
	if err := rs.checkNumbers(); err != nil {
		return rs, err
	}
	if rs.clip != "auto" && rs.clip != "on" && rs.clip != "off" {
		return bad("-clip %q: want auto, on or off", rs.clip)
	}
	if rs.scale != "auto" && rs.scale != "off" {
		return bad("-scale %q: want auto or off", rs.scale)
	}
	if rs.onDiverge != "reset" && rs.onDiverge != "pause" {
		return bad("-on-diverge %q: want reset or pause", rs.onDiverge)
	}
	if rs.onError, err = data.ParseOnError(t.onError); err != nil {
		return bad("-on-error %q: want stop or skip", t.onError)
	}
	if rs.maxMemory, err = core.ParseSize(t.maxMemory); err != nil {
		return bad("-max-memory %q: want a size such as 512M or 2G, or 0 for no limit", t.maxMemory)
	}
	switch {
	case rs.maxMemory == 0:
		rs.maxMemory = -1 // no limit
	case rs.maxMemory < minMaxMemory:
		return bad("-max-memory %s: want at least %s (occfm itself takes about %s), or 0 for no limit",
			t.maxMemory, core.FormatBytes(minMaxMemory), core.FormatBytes(runtimeFloor))
	}
	rs.budget = partsBudget(rs.maxMemory)
	if err := rs.model.check(fs, &rs); err != nil {
		return rs, err
	}
	if rs.model.load == "" {
		if err := core.CheckTaken(rs.learners, rs.config(0)); err != nil {
			return bad("%s", strings.TrimPrefix(err.Error(), "core: "))
		}
	}
	return rs, checkPredictions(rs)
}

// checkNumbers returns the usage error of a numeric flag out of its range:
// -delta, -eta, -limit and the regret checkpoints'.
func (rs *runSettings) checkNumbers() error {
	bad := func(format string, a ...any) error { return usageError{fmt.Errorf("run: "+format, a...)} }
	switch {
	case !(rs.delta >= 0) || math.IsInf(rs.delta, 0):
		return bad("-delta %v: want a finite number ≥ 0", rs.delta)
	case !(rs.eta >= 0) || math.IsInf(rs.eta, 0):
		return bad("-eta %v: want a finite number ≥ 0", rs.eta)
	case rs.limit < 0:
		return bad("-limit %d: want N ≥ 0", rs.limit)
	case rs.regretFirst < 0:
		return bad("-regret-first %d: want T ≥ 0 (0: 100, or N with -regret-every N)", rs.regretFirst)
	case rs.regretEvery < 0:
		return bad("-regret-every %d: want N ≥ 0 (0: geometric checkpoints)", rs.regretEvery)
	case !(rs.regretGrowth > 1 && rs.regretGrowth <= core.MaxRegretGrowth):
		return bad("-regret-growth %v: want a ratio in (1, %d]", rs.regretGrowth, core.MaxRegretGrowth)
	}
	return checkScale(rs.delta, rs.eta)
}

// parseLearners reads -learner's comma-separated list: registered names,
// each once.
func parseLearners(list string) ([]string, error) {
	var names []string
	for name := range strings.SplitSeq(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, usageError{fmt.Errorf("run: -learner %q: empty learner name", list)}
		}
		if slices.Contains(names, name) {
			return nil, usageError{fmt.Errorf("run: -learner %q: %s is listed twice", list, name)}
		}
		if err := core.CheckLearners([]string{name}); err != nil {
			return nil, usageError{fmt.Errorf("run: -learner: %w", err)}
		}
		names = append(names, name)
	}
	return names, nil
}

// runCommand is occfm run.
func runCommand(args []string, stdout, stderr io.Writer) error {
	rs, err := parseRunFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		return printUsage(stdout)
	}
	if err != nil {
		return err
	}
	loaded, err := rs.model.apply(&rs)
	if err != nil {
		return err
	}
	setMemoryLimit(rs.maxMemory)
	start := time.Now()
	in, name, err := openData(rs.data)
	if err != nil {
		return err
	}
	defer in.Close()
	// Opened before any row is read: a path that cannot be written fails
	// at once.
	pred, err := openPredictions(rs.predictions, stdout)
	if err != nil {
		return err
	}
	defer pred.close()
	src, stream, err := openRows(in, name, rs, loaded)
	if err != nil {
		return rs.model.continuing(err, loaded, "%w (the model continued: -load %s)")
	}
	task, _ := src.Task()
	guard, players, reg, err := assemble(rs, stream.Format(), task, loaded, pred)
	if err != nil {
		return err
	}

	prog := &progress{w: stderr, quiet: rs.quiet, start: time.Now(), bad: src.Bad}
	defer prog.done() // end the status line before any error is printed
	for _, w := range stream.Warnings() {
		fmt.Fprintf(stderr, "occfm: warning: %s\n", w)
	}
	intr := watchInterrupt()
	defer intr.stop()
	rows, held, err := shuffled(interruptible{src, intr}, stream, rs, prog)
	if errors.Is(err, errInterrupted) {
		return interruptError{sig: intr.caught(), saved: rs.model.save}
	}
	if err != nil {
		return stopped(err)
	}
	watched := &orderWatch{ExampleSource: rows}
	n, err := play(interruptible{watched, intr}, players, reg, pred, prog, budgetCheck(rs.budget, players, reg, stream, held))
	err = budgetFlag(err, rs.maxMemory)
	prog.done()
	// Before the report, which may follow the lines on stdout.
	if perr := pred.close(); err == nil {
		err = perr
	}
	if err == nil {
		err = allSkipped(src, loaded, rs.model.load)
	}
	r := report{
		settings: rs, data: name, format: stream.Format(), layout: stream.Layout(), features: stream.Dim(),
		scaling: core.ScalesOf(players[0].Learner).Text(stream.FeatureName), task: task, rows: n, wall: time.Since(start), players: players, regret: reg, guard: guard,
		bad: src.Bad, warnings: append(stream.Warnings(), watched.warning(name, rs.shuffle)...),
	}
	return finishRun(r, err, intr, stream.Vocabulary(), loaded, stdout)
}

// finishRun ends a run that played r.rows rows and stopped with err (nil
// at the end of its rows): it saves the model (-save), even after an
// error, but not after an interrupt, then writes the report, then returns
// how the run ended.
func finishRun(r report, err error, intr *interrupt, voc data.Vocabulary, loaded *core.Model, stdout io.Writer) error {
	rs := r.settings
	if errors.Is(err, errInterrupted) {
		// The report of the rows learned, then how the run ended; the
		// model is not saved.
		err = interruptError{sig: intr.caught(), rows: r.rows, saved: rs.model.save}
		r.stopped = err
		r.write(stdout, rs.json)
		return err
	}
	// A signal while the model is saved (a named pipe waiting for its
	// reader) ends the process at once; an existing file is replaced only
	// by a complete one.
	intr.stop()
	// A run stopped by an error saves what it learned, too.
	serr := rs.model.saveModel(rs.config(r.task), r.players[0], voc, r.rows, loaded)

	// Stopped by an error, or its save failed (a full disk), the run still
	// reports the rows it learned; then the errors.
	r.stopped = err
	werr := r.write(stdout, rs.json)
	switch {
	case err != nil && serr != nil:
		return fmt.Errorf("%w; %w", stopped(err), serr)
	case err != nil:
		return stopped(err)
	case serr != nil:
		return serr
	}
	return werr
}

// assemble makes the run's players and regret comparator (core.Assemble)
// from the flags, for the task and format of the rows, and starts the
// -predictions file's header.
func assemble(rs runSettings, format data.Format, task data.Task, loaded *core.Model, pred *predictionWriter) (core.GuardSettings, []*core.Player, *core.Regret, error) {
	guard := guardSettings(rs, format, task)
	players, reg, err := core.Assemble(core.RunSettings{
		Learners: rs.learners, Config: rs.config(task), Guard: guard, Resume: loaded, Regret: rs.regretSettings(),
	})
	if err != nil {
		return guard, nil, nil, rs.model.continuing(err, loaded, "%[2]s: %[1]w")
	}
	if pred != nil {
		pred.start(rs.learners, task == data.Classification)
	}
	return guard, players, reg, nil
}

// orderWatch watches the order of the labels it passes on
// (data.LabelOrder), to warn of a file sorted by label.
type orderWatch struct {
	data.ExampleSource
	order data.LabelOrder
}

func (w *orderWatch) Next(ex *data.Example) error {
	err := w.ExampleSource.Next(ex)
	if err == nil {
		w.order.Observe(ex.Y)
	}
	return err
}

// warning returns the report's warning of a file in its own order whose
// labels look sorted, or none.
func (w *orderWatch) warning(name string, shuffle uint64) []string {
	if sorted, text := w.order.Sorted(); sorted && shuffle == 0 {
		return []string{"in " + name + " " + text + " (-shuffle 1)"}
	}
	return nil
}

// stdin is the input of -data -: the process's standard input, or a
// test's.
var stdin io.Reader = os.Stdin

// openData opens the data file path, or standard input for "-" (named
// "stdin" in messages; its format is sniffed from its first lines, as for
// any file), and returns it with the name messages give it.
func openData(path string) (io.ReadCloser, string, error) {
	if path == "-" {
		return io.NopCloser(stdin), "stdin", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	return f, filepath.Base(path), nil
}

// openRows reads the data file f, named name, as the rows of the run: a
// stream numbering features as the loaded model did (if any), its
// malformed rows handled by -on-error, and the task chosen (-task, or
// guessed from the first rows, which are kept to be played).
func openRows(f io.Reader, name string, rs runSettings, loaded *core.Model) (*data.Rows, *data.Stream, error) {
	stream, err := data.NewStream(f, data.ReaderSettings{Name: name, Format: rs.format, Vocabulary: loadedVocabulary(loaded)})
	if err != nil {
		return nil, nil, err
	}
	src := &data.Rows{Source: stream, File: name, Format: stream.Format(), Limit: rs.limit, Bad: &data.BadRows{Policy: rs.onError}}
	if _, err := src.Choose(rs.task); err != nil {
		return nil, nil, stopped(err)
	}
	return src, stream, nil
}

// config returns the settings every learner of the run is made with.
func (rs runSettings) config(task data.Task) core.Config {
	return core.Config{Task: task, Delta: rs.delta, Eta: rs.eta, Gamma: rs.gamma, Loss: rs.loss, Seed: rs.seed}
}

// regretSettings returns the -regret comparator's settings, or nil
// without -regret (core.Assemble puts it in the first learner's ball).
func (rs runSettings) regretSettings() *core.RegretSettings {
	if !rs.regret {
		return nil
	}
	return &core.RegretSettings{First: rs.regretFirst, Growth: rs.regretGrowth, Every: rs.regretEvery}
}

// allSkipped is data.Rows.AllSkipped's error, with the loaded model named,
// since its task may be what the rows do not fit.
func allSkipped(src *data.Rows, loaded *core.Model, path string) error {
	err := src.AllSkipped()
	if err == nil || loaded == nil {
		return err
	}
	return fmt.Errorf("%w; the loaded model %s learns the %s task", err, path, loaded.Config.Task)
}

// play plays every row of src through every player (core.Run), in batches
// of batchSize rows, showing the progress between batches. With -regret,
// each checkpoint the comparator owes is solved as soon as its row is
// played, and the last one at the end of the stream. With -predictions
// (pred not nil), each row's predictions are written once every player has
// played it, and a failed write stops the run at the end of its batch. It
// returns the number of rows played; after an error, the rows before it
// are played and counted.
//
// A run stopped by the memory budget stops inside a batch; core.Run
// observes none of that batch's rows, so neither the comparator nor
// -predictions sees them.
func play(src data.ExampleSource, players []*core.Player, reg *core.Regret, pred *predictionWriter, prog *progress, budget *core.BudgetCheck) (int, error) {
	run := &core.Run{Source: src, Players: players, Regret: reg, Budget: budget, Batch: batchSize}
	if reg != nil || pred != nil {
		// The comparator's time and the writes' count in the wall time only.
		run.Row = func(_ data.Example, yhat, _ []float64) {
			if pred != nil {
				pred.write(yhat)
			}
			if reg != nil {
				solve(reg)
			}
		}
	}
	for {
		_, err := run.Step(0, batchSize)
		if prog.due() {
			prog.show(progressLine(run.Rows, players, time.Since(prog.start)))
		}
		if err == nil {
			if err = pred.failed(); err == nil {
				continue
			}
		}
		if errors.As(err, new(*core.BudgetError)) {
			return run.Rows, err
		}
		if reg != nil {
			reg.Checkpoint() // the end of the stream
			solve(reg)
		}
		if err == io.EOF {
			err = nil
		}
		return run.Rows, err
	}
}

// solve solves every checkpoint the comparator owes.
func solve(reg *core.Regret) {
	for reg.Pending() > 0 {
		reg.Solve(50)
	}
}

// progressLine is e.g. "45,000 rows  RMSE 1.0612  38,120 rows/s", with each
// learner's name before its metrics when there are several.
func progressLine(rows int, players []*core.Player, since time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s rows", commas(rows))
	for _, p := range players {
		b.WriteString("  ")
		if len(players) > 1 {
			b.WriteString(p.Name + " ")
		}
		s := p.Metrics.Summary()
		if p.Metrics.Task() == data.Classification {
			fmt.Fprintf(&b, "error %.4f AUC %.4f", s.ErrorRate, s.AUC)
		} else {
			fmt.Fprintf(&b, "RMSE %.4f", s.RMSE)
		}
	}
	if sec := since.Seconds(); sec > 0 {
		fmt.Fprintf(&b, "  %s rows/s", commas(int(float64(rows)/sec)))
	}
	return b.String()
}

// progress writes a self-overwriting status line to stderr at most once a
// second.
type progress struct {
	w     io.Writer
	quiet bool
	start time.Time // of the current phase, for rows/s
	last  time.Time // of the last line shown
	width int       // of the last line shown, to blank its tail
	bad   *data.BadRows
}

// due reports whether a second has passed since the last line (or the start).
func (p *progress) due() bool {
	if p.quiet {
		return false
	}
	since := p.last
	if since.IsZero() {
		since = p.start
	}
	return time.Since(since) >= time.Second
}

func (p *progress) show(line string) {
	line = "occfm  " + line + skippedNote(p.bad)
	pad := ""
	if n := p.width - len(line); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	fmt.Fprintf(p.w, "\r%s%s", line, pad)
	p.width = len(line)
	p.last = time.Now()
}

// done ends the status line, if one was shown.
func (p *progress) done() {
	if p.width > 0 {
		fmt.Fprintln(p.w)
		p.width = 0
	}
}

// commas formats n with thousands separators: 1234567 → "1,234,567".
func commas(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
