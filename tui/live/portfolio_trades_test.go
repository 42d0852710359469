package live

import (
	"context"
	"testing"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/core"
	"github.com/stretchr/testify/require"
)

// The Portfolio pane's history view reads the same orderHistory,
// tradeHistory and sessionCosts the tools answer: an order an agent
// session staged and a person approved shows as a filled order and a
// fill attributed to that session, and the session's row counts the fill
// on this account.
func TestHistoryViewDataComesFromTheTradingLog(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	ctx := core.WithCaller(context.Background(), core.Caller{Session: "desk-7", Channel: "tui", Agent: "alice"})
	stageBuy(t, a, ctx)
	approvePending(t, c)

	orders, err := c.OrderHistory("sim-paper", 10)
	require.NoError(t, err)
	require.Len(t, orders, 1)
	o := orders[0]
	require.Equal(t, "BUY", o.Side)
	require.Equal(t, "MSFT", o.Symbol)
	require.Equal(t, "filled", o.Status)
	require.Equal(t, "2", o.Filled.String())
	require.True(t, o.AvgPrice.IsPositive())
	require.False(t, o.External)
	require.Equal(t, "desk-7", o.By)

	trades, err := c.TradeHistory("sim-paper", 10)
	require.NoError(t, err)
	require.Len(t, trades, 1)
	require.Equal(t, "desk-7", trades[0].By)
	require.True(t, trades[0].Value.Equal(trades[0].Price.Mul(trades[0].Quantity)))

	costs, err := c.SessionCosts(context.Background(), "sim-paper")
	require.NoError(t, err)
	var found bool
	for _, sc := range costs {
		if sc.Session == "desk-7" {
			found = true
			require.Equal(t, 1, sc.Fills)
			require.True(t, sc.Realized.IsZero(), "an open lot has no realised P&L yet")
			require.Equal(t, "USD", sc.Currency)
		}
	}
	require.True(t, found, "%+v", costs)

	_, err = c.OrderHistory("no-such-account", 10)
	require.Error(t, err, "an unknown account is an error, not a crash")
}
