package main

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestWriteFileKeepsLinksAndModes: -save through a symbolic link writes the
// file it names and leaves the link; over a 0600 file the new one is 0600;
// a new file gets 0666 less the umask, as the user's other files; a failed
// write leaves no partial file.
func TestWriteFileKeepsLinksAndModes(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "windows" {
		t.Skip("file modes and symbolic links of a Unix file system")
	}
	dir := t.TempDir()
	real := filepath.Join(dir, "real.occfm")
	if err := os.WriteFile(real, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(real, 0o600)
	link := filepath.Join(dir, "link.occfm")
	if err := os.Symlink("real.occfm", link); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(link, bytesOf("new model")); err != nil {
		t.Fatal(err)
	}
	if l, err := os.Lstat(link); err != nil || l.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", l.Mode(), err)
	}
	if b, _ := os.ReadFile(real); string(b) != "new model" {
		t.Errorf("the link's target holds %q, want the new model", b)
	}
	if st, _ := os.Stat(real); st.Mode().Perm() != 0o600 {
		t.Errorf("the 0600 file is now %v", st.Mode().Perm())
	}

	// A new file: 0666 less the umask, as os.Create makes one.
	ref := filepath.Join(dir, "ref")
	f, err := os.Create(ref)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	want, _ := os.Stat(ref)
	fresh := filepath.Join(dir, "fresh.occfm")
	if err := writeFile(fresh, bytesOf("x")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(fresh); st.Mode().Perm() != want.Mode().Perm() {
		t.Errorf("a new file is %v, os.Create's %v", st.Mode().Perm(), want.Mode().Perm())
	}

	// A dangling link: the file it names is created.
	dangling := filepath.Join(dir, "dangling.occfm")
	os.Symlink("later.occfm", dangling)
	if err := writeFile(dangling, bytesOf("y")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "later.occfm")); string(b) != "y" {
		t.Errorf("through a dangling link: %q", b)
	}

	// A folder in the file's place is refused; nothing partial is left.
	if err := writeFile(dir, bytesOf("z")); err == nil || !strings.Contains(err.Error(), "folder") {
		t.Errorf("writing over a folder: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), "partial-save") {
			t.Errorf("a partial file is left: %s", e.Name())
		}
	}
}

// TestWriteFileDevice: a path that is not a regular file (/dev/null) is
// written through, never replaced by a regular file (as root, a rename
// would).
func TestWriteFileDevice(t *testing.T) {
	st, err := os.Stat(os.DevNull)
	if err != nil || runtime.GOOS == "js" || st.Mode()&fs.ModeCharDevice == 0 {
		t.Skip("no character device at", os.DevNull)
	}
	if err := writeFile(os.DevNull, bytesOf("model")); err != nil {
		t.Fatal(err)
	}
	if err := checkWritable(os.DevNull); err != nil {
		t.Errorf("checkWritable(%s): %v", os.DevNull, err)
	}
	if after, err := os.Stat(os.DevNull); err != nil || after.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("%s is no longer a device: %v, %v", os.DevNull, after.Mode(), err)
	}
}

// TestSaveUnwritableFailsFirst: -save into a missing folder fails before
// the run learns anything: no report, the error names -save.
func TestSaveUnwritableFailsFirst(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("file system permissions")
	}
	data := filepath.Join(t.TempDir(), "small.svm")
	os.WriteFile(data, []byte("1 1:1\n-1 2:1\n"), 0o644)
	var out, errOut bytes.Buffer
	err := run([]string{"run", "-data", data, "-learner", "occfm", "-save", filepath.Join(t.TempDir(), "missing", "m.occfm"), "-quiet"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "-save") {
		t.Fatalf("-save into a missing folder: %v", err)
	}
	if out.Len() > 0 {
		t.Errorf("the run learned and reported before the -save error:\n%s", out.String())
	}
}

// bytesOf returns a writeFile function that writes s.
func bytesOf(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}
