package uta

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/eventlog"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"
	"github.com/alice-trading/alice/trading/simmarket"
	"github.com/alice-trading/alice/trading/snapshot"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type sink struct {
	mu    sync.Mutex
	types []string
}

func (s *sink) Append(typ string, payload any) (eventlog.Entry, error) {
	if _, err := json.Marshal(payload); err != nil {
		return eventlog.Entry{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.types = append(s.types, typ)
	return eventlog.Entry{Type: typ}, nil
}

func (s *sink) count(typ string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, t := range s.types {
		if t == typ {
			n++
		}
	}
	return n
}

func (s *sink) has(typ string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.types {
		if t == typ {
			return true
		}
	}
	return false
}

type env struct {
	store *config.Store
	paths config.Paths
	sink  *sink
	clock func() time.Time
}

func newEnv(t testing.TB) *env {
	dir := t.TempDir()
	var mu sync.Mutex
	now := time.Date(2026, 2, 2, 15, 0, 0, 0, time.UTC)
	return &env{store: config.NewStore(filepath.Join(dir, "config")),
		paths: config.Paths{Config: filepath.Join(dir, "config"), Data: filepath.Join(dir, "data")}, sink: &sink{},
		clock: func() time.Time { mu.Lock(); defer mu.Unlock(); now = now.Add(time.Second); return now }}
}

func (e *env) start(t testing.TB) *Manager {
	t.Helper()
	m := NewManager(e.store, e.paths, simmarket.New(42), e.sink, nil, WithClock(e.clock), WithSimTick(5*time.Millisecond))
	require.NoError(t, m.Start(context.Background()))
	t.Cleanup(func() { _ = m.Close() })
	return m
}

// startAutoCapped starts one auto-approved simulator account (cash
// 100,000, seed 7) whose only guard is max-order-value maxValue.
func (e *env) startAutoCapped(t testing.TB, id, maxValue string) (*Manager, *UTA) {
	t.Helper()
	e.writeAccounts(t, config.Accounts{{ID: id, Preset: "simulator", Enabled: true, AutoApprove: true,
		Guards:       []config.Guard{{Type: "max-order-value", Options: map[string]any{"maxValue": maxValue}}},
		PresetConfig: []byte(`{"cash":"100000","seed":7}`)}})
	m := e.start(t)
	u, err := m.Get(id)
	require.NoError(t, err)
	return m, u
}

func (e *env) writeAccounts(t testing.TB, accts config.Accounts) {
	require.NoError(t, config.Save(e.store, config.AccountsFile, accts))
}

func stageBuy(t testing.TB, u *UTA, sym, qty string) {
	t.Helper()
	c, err := u.ContractFromAliceID(context.Background(), trading.AliceID(u.ID(), sym))
	require.NoError(t, err)
	_, err = u.Git().Stage(git.Operation{Action: git.PlaceOrder, Contract: &c,
		Order: &trading.Order{Action: trading.Buy, OrderType: trading.Market, TotalQuantity: decimal.RequireFromString(qty), TIF: trading.Day}})
	require.NoError(t, err)
}

func TestDefaultAccountPushFlow(t *testing.T) {
	e := newEnv(t)
	m := e.start(t)
	ctx := context.Background()
	accts := m.Accounts()
	require.Len(t, accts, 1)
	assert.Equal(t, "sim-paper", accts[0].ID)
	assert.Equal(t, Healthy, accts[0].Health)
	events := m.Subscribe(t.Context())

	u, err := m.Get("sim-paper")
	require.NoError(t, err)
	require.NoError(t, u.Sim().SetMarkPrice("AAPL", decimal.NewFromInt(200)))
	stageBuy(t, u, "AAPL", "10")
	stageBuy(t, u, "AAPL", "1000") // 200k: the default max-position-size guard (25%) stops it first
	out, err := m.Commit("", "buy apple")
	require.NoError(t, err)
	require.Len(t, out, 1)
	pend := m.Pending()
	require.Len(t, pend, 1)
	assert.Equal(t, out[0].Hash, pend[0].Hash)

	res, err := m.Push(ctx, "sim-paper", pend[0].Hash)
	require.NoError(t, err)
	require.Len(t, res.Submitted, 1)
	require.Len(t, res.Rejected, 1)
	assert.Contains(t, res.Rejected[0].Error, "[guard:max-position-size]")
	assert.Empty(t, m.Pending())
	acct, err := m.Account(ctx, "sim-paper")
	require.NoError(t, err)
	ask := res.Submitted[0].FilledPrice
	assert.True(t, ask.GreaterThan(decimal.NewFromInt(200)), "a market buy pays the ask: %s", ask)
	assert.True(t, acct.TotalCashValue.Equal(decimal.NewFromInt(100000).Sub(ask.Mul(decimal.NewFromInt(10)))), acct.TotalCashValue.String())

	seen := map[trading.EventType]bool{}
	require.Eventually(t, func() bool {
		for {
			select {
			case ev := <-events:
				seen[ev.Type] = true
			default:
				return seen[trading.EventCommitPrepared] && seen[trading.EventPushed] && seen[trading.EventSnapshotTaken]
			}
		}
	}, 30*time.Second, 10*time.Millisecond)
	assert.True(t, e.sink.has("trade.push"))
	assert.True(t, e.sink.has("snapshot.taken"))

	curve, err := m.EquityCurve("sim-paper", time.Time{})
	require.NoError(t, err)
	require.Len(t, curve, 1, "post-push snapshot")
	snaps, err := m.Snapshots("sim-paper", time.Time{}, 0)
	require.NoError(t, err)
	assert.Equal(t, snapshot.PostPush, snaps[0].Trigger)
	assert.Equal(t, res.Hash, snaps[0].HeadCommit)

	log, err := m.Log("", 10, "")
	require.NoError(t, err)
	require.Len(t, log, 1)
	assert.Equal(t, "sim-paper", log[0].AccountID)
	c, ok, err := m.Show("", res.Hash)
	require.NoError(t, err)
	require.True(t, ok)
	require.NotNil(t, c.StateAfter)
	assert.Len(t, c.StateAfter.Positions, 1)
}

func TestRejectAndApprovalRequest(t *testing.T) {
	e := newEnv(t)
	m := e.start(t)
	ctx := context.Background()
	u, _ := m.Get("sim-paper")
	_, err := m.RequestApproval("sim-paper")
	assert.ErrorIs(t, err, git.ErrNoPending)
	stageBuy(t, u, "MSFT", "1")
	_, err = m.RequestApproval("sim-paper")
	assert.ErrorIs(t, err, git.ErrUncommitted)
	_, err = m.Commit("sim-paper", "maybe")
	require.NoError(t, err)
	pa, err := m.RequestApproval("sim-paper")
	require.NoError(t, err)
	assert.Equal(t, "maybe", pa.Message)
	assert.False(t, pa.AlreadyRequested)
	assert.Equal(t, 1, e.sink.count(string(trading.EventApprovalRequest)))
	// A retrying agent pushes again: the same commit, and the people are
	// not asked a second (or a tenth) time.
	for i := 0; i < 3; i++ {
		again, err := m.RequestApproval("sim-paper")
		require.NoError(t, err)
		assert.Equal(t, pa.Hash, again.Hash)
		assert.True(t, again.AlreadyRequested)
	}
	assert.Equal(t, 1, e.sink.count(string(trading.EventApprovalRequest)), "one announcement per commit")
	_, err = m.Reject(ctx, "sim-paper", "0000beef", "not today")
	assert.ErrorIs(t, err, git.ErrStale, "a reject names the commit it decides")
	c, err := m.Reject(ctx, "sim-paper", pa.Hash, "not today")
	require.NoError(t, err)
	assert.Equal(t, "[rejected] maybe — not today", c.Message)
	pos, _ := m.Positions(ctx, "sim-paper")
	assert.Empty(t, pos)
	snaps, _ := m.Snapshots("sim-paper", time.Time{}, 0)
	require.Len(t, snaps, 1)
	assert.Equal(t, snapshot.PostReject, snaps[0].Trigger)
}

func TestRestartRecoversEverything(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	m := e.start(t)
	u, _ := m.Get("sim-paper")
	require.NoError(t, u.Sim().SetMarkPrice("NVDA", decimal.NewFromInt(100)))
	stageBuy(t, u, "NVDA", "5")
	firstC, _ := m.Commit("", "first")
	first, err := m.Push(ctx, "sim-paper", firstC[0].Hash)
	require.NoError(t, err)
	stageBuy(t, u, "NVDA", "1")
	second, err := m.Commit("", "pending across restart")
	require.NoError(t, err)
	require.NoError(t, m.Close())

	m2 := e.start(t)
	u2, err := m2.Get("sim-paper")
	require.NoError(t, err)
	pos, err := u2.Positions(ctx)
	require.NoError(t, err)
	require.Len(t, pos, 1)
	assert.True(t, pos[0].Quantity.Equal(decimal.NewFromInt(5)))
	st := u2.Git().Status()
	assert.Equal(t, first.Hash, st.Head)
	assert.Equal(t, second[0].Hash, st.PendingHash)
	res, err := m2.Push(ctx, "sim-paper", second[0].Hash)
	require.NoError(t, err)
	assert.Len(t, res.Submitted, 1)
	pos, _ = u2.Positions(ctx)
	assert.True(t, pos[0].Quantity.Equal(decimal.NewFromInt(6)), "only the pending op executed; the pushed one was not repeated")
}

func TestReloadAndConfigErrors(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	m := e.start(t)
	accts := config.DefaultAccounts()
	accts = append(accts,
		config.Account{ID: "sim-two", Preset: "simulator", Enabled: true, AutoApprove: true, PresetConfig: json.RawMessage(`{"cash":"5000"}`)},
		config.Account{ID: "bad-cash", Preset: "simulator", Enabled: true, PresetConfig: json.RawMessage(`{"cash":"lots"}`)},
		config.Account{ID: "bad-guard", Preset: "simulator", Enabled: true, Guards: []config.Guard{{Type: "symbol-whitelist"}}},
		config.Account{ID: "no-keys", Preset: "alpaca", Enabled: true, PresetConfig: json.RawMessage(`{"apiKeyEnv":"ALICE_TEST_NOPE","apiSecretEnv":"ALICE_TEST_NOPE"}`)},
	)
	e.writeAccounts(t, accts)
	err := m.Reload(ctx)
	require.Error(t, err)
	var ce *config.Error
	require.ErrorAs(t, err, &ce)
	for _, key := range []string{`"[2].presetConfig.cash"`, `"[3].guards[0].options"`, `"[4].presetConfig.apiKey"`} {
		assert.Contains(t, err.Error(), key)
	}
	assert.Contains(t, err.Error(), e.store.Path(config.AccountsFile))
	two, err := m.Get("sim-two")
	require.NoError(t, err)
	a, _ := two.Account(ctx)
	assert.True(t, a.TotalCashValue.Equal(decimal.NewFromInt(5000)))
	_, err = m.Get("bad-cash")
	assert.ErrorContains(t, err, "failed to start")
	var rows = map[string]Summary{}
	for _, s := range m.Accounts() {
		rows[s.ID] = s
	}
	assert.Equal(t, Offline, rows["bad-cash"].Health)
	assert.Equal(t, Healthy, rows["sim-two"].Health)

	got, err := m.Resolve("simulator")
	require.NoError(t, err)
	assert.Len(t, got, 2)
	_, err = m.Resolve("nope")
	assert.Error(t, err)

	accts[1].Enabled = false
	e.writeAccounts(t, accts[:2])
	require.NoError(t, m.Reload(ctx))
	_, err = m.Get("sim-two")
	assert.Error(t, err)
	rows = map[string]Summary{}
	for _, s := range m.Accounts() {
		rows[s.ID] = s
	}
	assert.Equal(t, Disabled, rows["sim-two"].Health)
	_, err = m.Get("sim-paper")
	assert.NoError(t, err, "unchanged accounts keep running")
}

func TestRestingOrderFillsInBackgroundAndSyncs(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	m := e.start(t)
	events := m.Subscribe(t.Context())
	u, _ := m.Get("sim-paper")
	require.NoError(t, u.Sim().SetMarkPrice("AAPL", decimal.NewFromInt(200)))
	c, _ := u.ContractFromAliceID(ctx, "sim-paper|AAPL")
	_, err := u.Git().Stage(git.Operation{Action: git.PlaceOrder, Contract: &c, Order: &trading.Order{Action: trading.Buy,
		OrderType: trading.Limit, TotalQuantity: decimal.NewFromInt(2), LmtPrice: decimal.NewFromInt(190), TIF: trading.GTC}})
	require.NoError(t, err)
	lc, _ := m.Commit("", "limit")
	res, err := m.Push(ctx, "sim-paper", lc[0].Hash)
	require.NoError(t, err)
	require.Equal(t, git.StatusSubmitted, res.Submitted[0].Status)
	orders, err := m.Orders(ctx, "sim-paper", nil)
	require.NoError(t, err)
	require.Len(t, orders, 1, "pending orders come from history")

	require.NoError(t, u.Sim().SetMarkPrice("AAPL", decimal.NewFromInt(189)))
	require.Eventually(t, func() bool {
		select {
		case ev := <-events:
			return ev.Type == trading.EventOrderFilled
		default:
			return false
		}
	}, 30*time.Second, 5*time.Millisecond)
	sr, err := m.Sync(ctx, "", 0)
	require.NoError(t, err)
	require.Len(t, sr, 1)
	assert.Equal(t, 1, sr[0].UpdatedCount)
	assert.Equal(t, git.StatusFilled, sr[0].Updates[0].CurrentStatus)
}

func TestPushUnknownAccount(t *testing.T) {
	m := newEnv(t).start(t)
	_, err := m.Push(context.Background(), "ghost", "a1b2c3d4")
	assert.Error(t, err)
	_, err = m.Reject(context.Background(), "ghost", "a1b2c3d4", "")
	assert.Error(t, err)
	assert.True(t, errors.Is(func() error { _, err := m.Push(context.Background(), "sim-paper", ""); return err }(), git.ErrNoPending))
	assert.True(t, errors.Is(func() error { _, err := m.Push(context.Background(), "sim-paper", "a1b2c3d4"); return err }(), git.ErrStale))
}

// BenchmarkPush measures stage+commit+push throughput of N market orders
// on the simulated broker, including the guard pipeline and persistence.
func BenchmarkPush(b *testing.B) {
	for _, n := range []int{1, 10} {
		b.Run(fmt.Sprintf("orders=%d", n), func(b *testing.B) {
			e := newEnv(b)
			accts := config.Accounts{{ID: "bench", Preset: "simulator", Enabled: true, AutoApprove: true,
				Guards:       []config.Guard{{Type: "max-order-value", Options: map[string]any{"maxValue": "1000000"}}},
				PresetConfig: json.RawMessage(`{"cash":"1000000000"}`)}}
			e.writeAccounts(b, accts)
			m := e.start(b)
			u, err := m.Get("bench")
			require.NoError(b, err)
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for j := 0; j < n; j++ {
					stageBuy(b, u, "AAPL", "1")
				}
				bc, err := m.Commit("bench", "bench")
				if err != nil {
					b.Fatal(err)
				}
				if _, err := m.Push(ctx, "bench", bc[0].Hash); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "orders/s")
		})
	}
}

func TestLifecycleEdits(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	m := e.start(t)
	require.NoError(t, m.Reconnect(ctx, "sim-paper"))
	require.NoError(t, m.SetAutoApprove(ctx, "sim-paper", true))
	u, err := m.Get("sim-paper")
	require.NoError(t, err)
	assert.True(t, u.AutoApprove())
	require.NoError(t, m.SetEnabled(ctx, "sim-paper", false))
	_, err = m.Get("sim-paper")
	assert.Error(t, err)
	require.NoError(t, m.SetEnabled(ctx, "sim-paper", true))
	_, err = m.Get("sim-paper")
	assert.NoError(t, err)
	require.NoError(t, m.Remove(ctx, "sim-paper"))
	assert.Empty(t, m.Accounts())
	assert.Error(t, m.Remove(ctx, "sim-paper"))
	accts, err := e.store.Accounts()
	require.NoError(t, err)
	assert.Empty(t, accts)
}

func TestScheduledSnapshots(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, config.Save(e.store, config.SnapshotFile, config.Snapshot{Enabled: true, Every: "1s"}))
	m := e.start(t)
	require.Eventually(t, func() bool {
		snaps, err := m.Snapshots("sim-paper", time.Time{}, 0)
		return err == nil && len(snaps) > 0 && snaps[0].Trigger == snapshot.Scheduled
	}, 30*time.Second, 50*time.Millisecond)
}

// A push awaiting a person on one account does not block committing on
// another when no source is named.
func TestCommitAllSkipsFrozenAccounts(t *testing.T) {
	e := newEnv(t)
	accts := config.DefaultAccounts()
	second := accts[0]
	second.ID, second.Label = "sim-two", "Second"
	e.writeAccounts(t, append(accts, second))
	m := e.start(t)
	u1, _ := m.Get("sim-paper")
	u2, _ := m.Get("sim-two")
	stageBuy(t, u1, "AAPL", "1")
	c, err := m.Commit("sim-paper", "one")
	require.NoError(t, err)
	_, err = m.RequestApproval("sim-paper")
	require.NoError(t, err)
	_, err = m.Commit("", "nothing else staged")
	require.ErrorIs(t, err, git.ErrAwaitingApproval, "the only account with staged work is frozen: say so")
	assert.ErrorContains(t, err, c[0].Hash)
	stageBuy(t, u2, "MSFT", "1")
	out, err := m.Commit("", "two")
	require.NoError(t, err)
	require.Len(t, out, 1)
	assert.Equal(t, "sim-two", out[0].AccountID)
	_, err = m.Commit("sim-paper", "named")
	require.ErrorIs(t, err, git.ErrAwaitingApproval)
}
