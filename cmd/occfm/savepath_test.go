package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// saveFixture writes a small MovieLens file into a fresh folder and saves
// the model of one ordinary run over it (-save to a regular file). It
// returns the data file and that model's bytes, which every other way of
// saving the same run must write byte for byte.
func saveFixture(t *testing.T) (data string, model []byte) {
	t.Helper()
	dir := t.TempDir()
	data = filepath.Join(dir, "u.data")
	if err := os.WriteFile(data, []byte(strings.Join(modelData(t, 200)["u.data"], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(dir, "ref.occfm")
	runOK(t, saveArgs(data, ref)...)
	model, err := os.ReadFile(ref)
	if err != nil || len(model) == 0 {
		t.Fatalf("the reference model: %d bytes, %v", len(model), err)
	}
	return data, model
}

// saveArgs is the command line of the runs of saveFixture, saving to save.
func saveArgs(data, save string) []string {
	return []string{"run", "-data", data, "-learner", "occfm", "-quiet", "-save", save}
}

// TestSaveLongName: a -save name of 250 characters, legal under NAME_MAX
// (255), is saved: the temporary file beside it has a short name of its
// own, not the target's with a suffix.
func TestSaveLongName(t *testing.T) {
	data, model := saveFixture(t)
	dir := t.TempDir()
	name := filepath.Join(dir, strings.Repeat("m", 244)+".occfm")
	if err := os.WriteFile(name, nil, 0o644); err != nil {
		t.Skip("this file system does not take a name of 250 characters:", err)
	}
	os.Remove(name)
	var stdout, stderr bytes.Buffer
	if err := run(saveArgs(data, name), &stdout, &stderr); err != nil {
		t.Fatalf("-save with a name of %d characters: %v", len(filepath.Base(name)), err)
	}
	if got, _ := os.ReadFile(name); !bytes.Equal(got, model) {
		t.Errorf("the file holds %d bytes, not the model of %d", len(got), len(model))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the folder holds %d files, want the model alone", len(entries))
	}
}

// TestSaveFailureKeepsReport: a save that fails as on a full disk (the
// sync of the temporary file returns ENOSPC) still prints the report of
// the rows learned, then fails with the disk's error; the old model file
// is left as it was, and no temporary file.
func TestSaveFailureKeepsReport(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("syscall.ENOSPC of a Unix file system")
	}
	data, _ := saveFixture(t)
	dir := t.TempDir()
	save := filepath.Join(dir, "m.occfm")
	old := []byte("the old model")
	if err := os.WriteFile(save, old, 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(f func(*os.File) error) { syncFile = f }(syncFile)
	syncFile = func(*os.File) error { return syscall.ENOSPC }
	var stdout, stderr bytes.Buffer
	err := run(saveArgs(data, save), &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "no space left on device") || !strings.Contains(err.Error(), "-save") {
		t.Errorf("error %v, want -save's \"no space left on device\"", err)
	}
	if !strings.Contains(stdout.String(), "rows ") {
		t.Errorf("no report of the rows learned on stdout:\n%q", stdout.String())
	}
	if got, _ := os.ReadFile(save); !bytes.Equal(got, old) {
		t.Errorf("the old model file now holds %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder holds %d files, want the old model alone", len(entries))
	}
}
