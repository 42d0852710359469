package workspace

import (
	"fmt"
	"log/slog"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
)

// BenchmarkPatchCellsEcho is an echo's patch (PatchCells) over a 116x34
// screen full of coloured shell output: one character changed.
func BenchmarkPatchCellsEcho(b *testing.B) {
	term := NewTerminal(116, 34, slog.New(slog.DiscardHandler))
	defer term.Close()
	for i := 0; i < 33; i++ {
		term.Feed(fmt.Appendf(nil, "\x1b[32m-rw-r--r--\x1b[m 1 alice staff %6d Nov 25 18:%02d \x1b[1;34mfile-%02d.txt\x1b[m\r\n", 1000+i, i, i))
	}
	term.Feed([]byte("$ "))
	term.Frame()
	frame := uv.NewRenderBuffer(120, 40)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%60 == 59 {
			term.Feed([]byte("\r\x1b[K$ "))
		} else {
			term.Feed([]byte("x"))
		}
		if _, _, _, ok := term.PatchCells(frame, 2, 3, 116, 34); !ok {
			b.Fatal("not patched")
		}
		term.Frame()
	}
}
