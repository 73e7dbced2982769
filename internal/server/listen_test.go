package server

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRangesNotGzipped: a range request gets ranges of the wasm itself,
// never of a copy (br or gzip), and never a Content-Encoding on a body that
// is not compressed (two ranges make a multipart body).
func TestRangesNotGzipped(t *testing.T) {
	dir, files := pageDir(t)
	wasm := files["/occfm.wasm"]
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for _, rng := range []string{"bytes=0-10,20-30", "bytes=5-9"} {
		res, body := get(t, srv, "/occfm.wasm", "br, gzip", rng)
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

// TestRangeLimits: a range of no bytes ("-0", the last 0 bytes) is not
// satisfiable (416 with Content-Range: bytes */size, RFC 9110 14.4), and
// is left out beside others; more than maxRanges ranges get the whole file
// (200), not a multipart reply many times the file's size.
func TestRangeLimits(t *testing.T) {
	dir, files := pageDir(t)
	wasm := files["/occfm.wasm"]
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	size := len(wasm)
	ones := func(n int) string { // n one-byte ranges: 0-0,2-2,…
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf("%d-%d", 2*i, 2*i)
		}
		return "bytes=" + strings.Join(parts, ",")
	}
	for _, tc := range []struct {
		rng    string
		status int
		body   []byte // nil: not checked
		parts  int    // parts of a multipart reply
	}{
		{"bytes=-0", http.StatusRequestedRangeNotSatisfiable, nil, 0},
		{"bytes= -00 ", http.StatusRequestedRangeNotSatisfiable, nil, 0},
		{"bytes=-0,-0", http.StatusRequestedRangeNotSatisfiable, nil, 0},
		{"bytes=-0,5-9", http.StatusPartialContent, wasm[5:10], 0},
		{"bytes=5-9,-0", http.StatusPartialContent, wasm[5:10], 0},
		{"bytes=-1", http.StatusPartialContent, wasm[size-1:], 0},
		{ones(maxRanges), http.StatusPartialContent, nil, maxRanges},
		{ones(maxRanges + 1), http.StatusOK, wasm, 0},
		{ones(1000), http.StatusOK, wasm, 0},
	} {
		req, _ := http.NewRequest("GET", srv.URL+"/occfm.wasm", nil)
		req.Header.Set("Accept-Encoding", "identity")
		req.Header.Set("Range", tc.rng)
		res, err := srv.Client().Transport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		name := tc.rng
		if len(name) > 40 {
			name = name[:40] + "…"
		}
		cr := res.Header.Get("Content-Range")
		if res.StatusCode != tc.status {
			t.Errorf("Range %s: %s (Content-Range %q, %d bytes), want %d", name, res.Status, cr, len(body), tc.status)
			continue
		}
		switch {
		case tc.status == http.StatusRequestedRangeNotSatisfiable && cr != fmt.Sprintf("bytes */%d", size):
			t.Errorf("Range %s: Content-Range %q, want bytes */%d", name, cr, size)
		case tc.body != nil && !bytes.Equal(body, tc.body):
			t.Errorf("Range %s: %d bytes (Content-Range %q), want %d", name, len(body), cr, len(tc.body))
		case tc.parts > 0 && bytes.Count(body, []byte("Content-Range: bytes ")) != tc.parts:
			t.Errorf("Range %s: %d parts, want %d", name, bytes.Count(body, []byte("Content-Range: bytes ")), tc.parts)
		}
		if tc.status == http.StatusPartialContent && tc.parts == 0 {
			var first, last, total int
			if _, err := fmt.Sscanf(cr, "bytes %d-%d/%d", &first, &last, &total); err != nil || first > last || last >= total {
				t.Errorf("Range %s: invalid Content-Range %q", name, cr)
			}
		}
	}
}

// TestMethodsAndPaths: only GET and HEAD are served; a path component too
// long for any file name, or a path too long for the system (4,201 bytes
// of short components), is 404, not 500.
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
	for _, p := range []string{"/" + strings.Repeat("a", 300), "/x/" + strings.Repeat("b", 256) + "/y.js", "/" + strings.Repeat("c", 300) + ".wasm", strings.Repeat("/ab", 1400) + "/y.wasm"} {
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
// headerTimeout, with Serve(n), and returns its address.
func serve(t *testing.T, dir string, headerTimeout time.Duration, n int) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(dir)
	srv.ReadHeaderTimeout = headerTimeout
	go Serve(srv, ln, n)
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

// TestLimitListener: with the one slot held by a connection whose request
// is being answered, the next client waits (longer than reclaimAfter: a
// busy connection is not closed for room); once the held one is idle, it
// is closed and the next client served.
func TestLimitListener(t *testing.T) {
	started, unblock := make(chan struct{}), make(chan struct{})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/busy" {
			close(started)
			<-unblock
		}
		io.WriteString(w, "ok")
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go Serve(srv, ln, 1)
	defer srv.Close()
	hold, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	io.WriteString(hold, "GET /busy HTTP/1.1\r\nHost: x\r\n\r\n")
	<-started
	done := make(chan error, 1)
	go func() {
		c := &http.Client{Timeout: 30 * time.Second}
		res, err := c.Get("http://" + ln.Addr().String() + "/next")
		if err == nil {
			res.Body.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("a second connection was served while the one slot was busy (err %v)", err)
	case <-time.After(3 * reclaimAfter):
	}
	close(unblock)
	br := bufio.NewReader(hold)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	if err := <-done; err != nil {
		t.Fatalf("after the held connection went idle: %v", err)
	}
	hold.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("the idle connection that made room: read %v, want EOF (closed)", err)
	}
}

// TestSilentClientMakesRoom: a connection that has sent nothing for
// reclaimAfter is closed when another client needs its slot, not held
// until ReadHeaderTimeout (here a minute).
func TestSilentClientMakesRoom(t *testing.T) {
	dir, _ := pageDir(t)
	addr := serve(t, dir, time.Minute, 1)
	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	c := &http.Client{Timeout: 10 * time.Second}
	res, err := c.Get("http://" + addr + "/index.html")
	if err != nil {
		t.Fatalf("with the one slot held by a silent client: %v", err)
	}
	res.Body.Close()
	silent.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := silent.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("the silent connection: read %v, want EOF (closed)", err)
	}
}

// TestWriteDeadlineKept: a write deadline set on a connection (here by the
// handler; Server.WriteTimeout sets one too) still ends a stalled write,
// although each chunk's write sets its own, writeStall ahead.
func TestWriteDeadlineKept(t *testing.T) {
	failed := make(chan error, 1)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.NewResponseController(w).SetWriteDeadline(time.Now().Add(200 * time.Millisecond))
		_, err := w.Write(make([]byte, 16<<20)) // more than the sockets buffer
		failed <- err
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go Serve(srv, ln, 1)
	defer srv.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n") // and read nothing
	select {
	case err := <-failed:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("the stalled write: %v, want a deadline error", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a write stalled past its deadline is still under way after 10 s")
	}
}
