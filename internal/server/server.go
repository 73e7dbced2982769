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
// Cache-Control: no-cache, and .wasm as application/wasm. A browser that
// accepts gzip gets the .wasm as the f.wasm.gz beside it, when make dist
// wrote one (gzip -9): about a quarter of the bytes over a classroom's
// Wi-Fi, as a static host that compresses would send.
func Handler(dir string) http.Handler {
	mime.AddExtensionType(".wasm", "application/wasm")
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-cache")
		h.Set("Content-Security-Policy", ContentSecurityPolicy+"; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if p := path.Clean("/" + r.URL.Path); strings.HasSuffix(p, ".wasm") {
			h.Add("Vary", "Accept-Encoding")
			if acceptsGzip(r) {
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

// acceptsGzip reports whether the request's Accept-Encoding allows gzip
// (and does not refuse it with q=0).
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			return strings.ReplaceAll(strings.TrimSpace(q), " ", "") != "q=0"
		}
	}
	return false
}
