package inbox_test

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/inbox"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/stretchr/testify/require"
)

func TestInboxOpenDeleteAndJump(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	require.Equal(t, 2, h.M.Inbox.Unread())
	require.Contains(t, h.Screen(), "Inbox (2)")
	h.Key("tab")
	require.Equal(t, 2, h.M.Inbox.Unread(), "showing the inbox reads nothing")
	h.Key("down", "up")
	require.Equal(t, 2, h.M.Inbox.Unread(), "nor does moving over entries")
	h.Key("enter")
	require.Equal(t, 1, h.M.Inbox.Unread(), "opening an entry reads it")
	s := h.Screen()
	require.Contains(t, s, "Revenue up 8%.")
	require.Contains(t, s, "File not found at this path.")
	h.Key("esc", "d")
	h.Now = h.Now.Add(time.Second)
	h.Key("y")
	require.Equal(t, []string{"e2"}, h.F.Deleted)
	h.Key("w")
	require.Equal(t, tui.FocusWorkspaces, h.M.Focus)
	require.Equal(t, "ws1", h.M.Workspaces.List[h.M.Workspaces.Sel].ID)
}

func TestInboxMouseSelects(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("tab")
	require.Equal(t, 0, h.M.Inbox.Sel)
	h.Send(tea.MouseWheelMsg{Button: tea.MouseWheelDown, Y: 4})
	require.Equal(t, 1, h.M.Inbox.Sel)
	require.Equal(t, 2, h.M.Inbox.Unread(), "selecting is not reading")
	// Screen row 3 is the pane's first list row (tabs, frame top, header).
	h.Send(tea.MouseClickMsg{Button: tea.MouseLeft, Y: 3, X: 10})
	require.Equal(t, 0, h.M.Inbox.Sel)
	// Clicking a tab title focuses that pane.
	h.Send(tea.MouseClickMsg{Button: tea.MouseLeft, Y: 0, X: 2})
	require.Equal(t, tui.FocusChat, h.M.Focus)
}

func TestInboxDetailFollowsTheFiles(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("tab", "enter")
	require.Contains(t, h.Screen(), "Revenue up 8%.")
	h.F.Mu.Lock()
	h.F.DocBody = "# Report\nRevenue up 9%."
	h.F.Mu.Unlock()
	h.F.EventCh <- tui.InboxChangedEvent{}
	h.Run(h.M.WaitEvent())
	require.Contains(t, h.Screen(), "Revenue up 9%.")
	h.Send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.F.Mu.Lock()
	defer h.F.Mu.Unlock()
	require.Equal(t, 112, h.F.RenderWidth, "re-rendered at the new width (inside the frame)")
}

// A new entry arriving on top keeps the cursor on the entry it was on.
func TestInboxCursorKeepsTheEntry(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("tab", "down")
	require.Equal(t, "e1", h.M.Inbox.Entries[h.M.Inbox.Sel].ID)
	h.F.Mu.Lock()
	h.F.InboxEntries = append([]inbox.InboxEntry{{ID: "e3", WorkspaceID: "ws1", Workspace: "research-aapl", Comments: "newest", Time: tuitest.T0.Add(2 * time.Hour)}}, h.F.InboxEntries...)
	h.F.Mu.Unlock()
	h.Run(h.M.Inbox.Load())
	require.Equal(t, "e1", h.M.Inbox.Entries[h.M.Inbox.Sel].ID)
}
