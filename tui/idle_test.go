package tui_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/internal/tuitest"
)

// Idle means idle: in Chat, or in Workspaces with a session attached,
// nothing ticks — events bring every change. A pane that shows what
// changes without an event (Market's quotes) starts the periodic refresh
// at once, and it ends with the first tick after the person leaves. The
// status bar still reloads on a pane switch.
func TestPeriodicRefreshRunsOnlyWhereNeeded(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Send(tui.TickMsg(h.Now))
	require.False(t, h.M.Ticking(), "Chat: no periodic refresh")

	h.Key("alt+5")
	require.True(t, h.M.Ticking(), "Market: refreshed periodically")
	h.Send(tui.TickMsg(h.Now))
	require.True(t, h.M.Ticking())

	h.F.Mu.Lock()
	h.F.TelegramDown = "Telegram unreachable since 09:41, retrying"
	h.F.Mu.Unlock()
	h.Key("alt+4")
	require.Contains(t, h.Screen(), "Telegram unreachable since 09:41, retrying", "the status bar reloads on a pane switch")
	h.Send(tui.TickMsg(h.Now))
	require.False(t, h.M.Ticking(), "Workspaces: the tick after leaving Market was the last")
}
