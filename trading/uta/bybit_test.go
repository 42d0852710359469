package uta

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

// An OpenAlice accounts.json with a Bybit demo account (its preset's
// {mode, apiKey, secret} shape, no "enabled" key) loads as it is: the
// config is valid and the account is built; without network it is offline,
// never a config error.
func TestOpenAliceBybitDemoAccountLoads(t *testing.T) {
	e := newEnv(t)
	m := e.start(t)
	require.NoError(t, os.WriteFile(e.store.Path(config.AccountsFile), []byte(`[
  {"id": "bybit-main", "label": "Bybit demo", "presetId": "bybit", "guards": [],
   "presetConfig": {"mode": "demo", "apiKey": "demo-key", "secret": "demo-secret", "baseUrl": "http://127.0.0.1:1"}}
]`), 0o600))
	err := m.Reload(context.Background())
	var ce *config.Error
	require.False(t, errors.As(err, &ce), "no config error: %v", err)
	var found bool
	for _, s := range m.Accounts() {
		if s.ID == "bybit-main" {
			found = true
			require.Equal(t, Offline, s.Health, "unreachable endpoint: offline, not misconfigured")
		}
	}
	require.True(t, found)

	require.NoError(t, os.WriteFile(e.store.Path(config.AccountsFile), []byte(`[
  {"id": "bybit-main", "presetId": "bybit", "guards": [], "presetConfig": {"mode": "paper", "apiKey": "k", "secret": "s"}}
]`), 0o600))
	err = m.Reload(context.Background())
	require.ErrorAs(t, err, &ce)
	require.Contains(t, err.Error(), `"[0].presetConfig.mode"`)
}
