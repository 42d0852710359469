package activity_test

import (
	"testing"

	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/stretchr/testify/require"
)

// New runs and tool calls arrive on top of their lists; the open detail
// stays on the item the person selected.
func TestActivityCursorKeepsTheItem(t *testing.T) {
	t.Parallel()
	h, f := tuitest.NewPagesHarness(t, 120, 30)
	f.AddEvent("agent.work.requested", `{"source":"webhook","prompt":"first webhook"}`, 0)
	h.Alt('6')
	h.Run(h.M.Activity.Load())
	h.Key("]", "down", "enter") // Runs: the cron run, below the webhook one
	require.Contains(t, h.Screen(), "run #2 cron")
	f.AddEvent("agent.work.requested", `{"source":"webhook","prompt":"second webhook"}`, 0)
	h.Run(h.M.Activity.Load())
	require.Contains(t, h.Screen(), "second webhook")
	require.Contains(t, h.Screen(), "run #2 cron", "the detail stays on the cron run")

	h.Key("esc", "]", "down", "enter") // Tool calls: the older one
	require.Contains(t, h.Screen(), "calculateIndicator")
	require.Contains(t, h.Screen(), "61.2")
	f.AddToolCall("getQuote", `{"symbol":"MSFT"}`)
	h.Run(h.M.Activity.Load())
	require.Contains(t, h.Screen(), "getQuote")
	require.Contains(t, h.Screen(), "61.2", "the detail stays on calculateIndicator")
}
