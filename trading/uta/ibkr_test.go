package uta

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

// An OpenAlice accounts.json with an ibkr-tws account loads as it is;
// with no TWS listening the account is offline (a NETWORK failure), never
// a config error, and the reload does not wait for a Gateway.
func TestOpenAliceIBKRAccountLoads(t *testing.T) {
	e := newEnv(t)
	m := e.start(t)
	require.NoError(t, os.WriteFile(e.store.Path(config.AccountsFile), []byte(`[
  {"id": "ibkr", "label": "IB paper", "presetId": "ibkr-tws", "guards": [],
   "presetConfig": {"host": "127.0.0.1", "port": "1", "clientId": 0, "accountId": ""}}
]`), 0o600))
	start := time.Now()
	err := m.Reload(context.Background())
	var ce *config.Error
	require.False(t, errors.As(err, &ce), "no config error: %v", err)
	require.Less(t, time.Since(start), 5*time.Second)
	var found bool
	for _, s := range m.Accounts() {
		if s.ID == "ibkr" {
			found = true
			require.Equal(t, Offline, s.Health, "no TWS: offline, not misconfigured")
		}
	}
	require.True(t, found)

	p, ok := PresetByID("ibkr-tws")
	require.True(t, ok)
	raw, key, err := p.BuildPresetConfig(map[string]string{"port": "4002"})
	require.NoError(t, err, key)
	require.JSONEq(t, `{"host":"127.0.0.1","port":4002,"clientId":0}`, string(raw))
	_, key, err = p.BuildPresetConfig(map[string]string{"port": "paper"})
	require.Error(t, err)
	require.Equal(t, "port", key)
}
