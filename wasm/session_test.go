package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
	"github.com/occfm/occfm/core/demo"
)

// hangGuard is how long a test may step a session, waiting for work it
// bounds in rows, slices or checkpoints, before it calls the run hung. The
// tests never assert how much is learned in a slice of time, which a busy
// machine (or GOARCH=wasm under node) stretches: a slice's deadline only
// paces the work.
const hangGuard = 2 * time.Minute

// ratingsText returns a u.data-like file of n rows (user item rating time).
func ratingsText(n int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	for i := 0; i < n; i++ {
		u, it := 1+rng.IntN(50), 1+rng.IntN(80)
		fmt.Fprintf(&b, "%d\t%d\t%d\t%d\n", u, it, 1+(u*it)%5, 880000000+i)
	}
	return b.String()
}

func decode(t *testing.T, js string) snapshot {
	t.Helper()
	var s snapshot
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatalf("snapshot is not JSON: %v\n%s", err, js)
	}
	return s
}

// runAll feeds text in chunks of the given size, ends the file and steps
// until the session stops.
func runAll(t *testing.T, s *session, text string, chunk int) {
	t.Helper()
	for off := 0; off < len(text); off += chunk {
		s.feed([]byte(text[off:min(off+chunk, len(text))]))
		s.step(time.Now().Add(time.Second), 0)
	}
	s.end()
	for i := 0; i < 1000 && s.state != "done" && s.state != "error"; i++ {
		s.step(time.Now().Add(time.Second), 0)
	}
}

// runReader is runAll for an input read from r, fed chunk bytes at a time.
func runReader(t *testing.T, s *session, r io.Reader, chunk int) {
	t.Helper()
	buf := make([]byte, chunk)
	for {
		n, err := io.ReadFull(r, buf)
		if n > 0 {
			s.feed(buf[:n])
			s.step(time.Now().Add(time.Second), 0)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	s.end()
	for i := 0; i < 100000 && s.state != "done" && s.state != "error"; i++ {
		s.step(time.Now().Add(time.Second), 0)
	}
}

// cliSummary plays the file the way the CLI does with -shuffle 0: rows in
// file order through core.Play, guarded, with the default learner.
func cliSummary(t *testing.T, text string, task data.Task) core.Summary {
	t.Helper()
	st, err := data.NewStream(strings.NewReader(text), data.ReaderSettings{Name: "x"})
	if err != nil {
		t.Fatal(err)
	}
	// As occfm run: clipped to the label range on ratings (-clip auto).
	l, _ := core.NewGuarded(core.DefaultLearner, core.Config{Task: task}, core.GuardSettings{Clip: st.Format() == data.FormatMovieLens && task == data.Regression})
	m := core.NewMetrics(task, core.TaskLoss(task))
	var ex data.Example
	for st.Next(&ex) == nil {
		y, err := task.Label(ex.Y)
		if err != nil {
			t.Fatal(err)
		}
		core.Play(l, data.Example{X: ex.X, Y: y}, m)
	}
	return m.Summary()
}

// TestFileSessionMatchesCLI checks that chunked feeding, whatever the chunk
// size, gives exactly the CLI's progressive metrics.
func TestFileSessionMatchesCLI(t *testing.T) {
	text := ratingsText(3000, 1)
	want := cliSummary(t, text, data.Regression)
	for _, chunk := range []int{1, 7, 4096, len(text)} {
		s, err := newSession(config{Source: "file", File: "u.data"})
		if err != nil {
			t.Fatal(err)
		}
		runAll(t, s, text, chunk)
		snap := decode(t, s.snapshotJSON())
		if snap.State != "done" || snap.Rows != 3000 || snap.Task != "regression" {
			t.Fatalf("chunk %d: state %q rows %d task %q (error %q)", chunk, snap.State, snap.Rows, snap.Task, snap.Error)
		}
		if got := float64(*snap.Learners[0].RMSE); got != want.RMSE {
			t.Errorf("chunk %d: RMSE %v, CLI path %v", chunk, got, want.RMSE)
		}
	}
}

// TestFileSessionWaits checks that a session learns every complete row
// fed, reports "waiting" (asking for more) until the file ends, and ends
// with the CLI's rows. The file is over 64 KiB: the reader looks at the
// first 64 KiB (for CR-only line ends) before it reads a row, so a shorter
// file learns at its end.
func TestFileSessionWaits(t *testing.T) {
	text := ratingsText(5000, 2)
	cut := strings.Index(text, "\n") * 100 // about 100 rows: less than the reader sniffs
	s, _ := newSession(config{Source: "file", File: "u.data"})
	s.feed([]byte(text[:cut]))
	if n := s.step(time.Now().Add(time.Second), 0); n != 0 || s.state != "waiting" {
		t.Fatalf("learned %d rows in state %q while the reader sniffs", n, s.state)
	}
	if s.wanted() <= 0 {
		t.Errorf("wanted() = %d while waiting", s.wanted())
	}
	s.feed([]byte(text[cut:]))
	s.step(time.Now().Add(hangGuard), 0) // learns what was fed, then waits
	if s.state != "waiting" || s.rows != 5000 {
		t.Errorf("state %q rows %d with all 5000 rows fed, want waiting 5000", s.state, s.rows)
	}
	s.end()
	if s.wanted() != 0 {
		t.Errorf("wanted() = %d after end", s.wanted())
	}
	s.step(time.Now().Add(hangGuard), 0)
	if s.state != "done" || s.rows != 5000 {
		t.Errorf("state %q rows %d, want done 5000", s.state, s.rows)
	}
}

func TestFileSessionClassificationAndErrors(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&b, "%+d 1:%.2f 3:1\n", 1-2*(i%2), float64(i%7)/7)
	}
	text := b.String()
	s, _ := newSession(config{Source: "file", File: "a.svm"})
	runAll(t, s, text, 100)
	snap := decode(t, s.snapshotJSON())
	want := cliSummary(t, text, data.Classification)
	if snap.Task != "classification" || snap.State != "done" || float64(*snap.Learners[0].AUC) != want.AUC {
		t.Errorf("task %q state %q AUC %v, want classification done %v", snap.Task, snap.State, *snap.Learners[0].AUC, want.AUC)
	}
	if snap.Learners[0].RMSE != nil {
		t.Error("classification snapshot carries an RMSE")
	}

	bad := text[:200] + "+1 1:x\n" + text[200:]
	s, _ = newSession(config{Source: "file", File: "bad.svm"})
	runAll(t, s, bad, 64)
	snap = decode(t, s.snapshotJSON())
	if snap.State != "error" || !strings.Contains(snap.Error, "bad.svm:") {
		t.Errorf("state %q error %q, want an error naming bad.svm and the line", snap.State, snap.Error)
	}
}

// TestSessionBudgets checks maxRows and that snapshots carry each point once.
func TestSessionBudgets(t *testing.T) {
	text := ratingsText(5000, 3)
	s, _ := newSession(config{Source: "file", File: "u.data"})
	s.feed([]byte(text))
	s.end()
	if n := s.step(time.Now().Add(time.Minute), 10); n != 10 {
		t.Errorf("step with maxRows 10 learned %d", n)
	}
	first := decode(t, s.snapshotJSON())
	if first.Preview == nil || first.Preview.Format != "movielens" || len(first.Preview.Lines) == 0 {
		t.Errorf("first snapshot's preview = %+v", first.Preview)
	}
	s.step(time.Now().Add(time.Minute), 0)
	second := decode(t, s.snapshotJSON())
	if second.Preview != nil {
		t.Error("the preview was sent twice")
	}
	total := len(first.Points) + len(second.Points)
	if total == 0 || int(second.Points[len(second.Points)-1][0]) > 5000 {
		t.Errorf("points: %d", total)
	}
	if third := decode(t, s.snapshotJSON()); len(third.Points) != 0 {
		t.Errorf("a snapshot without new rows carried %d points", len(third.Points))
	}
}

// TestCheckpointDecimation checks that the stored checkpoints stay bounded.
func TestCheckpointDecimation(t *testing.T) {
	text := ratingsText(30000, 4)
	s, _ := newSession(config{Source: "file", File: "u.data"})
	runAll(t, s, text, len(text))
	if len(s.points) >= maxPoints || s.spacing < 16 {
		t.Errorf("%d points stored at spacing %d after %d rows", len(s.points), s.spacing, s.rows)
	}
	for i := 1; i < len(s.points); i++ {
		if s.points[i][0] <= s.points[i-1][0] {
			t.Fatalf("checkpoints out of order at %d", i)
		}
	}
}

// TestCheckpointsMatchSummary: the checkpoints' metric and average loss,
// kept row by row, equal core.Metrics' to the bit, and a running session's
// snapshot after a slice carries metrics at most summaryEvery old.
func TestCheckpointsMatchSummary(t *testing.T) {
	for _, demo := range []string{"planted-classification", "ratings"} {
		s, err := newSession(config{Source: "demo", Demo: demo, Seed: 1, Learners: []string{"occfm", "linear"}, NoRegret: true})
		if err != nil {
			t.Fatal(err)
		}
		s.step(time.Now().Add(time.Minute), 2400)
		last := s.points[len(s.points)-1]
		if int(last[0]) != s.rows {
			t.Fatalf("%s: last checkpoint at row %v of %d", demo, last[0], s.rows)
		}
		for i, p := range s.players {
			sum := p.Metrics.Summary()
			m := sum.RMSE
			if s.task == data.Classification {
				m = sum.ErrorRate
			}
			if last[2+2*i] != m || last[3+2*i] != sum.AvgLoss {
				t.Errorf("%s, %s: checkpoint (%v, %v), Summary (%v, %v)", demo, p.Name, last[2+2*i], last[3+2*i], m, sum.AvgLoss)
			}
		}
		decode(t, s.runSnapshotJSON())
		s.step(time.Now().Add(time.Minute), 10)
		snap := decode(t, s.runSnapshotJSON())
		if got := snap.Learners[0].Rows; got != s.rows {
			t.Errorf("%s: learner rows %d, want %d", demo, got, s.rows)
		}
		if fresh := decode(t, s.snapshotJSON()); float64(fresh.Learners[0].AvgLoss) != s.players[0].Metrics.Summary().AvgLoss {
			t.Errorf("%s: snapshotJSON's average loss %v is not of now", demo, fresh.Learners[0].AvgLoss)
		}
	}
}

func TestDemoSessions(t *testing.T) {
	for _, d := range demo.All() {
		s, err := newSession(config{Source: "demo", Demo: d.Name, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if n := s.step(time.Now().Add(time.Minute), 500); n != 500 {
			t.Errorf("%s: learned %d rows, want 500", d.Name, n)
		}
		snap := decode(t, s.snapshotJSON())
		if snap.State != "running" || snap.Task != d.Task.String() || len(s.preds) == 0 {
			t.Errorf("%s: state %q task %q, %d predictions", d.Name, snap.State, snap.Task, len(s.preds))
		}
	}
	if _, err := newSession(config{Source: "demo", Demo: "nope"}); err == nil {
		t.Error("an unknown demo was accepted")
	}
	if _, err := newSession(config{Source: "demo", Demo: "ratings", Learners: []string{"nope"}}); err == nil {
		t.Error("an unknown learner was accepted")
	}
}

// TestMovieLensSession is the page's acceptance figure computed natively:
// u.data in file order gives the CLI's -shuffle 0 RMSE exactly.
func TestMovieLensSession(t *testing.T) {
	if testing.Short() {
		t.Skip("a full ML-100K pass; skipped with -short")
	}
	raw, err := os.ReadFile("../../shared/data/movielens-100k/u.data")
	if err != nil {
		t.Skipf("../shared/data not present: %v", err)
	}
	want := cliSummary(t, string(raw), data.Regression)
	s, _ := newSession(config{Source: "file", File: "u.data"})
	runAll(t, s, string(raw), 1<<20)
	snap := decode(t, s.snapshotJSON())
	if snap.State != "done" || snap.Rows != 100000 || float64(*snap.Learners[0].RMSE) != want.RMSE {
		t.Errorf("state %q rows %d RMSE %v, want done 100000 %v", snap.State, snap.Rows, *snap.Learners[0].RMSE, want.RMSE)
	}
}

// TestSessionRegret checks the regret part of snapshots on a demo: points
// arrive with lo ≤ hi, each once, and the comparator catches up.
func TestSessionRegret(t *testing.T) {
	s, err := newSession(config{Source: "demo", Demo: "ratings", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var pts [][]float64
	// At full speed the comparator gets regretShare of the time: under wasm
	// or on a busy machine that takes more steps, up to hangGuard.
	guard := time.Now().Add(hangGuard)
	for i := 0; i < 40 || len(pts) < 3 && time.Now().Before(guard); i++ {
		s.step(time.Now().Add(50*time.Millisecond), 100)
		snap := decode(t, s.snapshotJSON())
		if snap.Regret == nil {
			t.Fatal("no regret in the snapshot")
		}
		pts = append(pts, snap.Regret.Points...)
	}
	if len(pts) < 3 {
		t.Fatalf("%d regret points after %d rows", len(pts), s.rows)
	}
	for i, p := range pts {
		if len(p) != 8 || p[6] > p[7]+1e-9 || (i > 0 && p[0] <= pts[i-1][0]) {
			t.Errorf("point %d = %v: want [T, F, gap, bound, G, cum, lo, hi] with lo ≤ hi, T increasing", i, p)
		}
	}
	if _, err := newSession(config{Source: "demo", Demo: "ratings", RegretGrowth: 0.5}); err == nil {
		t.Error("a regret growth below 1 was accepted")
	}
	s3, _ := newSession(config{Source: "demo", Demo: "ratings", RegretEvery: 50})
	s3.step(time.Now().Add(time.Minute), 260)
	for s3.reg.Pending() > 0 {
		s3.reg.Solve(10)
	}
	if got := len(s3.reg.Points()); got != 5 {
		t.Errorf("regretEvery 50 over 260 rows gave %d checkpoints, want 5", got)
	}
	s2, _ := newSession(config{Source: "demo", Demo: "ratings", NoRegret: true})
	s2.step(time.Now().Add(time.Second), 200)
	if decode(t, s2.snapshotJSON()).Regret != nil {
		t.Error("noRegret still reports regret")
	}
}

// TestSessionRegretAfterDone: the final checkpoint at the end of a file is
// solved by run calls after the stream is done.
func TestSessionRegretAfterDone(t *testing.T) {
	s, _ := newSession(config{Source: "file", File: "u.data"})
	text := ratingsText(700, 5)
	s.feed([]byte(text))
	s.end()
	s.step(time.Now().Add(time.Minute), 0)
	if s.state != "done" {
		t.Fatalf("state %q", s.state)
	}
	for guard := time.Now().Add(hangGuard); s.reg.Pending() > 0 && time.Now().Before(guard); {
		s.step(time.Now().Add(10*time.Millisecond), 0)
	}
	pts := s.reg.Points()
	if s.reg.Pending() != 0 || len(pts) == 0 || pts[len(pts)-1].T != 700 {
		t.Errorf("pending %d, last checkpoint %v; want the end of the stream (700) solved", s.reg.Pending(), pts[len(pts)-1].T)
	}
}

// TestSessionStopLearnsRowsBefore: under "stop", a malformed row met while
// the task is still being guessed (the first 1,000 rows) ends the session
// only after the rows before it are learned, as later errors do.
func TestSessionStopLearnsRowsBefore(t *testing.T) {
	for _, bad := range []int{2, 501, 1501} {
		var b strings.Builder
		for line := 1; line <= 2000; line++ {
			if line == bad {
				b.WriteString("+1 1:abc\n")
				continue
			}
			fmt.Fprintf(&b, "%+d 1:%d 2:1\n", 1-2*(line%2), line%7)
		}
		s, err := newSession(config{Source: "file", File: "x.svm"})
		if err != nil {
			t.Fatal(err)
		}
		runAll(t, s, b.String(), 4096)
		snap := decode(t, s.snapshotJSON())
		want := fmt.Sprintf("x.svm:%d: field 2", bad)
		if snap.State != "error" || !strings.Contains(snap.Error, want) || !snap.BadRow || snap.Rows != bad-1 {
			t.Errorf("bad line %d: state %q, %d rows, error %q (bad row %v); want error at %s after %d rows", bad, snap.State, snap.Rows, snap.Error, snap.BadRow, want, bad-1)
		}
	}
}
