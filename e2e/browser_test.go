//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// browserShared is the one Chromium the tests share. Each test has a
// browser context of its own in it (cookies, storage, HTTP cache and
// service workers, in memory, disposed of when the test ends) and a tab
// there, and a server of its own: what one test leaves cannot reach
// another. Starting a browser costs about 2.5 s of CPU; once for the
// package instead of once per test saves minutes of make test.
var browserShared struct {
	once    sync.Once
	ctx     context.Context // the browser's first tab: it holds the browser
	stop    func()
	profile string
	err     error
}

// sharedBrowser returns the context of the shared browser, starting it
// at the first call.
func sharedBrowser(t *testing.T) context.Context {
	t.Helper()
	b := &browserShared
	b.once.Do(func() {
		exe := chromiumPath(t)
		if b.profile, b.err = os.MkdirTemp("", "occfm-e2e-profile-"); b.err != nil {
			return
		}
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(exe),
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			// Keep rAF and timers at full rate although nobody looks at the window.
			chromedp.Flag("disable-renderer-backgrounding", true),
			chromedp.Flag("disable-background-timer-throttling", true),
			chromedp.Flag("disable-backgrounding-occluded-windows", true),
			chromedp.UserDataDir(b.profile),
			chromedp.WindowSize(1280, 1000),
		}
		allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelTab := chromedp.NewContext(allocCtx)
		b.ctx = ctx
		b.stop = func() {
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			_ = chromedp.Cancel(cctx)
			cancel()
			cancelTab()
			cancelAlloc() // waits for the browser process to exit
		}
		if err := chromedp.Do(ctx); err != nil {
			b.err = fmt.Errorf("starting %s: %w", exe, err)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.ctx
}

// stopBrowser stops the shared browser, if it started, and removes its
// profile.
func stopBrowser() {
	b := &browserShared
	if b.stop != nil {
		b.stop()
	}
	if b.profile != "" {
		os.RemoveAll(b.profile)
	}
}
