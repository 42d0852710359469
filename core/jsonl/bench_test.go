package jsonl

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkAppend is one ~300-byte line per call: open, tail check,
// write, close (no fsync).
func BenchmarkAppend(b *testing.B) {
	f, err := Open(filepath.Join(b.TempDir(), "a.jsonl"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	line := []byte(`{"type":"user","message":{"role":"user","content":"` + strings.Repeat("x", 250) + `"}}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := f.Append(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTail20 reads the last 20 lines of files of growing size; the
// cost should stay flat.
func BenchmarkTail20(b *testing.B) {
	for _, lines := range []int{100, 100000} {
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) {
			p := filepath.Join(b.TempDir(), "t.jsonl")
			var sb strings.Builder
			for i := 0; i < lines; i++ {
				fmt.Fprintf(&sb, `{"i":%d,"text":"%s"}`+"\n", i, strings.Repeat("y", 200))
			}
			if err := os.WriteFile(p, []byte(sb.String()), 0o600); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				out, err := Tail(p, 20, nil)
				if err != nil || len(out) != 20 {
					b.Fatal(err, len(out))
				}
			}
		})
	}
}
