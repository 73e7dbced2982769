// Package badinput makes the big inputs of testdata/bad.json that are
// marked "generated": they are streamed as they are read, never held in
// memory nor committed. The core, CLI, session and page tests all read
// them through Open, so that the four check the same bytes.
package badinput

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

// generators makes each generated input; dir is testdata/bad, for the
// small files they are built from.
var generators = map[string]func(dir string) (io.Reader, error){
	// A line of 100 MB, then clean.libsvm.
	"long-line.libsvm": func(dir string) (io.Reader, error) {
		clean, err := os.ReadFile(filepath.Join(dir, "clean.libsvm"))
		if err != nil {
			return nil, err
		}
		return io.MultiReader(bytes.NewReader([]byte("1")), &repeat{unit: []byte(" 1:1"), left: 100 << 20},
			bytes.NewReader([]byte("\n")), bytes.NewReader(clean)), nil
	},
	// 2 GiB of one line without a line end, gzip-compressed: a member
	// "1", then 2,048 members of 1 MiB each (concatenated gzip members
	// read as one stream), about 2 MB compressed.
	"one-line.libsvm.gz": func(string) (io.Reader, error) {
		member := gzipBytes(bytes.Repeat([]byte(" 1:1"), 1<<18))
		return io.MultiReader(bytes.NewReader(gzipBytes([]byte("1"))),
			&repeat{unit: member, left: 2048 * int64(len(member))}), nil
	},
	// 10 MiB of comment lines, then clean.libsvm 10 times.
	"comments-10mib.libsvm": func(dir string) (io.Reader, error) {
		clean, err := os.ReadFile(filepath.Join(dir, "clean.libsvm"))
		if err != nil {
			return nil, err
		}
		return io.MultiReader(&repeat{unit: []byte("# a comment line of 32 bytes...\n"), left: 10 << 20},
			bytes.NewReader(bytes.Repeat(clean, 10))), nil
	},
}

// Names returns the names of the generated inputs, sorted.
func Names() []string {
	names := make([]string, 0, len(generators))
	for n := range generators {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Open returns the generated input name, built from the files of dir
// (testdata/bad).
func Open(dir, name string) (io.Reader, error) {
	gen, ok := generators[name]
	if !ok {
		return nil, fmt.Errorf("badinput: no generator for %q", name)
	}
	return gen(dir)
}

// Write writes the generated input name into the folder to and returns its
// path, for tests that need a file (the CLI, the page's file input).
func Write(dir, name, to string) (string, error) {
	r, err := Open(dir, name)
	if err != nil {
		return "", err
	}
	path := filepath.Join(to, name)
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return "", err
	}
	return path, f.Close()
}

// Repeat returns a reader of unit over and over, n bytes in all.
func Repeat(unit []byte, n int64) io.Reader { return &repeat{unit: unit, left: n} }

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// repeat reads unit over and over, left bytes in all.
type repeat struct {
	unit []byte
	left int64
	off  int
}

func (r *repeat) Read(p []byte) (int, error) {
	if r.left == 0 {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && r.left > 0 {
		k := copy(p[n:], r.unit[r.off:])
		k = int(min(int64(k), r.left))
		n += k
		r.left -= int64(k)
		r.off = (r.off + k) % len(r.unit)
	}
	return n, nil
}
