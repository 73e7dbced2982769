// Package server is the page's static file server: the files make dist
// builds, with the page's security headers, and the wasm and the page's
// text compressed (Brotli or gzip) for the browsers that accept it. It
// does no computing: the learner runs in the browser. serve.go (make
// serve) and the page's end-to-end tests both serve the page through
// Handler.
package server

import (
	"errors"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ContentSecurityPolicy is the policy of the page: everything from the
// page's own origin only, WebAssembly compilation allowed
// ('wasm-unsafe-eval', not 'unsafe-eval'), no inline script or style, no
// plugins, no <base>, no form submission. ui/index.html carries the same
// policy in a <meta> tag for static hosts that send no header
// (TestHeaders checks that they agree); the header adds
// frame-ancestors, which a <meta> policy cannot set.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'; " +
	"base-uri 'none'; form-action 'none'"

// Handler serves the files of dir with the page's security headers and
// Cache-Control: no-cache, .wasm as application/wasm and .ts as text. A
// file f with a compressed copy beside it, which make dist writes for the
// wasm and the page's text files (f.br, Brotli at quality 11, and f.gz,
// gzip -9), is sent as the copy to a browser that accepts its coding, br
// before gzip, as long as f has not changed since (the copy is not older
// than f): for the wasm, 20 % of its bytes as br and 27 % as gzip, over a
// classroom's Wi-Fi, as a static host that serves precompressed files
// would send. A range request gets ranges of the file itself, never of a
// copy. A request for more than
// maxRanges (16) ranges is answered as if it had no Range, 200 with the
// whole file, as net/http does when the ranges add up to more than the
// file, rather than with a multipart reply many times the file's size; a
// range of no bytes ("-0") is left out, and alone is not satisfiable (416). Only GET and HEAD are served (405 otherwise), and a
// path no file can have (a component longer than a file name may be, or
// the whole longer than the system's limit) is 404, not an error.
func Handler(dir string) http.Handler {
	mime.AddExtensionType(".wasm", "application/wasm")
	// lib/occfm.d.ts, the library's types: some systems' tables say .ts is
	// a Qt translation file or an MPEG stream.
	mime.AddExtensionType(".ts", "text/plain; charset=utf-8")
	files := http.FileServer(fileSystem{http.Dir(dir)})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-cache")
		h.Set("Content-Security-Policy", ContentSecurityPolicy+"; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := path.Clean("/" + r.URL.Path)
		for _, c := range strings.Split(p, "/") {
			if len(c) > maxNameBytes {
				http.NotFound(w, r)
				return
			}
		}
		if rng := r.Header.Get("Range"); rng != "" {
			if lim := limitRanges(rng); lim != rng {
				r = r.Clone(r.Context())
				if lim == "" {
					r.Header.Del("Range")
				} else {
					r.Header.Set("Range", lim)
				}
			}
		}
		name := p
		if strings.HasSuffix(name, "/") {
			name += "index.html"
		}
		if enc, copyName, ok := encoded(h, dir, name, r); ok {
			h.Set("Content-Encoding", enc)
			if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
				h.Set("Content-Type", ct)
			}
			c := r.Clone(r.Context())
			c.URL.Path = copyName
			files.ServeHTTP(w, c)
			return
		}
		files.ServeHTTP(w, r)
	})
}

// codings are the compressed copies make dist writes beside a file, in the
// order Handler prefers them: Brotli's is the smaller (a quarter fewer
// bytes than gzip's for the wasm).
var codings = []struct{ name, suffix string }{{"br", ".br"}, {"gzip", ".gz"}}

// encoded returns the coding and the path of the copy of the file name
// (a clean URL path) that Handler sends for r: the first of codings that
// r's Accept-Encoding allows (q-values read) and whose copy is a regular
// file not older than the file (a file edited after make dist is sent as
// it is now). A request with a Range gets none: its ranges are of the file
// itself. When the file has a copy, sent or not, h gets Vary:
// Accept-Encoding, so that caches keep the answers apart.
func encoded(h http.Header, dir, name string, r *http.Request) (coding, copyName string, ok bool) {
	if strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".br") {
		return "", "", false
	}
	var file fs.FileInfo
	vary := false
	for _, c := range codings {
		cp, ok := regular(filepath.Join(dir, filepath.FromSlash(name+c.suffix)))
		if !ok {
			continue
		}
		if !vary {
			h.Add("Vary", "Accept-Encoding")
			vary = true
		}
		if r.Header.Get("Range") != "" || !accepts(r, c.name) {
			continue
		}
		if file == nil {
			if file, ok = regular(filepath.Join(dir, filepath.FromSlash(name))); !ok {
				return "", "", false
			}
		}
		if !cp.ModTime().Before(file.ModTime()) {
			return c.name, name + c.suffix, true
		}
	}
	return "", "", false
}

// regular returns name's information, and whether it is a regular file.
func regular(name string) (fs.FileInfo, bool) {
	st, err := os.Stat(name)
	return st, err == nil && st.Mode().IsRegular()
}

// fileSystem is http.Dir with a path too long for the system
// (ENAMETOOLONG) not found, as it is on systems that allow longer ones,
// where http.Dir would make it a 500.
type fileSystem struct{ http.Dir }

func (d fileSystem) Open(name string) (http.File, error) {
	f, err := d.Dir.Open(name)
	if errors.Is(err, syscall.ENAMETOOLONG) {
		return nil, fs.ErrNotExist
	}
	return f, err
}

// maxRanges is the most ranges Handler serves from one request.
const maxRanges = 16

// unsatisfiable is a Range that no file's bytes satisfy, from byte
// math.MaxInt64 on: net/http answers it 416 with the file's size in
// Content-Range (bytes */size).
const unsatisfiable = "bytes=9223372036854775807-"

// limitRanges returns the Range header h as Handler serves it: "" (the
// whole file) for more than maxRanges ranges, and without the ranges of no
// bytes, suffixes of length 0 ("-0"), which net/http would serve as 206
// with an invalid Content-Range (bytes 6648-6647/6648); unsatisfiable if
// there is no other. A header net/http refuses (another unit, a malformed
// range) is returned as is.
func limitRanges(h string) string {
	spec, ok := strings.CutPrefix(h, "bytes=")
	if !ok {
		return h
	}
	var kept []string
	count := 0
	for _, ra := range strings.Split(spec, ",") {
		ra = strings.TrimSpace(ra)
		if ra == "" {
			continue
		}
		count++
		if start, end, ok := strings.Cut(ra, "-"); ok && strings.TrimSpace(start) == "" {
			if n, err := strconv.ParseInt(strings.TrimSpace(end), 10, 64); err == nil && n == 0 {
				continue
			}
		}
		kept = append(kept, ra)
	}
	switch {
	case count > maxRanges:
		return ""
	case len(kept) == count:
		return h
	case len(kept) == 0:
		return unsatisfiable
	}
	return "bytes=" + strings.Join(kept, ",")
}

// maxNameBytes is the longest file name the server's file systems allow
// (NAME_MAX on Linux, macOS and Windows' NTFS in bytes of UTF-8, at most).
const maxNameBytes = 255

// accepts reports whether the request's Accept-Encoding allows coding
// (br or gzip): listed with a q-value above 0 (q defaults to 1; "gzip;q=0.0",
// "GZIP;Q=0" refuse it), or not listed and allowed by "*" (RFC 9110,
// 12.5.3). x-gzip is gzip.
func accepts(r *http.Request, coding string) bool {
	star := false
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.TrimSpace(name)
		q := 1.0
		for _, param := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(param), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || !(f >= 0 && f <= 1) {
					f = 0 // a malformed weight: do not count on the encoding
				}
				q = f
			}
		}
		switch {
		case strings.EqualFold(name, coding) || coding == "gzip" && strings.EqualFold(name, "x-gzip"):
			return q > 0
		case name == "*":
			star = q > 0
		}
	}
	return star
}
