package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/occfm/occfm/core"
	"github.com/occfm/occfm/core/data"
)

// outcome is how a file read ends: rows read, rows skipped, and the error
// that stopped it ("" at the end of the file).
type outcome struct {
	Rows, Skipped int
	Err           string
}

// coreOutcome reads data with data.NewStream and Stream.Next, as the
// command line does, under the policy.
func coreOutcome(t *testing.T, name string, raw []byte, policy string) outcome {
	t.Helper()
	var bad data.BadRows
	var err error
	if bad.Policy, err = data.ParseOnError(policy); err != nil {
		t.Fatal(err)
	}
	st, err := data.NewStream(bytes.NewReader(raw), data.ReaderSettings{Name: name})
	if err != nil {
		return outcome{Err: err.Error()}
	}
	var o outcome
	var ex data.Example
	for {
		err := st.Next(&ex)
		switch {
		case err == nil:
			o.Rows++
		case bad.Skip(err):
		case err == io.EOF:
			o.Skipped = bad.Skipped
			return o
		default:
			o.Skipped, o.Err = bad.Skipped, err.Error()
			return o
		}
	}
}

// pageFeed feeds data to s as the page does: chunks of at most chunk bytes
// while the session wants bytes, then a learning slice. It checks that the
// feed buffer never holds more than aheadBytes plus a chunk, and returns
// the session's outcome.
func pageFeed(t *testing.T, s *session, raw []byte, chunk int) outcome {
	t.Helper()
	off := 0
	for i := 0; s.state != "done" && s.state != "error"; i++ {
		if i > 10*(len(raw)/chunk+10) {
			t.Fatalf("no end after %d slices: state %q, %d of %d bytes fed", i, s.state, off, len(raw))
		}
		for off < len(raw) && s.wanted() > 0 {
			n := min(chunk, len(raw)-off)
			s.feed(raw[off : off+n])
			off += n
		}
		if off == len(raw) {
			s.end()
		}
		if c := cap(s.file.data); c > aheadBytes+chunk {
			t.Fatalf("the feed buffer holds %d bytes, over %d + a chunk of %d", c, aheadBytes, chunk)
		}
		s.step(time.Now().Add(time.Second), 0)
	}
	snap := decode(t, s.snapshotJSON())
	o := outcome{Rows: snap.Rows, Skipped: snap.Skipped}
	if snap.State == "error" {
		o.Err = snap.Error
	}
	return o
}

// sameAsCore checks that the page's session reads data as core does, under
// both policies, fed in chunks of the given size.
func sameAsCore(t *testing.T, name string, raw []byte, chunk int) {
	t.Helper()
	for _, policy := range []string{"stop", "skip"} {
		want := coreOutcome(t, name, raw, policy)
		s, err := newSession(config{Source: "file", File: name, OnError: policy, Task: "regression", NoRegret: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := pageFeed(t, s, raw, chunk); got != want {
			t.Errorf("%s, %s, chunks of %d: page %+v, core %+v", name, policy, chunk, got, want)
		}
	}
}

func gzipBytes(t *testing.T, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := io.WriteString(zw, text); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSessionLongComments: 10 MiB of # comment lines before 200 rows, gzip
// and plain, fed in small chunks, read as core reads them (the page once
// stopped at its own 2 MiB read-ahead).
func TestSessionLongComments(t *testing.T) {
	var b strings.Builder
	for b.Len() < 10<<20 {
		b.WriteString("# a comment line of sixty-four bytes, as in a real file........\n")
	}
	b.WriteString(ratingsText(200, 3))
	text := b.String()
	want := coreOutcome(t, "c.data", []byte(text), "stop")
	if want.Rows != 200 || want.Err != "" {
		t.Fatalf("core: %+v, want 200 rows", want)
	}
	sameAsCore(t, "c.data.gz", gzipBytes(t, text), 1000)
	if !testing.Short() {
		sameAsCore(t, "c.data", []byte(text), 64<<10)
	}
}

// TestSessionLongFirstLine: a first line of 100 MB, then 100 rows: under
// stop the session ends with core's error for line 1, under skip it learns
// the 100 rows; its feed buffer stays bounded.
func TestSessionLongFirstLine(t *testing.T) {
	if testing.Short() {
		t.Skip("100 MB")
	}
	raw := bytes.Repeat([]byte("1 "), 50_000_000)
	raw[len(raw)-1] = '\n'
	raw = append(raw, ratingsText(100, 4)...)
	stop := coreOutcome(t, "long.data", raw, "stop")
	if stop.Rows != 0 || !strings.Contains(stop.Err, ":1:") || !strings.Contains(stop.Err, "longer than") {
		t.Errorf("core under stop: %+v, want an error for line 1", stop)
	}
	if skip := coreOutcome(t, "long.data", raw, "skip"); skip.Rows != 100 {
		t.Errorf("core under skip: %+v, want 100 rows", skip)
	}
	sameAsCore(t, "long.data", raw, 1<<20)
}

// TestSessionGzipChunks: a gzip file fed in odd chunk sizes reads as the
// plain file, with the CLI's metrics; several members, trailing zero
// padding and a file cut short read as core reads them.
func TestSessionGzipChunks(t *testing.T) {
	text := ratingsText(3000, 5)
	z := gzipBytes(t, text)
	want := cliSummary(t, text, data.Regression)
	for _, chunk := range []int{1, 7, 333, 4099, len(z)} {
		s, _ := newSession(config{Source: "file", File: "u.data.gz"})
		runAll(t, s, string(z), chunk)
		snap := decode(t, s.snapshotJSON())
		if snap.State != "done" || snap.Rows != 3000 || snap.Layout != "movielens u.data (tab)" {
			t.Fatalf("chunk %d: state %q (%s), %d rows, layout %q", chunk, snap.State, snap.Error, snap.Rows, snap.Layout)
		}
		if got := float64(*snap.Learners[0].RMSE); got != want.RMSE {
			t.Errorf("chunk %d: RMSE %v, plain file through the CLI %v", chunk, got, want.RMSE)
		}
	}
	half := len(text) / 2
	half += strings.IndexByte(text[half:], '\n') + 1
	members := append(gzipBytes(t, text[:half]), gzipBytes(t, text[half:])...)
	for name, raw := range map[string][]byte{
		"members.gz": members,
		"padded.gz":  append(append([]byte{}, z...), make([]byte, 1024)...),
		"cut.gz":     z[:len(z)/2],
	} {
		for _, chunk := range []int{13, 4096} {
			sameAsCore(t, name, raw, chunk)
		}
	}
}

// TestSessionPreviewGzip: the preview of a gzip file shows its first
// decoded lines, and a .gz name on plain bytes is a warning.
func TestSessionPreviewGzip(t *testing.T) {
	text := ratingsText(500, 6)
	lines := strings.Split(text, "\n")[:previewLines]
	for name, raw := range map[string]string{"u.data.gz": string(gzipBytes(t, text)), "plain.data.gz": text} {
		s, _ := newSession(config{Source: "file", File: name})
		runAll(t, s, raw, 1000)
		var snap struct {
			Preview preview `json:"preview"`
		}
		// The preview is in the first snapshot after the stream opened.
		s.preview.sent = false
		if err := json.Unmarshal([]byte(s.snapshotJSON()), &snap); err != nil {
			t.Fatal(err)
		}
		p := snap.Preview
		if fmt.Sprint(p.Lines) != fmt.Sprint(lines) || p.Layout != "movielens u.data (tab)" {
			t.Errorf("%s: preview %q (%s), want %q", name, p.Lines, p.Layout, lines)
		}
		if warned := len(p.Warnings) == 1 && strings.Contains(p.Warnings[0], "not gzip"); warned != (name == "plain.data.gz") {
			t.Errorf("%s: warnings %q", name, p.Warnings)
		}
	}
}

// TestSessionFiniteJSON: a row with label 1e300 and a feature 1e300 (whose
// loss is infinite) leaves every JSON the session writes valid, the figures
// finite, and the session learning on.
func TestSessionFiniteJSON(t *testing.T) {
	text := "1 1:1\n-1 2:1\n1e300 3:1e300\n" + strings.Repeat("1 1:1 2:0.5\n-1 2:1\n", 50)
	s, _ := newSession(config{Source: "file", File: "huge.svm", RegretEvery: 1})
	var snaps []string
	for off := 0; off < len(text); off += 5 {
		s.feed([]byte(text[off:min(off+5, len(text))]))
		s.step(time.Now().Add(time.Second), 1)
		snaps = append(snaps, s.runSnapshotJSON())
	}
	s.end()
	for i := 0; i < 1000 && s.state != "done" && s.state != "error"; i++ {
		s.step(time.Now().Add(time.Second), 0)
		snaps = append(snaps, s.runSnapshotJSON())
	}
	snaps = append(snaps, s.snapshotJSON())
	for _, js := range snaps {
		var v map[string]any
		if err := json.Unmarshal([]byte(js), &v); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, js)
		}
		if strings.Contains(js, "json:") || strings.Contains(js, "Inf") || strings.Contains(js, "NaN") {
			t.Fatalf("a snapshot names a non-finite number: %s", js)
		}
	}
	last := decode(t, snaps[len(snaps)-1])
	if last.State != "done" || last.Rows != 103 {
		t.Fatalf("state %q (%s), %d rows; want done, 103", last.State, last.Error, last.Rows)
	}
	// The huge label is left out of the metrics and the checkpoints (as
	// core.Metrics leaves it out), so the figures are finite numbers.
	if r := last.Learners[0]; r.ErrorRate == nil && r.RMSE == nil {
		t.Errorf("the last snapshot's figures went missing: %+v", r)
	}
}

// TestSessionReaderReleased: a new start lets the old reading coroutine go,
// and a panic inside it reaches the caller of step (the page's call, which
// recovers it and ends the session).
func TestSessionReaderReleased(t *testing.T) {
	s, _ := newSession(config{Source: "file", File: "u.data"})
	s.feed([]byte(ratingsText(10, 7)))
	s.step(time.Now().Add(time.Second), 0)
	if s.state != "waiting" || s.rd == nil {
		t.Fatalf("state %q, reader %v", s.state, s.rd)
	}
	s.release()
	if _, ok := s.rd.next(); ok {
		t.Errorf("the coroutine is still running after release")
	}

	s, _ = newSession(config{Source: "file", File: "u.data"})
	s.feed([]byte(ratingsText(10, 7)))
	s.step(time.Now().Add(time.Second), 0)
	s.file.wait = func() bool { panic("boom") }
	s.feed([]byte(ratingsText(300, 8)))
	func() {
		defer func() {
			if p := recover(); p != "boom" {
				t.Errorf("recovered %v, want the coroutine's panic", p)
			}
		}()
		for range 10 {
			s.step(time.Now().Add(time.Second), 0)
		}
	}()
	s.fail(fmt.Errorf("internal error"))
	if snap := decode(t, s.snapshotJSON()); snap.State != "error" {
		t.Errorf("state %q after the panic", snap.State)
	}
}

// TestGunzipBound: an item list that decompresses past gunzipMax (a gzip
// bomb picked as movies.dat) is refused after that many bytes.
func TestGunzipBound(t *testing.T) {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(make([]byte, gunzipMax+1))
	zw.Close()
	if _, err := gunzip(z.Bytes()); err == nil || !strings.Contains(err.Error(), "more than 64 MiB") {
		t.Fatalf("%d compressed bytes of %d zeros: %v", z.Len(), gunzipMax+1, err)
	}
}

// TestNumJSON: num and numRows write finite numbers exactly as
// encoding/json writes float64s, and NaN and ±Inf as null.
func TestNumJSON(t *testing.T) {
	rows := [][]float64{{0, 1, -2.5, 1e-7, 1e21, 123456789.125}, {}, {3}}
	want, _ := json.Marshal(rows)
	if got := numRows(rows).appendJSON(nil); string(got) != string(want) {
		t.Errorf("numRows %s, encoding/json %s", got, want)
	}
	got := numRows{{math.NaN(), math.Inf(1), 2}}.appendJSON(nil)
	if string(got) != "[[null,null,2]]" {
		t.Errorf("non-finite: %s", got)
	}
	if got := numRows(nil).appendJSON(nil); string(got) != "[]" {
		t.Errorf("nil rows: %s", got)
	}
	if got := core.AppendNum(core.AppendNum([]byte("["), math.Inf(-1)), 0.1); string(got) != "[null0.1" {
		t.Errorf("num: %s", got)
	}
}
