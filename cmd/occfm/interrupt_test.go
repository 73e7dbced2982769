package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run the command itself in a child process: with
// OCCFM_TEST_MAIN set, the test binary is occfm, its arguments those after
// "--".
func TestMain(m *testing.M) {
	if os.Getenv("OCCFM_TEST_MAIN") == "1" {
		for i, a := range os.Args {
			if a == "--" {
				os.Args = append([]string{"occfm"}, os.Args[i+1:]...)
				break
			}
		}
		main()
		os.Exit(0)
	}
	measureHeap = false // see measureHeap; the child above measures it
	os.Exit(m.Run())
}

// TestInterrupt: Ctrl-C stops a run at the next row, prints the report of
// the rows learned and says so, saves nothing, and exits 130. The rows come
// through a pipe (-data -), so the test knows the child is learning (its
// progress line shows) before it sends SIGINT.
func TestInterrupt(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "windows" || testing.Short() {
		t.Skip("signals to a child process")
	}
	save := filepath.Join(t.TempDir(), "m.occfm")
	cmd := exec.Command(os.Args[0], "-test.run=^$", "--", "run", "-data", "-", "-task", "classification", "-learner", "occfm", "-save", save)
	cmd.Env = append(os.Environ(), "OCCFM_TEST_MAIN=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	progress := make(chan struct{})
	var stderr strings.Builder
	go func() {
		r := bufio.NewReader(errPipe)
		shown := false
		for {
			b, err := r.ReadByte()
			if err != nil {
				return
			}
			stderr.WriteByte(b)
			if !shown && strings.Contains(stderr.String(), "occfm  ") {
				shown = true
				close(progress)
			}
		}
	}()
	row := 0
	write := func(n int) {
		for range n {
			row++
			fmt.Fprintf(in, "%+d 1:%.3f 2:%.3f\n", 2*(row%2)-1, float64(row%7)/7, float64(row%5)/5)
		}
	}
	// Rows until the child shows progress: it is then past its setup and
	// catching signals.
	for deadline := time.Now().Add(2 * time.Minute); ; {
		write(64)
		select {
		case <-progress:
		case <-time.After(100 * time.Millisecond):
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatal("no progress line from the child in 2 minutes")
			}
			continue
		}
		break
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	write(64) // the child is waiting for a row: it sees the signal after it
	in.Close()
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit %v, want 130; stderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted by Ctrl-C (SIGINT) after ") || !strings.Contains(stderr.String(), "nothing was saved") {
		t.Errorf("stderr does not say it was interrupted and saved nothing:\n%s", stderr.String())
	}
	if !strings.Contains(out.String(), "rows ") || !strings.Contains(out.String(), "stopped") {
		t.Errorf("no report of the rows learned:\n%s", out.String())
	}
	if _, err := os.Stat(save); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the interrupted run saved %s (%v)", save, err)
	}
}
