package uta

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pushOne stages a market order, commits and pushes it; it returns the
// rejection ("" when it executed).
func pushOne(t *testing.T, m *Manager, id string, action trading.Action, sym, qty string) string {
	t.Helper()
	ctx := context.Background()
	u, err := m.Get(id)
	require.NoError(t, err)
	c, err := u.ContractFromAliceID(ctx, trading.AliceID(id, sym))
	require.NoError(t, err)
	_, err = u.Git().Stage(git.Operation{Action: git.PlaceOrder, Contract: &c,
		Order: &trading.Order{Action: action, OrderType: trading.Market, TotalQuantity: decimal.RequireFromString(qty), TIF: trading.Day}})
	require.NoError(t, err)
	out, err := m.Commit(id, string(action)+" "+qty+" "+sym)
	require.NoError(t, err)
	res, err := m.Push(ctx, id, out[0].Hash)
	require.NoError(t, err)
	if len(res.Rejected) > 0 {
		return res.Rejected[0].Error
	}
	require.Len(t, res.Submitted, 1)
	return ""
}

// The cooldown is armed only by an order that executed, and what armed it
// survives a reload of accounts.json that changes only the label and a
// restart of the manager.
func TestCooldownArmedByExecutionOnlyAndKeptAcrossReloadAndRestart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	acct := config.Account{ID: "cd", Preset: "simulator", Enabled: true, AutoApprove: true,
		Guards: []config.Guard{
			{Type: "cooldown", Options: map[string]any{"minIntervalMs": 3600000.0}},
			{Type: "max-order-value", Options: map[string]any{"maxValue": "5000"}},
		},
		PresetConfig: json.RawMessage(`{"cash":"100000","seed":7}`)}
	e.writeAccounts(t, config.Accounts{acct})
	m := e.start(t)
	u, err := m.Get("cd")
	require.NoError(t, err)
	require.NoError(t, u.Sim().SetMarkPrice("AAPL", decimal.NewFromInt(100)))

	assert.Contains(t, pushOne(t, m, "cd", trading.Buy, "AAPL", "100"), "[guard:max-order-value]", "10,000 > 5,000")
	assert.Empty(t, pushOne(t, m, "cd", trading.Buy, "AAPL", "1"), "the refused order did not arm the cooldown")
	assert.Contains(t, pushOne(t, m, "cd", trading.Buy, "AAPL", "1"), "[guard:cooldown] Cooldown active for AAPL")

	acct.Label = "renamed"
	e.writeAccounts(t, config.Accounts{acct})
	require.NoError(t, m.Reload(ctx))
	u2, err := m.Get("cd")
	require.NoError(t, err)
	require.NotSame(t, u, u2, "the label change rebuilt the account")
	assert.Contains(t, pushOne(t, m, "cd", trading.Buy, "AAPL", "1"), "[guard:cooldown]", "after a reload")

	require.NoError(t, m.Close())
	m2 := e.start(t)
	assert.Contains(t, pushOne(t, m2, "cd", trading.Buy, "AAPL", "1"), "[guard:cooldown]", "after a restart")
}

// The tester's daily-loss run on the simulator: a round trip of 500 AAPL
// loses to the spread; with a limit below that loss the next buy is
// refused, and the loss reported is the whole drop from before the first
// trade (not from the snapshot taken after it).
func TestDailyLossCountsTheRoundTrip(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	acct := config.Account{ID: "dl", Preset: "simulator", Enabled: true, AutoApprove: true,
		Guards:       []config.Guard{{Type: "daily-loss", Options: map[string]any{"maxLoss": "0.01"}}},
		PresetConfig: json.RawMessage(`{"cash":"100000","seed":7}`)}
	e.writeAccounts(t, config.Accounts{acct})
	m := e.start(t)
	u, err := m.Get("dl")
	require.NoError(t, err)
	ctx := context.Background()
	start, err := u.Account(ctx)
	require.NoError(t, err)
	require.NoError(t, u.Sim().SetMarkPrice("AAPL", decimal.NewFromInt(100)))
	require.Empty(t, pushOne(t, m, "dl", trading.Buy, "AAPL", "500"))
	require.Empty(t, pushOne(t, m, "dl", trading.Sell, "AAPL", "500"))
	end, err := u.Account(ctx)
	require.NoError(t, err)
	loss := start.NetLiquidation.Sub(end.NetLiquidation)
	require.True(t, loss.IsPositive(), "the round trip lost to the spread (start %s, end %s)", start.NetLiquidation, end.NetLiquidation)
	got := pushOne(t, m, "dl", trading.Buy, "MSFT", "1")
	assert.Contains(t, got, "[guard:daily-loss] Daily loss "+loss.StringFixed(2)+" reached the limit")
}
