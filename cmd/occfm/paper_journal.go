package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/evaluate"
)

// The journal of occfm paper: every pass of the protocol, appended to
// OUT/paper-passes.jsonl (and synced) as soon as it ends, so that a run
// stopped at any point (Ctrl-C, a crash, a reboot) goes on where it stopped
// when the same command is run again, and gives the same tables: the
// passes left are played as an uninterrupted run would play them
// (evaluate.Settings.Done), and the metrics of those done are read back
// exactly (floats in their shortest round-trip form).

const journalName = "paper-passes.jsonl"

// journalHead is the journal's first line: the protocol it belongs to.
type journalHead struct {
	Journal  int    `json:"occfm_paper_journal"` // the format, 1
	Runs     int    `json:"runs"`
	Folds    int    `json:"folds"`
	FoldsRun int    `json:"folds_run"`
	Seed     uint64 `json:"seed"`
}

// journalPass is one pass of one learner on one data set.
type journalPass struct {
	Set         string       `json:"set"`
	Learner     string       `json:"learner"`
	Dense       bool         `json:"dense,omitempty"`
	Rows        int          `json:"rows"` // the data set's, to notice a changed file
	Run         int          `json:"run"`
	Fold        int          `json:"fold"`
	Order       string       `json:"order"` // evaluate.Pass.Order in hex
	Progressive exactSummary `json:"progressive"`
	HeldOut     exactSummary `json:"held_out"`
	Seconds     exact        `json:"seconds"`
	// Build names the build that played the pass (buildName); the
	// passes of a resumed run may come from several.
	Build string         `json:"build,omitempty"`
	Trace []exactTracePt `json:"trace,omitempty"` // the first pass's only: the figures draw it
}

// exact is a float64 written in its shortest round-trip form, NaN and ±Inf
// as strings.
type exact float64

func (x exact) MarshalJSON() ([]byte, error) {
	v := float64(x)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.AppendQuote(nil, strconv.FormatFloat(v, 'g', -1, 64)), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

func (x *exact) UnmarshalJSON(b []byte) error {
	s := string(b)
	if u, err := strconv.Unquote(s); err == nil {
		s = u
	}
	v, err := strconv.ParseFloat(s, 64)
	*x = exact(v)
	return err
}

type exactSummary struct {
	Rows                                        int
	AvgLoss, RMSE, MAE, ErrorRate, AUC, LogLoss exact
}

func toExact(s core.Summary) exactSummary {
	return exactSummary{s.Rows, exact(s.AvgLoss), exact(s.RMSE), exact(s.MAE), exact(s.ErrorRate), exact(s.AUC), exact(s.LogLoss)}
}

func (e exactSummary) summary() core.Summary {
	return core.Summary{Rows: e.Rows, AvgLoss: float64(e.AvgLoss), RMSE: float64(e.RMSE), MAE: float64(e.MAE),
		ErrorRate: float64(e.ErrorRate), AUC: float64(e.AUC), LogLoss: float64(e.LogLoss)}
}

type exactTracePt struct {
	Rows             int
	Seconds, AvgLoss exact
}

// journalKey names a pass in the journal.
type journalKey struct {
	set, learner string
	dense        bool
	rows         int
	run, fold    int
}

// paperJournal is the journal of one -out folder.
type paperJournal struct {
	path   string
	f      *os.File
	passes map[journalKey]journalPass
	// resumed counts the passes read back; added those appended.
	resumed, added int
}

// openJournal reads OUT/paper-passes.jsonl when it belongs to the same
// protocol (fresh: start over), and opens it to append the passes to come.
// A journal of another protocol is an error naming the difference, so
// that a finished or half-done run is never mixed with another one; a
// last line cut off by a crash is skipped.
func openJournal(out string, head journalHead, fresh bool) (*paperJournal, error) {
	head.Journal = 1
	j := &paperJournal{path: filepath.Join(out, journalName), passes: map[journalKey]journalPass{}}
	b, err := os.ReadFile(j.path)
	switch {
	case errors.Is(err, os.ErrNotExist) || fresh:
		b = nil
	case err != nil:
		return nil, err
	}
	if len(b) > 0 {
		if err := j.read(b, head); err != nil {
			return nil, err
		}
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if len(b) == 0 {
		flags |= os.O_TRUNC
	}
	if j.f, err = os.OpenFile(j.path, flags, 0o644); err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return j, j.write(head)
	}
	if b[len(b)-1] != '\n' {
		_, err = j.f.Write([]byte{'\n'}) // after a cut-off line
	}
	return j, err
}

// read loads the passes of the journal b, written for head.
func (j *paperJournal) read(b []byte, head journalHead) error {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<26)
	if !sc.Scan() {
		return nil
	}
	var h journalHead
	if err := json.Unmarshal(sc.Bytes(), &h); err != nil || h.Journal != 1 {
		return fmt.Errorf("%s is not a journal of occfm paper: remove it, or give -fresh or another -out", j.path)
	}
	if h != head {
		return fmt.Errorf("%s holds a run of %d permutations × %d of %d folds, seed %d, not this one (%d × %d of %d, seed %d): give the same flags to go on with it, or -fresh to start over",
			j.path, h.Runs, h.FoldsRun, h.Folds, h.Seed, head.Runs, head.FoldsRun, head.Folds, head.Seed)
	}
	for sc.Scan() {
		var p journalPass
		if json.Unmarshal(sc.Bytes(), &p) != nil || p.Set == "" {
			continue // a line cut off by a crash
		}
		j.passes[journalKey{p.Set, p.Learner, p.Dense, p.Rows, p.Run, p.Fold}] = p
	}
	j.resumed = len(j.passes) // a pass played twice (two processes at once) counts once
	return sc.Err()
}

// write appends v as a line and syncs it to the disk.
func (j *paperJournal) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return err
	}
	return j.f.Sync()
}

// done returns the pass of the journal, for evaluate.Settings.Done, and
// the build that played it ("" when the journal did not record it).
func (j *paperJournal) done(k journalKey) (evaluate.Pass, string, bool) {
	p, ok := j.passes[k]
	if !ok {
		return evaluate.Pass{}, "", false
	}
	order, err := strconv.ParseUint(p.Order, 16, 64)
	if err != nil {
		return evaluate.Pass{}, "", false
	}
	out := evaluate.Pass{Run: p.Run, Fold: p.Fold, Order: order, Progressive: p.Progressive.summary(),
		HeldOut: p.HeldOut.summary(), Seconds: float64(p.Seconds)}
	for _, t := range p.Trace {
		out.Trace = append(out.Trace, evaluate.TracePoint{Rows: t.Rows, Seconds: float64(t.Seconds), AvgLoss: float64(t.AvgLoss)})
	}
	return out, p.Build, true
}

// add appends a pass just played.
func (j *paperJournal) add(k journalKey, p evaluate.Pass) error {
	jp := journalPass{Set: k.set, Learner: k.learner, Dense: k.dense, Rows: k.rows, Run: p.Run, Fold: p.Fold,
		Order: strconv.FormatUint(p.Order, 16), Progressive: toExact(p.Progressive), HeldOut: toExact(p.HeldOut),
		Seconds: exact(p.Seconds), Build: buildName()}
	if p.Run == 0 && p.Fold == 0 {
		for _, t := range p.Trace {
			jp.Trace = append(jp.Trace, exactTracePt{t.Rows, exact(t.Seconds), exact(t.AvgLoss)})
		}
	}
	j.added++
	return j.write(jp)
}

func (j *paperJournal) Close() error { return j.f.Close() }

var _ io.Closer = (*paperJournal)(nil)
