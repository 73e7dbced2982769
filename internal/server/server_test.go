package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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

// pageDir writes a small page: a .wasm with its .gz, index.html and
// app.js.
func pageDir(t *testing.T) (dir string, wasm []byte) {
	t.Helper()
	dir = t.TempDir()
	wasm = bytes.Repeat([]byte("\x00asm occfm "), 5000)
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(wasm)
	zw.Close()
	for name, b := range map[string][]byte{"occfm.wasm": wasm, "occfm.wasm.gz": gz.Bytes(), "index.html": []byte("<!doctype html>"), "app.js": []byte("//")} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, wasm
}

// TestServeGzip checks the .wasm served as its .gz to a browser that
// accepts gzip, byte for byte what decompresses to the .wasm, and as is
// to one that does not (or refuses gzip with q=0).
func TestServeGzip(t *testing.T) {
	dir, wasm := pageDir(t)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
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
		{"/app.js", "gzip", false},
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
		if strings.HasSuffix(tc.path, ".wasm") {
			if ct := res.Header.Get("Content-Type"); ct != "application/wasm" {
				t.Errorf("%s: Content-Type %q", tc.path, ct)
			}
			if !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
				t.Errorf("%s: no Vary: Accept-Encoding", tc.path)
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
			if !bytes.Equal(body, wasm) {
				t.Errorf("%s with %q: %d bytes that are not the wasm", tc.path, tc.accept, len(body))
			}
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
