package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGen writes demo files with occfm gen and learns them with occfm run:
// -rows gives exactly N rows, -size stops at the first row that reaches the
// size, the same seed gives the same bytes, and the task is guessed from
// the labels.
func TestGen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "planted.svm")
	_, stderr := runOK(t, "gen", "-rows", "500", "-seed", "4", "-out", path)
	if !strings.Contains(stderr, "wrote 500 rows") {
		t.Errorf("stderr %q", stderr)
	}
	a, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(a), "\n"); n != 500 {
		t.Errorf("%d lines, want 500", n)
	}
	b, _ := runOK(t, "gen", "-rows", "500", "-seed", "4")
	if b != string(a) {
		t.Error("-out and stdout differ for the same seed")
	}
	stdout, _ := runOK(t, "run", "-data", path, "-json", "-quiet")
	rec := jsonLines(t, stdout)[0]
	if rec["task"] != "classification" || rec["rows"] != 500.0 {
		t.Errorf("run on the generated file: task %v, rows %v; want classification, 500", rec["task"], rec["rows"])
	}

	sized := filepath.Join(dir, "sized.svm")
	runOK(t, "gen", "-size", "10K", "-demo", "ratings", "-out", sized)
	fi, err := os.Stat(sized)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() < 10<<10 || fi.Size() > 10<<10+100 {
		t.Errorf("-size 10K wrote %d bytes, want 10,240 up to one line more", fi.Size())
	}
	stdout, _ = runOK(t, "run", "-data", sized, "-json", "-quiet")
	if rec := jsonLines(t, stdout)[0]; rec["task"] != "regression" {
		t.Errorf("ratings file: task %v, want regression", rec["task"])
	}
}

func TestGenErrors(t *testing.T) {
	for _, args := range [][]string{
		{"gen"},
		{"gen", "-rows", "10", "-size", "1M"},
		{"gen", "-rows", "-1"},
		{"gen", "-size", "lots"},
		{"gen", "-size", "0"},
		{"gen", "-rows", "10", "-demo", "nope"},
		{"gen", "-rows", "10", "extra"},
	} {
		err := run(args, new(strings.Builder), new(strings.Builder))
		if !errors.As(err, new(usageError)) {
			t.Errorf("%q: error %v, want a usage error", args, err)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "10K": 10 << 10, "200M": 200 << 20, "1G": 1 << 30, "1GB": 1 << 30, "3GiB": 3 << 30, "5kb": 5 << 10} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}
