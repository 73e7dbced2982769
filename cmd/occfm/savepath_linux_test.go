package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSaveDescriptorAppends: -save to a path that names an open file of
// the process (/dev/fd/N, /proc/self/fd/N, /dev/stdout, /dev/stderr)
// writes to that open file, where it stands: a log opened to append (the
// shell's >> and 2>>) keeps its lines and gets the model after them; it is
// never replaced by a renamed file.
func TestSaveDescriptorAppends(t *testing.T) {
	data, model := saveFixture(t)
	const old = "a line of the log\n"
	openLog := func(t *testing.T) (*os.File, os.FileInfo) {
		log := filepath.Join(t.TempDir(), "app.log")
		if err := os.WriteFile(log, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		st, _ := f.Stat()
		return f, st
	}
	// check reads the log: its old line, then the model, then tail.
	check := func(t *testing.T, f *os.File, before os.FileInfo, tail string) {
		t.Helper()
		if now, err := os.Stat(f.Name()); err != nil || !os.SameFile(before, now) {
			t.Errorf("%s was replaced by another file (%v)", f.Name(), err)
		}
		got, _ := os.ReadFile(f.Name())
		switch {
		case !bytes.HasPrefix(got, []byte(old)):
			t.Fatalf("the log lost its line: it holds %d bytes beginning %q", len(got), got[:min(len(got), 24)])
		case !bytes.HasPrefix(got[len(old):], model):
			t.Fatalf("after its line the log holds %d bytes, not the model of %d", len(got)-len(old), len(model))
		case !strings.Contains(string(got[len(old)+len(model):]), tail):
			t.Errorf("after the model the log holds %q, want %q", got[len(old)+len(model):], tail)
		}
	}
	for _, name := range []string{"/dev/fd/%d", "/proc/self/fd/%d"} {
		t.Run(strings.ReplaceAll(name, "%d", "N"), func(t *testing.T) {
			f, st := openLog(t)
			path := fmt.Sprintf(name, f.Fd())
			var stdout, stderr bytes.Buffer
			if err := run(saveArgs(data, path), &stdout, &stderr); err != nil {
				t.Fatalf("-save %s: %v", path, err)
			}
			check(t, f, st, "")
		})
	}
	// The command itself in a child, its stdout or stderr the log.
	for _, stream := range []string{"/dev/stdout", "/dev/stderr"} {
		t.Run(stream, func(t *testing.T) {
			f, st := openLog(t)
			cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$", "--"}, saveArgs(data, stream)...)...)
			cmd.Env = append(os.Environ(), "OCCFM_TEST_MAIN=1")
			var other bytes.Buffer
			tail := ""
			if stream == "/dev/stdout" {
				cmd.Stdout, cmd.Stderr = f, &other
				tail = "rows " // the report follows the model
			} else {
				cmd.Stdout, cmd.Stderr = &other, f
			}
			if err := cmd.Run(); err != nil {
				got, _ := os.ReadFile(f.Name())
				t.Fatalf("-save %s: %v\n%s%.300q", stream, err, other.String(), got)
			}
			check(t, f, st, tail)
		})
	}
}

// TestSaveNamedPipe: -save to a named pipe sends the model through it
// once, to the reader there; checking the target before the run does not
// open the pipe (which would give the reader an empty file, or wait for
// one when there is none).
func TestSaveNamedPipe(t *testing.T) {
	data, model := saveFixture(t)
	fifo := filepath.Join(t.TempDir(), "m.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	// release lets a writer stuck opening the pipe go on: a reader that
	// opens it and reads it to the end.
	release := func() {
		if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			go func() { io.Copy(io.Discard, r); r.Close() }()
		}
	}

	t.Run("check with no reader", func(t *testing.T) {
		done := make(chan error, 1)
		go func() { done <- checkWritable(fifo) }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("checkWritable(a named pipe): %v", err)
			}
		case <-time.After(5 * time.Second):
			release()
			<-done
			t.Errorf("checking a named pipe with no reader waited for one (5 s)")
		}
	})

	t.Run("the model through a reader", func(t *testing.T) {
		read := make(chan []byte, 1)
		go func() {
			f, err := os.Open(fifo)
			if err != nil {
				read <- nil
				return
			}
			b, _ := io.ReadAll(f)
			f.Close()
			read <- b
		}()
		ran := make(chan error, 1)
		go func() { ran <- run(saveArgs(data, fifo), new(bytes.Buffer), new(bytes.Buffer)) }()
		got := <-read
		select {
		case err := <-ran:
			if err != nil {
				t.Fatalf("-save %s: %v", fifo, err)
			}
		case <-time.After(20 * time.Second):
			release()
			<-ran
			t.Errorf("the run was still saving 20 s after the reader had read %d bytes", len(got))
		}
		if !bytes.Equal(got, model) {
			t.Errorf("the reader got %d bytes, not the model of %d", len(got), len(model))
		}
	})
}

// TestSavePipeDescriptor: -save /dev/fd/N where N is the write end of a
// pipe, as bash's process substitution -save >(gzip > m.gz) gives
// (/dev/fd/63 → pipe:[N]), writes the model into the pipe.
func TestSavePipeDescriptor(t *testing.T) {
	data, model := saveFixture(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	read := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(r)
		read <- b
	}()
	path := fmt.Sprintf("/dev/fd/%d", w.Fd())
	var stdout, stderr bytes.Buffer
	err = run(saveArgs(data, path), &stdout, &stderr)
	w.Close()
	got := <-read
	if err != nil {
		t.Fatalf("-save %s: %v", path, err)
	}
	if !bytes.Equal(got, model) {
		t.Errorf("the pipe carried %d bytes, not the model of %d", len(got), len(model))
	}
	if !strings.Contains(stdout.String(), "rows ") {
		t.Errorf("no report:\n%s", stdout.String())
	}
}

// TestSaveDevFull: -save /dev/full, a device on which every write fails
// with ENOSPC, prints the report of the rows learned, then fails with
// "no space left on device".
func TestSaveDevFull(t *testing.T) {
	if st, err := os.Stat("/dev/full"); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Skip("no /dev/full")
	}
	data, _ := saveFixture(t)
	var stdout, stderr bytes.Buffer
	err := run(saveArgs(data, "/dev/full"), &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "-save /dev/full") || !strings.Contains(err.Error(), "no space left on device") {
		t.Errorf("error %v, want -save /dev/full's \"no space left on device\"", err)
	}
	if !strings.Contains(stdout.String(), "rows ") {
		t.Errorf("no report of the rows learned on stdout:\n%q", stdout.String())
	}
}

// TestSaveNamedPipeInterrupt: a run whose -save named pipe has no reader
// learns its rows, then waits for one; Ctrl-C (SIGINT) then ends it at
// once, as it would end cat > m.fifo.
func TestSaveNamedPipeInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("a child process waited on for seconds")
	}
	data, _ := saveFixture(t)
	fifo := filepath.Join(t.TempDir(), "m.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$", "--"}, saveArgs(data, fifo)...)...)
	cmd.Env = append(os.Environ(), "OCCFM_TEST_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// 200 rows take milliseconds: after 2 s the child waits for a reader.
	select {
	case err := <-done:
		t.Fatalf("the run ended with no reader of its -save pipe: %v\n%s", err, stderr.String())
	case <-time.After(2 * time.Second):
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-done:
		if stdout.Len() > 0 {
			t.Errorf("a report of a model that was not saved:\n%s", stdout.String())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Errorf("SIGINT did not end a run waiting for the reader of its -save pipe in 10 s")
	}
}

// TestOutputDescriptorAppends: -predictions (and gen's -out and -items,
// through createOutput) to /dev/fd/N of a log opened to append writes after
// the log's lines; opened again by name it would truncate the log.
func TestOutputDescriptorAppends(t *testing.T) {
	log := filepath.Join(t.TempDir(), "run.log")
	if err := os.WriteFile(log, []byte("a line of the log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, err := createOutput(fmt.Sprintf("/dev/fd/%d", f.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := out.WriteString("predictions\n"); err != nil {
		t.Fatal(err)
	}
	out.Close()
	if got, _ := os.ReadFile(log); string(got) != "a line of the log\npredictions\n" {
		t.Errorf("the log holds %q, want its line and then the output", got)
	}
}
