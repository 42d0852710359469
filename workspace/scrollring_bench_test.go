package workspace

import (
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"testing"
)

// gradientFlood is lines lines of a 24-bit colour gradient, 20 runs of
// four characters each in a colour no other run has (8000 lines: 160,000
// distinct styles, the black-box report's flood); with bg the runs have a
// 24-bit background too.
func gradientFlood(lines int, bg bool) []byte {
	var b []byte
	colour := 0
	for i := 0; i < lines; i++ {
		for j := 0; j < 20; j++ {
			colour++
			r, g, bl := uint8(colour), uint8(colour>>8), uint8(colour>>16)
			if bg {
				b = fmt.Appendf(b, "\x1b[38;2;%d;%d;%d;48;2;%d;%d;%dmg%03d", r, g, bl, bl, r, g, j)
			} else {
				b = fmt.Appendf(b, "\x1b[38;2;%d;%d;%dmg%03d", r, g, bl, j)
			}
		}
		b = append(b, "\x1b[m\r\n"...)
	}
	return b
}

// BenchmarkGradientFlood feeds 8000 lines of a gradient to a 116x33
// session with a 10,000-line scrollback, in batches of the given size:
// 64 KiB batches go through the coalescer, 2 KiB ones through the
// emulator and its history sink. One op is the whole flood; heapMB is
// what the session holds after it (an idle session: ~1 MB), ringMB what
// its scrollback counts against the budget.
func BenchmarkGradientFlood(b *testing.B) {
	for _, bg := range []bool{false, true} {
		flood := gradientFlood(8000, bg)
		for _, batch := range []int{64 << 10, 2 << 10} {
			name := "fg"
			if bg {
				name = "fg+bg"
			}
			b.Run(fmt.Sprintf("%s/batch=%dKiB", name, batch>>10), func(b *testing.B) {
				b.ReportAllocs()
				var heap, ring float64
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					runtime.GC()
					var before runtime.MemStats
					runtime.ReadMemStats(&before)
					t := newTerminal(116, 33, DefaultScrollbackLines, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
					b.StartTimer()
					for p := flood; len(p) > 0; {
						n := min(len(p), batch)
						t.Feed(p[:n])
						p = p[n:]
					}
					b.StopTimer()
					runtime.GC()
					var after runtime.MemStats
					runtime.ReadMemStats(&after)
					heap = float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
					t.mu.Lock()
					ring = float64(t.ring.bytes) / (1 << 20)
					t.mu.Unlock()
					t.Close()
					b.StartTimer()
				}
				b.ReportMetric(heap, "heapMB")
				b.ReportMetric(ring, "ringMB")
			})
		}
	}
}
