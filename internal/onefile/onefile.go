// Command onefile writes dist/occfm.html: the whole page in one file, which
// runs when opened from the disk (file://), where a browser refuses ES
// modules and fetch. make dist runs it after building dist/:
//
//	go run ./internal/onefile -dist dist
//
// From dist/index.html it makes one HTML file in which
//   - start-check.js, which tells a reader of index.html from the disk to
//     open this file instead, is left out, and so are the preload of
//     occfm.wasm and wasm-start.js, which fetch it;
//   - the page's modules (app.js and what it imports) are bundled by esbuild
//     into one classic script, inline;
//   - wasm_exec.js and uPlot's script are inline scripts, the style sheets
//     inline style elements, the icon a data: URL;
//   - occfm.wasm.gz is a data block (a script element of type
//     application/gzip+base64, which the browser does not run), which the
//     page unpacks with DecompressionStream (app.js: unpackWasm);
//   - the Content-Security-Policy allows exactly those scripts and styles
//     (by their SHA-256) and no request of any kind (default-src 'none').
//
// The service worker does not apply to it (app.js registers none in a
// one-file page).
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

func main() {
	dist := flag.String("dist", "dist", "the built page's folder; occfm.html is written there")
	flag.Parse()
	html, err := build(*dist)
	if err == nil {
		err = os.WriteFile(filepath.Join(*dist, "occfm.html"), html, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "onefile:", err)
		os.Exit(1)
	}
	fmt.Printf("dist/occfm.html: the page in one file, %d bytes (hand it out: it opens from the disk, no server)\n", len(html))
}

// WasmBlockID is the id of the data block that holds occfm.wasm, gzipped
// and in base64; app.js reads it (unpackWasm).
const WasmBlockID = "occfm-wasm-gz"

// build returns occfm.html made from the page in dist.
func build(dist string) ([]byte, error) {
	read := func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(dist, name))
		return string(b), err
	}
	page, err := read("index.html")
	if err != nil {
		return nil, err
	}
	app, err := bundle(filepath.Join(dist, "app.js"))
	if err != nil {
		return nil, err
	}
	wasm, err := os.ReadFile(filepath.Join(dist, "occfm.wasm.gz"))
	if err != nil {
		return nil, err
	}
	var scripts, styles []string // their texts, for the policy's hashes
	var failed error
	// Tags the page's head and body hold, each replaced by its file inline.
	page = tagRE.ReplaceAllStringFunc(page, func(tag string) string {
		m := tagRE.FindStringSubmatch(tag)
		if failed != nil {
			return tag
		}
		if m[3] == "module" {
			js := strings.ReplaceAll(app, "</script", `<\/script`)
			scripts = append(scripts, js)
			return "<script>" + js + "</script>"
		}
		name := m[2] + m[4]
		if name == "start-check.js" { // it explains why index.html cannot start from the disk
			return ""
		}
		if m[1] == "preload" || name == "wasm-start.js" { // the wasm is in the page (the data block below)
			return ""
		}
		text, err := read(name)
		if err != nil {
			failed = err
			return tag
		}
		switch m[1] {
		case "icon":
			return `<link rel="icon" href="data:image/svg+xml;base64,` + base64.StdEncoding.EncodeToString([]byte(text)) + `">`
		case "stylesheet":
			if text, err = minify(name, text, api.LoaderCSS); err != nil {
				failed = err
				return tag
			}
			styles = append(styles, text)
			return "<style>" + text + "</style>"
		}
		if text, err = minify(name, text, api.LoaderJS); err != nil {
			failed = err
			return tag
		}
		if strings.Contains(text, "</script") {
			failed = fmt.Errorf("%s holds </script: it cannot be inline", name)
			return tag
		}
		scripts = append(scripts, text)
		return "<script>" + text + "</script>"
	})
	if failed != nil {
		return nil, failed
	}
	if n := len(scripts); n != 3 {
		return nil, fmt.Errorf("index.html: %d scripts made inline, want 3 (wasm_exec.js, uPlot, app.js): is tagRE out of date?", n)
	}
	block := `<script type="application/gzip+base64" id="` + WasmBlockID + `">` + base64.StdEncoding.EncodeToString(wasm) + "</script>\n"
	at := strings.Index(page, "<script>")
	page = page[:at] + block + page[at:]
	if !cspRE.MatchString(page) {
		return nil, errors.New("index.html: no Content-Security-Policy meta element to replace")
	}
	page = cspRE.ReplaceAllLiteralString(page, `<meta http-equiv="Content-Security-Policy" content="`+policy(scripts, styles)+`">`)
	if rest := leftRE.FindString(page); rest != "" {
		return nil, fmt.Errorf("index.html: %s is still a file of its own", rest)
	}
	return []byte(page), nil
}

var (
	// tagRE matches the page's tags that name a file: the icon, the style
	// sheets and the wasm's preload (groups 1, kind, and 2, file), the
	// classic scripts and the module, app.js (3, "module", and 4, file).
	tagRE = regexp.MustCompile(`<link rel="(icon|stylesheet|preload)" href="([^"]+)"[^>]*>|<script (?:type="(module)" )?src="([^"]+)"(?: async)?></script>`)
	cspRE = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="[^"]*">`)
	// leftRE finds a reference to a file left in the page.
	leftRE = regexp.MustCompile(`(?:src|href)="[^"#:]+"`)
)

// policy returns the one-file page's Content-Security-Policy: no request of
// any kind, the given scripts and styles by hash, wasm compiled.
func policy(scripts, styles []string) string {
	hashes := func(texts []string) string {
		var b strings.Builder
		for _, t := range texts {
			sum := sha256.Sum256([]byte(t))
			b.WriteString(" 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'")
		}
		return b.String()
	}
	return "default-src 'none'; script-src" + hashes(scripts) + " 'wasm-unsafe-eval'; style-src" + hashes(styles) +
		"; img-src data:; object-src 'none'; base-uri 'none'; form-action 'none'"
}

// minify returns text (a script or a style sheet, by loader) minified by
// esbuild: the one file is not compressed in transit, as the page's files
// are, so its scripts and styles are made small instead.
func minify(name, text string, loader api.Loader) (string, error) {
	r := api.Transform(text, api.TransformOptions{
		Loader: loader, Target: api.ES2022, MinifyWhitespace: true, MinifySyntax: true, MinifyIdentifiers: true,
		LegalComments: api.LegalCommentsNone, Charset: api.CharsetUTF8, LogLevel: api.LogLevelSilent,
	})
	if len(r.Errors) > 0 {
		return "", fmt.Errorf("minifying %s: %s", name, r.Errors[0].Text)
	}
	return string(r.Code), nil
}

// bundle returns the module entry and everything it imports as one classic
// script (esbuild, format IIFE).
func bundle(entry string) (string, error) {
	r := api.Build(api.BuildOptions{
		EntryPoints:       []string{entry},
		Bundle:            true,
		Format:            api.FormatIIFE,
		Target:            api.ES2022,
		MinifyWhitespace:  true,
		MinifySyntax:      true,
		MinifyIdentifiers: true,
		LegalComments:     api.LegalCommentsNone,
		Write:             false,
		Charset:           api.CharsetUTF8,
		LogLevel:          api.LogLevelSilent,
	})
	if len(r.Errors) > 0 {
		var b bytes.Buffer
		for _, m := range r.Errors {
			if m.Location != nil {
				fmt.Fprintf(&b, "%s:%d: ", m.Location.File, m.Location.Line)
			}
			b.WriteString(m.Text + "; ")
		}
		return "", fmt.Errorf("bundling %s: %s", entry, strings.TrimSuffix(b.String(), "; "))
	}
	return string(r.OutputFiles[0].Contents), nil
}
