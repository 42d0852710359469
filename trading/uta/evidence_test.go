package uta

import (
	"context"
	"testing"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The approval evidence: notional at the current quote, position and
// cash after, every guard's verdict with headroom, TIF and who staged it.
func TestApprovalEvidence(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.writeAccounts(t, config.Accounts{{ID: "paper", Preset: "simulator", Enabled: true,
		Guards: []config.Guard{{Type: "max-order-value", Options: map[string]any{"maxValue": "5000"}},
			{Type: "max-position-size", Options: map[string]any{"maxPercentOfEquity": 25}}},
		PresetConfig: []byte(`{"cash":"100000"}`)}})
	m := e.start(t)
	u, err := m.Get("paper")
	require.NoError(t, err)
	require.NoError(t, u.Sim().SetMarkPrice("MSFT", decimal.NewFromInt(370)))
	ctx := core.WithCaller(context.Background(), core.Caller{Session: "web/default", Channel: "tui", Agent: "claude"})
	c, err := u.ContractFromAliceID(ctx, "paper|MSFT")
	require.NoError(t, err)
	_, err = u.Stage(ctx, git.Operation{Action: git.PlaceOrder, Contract: &c, StagedBy: &git.Provenance{Session: "web/default", Channel: "tui", Agent: "claude"},
		Order: &trading.Order{Action: trading.Buy, OrderType: trading.Market, TotalQuantity: decimal.NewFromInt(100)}})
	require.NoError(t, err)
	_, err = u.Stage(ctx, git.Operation{Action: git.PlaceOrder, Contract: &c,
		Order: &trading.Order{Action: trading.Buy, OrderType: trading.Limit, TotalQuantity: decimal.NewFromInt(10), LmtPrice: decimal.NewFromInt(360), TIF: trading.GTC}})
	require.NoError(t, err)
	out, err := m.Commit("paper", "two buys")
	require.NoError(t, err)

	ev, err := m.Evidence(context.Background(), "paper", out[0].Hash)
	require.NoError(t, err)
	require.Len(t, ev.Ops, 2)
	q, err := u.Broker().Quote(context.Background(), c)
	require.NoError(t, err)
	big := ev.Ops[0]
	assert.True(t, big.Notional.Equal(q.Ask.Mul(decimal.NewFromInt(100))), "valued at the ask: %s", big.Notional)
	assert.Equal(t, trading.Day, big.TIF)
	assert.Equal(t, "claude, session web/default, via tui", big.StagedBy)
	assert.True(t, big.PositionAfter.Equal(decimal.NewFromInt(100)))
	assert.True(t, big.CashAfter.Equal(decimal.NewFromInt(100000).Sub(big.Notional)))
	text := big.Text()
	assert.Contains(t, text, "placeOrder BUY 100 MSFT (MKT) DAY")
	assert.Contains(t, text, "max-order-value: order value 37,0")
	assert.Contains(t, text, ", limit 5,000.00 → would be rejected")
	assert.Contains(t, text, "max-position-size: position 0.0% → 37.0% of equity, limit 25%")
	assert.Contains(t, text, "position MSFT 0 → 100; cash 100,000.00 → ")

	small := ev.Ops[1]
	assert.True(t, small.Notional.Equal(decimal.NewFromInt(3600)), "a buy limit is valued at its limit")
	assert.True(t, small.PositionBefore.Equal(decimal.NewFromInt(100)), "judged after the first operation")
	assert.Contains(t, small.Text(), "max-order-value: order value 3,600.00, limit 5,000.00 → ok")
	assert.Contains(t, small.Text(), "time in force GTC")
	assert.Equal(t, "unknown", small.StagedBy)
}

// The estimate is money: shown with cents, and the cash after it is the
// cash before minus exactly the estimate shown (#22: est. 2,060.10 but
// cash 100,000.00 → 97,939.91).
func TestEvidenceMoneyIsCents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.writeAccounts(t, config.Accounts{{ID: "paper", Preset: "simulator", Enabled: true,
		Guards:       []config.Guard{{Type: "max-order-value", Options: map[string]any{"maxValue": "5000"}}},
		PresetConfig: []byte(`{"cash":"100000"}`)}})
	m := e.start(t)
	u, err := m.Get("paper")
	require.NoError(t, err)
	require.NoError(t, u.Sim().SetMarkPrice("MSFT", decimal.RequireFromString("206.0095")))
	ctx := context.Background()
	c, err := u.ContractFromAliceID(ctx, "paper|MSFT")
	require.NoError(t, err)
	_, err = u.Stage(ctx, git.Operation{Action: git.PlaceOrder, Contract: &c,
		Order: &trading.Order{Action: trading.Buy, OrderType: trading.Market, TotalQuantity: decimal.NewFromInt(10)}})
	require.NoError(t, err)
	out, err := m.Commit("paper", "a buy")
	require.NoError(t, err)
	ev, err := m.Evidence(ctx, "paper", out[0].Hash)
	require.NoError(t, err)
	require.Len(t, ev.Ops, 1)
	q, err := u.Broker().Quote(ctx, c)
	require.NoError(t, err)
	raw := q.Ask.Mul(decimal.NewFromInt(10))
	require.False(t, raw.Equal(raw.Round(2)), "the test needs an ask with more than cents: %s", raw)
	op := ev.Ops[0]
	assert.True(t, op.Notional.Equal(trading.RoundMoney(raw)), "the estimate is in cents: %s", op.Notional)
	assert.True(t, op.CashAfter.Equal(decimal.NewFromInt(100000).Sub(op.Notional)), "cash after %s", op.CashAfter)
	est := trading.FormatMoney(op.Notional)
	assert.Contains(t, op.Text(), "est. "+est+" ")
	assert.Contains(t, op.Text(), "cash 100,000.00 → "+trading.FormatMoney(decimal.NewFromInt(100000).Sub(op.Notional)))
	assert.Contains(t, op.Text(), "max-order-value: order value "+est+", limit 5,000.00 → ok")
}
