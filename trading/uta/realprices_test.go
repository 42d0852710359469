package uta

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/simmarket"
)

// fakeFeed is a real-price feed that can go offline.
type fakeFeed struct {
	mu     sync.Mutex
	prices map[string]decimal.Decimal
	down   bool
}

func (f *fakeFeed) RealPrice(_ context.Context, sym string, _ trading.AssetClass) (decimal.Decimal, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return decimal.Zero, errors.New("offline")
	}
	p, ok := f.prices[strings.ToUpper(sym)]
	if !ok {
		return decimal.Zero, errors.New("no real price")
	}
	return p, nil
}

// A simulator account with prices: "real" fills and values at the feed's
// prices, keeps the last real mark while the feed is down, and the default
// account stays on simulated prices.
func TestSimulatorOnRealPrices(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.writeAccounts(t, config.Accounts{
		{ID: "paper-real", Preset: "simulator", Enabled: true, AutoApprove: true, Guards: []config.Guard{}, PresetConfig: []byte(`{"prices":"real"}`)},
		{ID: "paper-sim", Preset: "simulator", Enabled: true, AutoApprove: true, Guards: []config.Guard{}},
	})
	feed := &fakeFeed{prices: map[string]decimal.Decimal{"AAPL": decimal.RequireFromString("231.57")}}
	m := NewManager(e.store, e.paths, simmarket.New(42), e.sink, nil, WithClock(e.clock), WithSimTick(time.Hour), WithPriceFeed(feed))
	require.NoError(t, m.Start(context.Background()))
	t.Cleanup(func() { _ = m.Close() })
	ctx := context.Background()

	real, err := m.Get("paper-real")
	require.NoError(t, err)
	c, err := real.ContractFromAliceID(ctx, "paper-real|AAPL")
	require.NoError(t, err)
	q, err := real.Broker().Quote(ctx, c)
	require.NoError(t, err)
	require.Equal(t, "231.57", q.Last.String(), "the quote is the real price")
	res, err := real.Broker().PlaceOrder(ctx, c, trading.Order{Action: trading.Buy, OrderType: trading.Market, TotalQuantity: decimal.NewFromInt(2), TIF: trading.Day}, nil)
	require.NoError(t, err)
	require.Equal(t, trading.StatusFilled, res.Status)
	require.True(t, res.FilledPrice.Sub(decimal.RequireFromString("231.57")).Abs().LessThan(decimal.NewFromInt(1)), "filled near the real price: %s", res.FilledPrice)

	feed.mu.Lock()
	feed.prices["AAPL"] = decimal.RequireFromString("240")
	feed.mu.Unlock()
	ps, err := real.Positions(ctx)
	require.NoError(t, err)
	require.Equal(t, "240", ps[0].MarketPrice.String(), "valued at the new real price")

	feed.mu.Lock()
	feed.down = true
	feed.mu.Unlock()
	ps, err = real.Positions(ctx)
	require.NoError(t, err)
	require.Equal(t, "240", ps[0].MarketPrice.String(), "offline: the last real mark stays")

	simOnly, err := m.Get("paper-sim")
	require.NoError(t, err)
	c2, err := simOnly.ContractFromAliceID(ctx, "paper-sim|AAPL")
	require.NoError(t, err)
	q2, err := simOnly.Broker().Quote(ctx, c2)
	require.NoError(t, err)
	require.NotEqual(t, "231.57", q2.Last.String(), "the default simulator keeps simulated prices")

	key, err := PresetChecks()["simulator"](json.RawMessage(`{"prices":"live"}`), nil)
	require.Equal(t, "prices", key)
	require.ErrorContains(t, err, "simulated or real")
}
