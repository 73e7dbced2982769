// Command brotli writes a Brotli copy (RFC 7932) beside each file it is
// given: f.br beside f. make dist runs it on the files it also gzips (the
// wasm and the page's text files):
//
//	go run ./internal/brotli dist/occfm.wasm dist/index.html ...
//
// internal/server sends f.br to a browser whose Accept-Encoding allows br,
// as a static host that serves precompressed Brotli does. The copies are
// written at quality 11 with a 16 MiB window (the format's largest), the
// encoder's smallest output: for occfm.wasm about a quarter fewer bytes
// than gzip -9 (docs/performance.md), which is what a cold load at a slow
// connection waits for. A copy is written to f.br.tmp and renamed, so that
// a failed run leaves no cut-short f.br that the server would send.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/andybalholm/brotli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/brotli file ...")
		os.Exit(2)
	}
	if err := compressAll(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "brotli:", err)
		os.Exit(1)
	}
}

// options are the encoder's settings for every copy: the best compression.
var options = brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24}

// compressAll writes the copy of each of files, as many at once as there
// are CPUs, and returns the errors joined.
func compressAll(files []string) error {
	errs := make([]error, len(files))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, f := range files {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = compress(f)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// compress writes name.br, the Brotli copy of name.
func compress(name string) (err error) {
	in, err := os.Open(name)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := name + ".br.tmp"
	out, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			out.Close()
			os.Remove(tmp)
		}
	}()
	w := brotli.NewWriterOptions(out, options)
	if _, err := io.Copy(w, in); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, name+".br")
}
