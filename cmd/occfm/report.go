package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// report is the outcome of occfm run.
type report struct {
	settings runSettings
	data     string // base name of the data file
	format   data.Format
	layout   string
	features int
	scaling  string // how the numbers were scaled (data.ScaleSummary.Text), or ""
	task     data.Task
	rows     int
	wall     time.Duration
	players  []*core.Player
	regret   *core.Regret // nil without -regret
	guard    core.GuardSettings
	bad      *data.BadRows
	stopped  error    // the error that ended the run early, or nil
	warnings []string // the reader's (data.Stream.Warnings)
}

// record is one learner's line of -json output: its core.Result (the
// schema the page's snapshots use too), then the run's data, settings,
// regret checkpoints and skipped rows.
type record struct {
	core.Result
	Task     string `json:"task"`
	Loss     string `json:"loss"`
	Data     string `json:"data"`
	Format   string `json:"format"`
	Layout   string `json:"layout"`
	Features int    `json:"features"`
	// Scaling says how the numbers were scaled (data.ScaleSummary.Text); absent
	// when no feature was (one-hot and 0/1 rows).
	Scaling string `json:"scaling,omitempty"`
	Shuffle uint64 `json:"shuffle"`
	Limit   int    `json:"limit"`
	// WallSeconds is the whole run's time; Result.Seconds the learner's
	// in core.Play only.
	WallSeconds core.Num `json:"wall_seconds"`
	// With -regret: the checkpoints, and the fitted log-log slope of the
	// last six (sub-linear regret: below 1).
	Regret      []regretRecord `json:"regret,omitempty"`
	RegretSlope *core.Num      `json:"regret_slope,omitempty"`
	// RegretLeftOut counts the rows the regret leaves out (a feature
	// beyond ±1e9, which the guard does not learn either).
	RegretLeftOut int `json:"regret_left_out,omitempty"`
	// RegretDelta is the comparator's δ: the best C in K for it. For a
	// learner with no δ (occfm-auto) it is the comparator's default.
	RegretDelta float64 `json:"regret_delta,omitempty"`
	// The rows skipped by -on-error skip, with the first few reasons.
	OnError      string   `json:"on_error"`
	Skipped      int      `json:"skipped"`
	SkippedFirst []string `json:"skipped_first,omitempty"`
	// HugeLabels counts the rows whose label is beyond ±1e9 or not finite:
	// predicted, not learned, not scored; the first few with their line.
	HugeLabels      int      `json:"huge_labels"`
	HugeLabelsFirst []string `json:"huge_labels_first,omitempty"`
	// Warnings are the reader's remarks on a surprising guess (decimal
	// commas, UTF-16, a header of numbers).
	Warnings []string `json:"warnings,omitempty"`
	// Stopped is the error that ended the run before the end of the file:
	// the metrics cover the rows learned until then.
	Stopped string `json:"stopped,omitempty"`
}

// regretRecord is one regret checkpoint of one learner: the true regret
// Σfₜ(Cₜ) − min over K lies in [regret_lo, regret_hi].
type regretRecord struct {
	T              int      `json:"t"`
	CumLoss        core.Num `json:"cum_loss"`
	ComparatorLoss core.Num `json:"comparator_loss"`
	RegretLo       core.Num `json:"regret_lo"`
	RegretHi       core.Num `json:"regret_hi"`
	Gap            core.Num `json:"gap"`
	Bound          core.Num `json:"bound"`
	G              core.Num `json:"g"`
}

// write writes the report as JSON (one object per learner) or as text.
func (r report) write(w io.Writer, asJSON bool) error {
	if asJSON {
		return r.writeJSON(w)
	}
	return r.writeText(w)
}

func (r report) record(p *core.Player) record {
	cfg := core.Config{Delta: r.settings.delta, Eta: r.settings.eta}
	rec := record{
		Result:      core.NewResult(p, p.Metrics.Summary(), r.rows, cfg),
		Task:        r.task.String(),
		Loss:        p.Metrics.Loss().String(),
		Data:        r.data,
		Format:      string(r.format),
		Layout:      r.layout,
		Features:    r.features,
		Scaling:     r.scaling,
		Shuffle:     r.settings.shuffle,
		Limit:       r.settings.limit,
		WallSeconds: core.Num(r.wall.Seconds()),
		OnError:     r.settings.onError.String(),
	}
	if r.bad != nil {
		rec.Skipped = r.bad.Skipped
		if r.bad.Skipped > 0 {
			rec.SkippedFirst = r.bad.Reasons()
		}
		rec.HugeLabels, rec.HugeLabelsFirst = r.bad.HugeLabels, r.bad.HugeFirst
	}
	rec.Warnings = r.warnings
	if r.stopped != nil {
		rec.Stopped = r.stopped.Error()
	}
	if r.regret != nil {
		i := slices.Index(r.players, p)
		for _, pt := range r.regret.Points() {
			rec.Regret = append(rec.Regret, regretRecord{T: pt.T, CumLoss: core.Num(pt.CumLoss[i]),
				ComparatorLoss: core.Num(pt.ComparatorLoss), RegretLo: core.Num(pt.RegretLo[i]),
				RegretHi: core.Num(pt.RegretHi[i]), Gap: core.Num(pt.Gap), Bound: core.Num(pt.Bound), G: core.Num(pt.G)})
		}
		slope := core.Num(core.Slope(r.regret.Points(), i, 6))
		rec.RegretSlope = &slope
		rec.RegretLeftOut = r.regret.LeftOut()
		rec.RegretDelta = r.regret.Delta()
	}
	return rec
}

// writeJSON writes one JSON object per learner, one a line.
func (r report) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, p := range r.players {
		if err := enc.Encode(r.record(p)); err != nil {
			return err
		}
	}
	return nil
}

// writeText writes a human-readable summary: the data, then a table with a
// row per learner.
func (r report) writeText(w io.Writer) error {
	if err := r.writeHeader(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if err := r.writeMetrics(w); err != nil {
		return err
	}
	writeGuard(w, r.players)
	if r.regret != nil && r.regret.LeftOut() > 0 {
		fmt.Fprintf(w, "\nregret: %s rows with a feature beyond ±1e9 left out (the learners did not learn them either)\n", commas(r.regret.LeftOut()))
	}
	_, err := fmt.Fprintln(w, "\nseconds: time in core.Play (predict, score, update), excluding reading and parsing.")
	return err
}

// writeHeader writes what was run: the data, the rows, what was skipped
// or left out, the task and each learner's settings.
func (r report) writeHeader(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	order := "file order"
	if r.settings.shuffle != 0 {
		order = fmt.Sprintf("shuffled, seed %d", r.settings.shuffle)
	}
	rows := commas(r.rows)
	if r.settings.limit > 0 {
		rows += fmt.Sprintf(" (limit %s)", commas(r.settings.limit))
	}
	fmt.Fprintf(tw, "data\t%s\n", r.data)
	fmt.Fprintf(tw, "layout\t%s\n", r.layout)
	fmt.Fprintf(tw, "rows\t%s, %s\n", rows, order)
	if r.stopped != nil {
		fmt.Fprintf(tw, "stopped\tearly, by the error below: the figures cover the rows learned until then\n")
	}
	if r.settings.onError == data.Skip && r.bad != nil {
		writeSkipped(tw, r.bad)
	}
	if r.bad != nil && r.bad.HugeLabels > 0 {
		fmt.Fprintf(tw, "huge labels\t%s with a label beyond ±1e9 or not finite: predicted, not learned, not scored\n", plural(r.bad.HugeLabels, "row"))
		for i, h := range r.bad.HugeFirst {
			label := ""
			if i == 0 {
				label = "first"
			}
			fmt.Fprintf(tw, "%s\t  %s\n", label, h)
		}
	}
	for _, w := range r.warnings {
		fmt.Fprintf(tw, "warning\t%s\n", w)
	}
	fmt.Fprintf(tw, "features\t%s\n", commas(r.features))
	if r.scaling != "" {
		fmt.Fprintf(tw, "numbers\t%s\n", strings.TrimPrefix(r.scaling, "numbers "))
	}
	fmt.Fprintf(tw, "task\t%s, %s loss\n", r.task, core.TaskLoss(r.task))
	for _, p := range r.players {
		if a := mixtureOf(p.Learner); a != nil {
			eta := ""
			if c, ok := a.(core.Configured); ok && c.Config().Eta > 0 {
				e := c.Config().Eta
				eta = fmt.Sprintf(" (eta %v for its experts)", e)
			}
			fmt.Fprintf(tw, "%s\tno delta to choose%s: %s\n", p.Name, eta, expertsText(a))
		} else if c, ok := p.Learner.(core.Configured); ok {
			delta := orDefault(r.settings.delta, c.Config().Delta)
			if now := core.DeltaNow(p.Learner); c.Config().Delta == 0 && now > 0 {
				rule, _ := core.SpecOf(p.Name)
				delta = fmt.Sprintf("%s, %.4g now (default)", rule.DeltaRule, now)
			}
			fmt.Fprintf(tw, "%s\tdelta %s, eta %s\n", p.Name, delta, orDefault(r.settings.eta, c.Config().Eta))
		}
	}
	if r.guard.Clip {
		fmt.Fprintf(tw, "clip\tpredictions clipped to the label range seen (-clip)\n")
	}
	fmt.Fprintf(tw, "wall time\t%.3f s\n", r.wall.Seconds())
	return tw.Flush()
}

// writeMetrics writes the table of each learner's time and metrics.
func (r report) writeMetrics(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	if r.task == data.Classification {
		fmt.Fprint(tw, "learner\tseconds\tupdates/s\tavg loss\terror rate\tAUC\tlogloss\n")
	} else {
		fmt.Fprint(tw, "learner\tseconds\tupdates/s\tavg loss\tRMSE\tMAE\n")
	}
	for _, p := range r.players {
		s := p.Metrics.Summary()
		if s.Rows == 0 {
			// No row scored: every figure would be a meaningless 0.
			fmt.Fprintf(tw, "%s\t–\t–\t–\t–\t–", p.Name)
			if r.task == data.Classification {
				fmt.Fprint(tw, "\t–")
			}
			fmt.Fprintln(tw)
			continue
		}
		res := core.NewResult(p, s, r.rows, core.Config{})
		fmt.Fprintf(tw, "%s\t%.4g\t%s\t%.4f\t", p.Name, p.Elapsed.Seconds(),
			commas(int(res.UpdatesPerSec)), s.AvgLoss)
		if r.task == data.Classification {
			fmt.Fprintf(tw, "%.4f\t%.4f\t%.4f\n", s.ErrorRate, s.AUC, s.LogLoss)
		} else {
			fmt.Fprintf(tw, "%.4f\t%.4f\n", s.RMSE, s.MAE)
		}
	}
	return tw.Flush()
}

// mixtureOf returns the core.Mixture behind l, or nil.
func mixtureOf(l core.Learner) core.Mixture {
	if g, ok := l.(*core.Guarded); ok {
		l = g.Learner()
	}
	a, _ := l.(core.Mixture)
	return a
}

// expertsText lists a mixture's experts with their weights, the retired
// ones last: "δ=100 0.73, linear 0.27 (retired: bias, δ=10)".
func expertsText(a core.Mixture) string {
	var live, gone []string
	for _, e := range a.Experts() {
		if e.Retired {
			gone = append(gone, e.Name)
		} else {
			live = append(live, fmt.Sprintf("%s %.2g", e.Name, e.Weight))
		}
	}
	t := strings.Join(live, ", ")
	if len(gone) > 0 {
		t += " (retired: " + strings.Join(gone, ", ") + ")"
	}
	reg, bound := a.Regret()
	return t + fmt.Sprintf("; regret to its best expert %.4g (bound %.4g)", reg, bound)
}

// orDefault formats the value a learner uses for a flag whose zero means
// the learner's default.
func orDefault(flag, used float64) string {
	if flag == 0 {
		return fmt.Sprintf("%v (default)", used)
	}
	return fmt.Sprint(used)
}
