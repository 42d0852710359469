package portfolio_test

import (
	"fmt"
	"testing"

	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"
)

// v switches the Portfolio pane to the history view: orders with their
// lifecycle collapsed, fills, an external order marked as such, and per
// session the tokens and dollars it spent beside the realised P&L of the
// trades it originated; v again returns to the overview.
func TestHistoryViewShowsOrdersTradesAndSessionCosts(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 160, 45)
	h.Key("alt+3")
	require.Contains(t, h.Screen(), "v history")
	h.Key("v")
	s := h.Screen()
	require.Contains(t, s, "Order history (4)")
	require.Contains(t, s, "Trades (2)")
	require.Regexp(t, `SELL +MSFT +MKT +1 +402\.10 +filled +⇄ external`, s, "an order placed outside alice is badged")
	require.Regexp(t, `BUY +NVDA +MKT +4 +user-rejected +person`, s)
	require.Regexp(t, `cron/default +6 +48k/1\.9k +\$0\.0084 +1 +\+10\.50`, s, "tokens and cost beside the realised P&L")
	require.Regexp(t, `tui/default +3 +9\.4k/620 +\$0\.0018\+\? +0 +—`, s, "an unpriced turn is flagged, no fills → no P&L")
	require.Regexp(t, `telegram/1 +2 +— +— +0 +—`, s, "turns without reported usage count; their tokens and cost are unknown, not 0")
	require.NotContains(t, s, "Open orders", "the overview's tables are replaced")
	h.Key("v")
	s = h.Screen()
	require.Contains(t, s, "Open orders")
	require.NotContains(t, s, "Order history")
}

func TestGoldenHistoryView(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		t.Run(fmt.Sprintf("history_%dx%d", size[0], size[1]), func(t *testing.T) {
			h := tuitest.NewHarness(t, size[0], size[1])
			h.Key("alt+3", "v")
			golden.RequireEqual(t, []byte(h.Screen()))
		})
	}
}
