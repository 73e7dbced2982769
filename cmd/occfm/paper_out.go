package main

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/evaluate"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// fmtStat prints mean ± std with four decimals (just the mean for one
// pass), or "–" when there is nothing to print.
func fmtStat(s evaluate.Stat) string {
	switch {
	case s.N == 0 || math.IsNaN(s.Mean):
		return "–"
	case s.N == 1:
		return fmt.Sprintf("%.4f", s.Mean)
	}
	return fmt.Sprintf("%.4f ± %.4f", s.Mean, s.Std)
}

func fmtPaper(v []float64, i int) string {
	if i < len(v) {
		return fmt.Sprintf("%.4f", v[i])
	}
	return ""
}

// paperMarkdown renders the report as Markdown: the protocol, Table 2
// (RMSE) and Table 3 (error rate, AUC) with the paper's numbers beside ours,
// the held-out-fold versions, speeds, and notes on skipped sets.
func paperMarkdown(rep paperReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Reproducing the paper's Tables 2 and 3\n\n")
	fmt.Fprintf(&b, "Command: `%s`. Protocol: %d-fold cross-validation (%d of %d folds played), %d random permutation(s) of the training folds per fold, predict-then-update; seed %d. "+
		"\"ours\" is the progressive metric over the training folds (each row scored before its label is learned), mean ± standard deviation over passes; \"held-out\" scores the final model on the held-out fold. \"paper\" is the paper's published number.\n\n",
		strings.TrimSpace(rep.Command), rep.Folds, rep.FoldsRun, rep.Folds, rep.Runs, rep.Seed)
	fmt.Fprintf(&b, "Build: %s. Learning time of all %s passes: %s (what an uninterrupted run spends learning; the held-out scoring and the loading add little); this process played %s of them in %s and read %s back from its journal.",
		rep.Build, commas(rep.Played+rep.ReadBack), fmtDuration(rep.PassSeconds), commas(rep.Played), fmtDuration(rep.Seconds), commas(rep.ReadBack))
	if builds := passBuilds(rep); len(builds) > 1 || len(builds) == 1 && builds[0].name != rep.Build {
		b.WriteString(" Passes by the build that played them:")
		for i, nb := range builds {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " %s (%s)", nb.name, commas(nb.n))
		}
		b.WriteString(".")
	}
	b.WriteString("\n\n")

	writeSetsTable(&b, rep)
	writeResultTables(&b, rep)
	writePairedTests(&b, rep)
	writeSpeedTable(&b, rep)
	return b.String()
}

// fmtDuration prints seconds as "2 h 05 min", "3 min 04 s" or "12 s".
func fmtDuration(sec float64) string {
	d := time.Duration(sec * float64(time.Second)).Round(time.Second)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	switch {
	case h > 0:
		return fmt.Sprintf("%d h %02d min", h, m)
	case m > 0:
		return fmt.Sprintf("%d min %02d s", m, s)
	}
	return fmt.Sprintf("%d s", s)
}

type buildCount struct {
	name string
	n    int
}

// passBuilds counts the report's passes by the build that played them,
// most first.
func passBuilds(rep paperReport) []buildCount {
	count := map[string]int{}
	for _, s := range rep.Sets {
		for _, r := range s.Results {
			for name, n := range r.Builds {
				count[name] += n
			}
		}
	}
	var out []buildCount
	for name, n := range count {
		out = append(out, buildCount{name, n})
	}
	slices.SortFunc(out, func(a, b buildCount) int { return cmp.Or(b.n-a.n, strings.Compare(a.name, b.name)) })
	return out
}

// writeSetsTable writes the table of the data sets: size, δ, rank and notes.
func writeSetsTable(b *strings.Builder, rep paperReport) {
	b.WriteString("| Data set | rows | features | δ (CCFM, CFM) | FM rank | note |\n|---|---:|---:|---:|---:|---|\n")
	for _, s := range rep.Sets {
		note := ""
		switch {
		case s.Skipped != "":
			note = s.Skipped
		case s.Extra:
			note = "not in the paper (extra row)"
		}
		rows, feats := "–", "–"
		if s.Rows > 0 {
			rows, feats = commas(s.Rows), commas(s.Features)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %g | %d | %s |\n", s.Title, rows, feats, s.Delta, s.Rank, note)
	}
	b.WriteString("\n")

}

// writeResultTables writes Tables 2 and 3, progressive and held-out, for
// the sets of each that ran or that the paper has.
func writeResultTables(b *strings.Builder, rep paperReport) {
	for _, table := range []struct {
		num     int
		title   string
		metrics []string
		names   []string
	}{
		{2, "Table 2: RMSE, online rating prediction", []string{"rmse"}, []string{"RMSE"}},
		{3, "Table 3: error rate and AUC, online binary classification", []string{"error_rate", "auc"}, []string{"error rate", "AUC"}},
	} {
		var sets []paperSetResult
		for _, s := range rep.Sets {
			// Sets of the paper that are missing here keep their column
			// ("not available"); extra sets left out of this run drop it.
			if s.Table == table.num && (s.Skipped == "" || s.Missing != "") {
				sets = append(sets, s)
			}
		}
		if len(sets) == 0 {
			continue
		}
		for _, heldOut := range []bool{false, true} {
			writeResultTable(b, table.title, table.metrics, table.names, sets, heldOut)
		}
	}

}

// writeResultTable writes one of Tables 2 and 3 (progressive, or held-out),
// a row per learner with the paper's figure beside ours.
func writeResultTable(b *strings.Builder, title string, metrics, names []string, sets []paperSetResult, heldOut bool) {
	kind := "progressive over the training folds"
	if heldOut {
		kind = "held-out fold, after the pass"
	}
	fmt.Fprintf(b, "## %s (%s)\n\n", title, kind)
	if capped := cappedNote(sets); capped != "" {
		b.WriteString(capped + "\n\n")
	}
	head := []string{"Algorithm"}
	for mi := range metrics {
		for _, s := range sets {
			name := s.Title
			if len(metrics) > 1 {
				name = names[mi] + ", " + s.Title
			}
			head = append(head, name)
			if !s.Extra && !heldOut {
				head = append(head, "paper")
			}
		}
	}
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|---" + strings.Repeat("|---:", len(head)-1) + "|\n")
	for _, pl := range paperLearners {
		if pl.Dense != nil {
			continue // figures and the speed table only
		}
		row := []string{pl.Label}
		any := false
		for mi, metric := range metrics {
			for _, s := range sets {
				cell := "not available"
				if s.Skipped != "" && s.Missing == "" {
					cell = "not run"
				}
				if s.Skipped == "" {
					cell = "not run"
					for _, r := range s.Results {
						if r.Label != pl.Label {
							continue
						}
						any = true
						m := r.Progressive
						if heldOut {
							m = r.HeldOut
						}
						cell = fmtStat(m[metric])
						if n := m[metric].N; n > 1 && len(s.Runs) > 0 && s.Runs[r.Learner] > 0 {
							cell += fmt.Sprintf(" (%d passes)", n)
						}
						if r.Error != "" {
							cell = "failed"
						}
					}
				}
				row = append(row, cell)
				if !s.Extra && !heldOut {
					row = append(row, fmtPaper(s.Paper[pl.Name], mi))
				}
			}
		}
		if any {
			b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
	}
	b.WriteString("\n")
}

// writeSpeedTable writes the updates per second of every learner on every
// set that ran, then the runs that failed.
func writeSpeedTable(b *strings.Builder, rep paperReport) {
	b.WriteString("## Speed (updates per second in the training passes, this machine)\n\n")
	head := []string{"Algorithm"}
	var ran []paperSetResult
	for _, s := range rep.Sets {
		if s.Skipped == "" {
			ran = append(ran, s)
			head = append(head, s.Title)
		}
	}
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|---" + strings.Repeat("|---:", len(head)-1) + "|\n")
	for _, pl := range paperLearners {
		row := []string{pl.Label}
		any := false
		for _, s := range ran {
			cell := "–"
			for _, r := range s.Results {
				if r.Label == pl.Label && r.Error == "" {
					cell = commas(int(math.Round(r.UpdatesPerSec)))
					any = true
				}
			}
			row = append(row, cell)
		}
		if any {
			b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
	}
	b.WriteString("\n")
	for _, s := range rep.Sets {
		for _, r := range s.Results {
			if r.Error != "" {
				fmt.Fprintf(b, "- %s on %s failed: %s\n", r.Label, s.Title, r.Error)
			}
		}
	}
}

// figureColors are distinguishable line colours, one per learner of a
// figure (the dense variants take their fast variant's, dotted).
var figureColors = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xff, 0x7f, 0x0e, 0xff}, {0x2c, 0xa0, 0x2c, 0xff},
	{0xd6, 0x27, 0x28, 0xff}, {0x94, 0x67, 0xbd, 0xff}, {0x00, 0x00, 0x00, 0xff},
	{0x8c, 0x56, 0x4b, 0xff}, {0xe3, 0x77, 0xc2, 0xff}, {0x7f, 0x7f, 0x7f, 0xff},
	{0xbc, 0xbd, 0x22, 0xff}, {0x17, 0xbe, 0xcf, 0xff},
}

// paperFigures writes one efficiency figure per data set that ran, like the
// paper's Figs. 1–2: the progressive average loss against the learning time
// of the first pass, one line per learner, time on a log axis. It returns
// the files written.
func paperFigures(rep paperReport, dir string) ([]string, error) {
	var files []string
	for _, s := range rep.Sets {
		if s.Skipped != "" || len(s.Results) == 0 {
			continue
		}
		p := plot.New()
		p.Title.Text = fmt.Sprintf("%s: average loss vs learning time (first pass)", s.Title)
		p.X.Label.Text = "seconds (log scale)"
		p.Y.Label.Text = "average " + core.TaskLoss(s.Task).String() + " loss"
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		legend := plot.NewLegend()
		legend.Top, legend.Left = true, true
		legend.ThumbnailWidth = vg.Points(20)
		p.Add(plotter.NewGrid())
		lines := 0
		for i, r := range s.Results {
			if r.Error != "" {
				continue
			}
			var pts plotter.XYs
			for _, t := range r.Trace {
				if t.Seconds > 0 && !math.IsNaN(t.AvgLoss) && !math.IsInf(t.AvgLoss, 0) {
					pts = append(pts, plotter.XY{X: t.Seconds, Y: t.AvgLoss})
				}
			}
			if len(pts) < 2 {
				continue
			}
			l, err := plotter.NewLine(pts)
			if err != nil {
				return files, err
			}
			l.Color = figureColors[i%len(figureColors)]
			l.Width = vg.Points(1.5)
			if paperMain(r.Label) {
				l.Width = vg.Points(2.5)
			}
			switch {
			case r.Dense:
				l.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
				// The colour of the fast variant, dotted.
				if k := slices.IndexFunc(s.Results, func(o paperResult) bool { return o.Learner == r.Learner && !o.Dense }); k >= 0 {
					l.Color = figureColors[k%len(figureColors)]
				}
			case !isPaperLearner(r.Learner):
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			}
			p.Add(l)
			legend.Add(r.Label, l)
			lines++
		}
		if lines == 0 {
			continue
		}
		for _, ext := range []string{"png", "svg"} {
			name := filepath.Join(dir, "fig-"+s.Key+"."+ext)
			if err := saveFigure(p, legend, ext, name); err != nil {
				return files, err
			}
			files = append(files, name)
		}
	}
	return files, nil
}

func isPaperLearner(name string) bool {
	for _, pl := range paperLearners {
		if pl.Name == name {
			return pl.Paper
		}
	}
	return false
}

// cappedNote says which learners play fewer permutations per fold than the
// protocol on which of sets, and why, or "" when none does.
func cappedNote(sets []paperSetResult) string {
	var parts []string
	for _, s := range sets {
		if s.Skipped != "" || len(s.Runs) == 0 {
			continue
		}
		var names []string
		for _, pl := range paperLearners {
			if _, ok := s.Runs[pl.Name]; ok && pl.Dense == nil {
				names = append(names, pl.Label)
			}
		}
		first := "the first permutation"
		if n := slices.Min(slices.Collect(maps.Values(s.Runs))); n > 1 {
			first = fmt.Sprintf("the first %d permutations", n)
		}
		verb := "play"
		if len(names) == 1 {
			verb = "plays"
		}
		parts = append(parts, fmt.Sprintf("on %s, %s %s only %s of each fold (a pass of theirs takes too long for all of them; the cell gives their count of passes)",
			s.Title, strings.Join(names, ", "), verb, first))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Fewer passes: " + strings.Join(parts, "; ") + "."
}

// saveFigure writes the plot with its legend to its right, outside the
// curves, as a format (png or svg) file.
func saveFigure(p *plot.Plot, legend plot.Legend, format, name string) error {
	const legendWidth = 2.6 * vg.Inch
	w, h := 7*vg.Inch+legendWidth, 4.5*vg.Inch
	cw, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return err
	}
	c := draw.New(cw)
	p.Draw(draw.Crop(c, 0, -legendWidth, 0, 0))
	legend.Draw(draw.Crop(c, w-legendWidth+vg.Points(8), 0, 0, -vg.Points(8)))
	return writeFile(name, func(w io.Writer) error {
		_, err := cw.WriteTo(w)
		return err
	})
}

// paperMain reports whether the table row labelled label is the paper's
// own learner (paperLearner.Main).
func paperMain(label string) bool {
	for _, pl := range paperLearners {
		if pl.Label == label {
			return pl.Main
		}
	}
	return false
}
