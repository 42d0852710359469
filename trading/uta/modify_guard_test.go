package uta

import (
	"context"
	"testing"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A modifyOrder the guards refuse at push never reaches the broker: the
// resting order keeps its id, quantity, prices, TIF and status, the
// history's row for it is unchanged, and the rejection says so.
func TestGuardRejectedModifyLeavesTheOrderAsItWas(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m, u := e.startAutoCapped(t, "m", "5000")
	ctx := context.Background()
	require.NoError(t, u.Sim().SetMarkPrice("AAPL", decimal.NewFromInt(200)))
	c, err := u.ContractFromAliceID(ctx, "m|AAPL")
	require.NoError(t, err)
	_, err = u.Stage(ctx, git.Operation{Action: git.PlaceOrder, Contract: &c, Order: &trading.Order{Action: trading.Buy,
		OrderType: trading.Limit, TotalQuantity: decimal.NewFromInt(20), LmtPrice: decimal.NewFromInt(150), TIF: trading.GTC}})
	require.NoError(t, err)
	out, err := m.Commit("m", "rest 20 @150")
	require.NoError(t, err)
	res, err := m.Push(ctx, "m", out[0].Hash)
	require.NoError(t, err)
	require.Len(t, res.Submitted, 1)
	id := res.Submitted[0].OrderID
	read := func() trading.OpenOrder {
		os, err := u.Sim().Orders(ctx, []string{id})
		require.NoError(t, err)
		require.Len(t, os, 1)
		return os[0]
	}
	before := read()
	rowBefore, err := m.OrderHistory("m", 10)
	require.NoError(t, err)

	for _, tt := range []struct {
		name string
		ch   trading.OrderChanges
	}{
		{"quantity raised over the limit", trading.OrderChanges{TotalQuantity: decimal.NewFromInt(40)}},                                       // 6,000
		{"price raised over the limit", trading.OrderChanges{LmtPrice: decimal.NewFromInt(260)}},                                              // 5,200
		{"both", trading.OrderChanges{TotalQuantity: decimal.NewFromInt(30), LmtPrice: decimal.NewFromInt(199)}},                              // 5,970
		{"type changed to market, valued at the ask", trading.OrderChanges{OrderType: trading.Market, TotalQuantity: decimal.NewFromInt(26)}}, // ~5,200
	} {
		ch := tt.ch
		_, err := u.Stage(ctx, git.Operation{Action: git.ModifyOrder, OrderID: id, SymbolHint: "AAPL", Changes: &ch})
		require.NoError(t, err, tt.name)
		out, err := m.Commit("m", tt.name)
		require.NoError(t, err)
		res, err := m.Push(ctx, "m", out[0].Hash)
		require.NoError(t, err, tt.name)
		require.Len(t, res.Rejected, 1, tt.name)
		msg := res.Rejected[0].Error
		assert.Contains(t, msg, "[guard:max-order-value]", tt.name)
		assert.Contains(t, msg, "nothing was sent to the broker: order "+id+" is unchanged (BUY 20 AAPL LMT 150 GTC, still resting)", tt.name)
		after := read()
		assert.Equal(t, before.Order, after.Order, tt.name)
		assert.Equal(t, before.Status, after.Status, tt.name)
		assert.True(t, before.FilledQty.Equal(after.FilledQty), tt.name)
	}
	rowAfter, err := m.OrderHistory("m", 10)
	require.NoError(t, err)
	require.Len(t, rowAfter, len(rowBefore))
	assert.Equal(t, rowBefore[0].Quantity.String(), rowAfter[0].Quantity.String())
	assert.Equal(t, rowBefore[0].LimitPrice.String(), rowAfter[0].LimitPrice.String())
	assert.Equal(t, rowBefore[0].Status, rowAfter[0].Status)
}

// A modify or cancel of an order the broker does not know is refused at
// staging, naming it; nothing is staged.
func TestModifyOrCancelOfAnUnknownOrderIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.writeAccounts(t, config.Accounts{{ID: "m", Preset: "simulator", Enabled: true, AutoApprove: true,
		Guards: []config.Guard{}, PresetConfig: []byte(`{"cash":"100000","seed":7}`)}})
	m := e.start(t)
	ctx := context.Background()
	u, err := m.Get("m")
	require.NoError(t, err)
	for _, op := range []git.Operation{
		{Action: git.ModifyOrder, OrderID: "nope", Changes: &trading.OrderChanges{TotalQuantity: decimal.NewFromInt(5)}},
		{Action: git.CancelOrder, OrderID: "nope"},
	} {
		_, err := u.Stage(ctx, op)
		require.Error(t, err, op.Action)
		assert.Contains(t, err.Error(), `order "nope"`, op.Action)
		assert.Contains(t, err.Error(), "getOrders", op.Action)
		assert.Empty(t, u.Git().Status().Staged)
	}
}
