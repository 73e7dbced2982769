//go:build e2e

package e2e

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestE2ENumbersNote learns a CSV file of raw numbers in the page (an
// area of up to thousands beside ratios of hundredths, as people write
// them) and checks that the file's note says how the numbers were scaled,
// naming the column of the largest (screenshots at a phone's size and a
// projector's, kept with E2E_SHOTS).
func TestE2ENumbersNote(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(58, 1))
	var b strings.Builder
	b.WriteString("radius,area,smoothness,label\n")
	for range 400 {
		radius := 6 + 22*r.Float64()
		y := 0
		if radius > 15+2*r.NormFloat64() {
			y = 1
		}
		fmt.Fprintf(&b, "%.2f,%.1f,%.4f,%d\n", radius, 3.1416*radius*radius, 0.05+0.1*r.Float64(), y)
	}
	path := filepath.Join(t.TempDir(), "cells.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSession(t, time.Minute)
	s.openDemo() // the page ready, as a user who picks a file sees it
	if _, err := chromedp.Run(s.ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	s.learnFile(path, 400, e2eHang)
	note := evalJS[string](s, `document.getElementById("note").textContent`)
	t.Logf("note %q", note)
	if !strings.Contains(note, "numbers scaled as they come: 3 features, largest |value| ") || !strings.Contains(note, "(area)") {
		t.Errorf("the note %q does not say how the numbers were scaled", note)
	}
	s.screenshot("numbers-note-phone")
	if _, err := chromedp.Run(s.ctx, chromedp.EmulateViewport(1920, 1080)); err != nil {
		t.Fatal(err)
	}
	s.screenshot("numbers-note-projector")
}
