package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/occfm/occfm/core/data"
)

// BenchmarkRead compares reading ijcnn1.gz with data.NewStream and Next
// directly and through the session's coroutine (reader.go).
func BenchmarkRead(b *testing.B) {
	raw, err := os.ReadFile("../../shared/data/ijcnn1/ijcnn1.gz")
	if err != nil {
		b.Skip(err)
	}
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			st, _ := data.NewStream(bytes.NewReader(raw), data.ReaderSettings{})
			var ex data.Example
			for st.Next(&ex) == nil {
			}
		}
	})
	b.Run("coroutine", func(b *testing.B) {
		for b.Loop() {
			f := &feedBuffer{}
			f.write(raw)
			f.closed = true
			var ex data.Example
			r := startReader(f, data.ReaderSettings{}, &ex)
			for r.resume() && r.err == nil {
			}
			r.stop()
		}
	})
}
