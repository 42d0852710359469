package portfolio_test

import (
	"testing"

	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/stretchr/testify/require"
)

// Removing the account the pane shows (Settings → Accounts → d, or an
// edit of accounts.json) moves the pane to its neighbour without an
// error: the tester saw "✗ unknown or disabled account "sim3"" stay.
func TestRemovedAccountFallsBackWithoutAnError(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarnessCore(t, 100, 30, func(f *tuitest.FakeCore) tui.Core {
		f.AccountIDs = []string{"sim-paper", "sim2", "sim3"}
		return f
	})
	h.Key("alt+3", "]", "]")
	require.Contains(t, h.Screen(), "MSFT")
	require.Regexp(t, `sim2 +sim3 `, h.Screen())

	h.F.RemoveAccount("sim3")
	h.F.EventCh <- tui.TradingChangedEvent{} // what the core sends when accounts change
	h.Run(h.M.WaitEvent())
	s := h.Screen()
	require.NotContains(t, s, "unknown or disabled", "no error for an account that is gone")
	require.Empty(t, h.Toast())
	require.NotContains(t, s, "sim3")
	require.Contains(t, s, "MSFT", "the neighbour's positions show")
	h.Key("[")
	require.Empty(t, h.Toast(), "the cursor moved with the list: [ goes on to sim-paper")

	// The history view falls back too, and so does the last account going.
	h.Key("]", "v")
	h.F.RemoveAccount("sim2")
	h.F.EventCh <- tui.TradingChangedEvent{}
	h.Run(h.M.WaitEvent())
	s = h.Screen()
	require.NotContains(t, s, "unknown or disabled")
	require.Empty(t, h.Toast())
	require.Contains(t, s, "Order history (4)", "sim-paper's history")
	h.F.RemoveAccount("sim-paper")
	h.F.EventCh <- tui.TradingChangedEvent{}
	h.Run(h.M.WaitEvent())
	require.Empty(t, h.Toast())
	require.Contains(t, h.Screen(), "No trading accounts")
}
