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
)

// BenchmarkPatchEcho is an echo drawn through Program.Patch at 120x40:
// the session's changed row copied into the frame, diffed and written.
func BenchmarkPatchEcho(b *testing.B) {
	const cols, rows = 116, 34
	const w, h = cols + 2, rows + 2 // the frame of sessionFrame: a line, the rows, a line
	term := workspace.NewTerminal(cols, rows, slog.New(slog.DiscardHandler))
	defer term.Close()
	for i := 0; i < 33; i++ {
		term.Feed(fmt.Appendf(nil, "\x1b[32m-rw-r--r--\x1b[m 1 alice staff %6d Nov 25 18:%02d \x1b[1;34mfile-%02d.txt\x1b[m\r\n", 1000+i, i, i))
	}
	term.Feed([]byte("$ "))
	m := &sessionModel{term: term, cols: cols}
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(w, h),
		tea.WithoutSignals(), tea.WithColorProfile(colorprofile.TrueColor), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	defer func() { p.Quit(); <-done }()
	p.Send(refreshMsg{})
	patch := func() bool { return patchSession(p, term, cols, rows) }
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
