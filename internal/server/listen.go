package server

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"time"
)

// MaxConns is how many connections NewServer's listener holds open at once.
// The others wait in the kernel's accept queue, not in the process's file
// descriptors (1,024 by default on Linux), so that a room full of
// half-open connections cannot keep a real request from an answer.
const MaxConns = 512

// NewServer returns the http.Server that serve.go runs: Handler(dir), with
// the timeouts a classroom's shared server needs. A client that sends its
// request header slower than ReadHeaderTimeout, or stays idle between
// requests longer than IdleTimeout, is cut off; WriteTimeout leaves a slow
// link two minutes for the 6.7 MB of a wasm sent uncompressed.
func NewServer(dir string) *http.Server {
	return &http.Server{
		Handler:           Handler(dir),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
}

// LimitListener returns ln accepting at most n connections at once: Accept
// waits while n are open.
func LimitListener(ln net.Listener, n int) net.Listener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n)}
}

type limitListener struct {
	net.Listener
	slots chan struct{}
}

func (l *limitListener) Accept() (net.Conn, error) {
	l.slots <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.slots }}, nil
}

// limitConn frees its slot once, when it is closed.
type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
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
