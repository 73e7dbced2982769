//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main explains how to build the page's wasm; the session logic in this
// package is plain Go and is tested natively.
func main() {
	fmt.Fprintln(os.Stderr, "occfm/wasm: build with GOOS=js GOARCH=wasm (make dist)")
	os.Exit(2)
}
