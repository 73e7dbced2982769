//go:build unix

package server

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestCrowd: 600 clients that each hold a connection and wait on nothing
// (idle keep-alive clients that sent one request and stay open, slow readers
// that asked for a 1 MB file and take a byte every half second, or half of
// each) leave every one of the server's MaxConns slots taken, and still a
// new client's GET /app.js is answered while they all hang on: the server
// closes an idle connection, or one whose writes have stalled, to make room.
//
// The answer is timed; the test fails if it takes over 10 s, a hang guard
// that a busy machine cannot miss (without room made, the answer waits for
// the idle timeout or the stalled writes' deadline). With
// OCCFM_STRESS_SERVER=1 (make stress) it must come within 1 s.
//
// On loopback Linux gives each connection a send buffer of megabytes (the
// packets are 64 KB), so the test's listener sets 16 KB, and its clients ask
// for a 4 KB receive buffer: a slow reader then stalls the server after
// about 30 KB, as one over Wi-Fi does after a few hundred.
func TestCrowd(t *testing.T) {
	for _, tc := range []struct {
		name       string
		idle, slow int
	}{
		{"idle", 600, 0},
		{"slow", 0, 600},
		{"mixed", 300, 300},
	} {
		t.Run(tc.name, func(t *testing.T) { crowd(t, tc.idle, tc.slow) })
	}
}

func crowd(t *testing.T, idle, slow int) {
	dir, files := pageDir(t)
	big := bytes.Repeat([]byte("occfm big "), 100_000)
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	addr, open := serveCrowd(t, dir)

	dialer := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		rc.Control(func(fd uintptr) {
			syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4<<10)
		})
		return nil
	}}
	var (
		// answered counts the clients answered, settled those answered or
		// closed before an answer, dropped those closed by the server.
		answered, settled, dropped atomic.Int64
		mu                         sync.Mutex
		conns                      []net.Conn
		wg                         sync.WaitGroup
		release                    = make(chan struct{})
	)
	client := func(slow bool) {
		defer wg.Done()
		c, err := dialer.Dial("tcp", addr)
		if err != nil {
			t.Error(err)
			return
		}
		mu.Lock()
		conns = append(conns, c)
		mu.Unlock()
		file := "/app.js"
		if slow {
			file = "/big.bin"
		}
		io.WriteString(c, "GET "+file+" HTTP/1.1\r\nHost: crowd\r\n\r\n")
		br := bufio.NewReaderSize(c, 16) // a slow reader's byte is one read
		if slow {
			_, err = br.ReadByte()
		} else {
			var res *http.Response
			if res, err = http.ReadResponse(br, nil); err == nil {
				_, err = io.Copy(io.Discard, res.Body)
			}
		}
		if err == nil {
			answered.Add(1)
		}
		settled.Add(1)
		for err == nil {
			if slow {
				select {
				case <-release:
					return
				case <-time.After(500 * time.Millisecond):
				}
			}
			// An idle client's read waits until the server or the test
			// closes its connection.
			_, err = br.ReadByte()
		}
		select {
		case <-release:
		default:
			dropped.Add(1)
		}
	}
	total := idle + slow
	wg.Add(total)
	for i := range total {
		go client(i >= idle)
	}
	defer func() {
		close(release)
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	}()

	// Wait until every client is answered or closed, and the server full,
	// or, if some are never answered, until nothing has moved for a second.
	start, last, lastMove := time.Now(), int64(-1), time.Now()
	for {
		n := settled.Load()
		if n == int64(total) && open() == MaxConns {
			break
		}
		if n != last {
			last, lastMove = n, time.Now()
		}
		if n >= MaxConns && time.Since(lastMove) > time.Second {
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatalf("after a minute, %d of %d clients answered, %d dropped, %d connections open", answered.Load(), total, dropped.Load(), open())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := open(); n != MaxConns {
		t.Fatalf("%d connections open, want all %d slots taken (%d clients answered, %d dropped)", n, MaxConns, answered.Load(), dropped.Load())
	}
	t.Logf("%d clients set up in %v: %d answered, %d closed by the server, %d connections open",
		total, time.Since(start).Round(time.Millisecond), answered.Load(), dropped.Load(), open())

	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	t0 := time.Now()
	res, err := hc.Get("http://" + addr + "/app.js")
	took := time.Since(t0)
	if err != nil {
		t.Fatalf("GET /app.js while %d clients hang on: %v after %v", total, err, took.Round(time.Millisecond))
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !bytes.Equal(body, files["/app.js"]) {
		t.Fatalf("GET /app.js: %s, %q", res.Status, body)
	}
	t.Logf("GET /app.js answered in %v while %d clients hang on (%d connections open)", took.Round(time.Microsecond), total, open())
	if os.Getenv("OCCFM_STRESS_SERVER") != "" && took > time.Second {
		t.Errorf("GET /app.js took %v, want under 1 s", took)
	}
	if d := dropped.Load(); d > int64(total-MaxConns+1) {
		t.Errorf("%d clients dropped to serve %d more than the %d slots: the server closed more than it needed", d, total-MaxConns+1, MaxConns)
	}
}

// smallSendBuffers gives each connection it accepts a 16 KB send buffer.
type smallSendBuffers struct{ net.Listener }

func (l smallSendBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(16 << 10)
	}
	return c, err
}

// serveCrowd runs NewServer(dir) as Serve(MaxConns) does, on
// smallSendBuffers, and returns its address and a count of the connections
// it holds.
func serveCrowd(t *testing.T, dir string) (addr string, open func() int) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(dir)
	l := limit(srv, smallSendBuffers{ln}, MaxConns)
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), func() int { return len(l.slots) }
}
