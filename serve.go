// Command occfm-serve serves the static page built by `make dist` on
// 127.0.0.1:8080. It does no computing: the learner runs in the browser.
//
//	go run . [-addr 127.0.0.1:8080] [-dir dist]
package main

import (
	"flag"
	"log"
	"net"

	"github.com/occfm/occfm/internal/server"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	dir := flag.String("dir", "dist", "folder to serve (built by make dist)")
	flag.Parse()
	if err := server.CheckDir(*dir); err != nil {
		log.Fatalf("occfm-serve: %v", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("occfm-serve: %v (is another server on %s? use -addr, or ADDR=host:port with make serve)", err, *addr)
	}
	log.Printf("occfm-serve: serving %s on http://%s/", *dir, ln.Addr())
	log.Fatal(server.Serve(server.NewServer(*dir), ln, server.MaxConns))
}
