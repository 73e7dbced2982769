package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/occfm/occfm/core/personal"
)

// TestGen writes demo files with occfm gen and learns them with occfm run:
// -rows gives exactly N rows, -size stops at the first row that reaches the
// size, the same seed gives the same bytes, and the task is guessed from
// the labels.
func TestGen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "planted.svm")
	_, stderr := runOK(t, "gen", "-rows", "500", "-seed", "4", "-out", path)
	if !strings.Contains(stderr, "wrote 500 rows") {
		t.Errorf("stderr %q", stderr)
	}
	a, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(a), "\n"); n != 500 {
		t.Errorf("%d lines, want 500", n)
	}
	b, _ := runOK(t, "gen", "-rows", "500", "-seed", "4")
	if b != string(a) {
		t.Error("-out and stdout differ for the same seed")
	}
	stdout, _ := runOK(t, "run", "-data", path, "-json", "-quiet")
	rec := jsonLines(t, stdout)[0]
	if rec["task"] != "classification" || rec["rows"] != 500.0 {
		t.Errorf("run on the generated file: task %v, rows %v; want classification, 500", rec["task"], rec["rows"])
	}

	sized := filepath.Join(dir, "sized.svm")
	runOK(t, "gen", "-size", "10K", "-demo", "ratings", "-out", sized)
	fi, err := os.Stat(sized)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() < 10<<10 || fi.Size() > 10<<10+100 {
		t.Errorf("-size 10K wrote %d bytes, want 10,240 up to one line more", fi.Size())
	}
	stdout, _ = runOK(t, "run", "-data", sized, "-json", "-quiet")
	if rec := jsonLines(t, stdout)[0]; rec["task"] != "regression" {
		t.Errorf("ratings file: task %v, want regression", rec["task"])
	}
}

func TestGenErrors(t *testing.T) {
	for _, args := range [][]string{
		{"gen"},
		{"gen", "-rows", "10", "-size", "1M"},
		{"gen", "-rows", "-1"},
		{"gen", "-size", "lots"},
		{"gen", "-size", "0"},
		{"gen", "-rows", "10", "-demo", "nope"},
		{"gen", "-rows", "10", "extra"},
	} {
		err := run(args, new(strings.Builder), new(strings.Builder))
		if !errors.As(err, new(usageError)) {
			t.Errorf("%q: error %v, want a usage error", args, err)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "10K": 10 << 10, "200M": 200 << 20, "1G": 1 << 30, "1GB": 1 << 30, "3GiB": 3 << 30, "5kb": 5 << 10} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}

// TestGenCatalog writes a catalog with -demo catalog and reads it back as
// Personalize and occfm topn read MovieLens files: the ratings with their
// timestamps, the item list with its genres; the same seed gives the same
// bytes, and the flags are checked.
func TestGenCatalog(t *testing.T) {
	dir := t.TempDir()
	ratings, items := filepath.Join(dir, "ratings.csv"), filepath.Join(dir, "movies.csv")
	_, stderr := runOK(t, "gen", "-demo", "catalog", "-rows", "5000", "-out", ratings, "-items", items)
	if !strings.Contains(stderr, "ratings of the catalog") {
		t.Errorf("stderr %q", stderr)
	}
	f, err := os.Open(ratings)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := personal.ReadRatings(f, "ratings.csv")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	g, err := os.Open(items)
	if err != nil {
		t.Fatal(err)
	}
	list, err := personal.ReadItems(g, "movies.csv")
	g.Close()
	if err != nil {
		t.Fatal(err)
	}
	// 5,000/164 people and 5,000/10.3 films (personal.NewSyntheticCatalogSize).
	if n := rs.Len(); n < 4000 || n > 6000 || len(list) != 485 || len(list[0].Genres) == 0 {
		t.Errorf("%d ratings, %d items (first %+v): want about 5,000 and 485 with genres", n, len(list), list[0])
	}
	a, _ := os.ReadFile(ratings)
	b, _ := runOK(t, "gen", "-demo", "catalog", "-rows", "5000", "-items", filepath.Join(dir, "m2.csv"))
	if b != string(a) {
		t.Error("-out and stdout differ for the same seed")
	}
	for _, args := range [][]string{
		{"gen", "-demo", "catalog", "-rows", "100"},
		{"gen", "-demo", "catalog", "-rows", "1000000", "-items", items},
		{"gen", "-demo", "catalog", "-size", "1M", "-items", items},
		{"gen", "-rows", "10", "-items", items},
	} {
		if err := run(args, io.Discard, io.Discard); !errors.As(err, new(usageError)) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
}

// TestGenShop writes the shop with -demo shop and reads both files back as
// JSON of the documented shape: ratings {"user","item","rating"} of known
// products, 1–5, about 8,400 of them; 200 products {"id","title","tags"}
// with a title and a group as first tag; the same seed gives the same
// bytes; -rows, -size and a missing -items are usage errors.
func TestGenShop(t *testing.T) {
	dir := t.TempDir()
	ratings, items := filepath.Join(dir, "ratings.json"), filepath.Join(dir, "items.json")
	_, stderr := runOK(t, "gen", "-demo", "shop", "-out", ratings, "-items", items, "-seed", "3")
	if !strings.Contains(stderr, "ratings of the shop (seed 3)") {
		t.Errorf("stderr %q", stderr)
	}
	var list []map[string]any
	b, err := os.ReadFile(items)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatalf("items.json: %v", err)
	}
	groups := personal.NewSyntheticShop(3).Groups()
	ids := map[string]bool{}
	for k, it := range list {
		id, _ := it["id"].(string)
		title, _ := it["title"].(string)
		tags, _ := it["tags"].([]any)
		first := ""
		if len(tags) > 0 {
			first, _ = tags[0].(string)
		}
		if len(it) != 3 || id != fmt.Sprint("p", k) || title == "" || !slices.Contains(groups, first) {
			t.Errorf("items.json[%d] = %v: want {id p%d, a title, tags starting with a group}", k, it, k)
		}
		ids[id] = true
	}
	if len(list) != 200 {
		t.Errorf("%d products, want 200", len(list))
	}
	var rs []map[string]any
	a, err := os.ReadFile(ratings)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(a, &rs); err != nil {
		t.Fatalf("ratings.json: %v", err)
	}
	for k, r := range rs {
		user, _ := r["user"].(string)
		item, _ := r["item"].(string)
		y, _ := r["rating"].(float64)
		if len(r) != 3 || !strings.HasPrefix(user, "s") || !ids[item] || y < 1 || y > 5 || y != float64(int(y)) {
			t.Fatalf("ratings.json[%d] = %v: want {user sN, item of items.json, rating 1–5}", k, r)
		}
	}
	if len(rs) < 6000 || len(rs) > 10000 {
		t.Errorf("%d ratings, want 6,000–10,000", len(rs))
	}
	out, _ := runOK(t, "gen", "-demo", "shop", "-seed", "3", "-items", filepath.Join(dir, "i2.json"))
	if out != string(a) {
		t.Error("-out and stdout differ for the same seed")
	}
	for _, args := range [][]string{
		{"gen", "-demo", "shop", "-out", ratings},
		{"gen", "-demo", "shop", "-rows", "100", "-items", items},
		{"gen", "-demo", "shop", "-size", "1M", "-items", items},
	} {
		if err := run(args, io.Discard, io.Discard); !errors.As(err, new(usageError)) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
}
