package inbox_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/inbox"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/stretchr/testify/require"
)

// readCore adds stored read marks to the fake core.
type readCore struct {
	*tuitest.FakeCore
	mu    sync.Mutex
	seen  map[string]bool
	saves [][]string
}

func (r *readCore) InboxSeen() (map[string]bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]bool{}
	for k := range r.seen {
		out[k] = true
	}
	return out, nil
}

func (r *readCore) SaveInboxSeen(ids []string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.saves = append(r.saves, ids)
	r.seen = map[string]bool{}
	for _, id := range ids {
		r.seen[id] = true
	}
	return nil
}

func TestInboxUnreadSurvivesARestart(t *testing.T) {
	t.Parallel()
	store := &readCore{seen: map[string]bool{}}
	wrap := func(f *tuitest.FakeCore) tui.Core { store.FakeCore = f; return store }
	h := tuitest.NewHarnessCore(t, 100, 30, wrap)
	require.Equal(t, 2, h.M.Inbox.Unread())
	require.Contains(t, h.Screen(), "Inbox (2)")
	h.Key("tab", "enter") // opening an entry reads it
	require.Equal(t, 1, h.M.Inbox.Unread())
	require.Equal(t, [][]string{{"e2"}}, store.saves, "saved once, right away")

	// A restart: a new model over the same store.
	h2 := tuitest.NewHarnessCore(t, 100, 30, wrap)
	require.Equal(t, 1, h2.M.Inbox.Unread(), "still one unread after the restart")
	require.Contains(t, h2.Screen(), "Inbox (1)")
	h2.Key("tab", "m")
	require.Equal(t, 0, h2.M.Inbox.Unread())
	require.ElementsMatch(t, []string{"e1", "e2"}, store.saves[len(store.saves)-1])
}

func TestInboxCommentsAreMarkdownAndCountsPluralised(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.F.Mu.Lock()
	h.F.InboxEntries = []inbox.InboxEntry{{ID: "x1", Workspace: "research", Comments: "**AAPL** looks *cheap*\n\n- P/E 24\n- margin 31%", Time: tuitest.T0}}
	h.F.Mu.Unlock()
	h.Run(h.M.Inbox.Load())
	h.Key("tab")
	s := h.Screen()
	require.Contains(t, s, "1 entry ·", "one entry, not \"1 entries\"")
	require.Contains(t, s, "AAPL looks cheap", "the list row shows text, not markdown marks")
	require.NotContains(t, s, "**AAPL**")
	h.Key("enter")
	s = h.Screen()
	require.Contains(t, s, "Comments")
	require.Contains(t, s, "AAPL looks cheap")
	require.NotContains(t, s, "**AAPL**", "comments are rendered like the docs")
	require.True(t, strings.Contains(s, "• P/E 24"), "lists render as bullets")
}
