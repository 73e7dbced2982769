// Command occfm-serve serves the static page built by `make dist` on
// 127.0.0.1:8080. It does no computing: the learner runs in the browser.
//
//	go run . [-addr 127.0.0.1:8080] [-dir dist]
package main

import (
	"flag"
	"log"
	"mime"
	"net/http"
	"os"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	dir := flag.String("dir", "dist", "folder to serve (built by make dist)")
	flag.Parse()
	if _, err := os.Stat(*dir); err != nil {
		log.Fatalf("occfm-serve: %v (run make dist first)", err)
	}
	mime.AddExtensionType(".wasm", "application/wasm")
	files := http.FileServer(http.Dir(*dir))
	http.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	}))
	log.Printf("occfm-serve: serving %s on http://%s/", *dir, *addr)
	log.Fatal(http.ListenAndServe(*addr, nil))
}
