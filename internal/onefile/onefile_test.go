package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fakeDist writes a page of the real one's shape into a new folder: the
// tags build rewrites, a module that imports another, and a gzipped wasm.
func fakeDist(t *testing.T) (dir string, wasm []byte) {
	t.Helper()
	dir = t.TempDir()
	wasm = []byte("\x00asm\x01\x00\x00\x00 not really a module, but bytes to carry")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(wasm)
	zw.Close()
	files := map[string]string{
		"index.html": `<!doctype html><html><head>
<meta http-equiv="Content-Security-Policy" content="default-src 'self'">
<link rel="preload" href="occfm.wasm" as="fetch" type="application/wasm" crossorigin>
<script src="wasm-start.js" async></script>
<link rel="icon" href="favicon.svg">
<link rel="stylesheet" href="style.css">
</head><body><p id="x">page</p>
<script src="wasm_exec.js"></script>
<script src="uPlot.iife.min.js"></script>
<script type="module" src="app.js"></script>
<script src="start-check.js"></script>
</body></html>`,
		"favicon.svg":       `<svg xmlns="http://www.w3.org/2000/svg"/>`,
		"style.css":         "body {\n  color: red;\n}\n",
		"wasm_exec.js":      "globalThis.Go = class { run() {} };\n",
		"uPlot.iife.min.js": "var uPlot = function () {};\n",
		"app.js":            "import {label} from \"./js/label.js\";\ndocument.getElementById(\"x\").textContent = label(\"</script>\");\n",
		"js/label.js":       "export function label(s) { return \"page \" + s; }\n",
		"start-check.js":    "console.log('from the disk');\n",
		"wasm-start.js":     "globalThis.occfmWasm = fetch('occfm.wasm');\n",
		"occfm.wasm.gz":     gz.String(),
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, wasm
}

// TestBuild: the one file names no file of its own, holds every script and
// style inline with its hash in the policy, carries the wasm to the byte,
// and leaves start-check.js, the wasm's preload and wasm-start.js out.
func TestBuild(t *testing.T) {
	dir, wasm := fakeDist(t)
	b, err := build(dir)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	if m := regexp.MustCompile(`(?:src|href)="[^"#:]+"`).FindString(page); m != "" {
		t.Errorf("a file is still named: %s", m)
	}
	if strings.Contains(page, "from the disk") {
		t.Error("start-check.js is in the one file")
	}
	if strings.Contains(page, "preload") || strings.Contains(page, "occfmWasm") {
		t.Error("the wasm's preload or wasm-start.js is in the one file: they ask for a file the page carries")
	}
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(page)
	if csp == nil || !strings.Contains(csp[1], "default-src 'none'") {
		t.Fatalf("policy: %q", csp)
	}
	inline := regexp.MustCompile(`(?s)<(script|style)>(.*?)</(?:script|style)>`).FindAllStringSubmatch(page, -1)
	if len(inline) != 4 {
		t.Fatalf("%d inline scripts and styles, want 4 (wasm_exec.js, uPlot, app.js, style.css)", len(inline))
	}
	for _, m := range inline {
		sum := sha256.Sum256([]byte(m[2]))
		h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		if !strings.Contains(csp[1], h) {
			t.Errorf("%s %.40q…: its hash %s is not in the policy", m[1], m[2], h)
		}
	}
	app := inline[3][2] // style.css, wasm_exec.js, uPlot, then app.js
	if !strings.Contains(app, "page ") || strings.Contains(app, "import") || strings.Contains(app, "</script") {
		t.Errorf("app.js bundled: %q", app)
	}
	block := regexp.MustCompile(`<script type="application/gzip\+base64" id="` + WasmBlockID + `">([^<]*)</script>`).FindStringSubmatch(page)
	if block == nil {
		t.Fatal("no wasm block")
	}
	gz, err := base64.StdEncoding.DecodeString(block[1])
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, wasm) {
		t.Errorf("the wasm block unpacks to %q (%v), want %q", got, err, wasm)
	}
	if strings.Index(page, block[0]) > strings.Index(page, "<script>") {
		t.Error("the wasm block comes after the scripts that read it")
	}
}

// TestBuildErrors: a missing file, a module that does not build and a page
// without a policy are named.
func TestBuildErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, text, want string
	}{
		{"no style sheet", "style.css", "", "style.css"},
		{"a bad import", "app.js", `import {x} from "./nowhere.js";` + "\n", "nowhere.js"},
		{"no policy", "index.html", `<html><body><script src="wasm_exec.js"></script><script src="uPlot.iife.min.js"></script><script type="module" src="app.js"></script></body></html>`, "Content-Security-Policy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, _ := fakeDist(t)
			p := filepath.Join(dir, tc.file)
			if tc.text == "" {
				os.Remove(p)
			} else if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := build(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one naming %s", err, tc.want)
			}
		})
	}
}
