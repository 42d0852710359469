package live

import (
	"testing"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/core/session"
	"github.com/alice-trading/alice/tui/chat"
	"github.com/stretchr/testify/require"
)

// After a compaction (and a restart) the chat keeps the older messages
// scrollable: the TUI gets them, then the summary (shown collapsed), then
// the newer messages. The model's window still starts at the summary.
func TestHistoryCarriesTheCompactionSummary(t *testing.T) {
	t.Parallel()
	home := apptest.Home(t, nil)
	store, err := session.NewStore(apptest.Paths(t, home).DataPath("sessions"))
	require.NoError(t, err)
	old := session.NewText("user", "what did AAPL do?", "human")
	boundary := session.NewText("system", "Conversation compacted", "compaction")
	boundary.Subtype = "compact_boundary"
	sum := session.NewText("user", "This session is being continued from a previous conversation. The summary below covers the earlier portion of the conversation.\n\nThe user asked about **AAPL**.", "compaction")
	sum.IsCompactSummary = true
	_, err = store.Append("tui/default", old, boundary, sum, session.NewText("user", "and now?", "human"))
	require.NoError(t, err)
	a := apptest.Run(t, home) // the restart

	msgs, err := New(a).History("tui/default", 50)
	require.NoError(t, err)
	require.Len(t, msgs, 3)
	require.Equal(t, chat.RoleUser, msgs[0].Role)
	require.Equal(t, "what did AAPL do?", msgs[0].Text)
	require.Equal(t, chat.RoleCompaction, msgs[1].Role)
	require.Equal(t, "The user asked about **AAPL**.", msgs[1].Text)
	require.Equal(t, chat.RoleUser, msgs[2].Role)
	require.Equal(t, "and now?", msgs[2].Text)
	active, err := store.ReadActive("tui/default")
	require.NoError(t, err)
	require.Equal(t, "compact_boundary", active[0].Subtype)
}
