package uta

import (
	"context"
	"testing"
	"time"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePriceChange(t *testing.T) {
	mark := decimal.NewFromInt(200)
	cases := []struct{ in, want, err string }{
		{in: "@150", want: "150"},
		{in: "+10%", want: "220"},
		{in: "-5%", want: "190"},
		{in: " -2.5% ", want: "195"},
		{in: "@0", err: "price change must be"},
		{in: "150", err: "price change must be"},
		{in: "+x%", err: "price change must be"},
		{in: "-100%", err: "would take the price to 0"},
	}
	for _, c := range cases {
		got, err := ParsePriceChange(c.in, mark)
		if c.err != "" {
			assert.ErrorContains(t, err, c.err, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		assert.True(t, got.Equal(decimal.RequireFromString(c.want)), "%s: %s", c.in, got)
	}
}

func TestSimulatorControlsAreRecorded(t *testing.T) {
	e := newEnv(t)
	m := e.start(t)
	ctx := context.Background()
	require.True(t, m.IsSimulator("sim-paper"))
	require.False(t, m.IsSimulator("ghost"))

	old, next, err := m.SimSetPrice("sim-paper", "aapl", "@200")
	require.NoError(t, err)
	assert.True(t, next.Equal(decimal.NewFromInt(200)))
	assert.False(t, old.IsZero())
	_, next, err = m.SimSetPrice("sim-paper", "AAPL", "-10%")
	require.NoError(t, err)
	assert.True(t, next.Equal(decimal.NewFromInt(180)), next.String())
	assert.True(t, e.sink.has(string(EventSimMarkPrice)))
	_, _, err = m.SimSetPrice("sim-paper", "NOPE", "@1")
	require.Error(t, err)

	before, err := m.Account(ctx, "sim-paper")
	require.NoError(t, err)
	require.NoError(t, m.SimCash("sim-paper", decimal.NewFromInt(1000)))
	require.NoError(t, m.SimCash("sim-paper", decimal.NewFromInt(-250)))
	after, err := m.Account(ctx, "sim-paper")
	require.NoError(t, err)
	assert.True(t, after.TotalCashValue.Sub(before.TotalCashValue).Equal(decimal.NewFromInt(750)))
	require.Error(t, m.SimCash("sim-paper", decimal.NewFromInt(-10_000_000)), "cannot withdraw more than the cash")
	assert.True(t, e.sink.has(string(EventSimCash)))

	// A resting limit below the mark fills only when forced.
	u, _ := m.Get("sim-paper")
	c, _ := u.ContractFromAliceID(ctx, "sim-paper|AAPL")
	_, err = u.Git().Stage(git.Operation{Action: git.PlaceOrder, Contract: &c, Order: &trading.Order{Action: trading.Buy,
		OrderType: trading.Limit, TotalQuantity: decimal.NewFromInt(2), LmtPrice: decimal.NewFromInt(100), TIF: trading.GTC}})
	require.NoError(t, err)
	committed, err := m.Commit("", "resting limit")
	require.NoError(t, err)
	require.Len(t, committed, 1)
	_, err = m.Push(ctx, "sim-paper", committed[0].Hash)
	require.NoError(t, err)
	filled, err := m.SimForceFill(ctx, "sim-paper", "AAPL")
	require.NoError(t, err)
	require.Len(t, filled, 1)
	assert.Equal(t, trading.StatusFilled, filled[0].Status)
	assert.True(t, e.sink.has(string(EventSimForceFill)))
	ps, err := m.Positions(ctx, "sim-paper")
	require.NoError(t, err)
	require.Len(t, ps, 1)
	assert.True(t, ps[0].Quantity.Equal(decimal.NewFromInt(2)))
}

func TestSimAdvanceMovesTheAccountsClock(t *testing.T) {
	e := newEnv(t)
	m := e.start(t)
	u, err := m.Get("sim-paper")
	require.NoError(t, err)
	before, err := u.Sim().Mark("AAPL")
	require.NoError(t, err)
	clock, err := m.SimAdvance("sim-paper", 6*time.Hour)
	require.NoError(t, err)
	assert.True(t, clock.After(e.clock().Add(5*time.Hour)), "the account's clock runs ahead")
	after, err := u.Sim().Mark("AAPL")
	require.NoError(t, err)
	assert.False(t, before.Equal(after), "prices move with the simulated clock: %s → %s", before, after)
	assert.True(t, e.sink.has(string(EventSimClock)))

	_, err = m.SimAdvance("sim-paper", 0)
	require.ErrorContains(t, err, "advance must be")
	_, err = m.SimAdvance("sim-paper", 365*24*time.Hour)
	require.ErrorContains(t, err, "advance must be")
	_, err = m.SimAdvance("ghost", time.Hour)
	require.Error(t, err)
}
