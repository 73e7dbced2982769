//go:build js && wasm

package main

import (
	"os"
	"strings"
	"testing"
)

// TestJSAPIDocs checks that docs/js-api.md lists every function the bridge
// sets on globalThis.occfm and occfm.lib.
func TestJSAPIDocs(t *testing.T) {
	doc, err := os.ReadFile("../docs/js-api.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range apiTable {
		if !strings.Contains(string(doc), "| `"+e.name+"()` |") {
			t.Errorf("docs/js-api.md does not list occfm.%s", e.name)
		}
	}
	for _, e := range libTable {
		if !strings.Contains(string(doc), "| `lib."+e.name+"()` |") {
			t.Errorf("docs/js-api.md does not list occfm.lib.%s", e.name)
		}
	}
	for _, name := range []string{"picture", "pictureDrawn", "reference", "fwStep"} {
		if !strings.Contains(string(doc), "| `"+name+"()` |") {
			t.Errorf("docs/js-api.md does not list occfm.%s", name)
		}
	}
}
