package tui

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// readCore adds stored read marks to the fake core.
type readCore struct {
	*fakeCore
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
	store := &readCore{seen: map[string]bool{}}
	wrap := func(f *fakeCore) Core { store.fakeCore = f; return store }
	h := newHarnessCore(t, 100, 30, wrap)
	require.Equal(t, 2, h.m.inbox.unread())
	require.Contains(t, h.screen(), "Inbox (2)")
	h.key("tab") // showing the inbox reads the selected entry
	require.Equal(t, 1, h.m.inbox.unread())
	require.Equal(t, [][]string{{"e2"}}, store.saves, "saved once, right away")

	// A restart: a new model over the same store.
	h2 := newHarnessCore(t, 100, 30, wrap)
	require.Equal(t, 1, h2.m.inbox.unread(), "still one unread after the restart")
	require.Contains(t, h2.screen(), "Inbox (1)")
	h2.key("tab", "m")
	require.Equal(t, 0, h2.m.inbox.unread())
	require.ElementsMatch(t, []string{"e1", "e2"}, store.saves[len(store.saves)-1])
}

func TestInboxCommentsAreMarkdownAndCountsPluralised(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.f.mu.Lock()
	h.f.inbox = []InboxEntry{{ID: "x1", Workspace: "research", Comments: "**AAPL** looks *cheap*\n\n- P/E 24\n- margin 31%", Time: t0}}
	h.f.mu.Unlock()
	h.run(h.m.inbox.load())
	h.key("tab")
	s := h.screen()
	require.Contains(t, s, "1 entry ·", "one entry, not \"1 entries\"")
	require.Contains(t, s, "AAPL looks cheap", "the list row shows text, not markdown marks")
	require.NotContains(t, s, "**AAPL**")
	h.key("enter")
	s = h.screen()
	require.Contains(t, s, "Comments")
	require.Contains(t, s, "AAPL looks cheap")
	require.NotContains(t, s, "**AAPL**", "comments are rendered like the docs")
	require.True(t, strings.Contains(s, "• P/E 24"), "lists render as bullets")
}
