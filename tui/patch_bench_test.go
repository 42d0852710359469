package tui_test

import (
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/workspace"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
)

// BenchmarkPatchEcho is an echo drawn through Program.Patch at 120x40:
// the session's changed row copied into the frame, diffed and written.
func BenchmarkPatchEcho(b *testing.B) {
	const w, h = 118, 36 // the frame of sessionFrame: a line, 34 rows, a line
	term := workspace.NewTerminal(116, 34, slog.New(slog.DiscardHandler))
	defer term.Close()
	for i := 0; i < 33; i++ {
		term.Feed(fmt.Appendf(nil, "\x1b[32m-rw-r--r--\x1b[m 1 alice staff %6d Nov 25 18:%02d \x1b[1;34mfile-%02d.txt\x1b[m\r\n", 1000+i, i, i))
	}
	term.Feed([]byte("$ "))
	m := &sessionModel{term: term}
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(w, h),
		tea.WithoutSignals(), tea.WithColorProfile(colorprofile.TrueColor), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	defer func() { p.Quit(); <-done }()
	p.Send(refreshMsg{})
	patch := func() bool {
		return p.Patch(func(frame *uv.RenderBuffer) (*tea.Cursor, bool) {
			x, y, vis, ok := term.PatchCells(frame, 1, 1, 116, 34)
			if !ok {
				return nil, false
			}
			if !vis {
				return nil, true
			}
			return tea.NewCursor(1+x, 1+y), true
		})
	}
	for term.Feed([]byte(" ")); !patch(); term.Feed([]byte(" ")) {
		time.Sleep(time.Millisecond)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%60 == 59 {
			term.Feed([]byte("\r\x1b[K$ "))
		} else {
			term.Feed([]byte("x"))
		}
		if !patch() {
			b.Fatal("not patched")
		}
	}
}
