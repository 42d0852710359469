package uta

import (
	"context"
	"testing"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A close worth more than max-order-value is refused at staging, saying
// how large a part the guard allows and how many parts it takes; the
// parts, staged as closes of that size, execute each within the guard; a
// part that the market pushed over the limit before the push is stopped
// by the guard, whose message says what fits now. Nothing is remapped:
// what executes is exactly the closes that were staged and approved.
func TestCloseLargerThanMaxOrderValue(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m, u := e.startAutoCapped(t, "c", "5000")
	ctx := context.Background()
	// buy 100 MSFT while it is cheap (1,000 < 5,000), then it rises to 370
	require.NoError(t, u.Sim().SetMarkPrice("MSFT", decimal.NewFromInt(10)))
	c, err := u.ContractFromAliceID(ctx, "c|MSFT")
	require.NoError(t, err)
	_, err = u.Stage(ctx, git.Operation{Action: git.PlaceOrder, Contract: &c,
		Order: &trading.Order{Action: trading.Buy, OrderType: trading.Market, TotalQuantity: decimal.NewFromInt(100), TIF: trading.Day}})
	require.NoError(t, err)
	push := func(msg string) git.PushResult {
		t.Helper()
		out, err := m.Commit("c", msg)
		require.NoError(t, err)
		res, err := m.Push(ctx, "c", out[0].Hash)
		require.NoError(t, err)
		return res
	}
	require.Len(t, push("entry").Submitted, 1)
	require.NoError(t, u.Sim().SetMarkPrice("MSFT", decimal.NewFromInt(370)))
	q, err := u.Sim().Quote(ctx, c)
	require.NoError(t, err)
	limit := decimal.NewFromInt(5000)
	lot := decimal.New(1, -4) // the simulator's equity lot
	fit := trading.FitQuantity(limit, q.Bid, lot)
	require.True(t, fit.Mul(q.Bid).LessThanOrEqual(limit) && fit.Add(lot).Mul(q.Bid).GreaterThan(limit), "fit %s at %s", fit, q.Bid)

	held := func() decimal.Decimal {
		pos, err := u.Positions(ctx)
		require.NoError(t, err)
		h, _ := heldQuantity(pos, "MSFT")
		return h
	}
	for _, tt := range []struct {
		name, qty string
		parts     int
	}{
		{"the whole position", "", 8},
		{"a part above the limit", "20", 2},
	} {
		_, err := u.Stage(ctx, git.Operation{Action: git.ClosePosition, Contract: &c, Quantity: decimal.RequireFromString(orZero(tt.qty))})
		require.Error(t, err, tt.name)
		msg := err.Error()
		assert.Contains(t, msg, "max-order-value 5000", tt.name)
		assert.Contains(t, msg, "nothing was staged", tt.name)
		assert.Contains(t, msg, "at most "+fit.String()+" MSFT", tt.name)
		assert.Contains(t, msg, `qty "`+fit.String()+`"`, tt.name)
		assert.Contains(t, msg, partsText(tt.parts), tt.name)
		assert.Empty(t, u.Git().Status().Staged, tt.name)
	}
	require.True(t, held().Equal(decimal.NewFromInt(100)), "nothing executed")

	// the parts the message proposes, in one commit: each executes within the guard
	for i := 0; i < 3; i++ {
		_, err := u.Stage(ctx, git.Operation{Action: git.ClosePosition, Contract: &c, Quantity: fit})
		require.NoError(t, err)
	}
	res := push("close in parts")
	require.Len(t, res.Submitted, 3)
	for _, s := range res.Submitted {
		assert.True(t, s.FilledQty.Equal(fit), "each part fills exactly the staged %s, got %s", fit, s.FilledQty)
		assert.True(t, s.FilledQty.Mul(s.FilledPrice).LessThanOrEqual(limit))
	}
	require.True(t, held().Equal(decimal.NewFromInt(100).Sub(fit.Mul(decimal.NewFromInt(3)))))

	// staged within the limit, then the price rises: the guard stops it at push and says what fits now
	_, err = u.Stage(ctx, git.Operation{Action: git.ClosePosition, Contract: &c, Quantity: fit})
	require.NoError(t, err)
	require.NoError(t, u.Sim().SetMarkPrice("MSFT", decimal.NewFromInt(400)))
	q, err = u.Sim().Quote(ctx, c)
	require.NoError(t, err)
	fitNow := trading.FitQuantity(limit, q.Bid, lot)
	before := held()
	res = push("late part")
	require.Len(t, res.Rejected, 1)
	assert.Contains(t, res.Rejected[0].Error, "[guard:max-order-value]")
	assert.Contains(t, res.Rejected[0].Error, "at this price at most "+fitNow.String()+" MSFT fit in one order")
	require.True(t, held().Equal(before), "the refused part executed nothing")
}

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

func partsText(n int) string {
	return "in " + decimal.NewFromInt(int64(n)).String() + " parts"
}
