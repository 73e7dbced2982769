//go:build linux

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stressSaveTargets is the -save part of make stress's hostile inputs,
// called by TestStressHostileModelFile (and so skipped as it is): the
// targets a shell gives -save, each in a child bash under prlimit, the
// model of a 19,000-rating catalog (533 KB, more than a pipe holds) to
//
//  1. /dev/stdout >> app.log and /dev/stderr 2>> run.log: after the log's
//     line, not over it;
//  2. a named pipe read by cat from a second after the run starts: the
//     model, once (not an empty file, then a save that waits for ever:
//     timeout ends the run at 60 s);
//  3. >(gzip > m.gz): through the pipe;
//  4. /dev/full, and a model file over the 100,000 bytes that prlimit
//     --fsize allows: the report, then the error; the old file intact;
//  5. a name of 250 characters: saved.
//
// Every model must be the ordinary run's, byte for byte.
func stressSaveTargets(t *testing.T, exe string, limit time.Duration) {
	dir := t.TempDir()
	if out, err := exec.Command(exe, "gen", "-demo", "catalog", "-rows", "20000",
		"-out", filepath.Join(dir, "r.csv"), "-items", filepath.Join(dir, "i.csv")).CombinedOutput(); err != nil {
		t.Fatalf("occfm gen: %v\n%s", err, out)
	}
	ref := filepath.Join(dir, "ref.occfm")
	if out, err := exec.Command(exe, "run", "-data", filepath.Join(dir, "r.csv"), "-learner", "occfm", "-quiet", "-save", ref).CombinedOutput(); err != nil {
		t.Fatalf("occfm run -save: %v\n%s", err, out)
	}
	model, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("m", 244) + ".occfm"
	const old = "a line of the log\n"
	for _, c := range []struct {
		name, script string
		check        func(t *testing.T, o hostileOutcome)
	}{
		{"stdout appended", `echo "$OLD" > app.log; exec $RUN -save /dev/stdout >> app.log`, func(t *testing.T, o hostileOutcome) {
			checkSaved(t, o, filepath.Join(dir, "app.log"), old, model, "rows ")
		}},
		{"stderr appended", `echo "$OLD" > run.log; exec $RUN -save /dev/stderr 2>> run.log`, func(t *testing.T, o hostileOutcome) {
			checkSaved(t, o, filepath.Join(dir, "run.log"), old, model, "")
		}},
		{"named pipe", `mkfifo m.fifo; (sleep 1; exec cat m.fifo > fifo.occfm) & cat=$!; timeout -s KILL 60 $RUN -save m.fifo; rc=$?; wait $cat; exit $rc`, func(t *testing.T, o hostileOutcome) {
			checkSaved(t, o, filepath.Join(dir, "fifo.occfm"), "", model, "")
		}},
		{"process substitution", `$RUN -save >(gzip > m.gz); rc=$?; wait $!; exit $rc`, func(t *testing.T, o hostileOutcome) {
			checkGzip(t, o, filepath.Join(dir, "m.gz"), model)
		}},
		{"full device", `exec $RUN -save /dev/full`, func(t *testing.T, o hostileOutcome) {
			checkFailed(t, o, "no space left on device", "", nil)
		}},
		{"file size limit", `echo "$OLD" > keep.occfm; exec prlimit --fsize=100000 $RUN -save keep.occfm`, func(t *testing.T, o hostileOutcome) {
			checkFailed(t, o, "file too large", filepath.Join(dir, "keep.occfm"), []byte(old))
		}},
		{"name of 250 characters", `exec $RUN -save ` + long, func(t *testing.T, o hostileOutcome) {
			checkSaved(t, o, filepath.Join(dir, long), "", model, "")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			script := "cd '" + dir + "' && OLD='" + strings.TrimSuffix(old, "\n") + "' && RUN='" + exe +
				" run -data r.csv -learner occfm -quiet' && " + c.script
			o := runHostile(t, "bash", limit, "occfm", "-c", script)
			t.Logf("-save %s: exit %d  %.1f MiB  %.2f s  %s", c.name, o.exit, o.peakMB, o.wall.Seconds(), summary(o))
			if o.timedOut {
				t.Fatalf("killed at the time limit (%v): the save waited for ever", limit)
			}
			c.check(t, o)
			if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// checkSaved checks a run that exited 0 and left in path the line old,
// then the model, then a tail containing tail.
func checkSaved(t *testing.T, o hostileOutcome, path, old string, model []byte, tail string) {
	t.Helper()
	if o.exit != 0 {
		t.Fatalf("exit %d, want 0: %s", o.exit, firstLine(o.stderr))
	}
	got, err := os.ReadFile(path)
	switch {
	case err != nil:
		t.Fatal(err)
	case !bytes.HasPrefix(got, []byte(old)):
		t.Fatalf("%s lost its line: %d bytes beginning %q", filepath.Base(path), len(got), got[:min(len(got), 24)])
	case !bytes.HasPrefix(got[len(old):], model):
		t.Fatalf("%s holds %d bytes after its line, not the model of %d", filepath.Base(path), len(got)-len(old), len(model))
	case !strings.Contains(string(got[len(old)+len(model):]), tail):
		t.Errorf("after the model %s holds %q, want %q", filepath.Base(path), got[len(old)+len(model):], tail)
	}
}

// checkGzip checks a run that exited 0 and sent the model through gzip
// into path.
func checkGzip(t *testing.T, o hostileOutcome, path string, model []byte) {
	t.Helper()
	if o.exit != 0 {
		t.Fatalf("exit %d: %s", o.exit, firstLine(o.stderr))
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	got, err := io.ReadAll(z)
	if err != nil || !bytes.Equal(got, model) {
		t.Errorf("%s holds %d bytes (%v), not the model of %d", filepath.Base(path), len(got), err, len(model))
	}
}

// checkFailed checks a run whose save failed with msg: exit 1, the report
// of the rows learned on stdout, and the file at path (if any) still
// holding old.
func checkFailed(t *testing.T, o hostileOutcome, msg, path string, old []byte) {
	t.Helper()
	if o.exit != 1 || !strings.Contains(o.stderr, "-save") || !strings.Contains(o.stderr, msg) {
		t.Errorf("exit %d, stderr %q: want 1 and -save's %q", o.exit, firstLine(o.stderr), msg)
	}
	if !strings.Contains(o.stdout, "rows ") {
		t.Errorf("no report of the rows learned:\n%q", o.stdout)
	}
	if path != "" {
		if got, _ := os.ReadFile(path); !bytes.Equal(got, old) {
			t.Errorf("the old %s now holds %d bytes", filepath.Base(path), len(got))
		}
	}
}
