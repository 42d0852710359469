package uta

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

func TestAddAccountStartsItLiveAndTrades(t *testing.T) {
	e := newEnv(t)
	m := e.start(t)
	ctx := context.Background()
	require.NoError(t, m.AddAccount(ctx, NewAccount{ID: "sim-two", Label: "Second", PresetID: "simulator",
		Values: map[string]string{"cash": "5000"}}))
	accts := m.Accounts()
	require.Len(t, accts, 2)
	assert.Equal(t, "sim-two", accts[1].ID)
	assert.Equal(t, Healthy, accts[1].Health)

	u, err := m.Get("sim-two")
	require.NoError(t, err)
	require.NoError(t, u.Sim().SetMarkPrice("AAPL", decimal.NewFromInt(100)))
	stageBuy(t, u, "AAPL", "10")
	out, err := m.Commit("sim-two", "buy")
	require.NoError(t, err)
	require.Len(t, out, 1)
	res, err := m.Push(ctx, "sim-two", out[0].Hash)
	require.NoError(t, err)
	require.Len(t, res.Submitted, 1)
	info, err := m.Account(ctx, "sim-two")
	require.NoError(t, err)
	// 5000 - 10×100, less any commission the simulator charges.
	assert.True(t, info.TotalCashValue.LessThanOrEqual(decimal.NewFromInt(4000)) && info.TotalCashValue.GreaterThan(decimal.NewFromInt(3990)), info.TotalCashValue.String())

	// The file the form wrote passes the same checks as `alice check`.
	_, err = e.store.Accounts()
	require.NoError(t, err)
}

func TestAddAccountRefusesBadInputAndWritesNothing(t *testing.T) {
	e := newEnv(t)
	m := e.start(t)
	before, err := os.ReadFile(e.store.Path(config.AccountsFile))
	require.NoError(t, err)
	cases := []struct {
		name string
		na   NewAccount
		want string
	}{
		{"bad cash", NewAccount{ID: "x1", PresetID: "simulator", Values: map[string]string{"cash": "lots"}}, "cash"},
		{"negative cash", NewAccount{ID: "x2", PresetID: "simulator", Values: map[string]string{"cash": "-5"}}, "presetConfig.cash"},
		{"bad seed", NewAccount{ID: "x3", PresetID: "simulator", Values: map[string]string{"seed": "1.5"}}, "seed"},
		{"bad id", NewAccount{ID: "Has Space", PresetID: "simulator"}, "id"},
		{"duplicate", NewAccount{ID: "sim-paper", PresetID: "simulator"}, "already exists"},
		{"unknown preset", NewAccount{ID: "x4", PresetID: "nope"}, "unknown preset"},
		{"env value not name", NewAccount{ID: "x5", PresetID: "alpaca-paper", Values: map[string]string{"apiKeyEnv": "AK=123"}}, "NAME"},
		{"env name with a dash", NewAccount{ID: "x8", PresetID: "alpaca-paper", Values: map[string]string{"apiKeyEnv": "MY-KEY"}}, `environment variable NAME (letters, digits and _, not starting with a digit, like APCA_API_KEY_ID), not a value, got "MY-KEY"`},
		{"alpaca key not in env", NewAccount{ID: "x6", PresetID: "alpaca-paper", Values: map[string]string{"apiKeyEnv": "ALICE_TEST_UNSET_KEY_ID"}}, "presetConfig.apiKey"},
		{"bybit bad mode", NewAccount{ID: "x7", PresetID: "bybit", Values: map[string]string{"mode": "moon"}}, "Mode must be one of"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := m.AddAccount(context.Background(), c.na)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	after, err := os.ReadFile(e.store.Path(config.AccountsFile))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))
	assert.Len(t, m.Accounts(), 1)
}

func TestUpdateAccountAppliesLiveAndRefusesConflicts(t *testing.T) {
	e := newEnv(t)
	m := e.start(t)
	ctx := context.Background()
	ver, err := m.AccountsVersion()
	require.NoError(t, err)
	require.NoError(t, m.UpdateAccount(ctx, "sim-paper", ver, func(a *config.Account) error { a.Enabled = false; return nil }))
	assert.Equal(t, Disabled, m.Accounts()[0].Health)
	_, err = m.Get("sim-paper")
	require.Error(t, err)

	// The old version is stale now: the edit is refused.
	err = m.UpdateAccount(ctx, "sim-paper", ver, func(a *config.Account) error { a.Enabled = true; return nil })
	require.True(t, errors.Is(err, config.ErrConflict), "%v", err)

	require.NoError(t, m.UpdateAccount(ctx, "sim-paper", "", func(a *config.Account) error {
		a.Enabled, a.AutoApprove = true, true
		a.Guards = append(a.Guards, config.Guard{Type: "cooldown", Options: map[string]any{"minIntervalMs": 1000}})
		return nil
	}))
	s := m.Accounts()[0]
	assert.Equal(t, Healthy, s.Health)
	assert.True(t, s.AutoApprove)

	err = m.UpdateAccount(ctx, "sim-paper", "", func(a *config.Account) error { a.ID = "renamed"; return nil })
	require.ErrorContains(t, err, "cannot be changed")

	require.NoError(t, m.RemoveAccount(ctx, "sim-paper"))
	assert.Empty(t, m.Accounts())
}

func TestWatchConfigPicksUpAnOutsideEdit(t *testing.T) {
	e := newEnv(t)
	m := e.start(t)
	m.WatchConfig(t.Context(), 10*time.Millisecond)
	accts, err := e.store.Accounts()
	require.NoError(t, err)
	accts = append(accts, config.Account{ID: "by-hand", Preset: "simulator", Enabled: true, Guards: []config.Guard{}})
	e.writeAccounts(t, accts) // a person's text editor
	require.Eventually(t, func() bool {
		_, err := m.Get("by-hand")
		return err == nil
	}, 30*time.Second, 10*time.Millisecond)
}

func TestPresetsDescribeTheirFields(t *testing.T) {
	for _, p := range Presets() {
		require.NotEmpty(t, p.Name, p.ID)
		_, ok := DefaultFactories()[brokerFor(p.ID)]
		assert.True(t, ok, "preset %s has no broker factory", p.ID)
		for _, f := range p.Fields {
			assert.NotEmpty(t, f.Label, "%s.%s", p.ID, f.Key)
		}
	}
	p, _ := PresetByID("alpaca-live")
	raw, _, err := p.BuildPresetConfig(map[string]string{"apiKeyEnv": "MY_KEY"})
	require.NoError(t, err)
	assert.True(t, strings.Contains(string(raw), `"paper":false`) && strings.Contains(string(raw), `"MY_KEY"`), string(raw))
}

func TestUpdateAccountRefusesBadGuardsBeforeWriting(t *testing.T) {
	e := newEnv(t)
	m := e.start(t)
	before, err := os.ReadFile(e.store.Path(config.AccountsFile))
	require.NoError(t, err)
	err = m.UpdateAccount(context.Background(), "sim-paper", "", func(a *config.Account) error {
		a.Guards = []config.Guard{{Type: "symbol-whitelist", Options: map[string]any{}}}
		return nil
	})
	require.ErrorContains(t, err, "[0].guards[0].options")
	after, err := os.ReadFile(e.store.Path(config.AccountsFile))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))
	assert.Equal(t, Healthy, m.Accounts()[0].Health, "the running account is untouched")
}

func TestWatchConfigKeepsAccountsRunningOnABrokenFile(t *testing.T) {
	e := newEnv(t)
	m := e.start(t)
	m.WatchConfig(t.Context(), 5*time.Millisecond)
	require.NoError(t, os.WriteFile(e.store.Path(config.AccountsFile), []byte(`[{"id": "half-writ`), 0o600))
	time.Sleep(50 * time.Millisecond) // several polls see the broken file
	_, err := m.Get("sim-paper")
	require.NoError(t, err, "a half-saved accounts.json stops nothing")
	assert.Equal(t, Healthy, m.Accounts()[0].Health)
}
