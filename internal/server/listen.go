package server

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// MaxConns is how many connections Serve holds open at once. The others
// wait in the kernel's accept queue, not in the process's file descriptors
// (1,024 by default on Linux), but for the one Serve has accepted and
// makes room for.
const MaxConns = 512

const (
	// reclaimAfter is how long a connection must have waited on its client
	// (for its first request header, or to take in a response's bytes)
	// before Serve may close it to make room.
	reclaimAfter = 500 * time.Millisecond
	// writeStall is how long a write may take in nothing: each writeChunk
	// bytes of a response must reach the kernel within it.
	writeStall = 30 * time.Second
	writeChunk = 16 << 10
)

// NewServer returns the http.Server that serve.go runs with Serve:
// Handler(dir), with the timeouts a classroom's shared server needs. A
// client that sends its request header slower than ReadHeaderTimeout, or
// stays idle between requests longer than IdleTimeout, is cut off. There is
// no WriteTimeout, which would bound a whole response: a slow link may take
// as long as it needs for the 6.7 MB of a wasm sent uncompressed, as long as
// it takes some in: Serve's connections cut off a write stalled for 30 s.
func NewServer(dir string) *http.Server {
	return &http.Server{
		Handler:           Handler(dir),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
}

// Serve runs srv on ln with at most n connections open at once, and
// returns srv.Serve's error. It adds its own hook to srv.ConnState (after
// which srv's own runs), to know which connections are idle.
//
// A connection whose write takes in nothing for 30 s is cut off (a write
// deadline that moves with each 16 KB taken in), which srv.WriteTimeout and
// a handler's deadline can only shorten. When all n are open and another
// client has connected, Serve makes room by closing the connection that has
// waited longest on its client: an idle keep-alive connection first (its
// client reconnects for its next request), else one that has not sent its
// first request header within reclaimAfter (0.5 s), or whose write has
// stalled that long. So neither idle keep-alive clients nor slow readers,
// however many, keep a new client waiting for much more than half a
// second; a connection whose response is under way and taken in is never
// closed for room, and with n such a new client waits for a slot.
func Serve(srv *http.Server, ln net.Listener, n int) error {
	return srv.Serve(limit(srv, ln, n))
}

// limit returns ln holding at most n connections at once, making room as
// Serve's doc says, with its hook added to srv.ConnState.
func limit(srv *http.Server, ln net.Listener, n int) *limitListener {
	l := &limitListener{
		Listener: ln,
		slots:    make(chan struct{}, n),
		closed:   make(chan struct{}),
		conns:    make(map[*limitConn]struct{}),
	}
	hook := srv.ConnState
	srv.ConnState = func(c net.Conn, s http.ConnState) {
		if lc, ok := c.(*limitConn); ok {
			l.mu.Lock()
			lc.state, lc.since = s, time.Now()
			l.mu.Unlock()
		}
		if hook != nil {
			hook(c, s)
		}
	}
	return l
}

// limitListener accepts a connection, then waits for one of its slots,
// making room when it can (Serve's doc says how).
type limitListener struct {
	net.Listener
	slots     chan struct{}
	closed    chan struct{}
	closeOnce sync.Once

	mu    sync.Mutex
	conns map[*limitConn]struct{} // the open connections
}

func (l *limitListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	for {
		select {
		case l.slots <- struct{}{}:
			return l.track(c), nil
		case <-l.closed:
			c.Close()
			return nil, net.ErrClosed
		default:
		}
		if v := l.victim(time.Now()); v != nil {
			v.Close() // frees its slot
			continue
		}
		select {
		case l.slots <- struct{}{}:
			return l.track(c), nil
		case <-l.closed:
			c.Close()
			return nil, net.ErrClosed
		case <-time.After(reclaimAfter / 10): // a write may have stalled long enough
		}
	}
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// track returns c holding a slot taken for it.
func (l *limitListener) track(c net.Conn) *limitConn {
	lc := &limitConn{Conn: c, l: l, state: http.StateNew, since: time.Now()}
	l.mu.Lock()
	l.conns[lc] = struct{}{}
	l.mu.Unlock()
	return lc
}

// victim returns the connection to close to make room at time now, or nil:
// of those the server waits on, reading or writing, the one idle longest,
// else the one that has waited longest, at least reclaimAfter, for its
// first request or for a stalled write to go on. (A connection whose
// request the server has not yet got round to reading is not waited on.)
func (l *limitListener) victim(now time.Time) *limitConn {
	var idle, stalled *limitConn
	var idleSince, stalledSince time.Time
	l.mu.Lock()
	defer l.mu.Unlock()
	for c := range l.conns {
		var since time.Time
		w := c.writing.Load()
		switch {
		case c.state == http.StateIdle && c.reading.Load():
			if idle == nil || c.since.Before(idleSince) {
				idle, idleSince = c, c.since
			}
			continue
		case c.state == http.StateNew && c.reading.Load():
			since = c.since
		case w != 0:
			since = time.Unix(0, w)
		default:
			continue
		}
		if now.Sub(since) >= reclaimAfter && (stalled == nil || since.Before(stalledSince)) {
			stalled, stalledSince = c, since
		}
	}
	if idle != nil {
		return idle
	}
	return stalled
}

// limitConn frees its slot once, when it is closed, and bounds each
// writeChunk of a write by writeStall.
type limitConn struct {
	net.Conn
	l    *limitListener
	once sync.Once

	// state is what the server last reported of the connection (StateNew
	// until it reports), since when; l.mu guards them.
	state http.ConnState
	since time.Time

	reading  atomic.Bool  // a read is under way
	writing  atomic.Int64 // when the current chunk's write began (Unix ns), 0 when none is under way
	deadline atomic.Int64 // the write deadline set from outside (Unix ns), 0 for none
}

func (c *limitConn) Read(p []byte) (int, error) {
	c.reading.Store(true)
	defer c.reading.Store(false)
	return c.Conn.Read(p)
}

func (c *limitConn) Write(p []byte) (n int, err error) {
	defer c.writing.Store(0)
	for len(p) > 0 {
		now := time.Now()
		c.writing.Store(now.UnixNano())
		dl := now.Add(writeStall)
		if d := c.deadline.Load(); d != 0 && d < dl.UnixNano() {
			dl = time.Unix(0, d)
		}
		c.Conn.SetWriteDeadline(dl)
		k, err := c.Conn.Write(p[:min(len(p), writeChunk)])
		n += k
		if err != nil {
			return n, err
		}
		p = p[k:]
	}
	return n, nil
}

// SetWriteDeadline and SetDeadline keep the deadline t for Write, which
// sets its own, earlier or not, on each chunk.
func (c *limitConn) SetWriteDeadline(t time.Time) error {
	c.keepDeadline(t)
	return c.Conn.SetWriteDeadline(t)
}

func (c *limitConn) SetDeadline(t time.Time) error {
	c.keepDeadline(t)
	return c.Conn.SetDeadline(t)
}

func (c *limitConn) keepDeadline(t time.Time) {
	if t.IsZero() {
		c.deadline.Store(0)
	} else {
		c.deadline.Store(t.UnixNano())
	}
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.mu.Unlock()
		<-c.l.slots
	})
	return err
}

// CheckDir returns why dir cannot be served, or nil: it must exist and be a
// folder, so that a mistaken -dir fails at the start, not with a 500 on
// every request.
func CheckDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%w (run make dist first)", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("-dir %s is a file, not a folder (the page's folder is dist, built by make dist)", dir)
	}
	return nil
}
