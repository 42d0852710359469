package portfolio_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/portfolio"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/shopspring/decimal"
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

// bigCore adds an order and a fill of a billion units to the fake's
// history.
type bigCore struct{ *tuitest.FakeCore }

func (c bigCore) OrderHistory(account string, limit int) ([]portfolio.HistoryOrder, error) {
	rows, err := c.FakeCore.OrderHistory(account, limit)
	big := portfolio.HistoryOrder{Time: tuitest.T0.Add(time.Hour), ID: "mock-ord-3", Side: "BUY", Symbol: "BTCUSD", Type: "MKT",
		Quantity: decimal.NewFromInt(1_000_000_000), Filled: decimal.NewFromInt(1_000_000_000), AvgPrice: decimal.RequireFromString("64250.5"),
		Status: "filled", By: "tui/default"}
	return append([]portfolio.HistoryOrder{big}, rows...), err
}

func (c bigCore) TradeHistory(account string, limit int) ([]portfolio.HistoryTrade, error) {
	rows, err := c.FakeCore.TradeHistory(account, limit)
	big := portfolio.HistoryTrade{Time: tuitest.T0.Add(time.Hour), Side: "BUY", Symbol: "BTCUSD", Quantity: decimal.NewFromInt(1_000_000_000),
		Price: decimal.RequireFromString("64250.5"), Value: decimal.RequireFromString("64250500000000"), By: "tui/default"}
	return append([]portfolio.HistoryTrade{big}, rows...), err
}

// A quantity of 1000000000 showed as "10000…" in the order history at 80
// and 200 columns, which reads as 10000. Number columns are as wide as
// their values at every width; on a pane too narrow for that, a number
// column is left out whole rather than cut.
func TestHistoryNeverCutsANumber(t *testing.T) {
	t.Parallel()
	for _, w := range []int{200, 160, 120, 80, 60, 40} { // 40: no room for Qty, left out
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			t.Parallel()
			h := tuitest.NewHarnessCore(t, w, 40, func(f *tuitest.FakeCore) tui.Core { return bigCore{f} })
			h.Key("alt+3", "v")
			s := h.Screen()
			for _, l := range strings.Split(s, "\n") {
				if strings.Contains(l, "BTCUSD") {
					require.NotRegexp(t, `[0-9.,]…`, l, "no number is cut")
					if w >= 60 {
						require.Contains(t, l, " 1000000000 ", "the quantity is shown whole")
					}
				}
			}
			if w >= 80 {
				require.Regexp(t, `BUY +BTCUSD +MKT +1000000000 +64250\.50 +filled`, s)
				require.Regexp(t, `BUY +BTCUSD +1000000000 +64250\.50 +64250500000000\.00`, s)
			}
		})
	}
}

func TestGoldenHistoryViewLargeQuantity(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {200, 45}} {
		t.Run(fmt.Sprintf("history_%dx%d", size[0], size[1]), func(t *testing.T) {
			h := tuitest.NewHarnessCore(t, size[0], size[1], func(f *tuitest.FakeCore) tui.Core { return bigCore{f} })
			h.Key("alt+3", "v")
			golden.RequireEqual(t, []byte(h.Screen()))
		})
	}
}
