package uta

import (
	"context"
	"testing"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
	"github.com/alice-trading/alice/trading/git"
	"github.com/alice-trading/alice/trading/sim"
	"github.com/alice-trading/alice/trading/simmarket"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func limitBuy(t *testing.T, u *UTA, ctx context.Context, px string) error {
	t.Helper()
	c, err := u.ContractFromAliceID(ctx, trading.AliceID(u.ID(), "AAPL"))
	require.NoError(t, err)
	_, err = u.Stage(ctx, git.Operation{Action: git.PlaceOrder, Contract: &c,
		Order: &trading.Order{Action: trading.Buy, OrderType: trading.Limit, TotalQuantity: decimal.NewFromInt(1), LmtPrice: decimal.RequireFromString(px), TIF: trading.GTC}})
	return err
}

// The kill switch freezes staging on every account, withdraws a commit
// awaiting approval, cancels resting orders, is recorded, survives a
// restart and is lifted only by Resume.
func TestKillSwitch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.writeAccounts(t, config.Accounts{
		{ID: "auto", Preset: "simulator", Enabled: true, AutoApprove: true, Guards: []config.Guard{}, PresetConfig: []byte(`{"cash":"100000"}`)},
		{ID: "manual", Preset: "simulator", Enabled: true, Guards: []config.Guard{}, PresetConfig: []byte(`{"cash":"100000"}`)},
	})
	m := e.start(t)
	ctx := context.Background()
	auto, err := m.Get("auto")
	require.NoError(t, err)
	manual, err := m.Get("manual")
	require.NoError(t, err)
	require.NoError(t, auto.Sim().SetMarkPrice("AAPL", decimal.NewFromInt(200)))
	require.NoError(t, manual.Sim().SetMarkPrice("AAPL", decimal.NewFromInt(200)))

	// a resting order on auto, a commit awaiting a person on manual
	require.NoError(t, limitBuy(t, auto, ctx, "150"))
	out, err := m.Commit("auto", "rest")
	require.NoError(t, err)
	_, err = m.Push(ctx, "auto", out[0].Hash)
	require.NoError(t, err)
	require.NoError(t, limitBuy(t, manual, ctx, "150"))
	_, err = m.Commit("manual", "wait")
	require.NoError(t, err)
	_, err = m.RequestApproval("manual")
	require.NoError(t, err)

	rep, err := m.Halt(ctx, "alice halt (tester)", "drill")
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Cancelled["auto"])
	require.Len(t, rep.Withdrawn, 1)
	assert.Empty(t, rep.Errors)
	orders, err := auto.Sim().Orders(ctx, nil)
	require.NoError(t, err)
	for _, o := range orders {
		assert.False(t, o.Status.Pending(), "order %s still rests after the kill switch", o.Order.OrderID)
	}
	assert.True(t, e.sink.has(string(trading.EventHalted)), "recorded in the event log")

	// staging refuses on every account, for people too
	person := core.WithCaller(ctx, core.Caller{Person: true})
	for _, u := range []*UTA{auto, manual} {
		err := limitBuy(t, u, person, "150")
		require.ErrorIs(t, err, ErrHalted)
		assert.Contains(t, err.Error(), "alice resume")
	}

	// a restart keeps it
	require.NoError(t, m.Close())
	m2 := e.start(t)
	auto2, err := m2.Get("auto")
	require.NoError(t, err)
	require.ErrorIs(t, limitBuy(t, auto2, person, "150"), ErrHalted)

	_, err = m2.Resume("tester")
	require.NoError(t, err)
	require.NoError(t, limitBuy(t, auto2, person, "150"))
	assert.True(t, e.sink.has(string(trading.EventResumed)))
	_, err = m2.Resume("tester")
	assert.Error(t, err, "resuming twice says it is not halted")
}

// readOnly (OpenAlice's key) accounts never stage; the AI-trading switch
// stops agents but not people.
func TestReadOnlyAndAITradingSwitch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.writeAccounts(t, config.Accounts{
		{ID: "ro", Preset: "simulator", Enabled: true, ReadOnly: true, Guards: []config.Guard{}, PresetConfig: []byte(`{"cash":"100000"}`)},
		{ID: "rw", Preset: "simulator", Enabled: true, Guards: []config.Guard{}, PresetConfig: []byte(`{"cash":"100000"}`)},
	})
	m := e.start(t)
	ctx := context.Background()
	ro, err := m.Get("ro")
	require.NoError(t, err)
	rw, err := m.Get("rw")
	require.NoError(t, err)
	err = limitBuy(t, ro, core.WithCaller(ctx, core.Caller{Person: true}), "150")
	require.ErrorIs(t, err, ErrReadOnly)
	assert.Contains(t, err.Error(), "account ro is read-only (readOnly: true in accounts.json)")

	require.NoError(t, limitBuy(t, rw, ctx, "150"), "AI trading is on by default")
	a := config.DefaultAgent()
	a.AITrading = false
	require.NoError(t, config.Save(e.store, config.AgentFile, a))
	agentCtx := core.WithCaller(ctx, core.Caller{Session: "web/default", Channel: "tui"})
	err = limitBuy(t, rw, agentCtx, "150")
	require.ErrorIs(t, err, ErrAITradingOff)
	assert.Contains(t, err.Error(), "a person can still trade")
	require.ErrorIs(t, limitBuy(t, rw, ctx, "150"), ErrAITradingOff, "a call without a caller counts as an agent's")
	require.NoError(t, limitBuy(t, rw, core.WithCaller(ctx, core.Caller{Channel: "tui", Person: true}), "150"), "a person still trades")
}

// badAccount is a simulator whose account figures arrive unparsable.
type badAccount struct{ *sim.Broker }

func (b badAccount) Account(context.Context) (trading.AccountInfo, error) {
	return trading.AccountInfo{}, &broker.Error{Code: broker.CodeBadData, Msg: `decode /v2/account: Bybit sent "12x" where a number belongs`}
}

// A venue answer that does not parse fails the guard check (never zero
// equity) and is reported as an event.
func TestBadVenueDataIsAnEventAndNeverZero(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.writeAccounts(t, config.Accounts{{ID: "bad", Preset: "badsim", Enabled: true, AutoApprove: true,
		Guards: []config.Guard{{Type: "max-order-value", Options: map[string]any{"maxValue": "5000"}}}}})
	m := NewManager(e.store, e.paths, simmarket.New(42), e.sink, nil, WithClock(e.clock), WithSimTick(time.Hour),
		WithFactory("badsim", func(acct config.Account, env BuildEnv) (broker.Broker, *sim.Broker, string, error) {
			s, err := sim.New(sim.Options{AccountID: acct.ID, Market: env.Market, Now: env.Now})
			return badAccount{s}, s, "", err
		}))
	require.NoError(t, m.Start(context.Background()))
	t.Cleanup(func() { _ = m.Close() })
	u, err := m.Get("bad")
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, limitBuy(t, u, ctx, "150"))
	out, err := m.Commit("bad", "try")
	require.NoError(t, err)
	res, err := m.Push(ctx, "bad", out[0].Hash)
	require.NoError(t, err)
	require.Len(t, res.Rejected, 1)
	assert.Contains(t, res.Rejected[0].Error, "guard check failed reading account")
	assert.True(t, e.sink.has(string(trading.EventVenueData)))
}

// listUTAs (Accounts) says per account whether it is read-only, whether
// the AI-trading switch is on, whether the kill switch is on, and so
// whether an agent may stage there now, with the reason when not.
func TestAccountsReportReadOnlyAndAITrading(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.writeAccounts(t, config.Accounts{
		{ID: "ro", Preset: "simulator", Enabled: true, ReadOnly: true, Guards: []config.Guard{}, PresetConfig: []byte(`{"cash":"100000"}`)},
		{ID: "rw", Preset: "simulator", Enabled: true, Guards: []config.Guard{}, PresetConfig: []byte(`{"cash":"100000"}`)},
	})
	m := e.start(t)
	byID := func() map[string]Summary {
		out := map[string]Summary{}
		for _, s := range m.Accounts() {
			out[s.ID] = s
		}
		return out
	}
	s := byID()
	assert.True(t, s["ro"].ReadOnly)
	assert.False(t, s["rw"].ReadOnly)
	assert.True(t, s["ro"].AITrading && s["rw"].AITrading, "agent.json aiTrading defaults to on")
	assert.False(t, s["ro"].AgentsMayStage)
	assert.Contains(t, s["ro"].StagingNote, "read-only")
	assert.True(t, s["rw"].AgentsMayStage)
	assert.Empty(t, s["rw"].StagingNote)

	a := config.DefaultAgent()
	a.AITrading = false
	require.NoError(t, config.Save(e.store, config.AgentFile, a))
	s = byID()
	assert.False(t, s["rw"].AITrading)
	assert.False(t, s["rw"].AgentsMayStage)
	assert.Contains(t, s["rw"].StagingNote, "aiTrading: false")

	a.AITrading = true
	require.NoError(t, config.Save(e.store, config.AgentFile, a))
	_, err := m.Halt(context.Background(), "tester", "drill")
	require.NoError(t, err)
	s = byID()
	assert.True(t, s["rw"].Halted)
	assert.False(t, s["rw"].AgentsMayStage)
	assert.Contains(t, s["rw"].StagingNote, "halted")
}
