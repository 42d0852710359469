package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"
)

func TestInboxOpenDeleteAndJump(t *testing.T) {
	h := newHarness(t, 100, 30)
	require.Equal(t, 2, h.m.inbox.unread())
	require.Contains(t, h.screen(), "Inbox (2)")
	h.key("tab")
	require.Equal(t, 1, h.m.inbox.unread(), "the selected entry is read once shown")
	h.key("enter")
	s := h.screen()
	require.Contains(t, s, "Revenue up 8%.")
	require.Contains(t, s, "File not found at this path.")
	h.key("esc", "d")
	h.now = h.now.Add(time.Second)
	h.key("y")
	require.Equal(t, []string{"e2"}, h.f.deleted)
	h.key("w")
	require.Equal(t, focusWorkspaces, h.m.focus)
	require.Equal(t, "ws1", h.m.workspaces.list[h.m.workspaces.sel].ID)
}

func TestInboxMouseSelects(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.key("tab")
	require.Equal(t, 0, h.m.inbox.sel)
	h.send(tea.MouseWheelMsg{Button: tea.MouseWheelDown, Y: 4})
	require.Equal(t, 1, h.m.inbox.sel)
	require.Equal(t, 0, h.m.inbox.unread())
	// Screen row 3 is the pane's first list row (tabs, frame top, header).
	h.send(tea.MouseClickMsg{Button: tea.MouseLeft, Y: 3, X: 10})
	require.Equal(t, 0, h.m.inbox.sel)
	// Clicking a tab title focuses that pane.
	h.send(tea.MouseClickMsg{Button: tea.MouseLeft, Y: 0, X: 2})
	require.Equal(t, focusChat, h.m.focus)
}

func TestInboxDetailFollowsTheFiles(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.key("tab", "enter")
	require.Contains(t, h.screen(), "Revenue up 8%.")
	h.f.mu.Lock()
	h.f.docBody = "# Report\nRevenue up 9%."
	h.f.mu.Unlock()
	h.f.events <- InboxChangedEvent{}
	h.run(h.m.waitEvent())
	require.Contains(t, h.screen(), "Revenue up 9%.")
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.f.mu.Lock()
	defer h.f.mu.Unlock()
	require.Equal(t, 112, h.f.renderWidth, "re-rendered at the new width (inside the frame)")
}
