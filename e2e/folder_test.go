//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestE2EFolderInput gives a folder to the Learn view's file input (as a
// drag and drop or a file chooser can): the page must say it is a folder,
// not "network error", and learn the next file it gets.
func TestE2EFolderInput(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "c")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "inside.svm"), []byte("1 1:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSession(t, 2*time.Minute)
	s.openDemo()
	s.upload(dir)
	s.waitJS("the folder refused", `document.body.dataset.state === "error"`, 30*time.Second)
	msg := evalJS[string](s, `document.querySelector('[data-testid="error"]').textContent`)
	t.Logf("a folder: %q", msg)
	if !strings.Contains(msg, "c is a folder, not a file") || strings.Contains(msg, "network error") {
		t.Errorf("a folder given to the file input: %q, want it to say c is a folder, not a file", msg)
	}
	s.upload(filepath.Join(dir, "inside.svm"))
	s.waitJS("a file after the folder", `document.body.dataset.state === "done"`, 30*time.Second)
	s.checkExceptions()
}
