package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"testing"
)

// TestServeHeaders checks that the server sends the page's security headers
// and that ui/index.html's <meta> policy is the same as the header's.
func TestServeHeaders(t *testing.T) {
	srv := httptest.NewServer(newHandler("ui"))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/index.html")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /index.html: %s", res.Status)
	}
	for k, want := range map[string]string{
		"Content-Security-Policy": contentSecurityPolicy + "; frame-ancestors 'none'",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
		"Cache-Control":           "no-cache",
	} {
		if got := res.Header.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}

	html, err := os.ReadFile("ui/index.html")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindSubmatch(html)
	if m == nil {
		t.Fatal("ui/index.html has no Content-Security-Policy <meta>")
	}
	if string(m[1]) != contentSecurityPolicy {
		t.Errorf("ui/index.html's policy\n\t%s\ndiffers from serve.go's\n\t%s", m[1], contentSecurityPolicy)
	}
}
