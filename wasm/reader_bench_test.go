package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/occfm/occfm/core"
)

// BenchmarkRead compares reading ijcnn1.gz with core.NewStream and Next
// directly and through the session's coroutine (reader.go).
func BenchmarkRead(b *testing.B) {
	data, err := os.ReadFile("../../shared/data/ijcnn1/ijcnn1.gz")
	if err != nil {
		b.Skip(err)
	}
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			st, _ := core.NewStream(bytes.NewReader(data), core.ReaderSettings{})
			var ex core.Example
			for st.Next(&ex) == nil {
			}
		}
	})
	b.Run("coroutine", func(b *testing.B) {
		for b.Loop() {
			f := &feedBuffer{}
			f.write(data)
			f.closed = true
			var ex core.Example
			r := startReader(f, core.ReaderSettings{}, &ex)
			for r.resume() && r.err == nil {
			}
			r.stop()
		}
	})
}
