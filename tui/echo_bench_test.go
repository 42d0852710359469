package tui_test

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/workspaces"
)

// BenchmarkEchoFrame is the UI's share of a keystroke's echo in an
// attached session at 120x40: the key's own frame (input passed to the
// session) and the frame drawn when the session's screen changed, over a
// screen full of coloured shell output.
func BenchmarkEchoFrame(b *testing.B) {
	h := tuitest.NewHarness(b, 120, 40)
	h.Alt('4')
	h.Key("s")
	h.F.Mu.Lock()
	term := h.F.Terms["ws1"][0].(*tuitest.FakeTerm)
	h.F.Mu.Unlock()
	var screen strings.Builder
	for i := 0; i < 33; i++ {
		fmt.Fprintf(&screen, "\x1b[32m-rw-r--r--\x1b[m 1 alice staff %6d Nov 25 18:%02d \x1b[1;34mfile-%02d.txt\x1b[m\n", 1000+i, i, i)
	}
	term.Mu.Lock()
	term.Screen = screen.String() + "$ "
	term.Mu.Unlock()
	changed := workspaces.TermChangedMsg{ID: term.ID(), Gen: h.M.Workspaces.TermGen}
	h.M.Update(changed)
	h.M.View()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.M.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
		h.M.View()
		h.M.Update(changed)
		h.M.View()
		if i%40 == 39 {
			term.Mu.Lock()
			term.Screen = screen.String() + "$ "
			term.Mu.Unlock()
		}
	}
}
