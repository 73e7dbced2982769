package server

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRangesNotGzipped: a range request gets ranges of the wasm itself,
// never a gzip Content-Encoding on a body that is not gzip (two ranges make
// a multipart body).
func TestRangesNotGzipped(t *testing.T) {
	dir, wasm := pageDir(t)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for _, rng := range []string{"bytes=0-10,20-30", "bytes=5-9"} {
		req, _ := http.NewRequest("GET", srv.URL+"/occfm.wasm", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		req.Header.Set("Range", rng)
		res, err := srv.Client().Transport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusPartialContent || res.Header.Get("Content-Encoding") != "" {
			t.Errorf("Range %s: %s, Content-Encoding %q", rng, res.Status, res.Header.Get("Content-Encoding"))
		}
		if rng == "bytes=5-9" && !bytes.Equal(body, wasm[5:10]) {
			t.Errorf("Range %s: %q, want %q", rng, body, wasm[5:10])
		}
		if rng != "bytes=5-9" && !bytes.Contains(body, wasm[20:31]) {
			t.Errorf("Range %s: the multipart body lacks bytes 20-30 of the wasm", rng)
		}
	}
}

// TestMethodsAndPaths: only GET and HEAD are served; a path component too
// long for any file name is 404, not 500.
func TestMethodsAndPaths(t *testing.T) {
	dir, _ := pageDir(t)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for _, m := range []string{"POST", "PUT", "DELETE", "TRACE", "PATCH", "OPTIONS"} {
		req, _ := http.NewRequest(m, srv.URL+"/index.html", strings.NewReader("x"))
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: %s, Allow %q; want 405 with Allow: GET, HEAD", m, res.Status, res.Header.Get("Allow"))
		}
	}
	for _, p := range []string{"/" + strings.Repeat("a", 300), "/x/" + strings.Repeat("b", 256) + "/y.js", "/" + strings.Repeat("c", 300) + ".wasm"} {
		res, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("GET a %d-byte path: %s, want 404", len(p), res.Status)
		}
	}
	for _, m := range []string{"GET", "HEAD"} {
		req, _ := http.NewRequest(m, srv.URL+"/index.html", nil)
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s /index.html: %s", m, res.Status)
		}
	}
}

// TestCheckDir: -dir must be a folder that exists.
func TestCheckDir(t *testing.T) {
	dir, _ := pageDir(t)
	if err := CheckDir(dir); err != nil {
		t.Errorf("a folder: %v", err)
	}
	if err := CheckDir(filepath.Join(dir, "index.html")); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("a file: %v", err)
	}
	if err := CheckDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing folder: no error")
	}
}

// serve runs NewServer(dir), with its header timeout shortened to
// headerTimeout, behind LimitListener(n), and returns its address.
func serve(t *testing.T, dir string, headerTimeout time.Duration, n int) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(dir)
	srv.ReadHeaderTimeout = headerTimeout
	go srv.Serve(LimitListener(ln, n))
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// TestSlowHeaderCutOff: a client that never finishes its request header is
// cut off after ReadHeaderTimeout; without the timeout it would hold its
// connection (and file descriptor) forever. The limit is generous: a busy
// machine only makes the server later, and the test fails only if the
// connection is still open after 20 s.
func TestSlowHeaderCutOff(t *testing.T) {
	dir, _ := pageDir(t)
	addr := serve(t, dir, 100*time.Millisecond, MaxConns)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET /index.html HTTP/1.1\r\nHost: x\r\n"); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	_, err = io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("a half-sent request header still holds its connection after 20 s")
	}
	if NewServer(dir).ReadHeaderTimeout <= 0 || NewServer(dir).IdleTimeout <= 0 {
		t.Error("NewServer sets no header or idle timeout")
	}
}

// TestLimitListener: with n connections open, the next one waits for a
// slot, and is served once one closes.
func TestLimitListener(t *testing.T) {
	dir, _ := pageDir(t)
	addr := serve(t, dir, time.Minute, 1)
	hold, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	// The held connection sends a request, so it is surely accepted.
	io.WriteString(hold, "GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n")
	if _, err := http.ReadResponse(bufio.NewReader(hold), nil); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		c := &http.Client{Timeout: 30 * time.Second}
		res, err := c.Get("http://" + addr + "/index.html")
		if err == nil {
			res.Body.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("a second connection was served while the one slot was held (err %v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	hold.Close()
	if err := <-done; err != nil {
		t.Fatalf("after the slot was freed: %v", err)
	}
}
