// Package server is the page's static file server: the files make dist
// builds, with the page's security headers, and the wasm gzipped for the
// browsers that accept it. It does no computing: the learner runs in the
// browser. serve.go (make serve) and the page's end-to-end tests both serve
// the page through Handler.
package server

import (
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
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
// Cache-Control: no-cache, .wasm as application/wasm and .ts as text. A browser that
// accepts gzip gets the .wasm as the f.wasm.gz beside it, when make dist
// wrote one (gzip -9): about a quarter of the bytes over a classroom's
// Wi-Fi, as a static host that compresses would send. A range request gets
// ranges of the file itself, never of its gzip. Only GET and HEAD are
// served (405 otherwise), and a path no file can have (a component longer
// than a file name may be) is 404, not an error.
func Handler(dir string) http.Handler {
	mime.AddExtensionType(".wasm", "application/wasm")
	// lib/occfm.d.ts, the library's types: some systems' tables say .ts is
	// a Qt translation file or an MPEG stream.
	mime.AddExtensionType(".ts", "text/plain; charset=utf-8")
	files := http.FileServer(http.Dir(dir))
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
		if strings.HasSuffix(p, ".wasm") {
			h.Add("Vary", "Accept-Encoding")
			if acceptsGzip(r) && r.Header.Get("Range") == "" {
				if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p+".gz"))); err == nil && st.Mode().IsRegular() {
					h.Set("Content-Encoding", "gzip")
					h.Set("Content-Type", "application/wasm")
					gz := r.Clone(r.Context())
					gz.URL.Path = p + ".gz"
					files.ServeHTTP(w, gz)
					return
				}
			}
		}
		files.ServeHTTP(w, r)
	})
}

// maxNameBytes is the longest file name the server's file systems allow
// (NAME_MAX on Linux, macOS and Windows' NTFS in bytes of UTF-8, at most).
const maxNameBytes = 255

// acceptsGzip reports whether the request's Accept-Encoding allows gzip:
// listed with a q-value above 0 (q defaults to 1; "gzip;q=0.0", "GZIP;Q=0"
// refuse it), or not listed and allowed by "*" (RFC 9110, 12.5.3).
func acceptsGzip(r *http.Request) bool {
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
		case strings.EqualFold(name, "gzip") || strings.EqualFold(name, "x-gzip"):
			return q > 0
		case name == "*":
			star = q > 0
		}
	}
	return star
}
