package main

import (
	"errors"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/occfm/occfm/core/data"
)

// errInterrupted ends a run stopped by Ctrl-C (SIGINT) or SIGTERM.
var errInterrupted = errors.New("interrupted")

// interrupt records the first SIGINT or SIGTERM of a run, which then stops
// at the next row and reports what it learned; a second signal ends the
// process at once, as if occfm did not catch them.
type interrupt struct {
	sig  atomic.Pointer[os.Signal]
	stop func()
}

// watchInterrupt starts catching SIGINT and SIGTERM until stop is called.
func watchInterrupt() *interrupt {
	in := &interrupt{}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	in.stop = sync.OnceFunc(func() { signal.Stop(ch); close(done) })
	go func() {
		select {
		case s := <-ch:
			in.sig.Store(&s)
			signal.Stop(ch) // the next one ends the process
		case <-done:
		}
	}()
	return in
}

// signal returns the signal caught, or nil.
func (in *interrupt) caught() os.Signal {
	if s := in.sig.Load(); s != nil {
		return *s
	}
	return nil
}

// interruptible is a row source that ends with errInterrupted once a
// signal was caught: the run stops between two rows.
type interruptible struct {
	data.ExampleSource
	in *interrupt
}

func (s interruptible) Next(ex *data.Example) error {
	if s.in.sig.Load() != nil {
		return errInterrupted
	}
	return s.ExampleSource.Next(ex)
}

// interruptError is how an interrupted run ends: the rows it learned, and
// whether its model was saved (it is not: a model cut off by the user is
// not the one they asked to keep). main exits with 130, as a shell reports
// a process stopped by Ctrl-C.
type interruptError struct {
	sig   os.Signal
	rows  int
	saved string // the -save target left as it was, or ""
	// after, when set, says what was done in place of the rows learned
	// (occfm paper: the passes kept in its journal).
	after string
}

func (e interruptError) Error() string {
	if e.after != "" {
		return "interrupted by " + signalName(e.sig) + " after " + e.after
	}
	msg := "interrupted by " + signalName(e.sig) + " after " + commas(e.rows) + " rows learned"
	if e.saved != "" {
		return msg + "; nothing was saved (" + e.saved + " is as it was)"
	}
	return msg
}

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "Ctrl-C (SIGINT)"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}
