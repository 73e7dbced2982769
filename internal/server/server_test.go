package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestHeaders checks that the server sends the page's security headers
// and that ui/index.html's <meta> policy is the same as the header's.
func TestHeaders(t *testing.T) {
	srv := httptest.NewServer(Handler("../../ui"))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/index.html")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /index.html: %s", res.Status)
	}
	for k, want := range map[string]string{
		"Content-Security-Policy": ContentSecurityPolicy + "; frame-ancestors 'none'",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
		"Cache-Control":           "no-cache",
	} {
		if got := res.Header.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}

	html, err := os.ReadFile("../../ui/index.html")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindSubmatch(html)
	if m == nil {
		t.Fatal("ui/index.html has no Content-Security-Policy <meta>")
	}
	if string(m[1]) != ContentSecurityPolicy {
		t.Errorf("ui/index.html's policy\n\t%s\ndiffers from the server's\n\t%s", m[1], ContentSecurityPolicy)
	}
}

// pageDir writes a small page: occfm.wasm, index.html and app.js, each with
// its .gz, and style.css without one. It returns each file's content by the
// path that asks for it.
func pageDir(t *testing.T) (dir string, files map[string][]byte) {
	t.Helper()
	dir = t.TempDir()
	files = map[string][]byte{
		"/occfm.wasm": bytes.Repeat([]byte("\x00asm occfm "), 5000),
		"/index.html": []byte("<!doctype html><title>occfm</title>"),
		"/app.js":     []byte("// the page's entry point\n"),
		"/style.css":  []byte("body { margin: 0; }\n"),
	}
	for name, b := range files {
		file := filepath.Join(dir, name[1:])
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if name == "/style.css" {
			continue
		}
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		if err := os.WriteFile(file+".gz", gz.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files["/"] = files["/index.html"]
	return dir, files
}

// TestServeGzipStale checks that a file edited after its gzip copy was
// written is served as it is now, not as the older copy.
func TestServeGzipStale(t *testing.T) {
	dir, _ := pageDir(t)
	edited := []byte("// app.js, edited by hand after make dist\n")
	file := filepath.Join(dir, "app.js")
	if err := os.WriteFile(file, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/app.js", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := srv.Client().Transport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if enc := res.Header.Get("Content-Encoding"); enc != "" || !bytes.Equal(body, edited) {
		t.Errorf("app.js newer than app.js.gz: Content-Encoding %q, body %q; want the edited file as it is", enc, body)
	}
}

// TestServeGzip checks that a file with a .gz beside it is served as that
// .gz to a browser that accepts gzip, byte for byte what decompresses to the
// file, with the file's Content-Type, and as is to one that does not (or
// refuses gzip with q=0); a file without a .gz is served as is.
func TestServeGzip(t *testing.T) {
	dir, files := pageDir(t)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	types := map[string]string{".wasm": "application/wasm", ".js": "text/javascript; charset=utf-8",
		".css": "text/css; charset=utf-8", "/": "text/html; charset=utf-8"}
	for _, tc := range []struct {
		path, accept string
		gzipped      bool
	}{
		{"/occfm.wasm", "gzip, deflate, br", true},
		{"/occfm.wasm", "br;q=1.0, gzip;q=0.8", true},
		{"/occfm.wasm", "", false},
		{"/occfm.wasm", "gzip;q=0", false},
		{"/occfm.wasm", "gzip;q=0.0", false},
		{"/occfm.wasm", "GZIP;Q=0", false},
		{"/occfm.wasm", "identity, gzip;q=0.0", false},
		{"/occfm.wasm", "gzip; q=0.001", true},
		{"/occfm.wasm", "*", true},
		{"/occfm.wasm", "*;q=0", false},
		{"/occfm.wasm", "*, gzip;q=0", false},
		{"/occfm.wasm", "gzip;q=x", false},
		{"/./x/../occfm.wasm", "gzip", true},
		{"/app.js", "gzip", true},
		{"/app.js", "", false},
		{"/", "gzip", true},
		{"/", "", false},
		{"/style.css", "gzip", false},
	} {
		req, _ := http.NewRequest("GET", srv.URL+tc.path, nil)
		req.Header.Set("Accept-Encoding", tc.accept) // set: the client adds none of its own
		res, err := srv.Client().Transport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		enc := res.Header.Get("Content-Encoding")
		if (enc == "gzip") != tc.gzipped || res.StatusCode != http.StatusOK {
			t.Errorf("%s with Accept-Encoding %q: %s, Content-Encoding %q", tc.path, tc.accept, res.Status, enc)
			continue
		}
		clean := path.Clean(tc.path)
		ext := path.Ext(clean)
		if clean == "/" {
			ext = "/"
		}
		if ct := res.Header.Get("Content-Type"); ct != types[ext] {
			t.Errorf("%s with %q: Content-Type %q, want %q", tc.path, tc.accept, ct, types[ext])
		}
		if vary := strings.Contains(res.Header.Get("Vary"), "Accept-Encoding"); vary != (ext != ".css") {
			t.Errorf("%s: Vary %q: the answer depends on Accept-Encoding exactly when the file has a .gz", tc.path, res.Header.Get("Vary"))
		}
		if tc.gzipped {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		if want := files[clean]; !bytes.Equal(body, want) {
			t.Errorf("%s with %q: %d bytes that are not the file's %d", tc.path, tc.accept, len(body), len(want))
		}
	}
}

// TestTypesFile checks that the library's types, lib/occfm.d.ts, are served
// as text whatever the system's table of extensions says of .ts.
func TestTypesFile(t *testing.T) {
	srv := httptest.NewServer(Handler("../../ui"))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/lib/occfm.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("GET /lib/occfm.d.ts: %s, Content-Type %q", res.Status, res.Header.Get("Content-Type"))
	}
}
