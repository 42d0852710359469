package uta

import (
	"context"
	"testing"
	"time"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"
	"github.com/alice-trading/alice/trading/simmarket"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
)

// An order placed at the venue directly (here: on the simulated broker,
// bypassing alice) is found by the poll, recorded as an "[observed]"
// commit with a trade.external event, and its fill is then synced like
// any order alice placed — visible in orderHistory and tradeHistory.
func TestPollObservesExternalOrderAndSyncsItsFill(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := NewManager(e.store, e.paths, simmarket.New(42), e.sink, nil, WithClock(e.clock), WithSimTick(time.Hour),
		WithOrderPoll(10*time.Millisecond, 10*time.Millisecond))
	events := m.Subscribe(t.Context())
	require.NoError(t, m.Start(context.Background()))
	t.Cleanup(func() { _ = m.Close() })
	ctx := context.Background()
	u, err := m.Get("sim-paper")
	require.NoError(t, err)
	require.NoError(t, u.Sim().SetMarkPrice("MSFT", decimal.NewFromInt(400)))
	c, err := u.ContractFromAliceID(ctx, "sim-paper|MSFT")
	require.NoError(t, err)

	// "The venue's own app": straight to the broker, no git, no client id.
	res, err := u.Broker().PlaceOrder(ctx, c, trading.Order{Action: trading.Buy, OrderType: trading.Limit,
		TotalQuantity: decimal.NewFromInt(2), LmtPrice: decimal.NewFromInt(350), TIF: trading.GTC}, nil)
	require.NoError(t, err)
	require.Equal(t, trading.StatusSubmitted, res.Status)

	var ev trading.Event
	require.Eventually(t, func() bool {
		for {
			select {
			case ev = <-events:
				if ev.Type == trading.EventExternalOrders {
					return true
				}
			default:
				return false
			}
		}
	}, 30*time.Second, 5*time.Millisecond)
	obs := ev.Data.(AccountObserved)
	require.Equal(t, "sim-paper", obs.AccountID)
	require.Len(t, obs.Orders, 1)
	require.Equal(t, res.OrderID, obs.Orders[0].OrderID)
	require.Equal(t, "sim-paper|MSFT", obs.Orders[0].Contract.AliceID)
	require.True(t, e.sink.has("trade.external"), "the event log records it")

	oh, err := m.OrderHistory("sim-paper", 10)
	require.NoError(t, err)
	require.Len(t, oh, 1)
	require.Equal(t, git.SourceExternal, oh[0].Source)
	require.Equal(t, git.StatusSubmitted, oh[0].Status)
	require.Equal(t, "sim-paper", oh[0].Account)

	// It fills at the venue; the sync lane records the fill.
	_, err = u.Sim().FillOrder(res.OrderID, decimal.NewFromInt(2), decimal.NewFromInt(349))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		th, err := m.TradeHistory("sim-paper", 10)
		return err == nil && len(th) == 1
	}, 30*time.Second, 5*time.Millisecond)
	th, _ := m.TradeHistory("", 10)
	require.Equal(t, git.TradeFromExternal, th[0].Source)
	require.Equal(t, "698", th[0].Value.String())
	oh, _ = m.OrderHistory("", 10)
	require.Equal(t, git.StatusFilled, oh[0].Status)

	// Observed once only: later polls add no commits for it.
	n := len(u.Git().Commits())
	got, err := m.ObserveExternal(ctx, "sim-paper")
	require.NoError(t, err)
	require.Empty(t, got)
	require.Len(t, u.Git().Commits(), n)
}
