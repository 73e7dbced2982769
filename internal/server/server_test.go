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
	"testing"
	"time"

	"github.com/andybalholm/brotli"
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

// pageDir writes a small page: occfm.wasm and index.html, each with its .br
// and .gz, app.js with a .gz only, and style.css with neither. It returns
// each file's content by the path that asks for it.
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
		if name != "/app.js" {
			var br bytes.Buffer
			bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
			bw.Write(b)
			bw.Close()
			if err := os.WriteFile(file+".br", br.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
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

// TestServeGzipStale checks that a file edited after its compressed copies
// were written is served as it is now, not as an older copy, and that a
// Brotli copy older than the file gives way to a gzip copy that is not.
func TestServeGzipStale(t *testing.T) {
	dir, _ := pageDir(t)
	later := time.Now().Add(2 * time.Second)
	edit := func(name string, b []byte, gz bool) {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(file, later, later); err != nil {
			t.Fatal(err)
		}
		if gz {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(b)
			zw.Close()
			if err := os.WriteFile(file+".gz", buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(file+".gz", later, later); err != nil {
				t.Fatal(err)
			}
		}
	}
	editedJS := []byte("// app.js, edited by hand after make dist\n")
	edit("app.js", editedJS, false)
	editedHTML := []byte("<!doctype html><title>occfm, deployed again with gzip copies only</title>")
	edit("index.html", editedHTML, true)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for _, tc := range []struct {
		path, enc string
		want      []byte
	}{
		{"/app.js", "", editedJS},
		{"/index.html", "gzip", editedHTML},
	} {
		res, body := get(t, srv, tc.path, "br, gzip", "")
		enc := res.Header.Get("Content-Encoding")
		body = decoded(t, enc, body)
		if enc != tc.enc || !bytes.Equal(body, tc.want) {
			t.Errorf("%s edited after its copies: Content-Encoding %q, body %q; want %q, %q", tc.path, enc, body, tc.enc, tc.want)
		}
	}
}

// TestServeGzip checks that a file with a .br or a .gz beside it is served
// as that copy to a browser that accepts its coding, the .br first, byte for
// byte what decompresses to the file, with the file's Content-Type, and as
// is to one that accepts neither (or refuses them with q=0); a file
// without a copy is served as is.
func TestServeGzip(t *testing.T) {
	dir, files := pageDir(t)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	types := map[string]string{".wasm": "application/wasm", ".js": "text/javascript; charset=utf-8",
		".css": "text/css; charset=utf-8", "/": "text/html; charset=utf-8"}
	for _, tc := range []struct {
		path, accept string
		enc          string // the Content-Encoding expected
	}{
		{"/occfm.wasm", "gzip, deflate, br, zstd", "br"},
		{"/occfm.wasm", "br;q=1.0, gzip;q=0.8", "br"},
		{"/occfm.wasm", "gzip, deflate", "gzip"},
		{"/occfm.wasm", "br;q=0, gzip", "gzip"},
		{"/occfm.wasm", "BR", "br"},
		{"/occfm.wasm", "", ""},
		{"/occfm.wasm", "br;q=0", ""},
		{"/occfm.wasm", "gzip;q=0", ""},
		{"/occfm.wasm", "gzip;q=0.0", ""},
		{"/occfm.wasm", "GZIP;Q=0", ""},
		{"/occfm.wasm", "identity, gzip;q=0.0", ""},
		{"/occfm.wasm", "gzip; q=0.001", "gzip"},
		{"/occfm.wasm", "x-gzip", "gzip"},
		{"/occfm.wasm", "x-br", ""},
		{"/occfm.wasm", "*", "br"},
		{"/occfm.wasm", "*, br;q=0", "gzip"},
		{"/occfm.wasm", "*;q=0", ""},
		{"/occfm.wasm", "*, gzip;q=0, br;q=0", ""},
		{"/occfm.wasm", "gzip;q=x", ""},
		{"/./x/../occfm.wasm", "br", "br"},
		{"/app.js", "gzip, br", "gzip"},
		{"/app.js", "br", ""},
		{"/app.js", "", ""},
		{"/", "br, gzip", "br"},
		{"/", "gzip", "gzip"},
		{"/", "", ""},
		{"/style.css", "br, gzip", ""},
	} {
		res, body := get(t, srv, tc.path, tc.accept, "")
		enc := res.Header.Get("Content-Encoding")
		if enc != tc.enc || res.StatusCode != http.StatusOK {
			t.Errorf("%s with Accept-Encoding %q: %s, Content-Encoding %q, want %q", tc.path, tc.accept, res.Status, enc, tc.enc)
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
		if vary := res.Header.Values("Vary"); (len(vary) == 1 && vary[0] == "Accept-Encoding") != (ext != ".css") {
			t.Errorf("%s: Vary %q: want Accept-Encoding once exactly when the file has a copy", tc.path, vary)
		}
		body = decoded(t, enc, body)
		if want := files[clean]; !bytes.Equal(body, want) {
			t.Errorf("%s with %q: %d bytes that are not the file's %d", tc.path, tc.accept, len(body), len(want))
		}
	}
}

// get asks srv for path with the Accept-Encoding accept, set as it is (the
// transport adds none of its own), and the Range rng unless it is "", and
// returns the response and its body as sent.
func get(t *testing.T, srv *httptest.Server, path, accept, rng string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", srv.URL+path, nil)
	req.Header.Set("Accept-Encoding", accept)
	if rng != "" {
		req.Header.Set("Range", rng)
	}
	res, err := srv.Client().Transport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

// decoded returns body decompressed by its Content-Encoding enc ("",
// "gzip" or "br").
func decoded(t *testing.T, enc string, body []byte) []byte {
	t.Helper()
	var zr io.Reader
	switch enc {
	case "":
		return body
	case "gzip":
		var err error
		if zr, err = gzip.NewReader(bytes.NewReader(body)); err != nil {
			t.Fatal(err)
		}
	case "br":
		zr = brotli.NewReader(bytes.NewReader(body))
	default:
		t.Fatalf("Content-Encoding %q", enc)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("a %s body: %v", enc, err)
	}
	return out
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
