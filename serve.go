// Command occfm-serve serves the static page built by `make dist` on
// 127.0.0.1:8080. It does no computing: the learner runs in the browser.
//
//	go run . [-addr 127.0.0.1:8080] [-dir dist]
package main

import (
	"flag"
	"log"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// contentSecurityPolicy is the policy of the page: everything from the
// page's own origin only, WebAssembly compilation allowed
// ('wasm-unsafe-eval', not 'unsafe-eval'), no inline script or style, no
// plugins, no <base>, no form submission. ui/index.html carries the same
// policy in a <meta> tag for static hosts that send no header
// (TestServeHeaders checks that they agree); the header adds
// frame-ancestors, which a <meta> policy cannot set.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'; " +
	"base-uri 'none'; form-action 'none'"

// newHandler serves the files of dir with the page's security headers and
// Cache-Control: no-cache, and .wasm as application/wasm. A browser that
// accepts gzip gets the .wasm as the f.wasm.gz beside it, when make dist
// wrote one (gzip -9): about a quarter of the bytes over a classroom's
// Wi-Fi, as a static host that compresses would send.
func newHandler(dir string) http.Handler {
	mime.AddExtensionType(".wasm", "application/wasm")
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-cache")
		h.Set("Content-Security-Policy", contentSecurityPolicy+"; frame-ancestors 'none'")
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

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	dir := flag.String("dir", "dist", "folder to serve (built by make dist)")
	flag.Parse()
	if _, err := os.Stat(*dir); err != nil {
		log.Fatalf("occfm-serve: %v (run make dist first)", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("occfm-serve: %v (is another server on %s? use -addr, or ADDR=host:port with make serve)", err, *addr)
	}
	log.Printf("occfm-serve: serving %s on http://%s/", *dir, ln.Addr())
	log.Fatal(http.Serve(ln, newHandler(*dir)))
}
