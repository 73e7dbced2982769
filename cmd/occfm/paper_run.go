package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/occfm/occfm/core/evaluate"
)

// paperRun is one run of occfm paper: its settings, its journal, the
// interrupt it watches, and the progress of the data set being played.
type paperRun struct {
	s       paperSettings
	logf    func(string, ...any)
	journal *paperJournal
	intr    *interrupt

	set     string // the data set being played
	total   int    // its passes, every learner's
	setDone int    // of them, read back from the journal
	played  int    // of them, played in this process

	// The learner being played: its passes, those read back, those
	// played in this process since when.
	learnerTotal, learnerDone, learnerPlayed int
	learnerStart                             time.Time
}

// errPaperStop stops the passes at an interrupt (a panic through
// evaluate.Protocol, recovered by playSets).
var errPaperStop = errors.New("occfm paper: stopped")

// paperStopAfter, when positive, stops the run as an interrupt would once
// that many passes were played in this process: a test's Ctrl-C.
var paperStopAfter int

// playSets plays the data sets asked for into rep. An interrupt (Ctrl-C,
// SIGTERM) stops it after the pass being played, which the journal keeps
// with every pass before it.
func (pr *paperRun) playSets(rep *paperReport) (err error) {
	defer func() {
		if p := recover(); p != nil {
			if p != errPaperStop {
				panic(p)
			}
			sig := pr.intr.caught()
			if sig == nil {
				sig = os.Interrupt // paperStopAfter
			}
			err = interruptError{sig: sig, after: fmt.Sprintf("%d passes played in this run; %s keeps all %d played so far: run the same command to go on",
				pr.journal.added, pr.journal.path, pr.journal.added+pr.journal.resumed)}
		}
	}()
	for _, set := range paperSets {
		if len(pr.s.sets) > 0 && !slices.Contains(pr.s.sets, set.Key) {
			continue
		}
		res, err := pr.playPaperSet(set)
		if err != nil {
			return err
		}
		rep.Sets = append(rep.Sets, res)
	}
	return nil
}

// startSet begins the progress of a data set, played by the learners
// playing.
func (pr *paperRun) startSet(set paperSet, playing []paperLearner) {
	pr.set, pr.total, pr.setDone, pr.played = set.Title, 0, 0, 0
	for _, pl := range playing {
		runs, folds := pr.passesOf(set, pl)
		pr.total += runs * folds
	}
}

// startLearner begins the progress of a learner of passes passes.
func (pr *paperRun) startLearner(passes int) {
	pr.learnerTotal, pr.learnerDone, pr.learnerPlayed, pr.learnerStart = passes, 0, 0, time.Now()
}

// readBack counts a pass read back from the journal.
func (pr *paperRun) readBack() {
	pr.setDone++
	pr.learnerDone++
}

// keyAt is k for one pass.
func keyAt(k journalKey, run, fold int) journalKey {
	k.run, k.fold = run, fold
	return k
}

// passDone records a pass just played in the journal, says where the run
// stands (passes done, rows, the time left for this learner at the pace of
// its passes so far, the passes left after it) and stops at an interrupt.
func (pr *paperRun) passDone(k journalKey, pl paperLearner, p evaluate.Pass) {
	if err := pr.journal.add(k, p); err != nil {
		panic(fmt.Errorf("writing %s: %w", pr.journal.path, err))
	}
	pr.played++
	pr.learnerPlayed++
	done := pr.setDone + pr.played
	left := ""
	if rest := pr.learnerTotal - pr.learnerDone - pr.learnerPlayed; rest > 0 {
		per := time.Since(pr.learnerStart) / time.Duration(pr.learnerPlayed)
		left = fmt.Sprintf(", about %s left for %s", (per * time.Duration(rest)).Round(time.Second), pl.Label)
	}
	if after := pr.total - done - (pr.learnerTotal - pr.learnerDone - pr.learnerPlayed); after > 0 {
		left += fmt.Sprintf(", then %d passes of other learners", after)
	}
	pr.logf("  %-20s pass %d, fold %d (%s rows, %s s); %d of %d passes of %s done%s",
		pl.Label, p.Run+1, p.Fold+1, commas(p.Progressive.Rows), fmtSeconds(p.Seconds), done, pr.total, pr.set, left)
	if pr.intr.caught() != nil || paperStopAfter > 0 && pr.journal.added >= paperStopAfter {
		panic(errPaperStop)
	}
}

// fmtSeconds prints a pass's seconds to two digits below 10 s (0.013,
// 2.5), whole above (957).
func fmtSeconds(sec float64) string {
	if sec >= 10 {
		return strconv.FormatFloat(sec, 'f', 0, 64)
	}
	return strconv.FormatFloat(sec, 'g', 2, 64)
}
