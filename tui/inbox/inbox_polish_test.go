package inbox_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/alice-trading/alice/tui/inbox"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/stretchr/testify/require"
)

// A one-line preview shows plain text as written: a lone `*` is not an
// emphasis mark (the list and the delete dialog once showed "!@#$%^&()").
// Paired marks are still stripped.
func TestInboxPreviewKeepsLoneMarks(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.F.Mu.Lock()
	h.F.InboxEntries = []inbox.InboxEntry{
		{ID: "e4", WorkspaceID: "ws1", Workspace: "research-aapl", Comments: "!@#$%^&*()", Time: tuitest.T0.Add(3 * time.Hour)},
		{ID: "e3", WorkspaceID: "ws1", Workspace: "research-aapl", Comments: "**bold** _x_ 2 * 3 = 6, `code` and *it*", Time: tuitest.T0.Add(2 * time.Hour)},
	}
	h.F.Mu.Unlock()
	h.Run(h.M.Inbox.Load())
	h.Key("tab")
	s := h.Screen()
	require.Contains(t, s, "!@#$%^&*()")
	require.Contains(t, s, "bold _x_ 2 * 3 = 6, code and it")
	h.Key("d")
	require.Contains(t, h.Screen(), "From research-aapl: !@#$%^&*()")
}

// The detail view stops scrolling once its end is in view: the last page
// stays full (40 ↓ once scrolled to a blank page).
func TestInboxDetailScrollStopsAtTheEnd(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	var doc []string
	for i := 1; i <= 60; i++ {
		doc = append(doc, fmt.Sprintf("line %02d", i))
	}
	h.F.Mu.Lock()
	h.F.DocBody = strings.Join(doc, "\n")
	h.F.Mu.Unlock()
	h.Key("tab", "enter")
	for i := 0; i < 100; i++ {
		h.Key("down")
	}
	end := h.Screen()
	require.Contains(t, end, "Comments", "the end is in view")
	require.Contains(t, end, "line 50", "and the page above it is full")
	h.Key("up")
	require.NotEqual(t, end, h.Screen(), "one ↑ scrolls back at once")
}
