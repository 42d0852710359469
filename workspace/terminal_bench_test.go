package workspace

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
)

func frameBytes(f, cols, rows int) []byte {
	var w strings.Builder
	const text = "the quick brown fox jumps over the lazy dog 0123456789 "
	c := byte('A' + f%26)
	w.WriteString("\x1b[H\x1b[m")
	label := fmt.Sprintf("%cFRAME %06d%c", c, f, c)
	w.WriteString(label)
	w.WriteString(strings.Repeat(" ", cols-len(label)))
	for r := 1; r < rows; r++ {
		fmt.Fprintf(&w, "\x1b[%d;1H", r+1)
		for x := 0; x < cols; x += 10 {
			fmt.Fprintf(&w, "\x1b[38;5;%dm", (f+r+x/10)%216+16)
			for i := x; i < min(x+10, cols); i++ {
				w.WriteByte(text[(i+f+r)%len(text)])
			}
		}
	}
	w.WriteString("\x1b[m")
	return []byte(w.String())
}

// frameTerminal is a 116x33 terminal on its alternate screen and 26
// full-screen coloured frames to feed it.
func frameTerminal(b *testing.B) (*Terminal, [][]byte) {
	t := NewTerminal(116, 33, slog.New(slog.NewTextHandler(io.Discard, nil)))
	b.Cleanup(t.Close)
	t.Feed([]byte("\x1b[?1049h"))
	frames := make([][]byte, 26)
	for i := range frames {
		frames[i] = frameBytes(i, 116, 33)
	}
	return t, frames
}

func BenchmarkFrameWrite(b *testing.B) {
	t, frames := frameTerminal(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t.Feed(frames[i%26])
	}
}

// BenchmarkFrameRender is a frame fed and rendered, as the attached pane
// draws it.
func BenchmarkFrameRender(b *testing.B) {
	t, frames := frameTerminal(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t.Feed(frames[i%26])
		_ = t.Render()
	}
}

// BenchmarkBusyLine is one line of a chatty session's output scrolling the
// main screen (what each of 20 busy sessions costs per line).
func BenchmarkBusyLine(b *testing.B) {
	t := NewTerminal(116, 33, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer t.Close()
	lines := make([][]byte, 100)
	for i := range lines {
		lines[i] = fmt.Appendf(nil, "busy %08d %s\r\n", i, strings.Repeat("-", 60))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t.Feed(lines[i%100])
	}
}

// BenchmarkBusyBatch is a background session's batch: the eight lines a
// chatty session prints in the 40 ms its reader waits (lingerBackground)
// fed at once, each scrolling into the ring.
func BenchmarkBusyBatch(b *testing.B) {
	t := NewTerminal(116, 33, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer t.Close()
	var batch []byte
	for i := 0; i < 8; i++ {
		batch = fmt.Appendf(batch, "busy %08d %s\r\n", i, strings.Repeat("-", 60))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t.Feed(batch)
	}
}

// BenchmarkEchoChar is a keystroke's echo: one character fed to a shell's
// screen and the frame the attached pane reads for it.
func BenchmarkEchoChar(b *testing.B) {
	t := NewTerminal(116, 33, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer t.Close()
	for i := 0; i < 40; i++ {
		t.Feed(fmt.Appendf(nil, "\x1b[32m-rw-r--r--\x1b[m 1 alice staff %6d Nov 25 \x1b[1;34mfile-%02d.txt\x1b[m\r\n", i, i))
	}
	t.Feed([]byte("$ "))
	_, _, _, _ = t.Frame()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%60 == 59 {
			t.Feed([]byte("\r\x1b[K$ "))
		}
		t.Feed([]byte{'a' + byte(i%26)})
		_, _, _, _ = t.Frame()
	}
}
