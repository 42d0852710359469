package live

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/tui"
)

// TestAgentStateSendAndDiffFlow drives the real TUI over a running core: a
// shell session that rings the bell shows the needs-you glyph on its row,
// the tab and the status bar; the send line types a command into it
// without attaching; the diff view lists the file that command wrote.
func TestAgentStateSendAndDiffFlow(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	ws, err := a.Workspaces().Create(context.Background(), "flow", "shell-only", nil)
	require.NoError(t, err)
	dark := true
	m := tui.New(New(a), tui.Options{Version: "test", Dark: &dark})
	t.Cleanup(m.Close)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(140, 36),
		teatest.WithProgramOptions(tea.WithEnvironment([]string{"TERM=xterm-256color"})))
	scr := newVTScreen(t, tm, 140, 36)
	tm.Send(tea.KeyPressMsg{Code: '4', Mod: tea.ModAlt})
	scr.waitFor("flow")

	tm.Send(tea.KeyPressMsg{Code: 's', Text: "s"})
	require.Eventually(t, func() bool { return len(a.Workspaces().Sessions(ws.ID)) == 1 }, 30*time.Second, 20*time.Millisecond)
	require.True(t, a.Workspaces().WaitReady(context.Background(), a.Workspaces().Sessions(ws.ID)[0].ID(), 30*time.Second))
	// The bell rings after the detach: one rung while a person is
	// attached is answered at once (they see it), as in tmux.
	tm.Send(tea.KeyPressMsg{Code: 'q', Mod: tea.ModCtrl})
	scr.waitFor("detached")
	// The detach stops watching the session in a command of its own: a
	// bell before that is answered as seen (CI once rang it first).
	sessID := a.Workspaces().Sessions(ws.ID)[0].ID()
	watched := a.Workspaces().(interface{ Watched(string) bool }).Watched // *workspace.Manager
	require.Eventually(t, func() bool { return !watched(sessID) }, 30*time.Second, 20*time.Millisecond)
	tm.Send(tea.KeyPressMsg{Code: 'i', Text: "i"})
	scr.waitFor("sh1 ›")
	for _, r := range "printf 'ok?\\a'" {
		tm.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	scr.waitFor("! sh1 needs-you")
	scr.waitFor("Workspaces !1")
	scr.waitFor("! 1 needs you")

	// The screen does not say that the UI has the sends' results: the
	// bell can show before the first one, and the second's "sent to sh1"
	// cannot be told from the first's (an info toast stays 4 s; this test
	// takes 2-3 s). So the i and the d below may reach the pane while a
	// send is still in flight, as a quick person's would: the pane holds
	// them until it finished (they were typed into the closing send line
	// and lost: "A  sent.txt" never showed, or the prompt went to the
	// list's keys and started a second shell).
	tm.Send(tea.KeyPressMsg{Code: 'i', Text: "i"})
	scr.waitFor("sh1 ›")
	for _, r := range "echo from-send > sent.txt" {
		tm.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(filepath.Join(ws.Dir, "sent.txt"))
		return err == nil && string(b) == "from-send\n"
	}, 30*time.Second, 50*time.Millisecond)

	tm.Send(tea.KeyPressMsg{Code: 'd', Text: "d"})
	scr.waitFor("A  sent.txt")
	scr.waitFor("+from-send")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.Send(tea.KeyPressMsg{Code: 'y', Text: "y"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(30*time.Second))
}
