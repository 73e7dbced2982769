package main

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/andybalholm/brotli"
)

// TestCompressAll checks that each file's .br decompresses to the file,
// byte for byte, and is smaller than it for the page's kinds of content
// (text and a binary with repeats), and that a file that cannot be read
// is an error naming it that leaves no copy, while the others get theirs.
func TestCompressAll(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	bin := make([]byte, 300_000)
	for i := range bin {
		bin[i] = byte(rng.IntN(16)) // 4 bits of entropy a byte
	}
	files := map[string][]byte{
		"app.js":     bytes.Repeat([]byte("import {x} from \"./js/x.js\";\n"), 200),
		"occfm.wasm": bin,
		"empty.css":  nil,
	}
	var names []string
	for name, b := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, p)
	}
	missing := filepath.Join(dir, "missing.js")
	err := compressAll(append(names, missing))
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("missing.js")) {
		t.Errorf("compressAll with a missing file: error %v, want one naming missing.js", err)
	}
	for _, suffix := range []string{".br", ".br.tmp"} {
		if _, err := os.Stat(missing + suffix); err == nil {
			t.Errorf("%s written for a file that does not exist", filepath.Base(missing+suffix))
		}
	}
	for name, want := range files {
		br, err := os.ReadFile(filepath.Join(dir, name+".br"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br)))
		if err != nil {
			t.Fatalf("%s.br: %v", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s.br decompresses to %d bytes that differ from the file's %d", name, len(got), len(want))
		}
		if len(want) > 1000 && len(br) >= len(want)*3/4 {
			t.Errorf("%s.br: %d bytes for %d, want under three quarters", name, len(br), len(want))
		}
		if _, err := os.Stat(filepath.Join(dir, name+".br.tmp")); err == nil {
			t.Errorf("%s.br.tmp left behind", name)
		}
	}
}
