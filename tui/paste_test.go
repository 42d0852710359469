package tui_test

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/workspaces"
)

// A paste reaches every one-line text input, its lines joined by spaces
// (found in tmux: pasting into the new-workspace tag, the Activity search
// and the session browser's filter did nothing).
func TestPasteReachesEveryTextInput(t *testing.T) {
	t.Parallel()
	h, _ := tuitest.NewPagesHarness(t, 120, 30)

	h.Alt('4')
	h.Key("n")
	require.Equal(t, workspaces.WsCreate, h.M.Workspaces.Mode)
	h.Send(tea.PasteMsg{Content: "desk-2\n"})
	require.Contains(t, h.Screen(), "tag › desk-2")
	h.Key("esc")

	h.Alt('6')
	h.Key("/")
	h.Send(tea.PasteMsg{Content: "snapshot"})
	require.Contains(t, h.Screen(), "search=snapshot")
	h.Key("esc")

	h.Alt('1')
	h.Send(tuitest.Ctrl('s'))
	require.True(t, h.M.Chat.BrowserOpen())
	h.Send(tea.PasteMsg{Content: "research\nnotes"})
	require.Contains(t, h.Screen(), "filter › research notes")
	require.Empty(t, h.M.Chat.Input.Value(), "not typed into the chat behind the browser")
}
