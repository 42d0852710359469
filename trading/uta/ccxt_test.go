//go:build ccxt

package uta

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

// Built with -tags ccxt, the CCXT presets are registered everywhere a
// preset is looked up: factories, the one validation path, and the preset
// list settings forms are generated from.
func TestCCXTPresetsRegistered(t *testing.T) {
	for _, id := range []string{"okx", "bitget", "hyperliquid", "ccxt-custom"} {
		require.Contains(t, DefaultFactories(), id)
		require.Contains(t, PresetChecks(), id)
		p, ok := PresetByID(id)
		require.True(t, ok, id)
		require.NotEmpty(t, p.Fields)
	}
	getenv := func(k string) string {
		return map[string]string{"OKX_API_KEY": "k", "OKX_API_SECRET": "s", "OKX_API_PASSWORD": "p"}[k]
	}
	p, _ := PresetByID("okx")
	raw, key, err := p.BuildPresetConfig(map[string]string{})
	require.NoError(t, err, key)
	require.NoError(t, ValidateAccount("accounts.json", 0, config.Account{ID: "okx-main", Preset: "okx", PresetConfig: raw}, getenv),
		"the form's defaults validate: %s", raw)

	err = ValidateAccount("accounts.json", 2, config.Account{ID: "hl", Preset: "hyperliquid", PresetConfig: []byte(`{"mode":"testnet","privateKey":"0x1"}`)}, getenv)
	require.Error(t, err)
	require.Contains(t, err.Error(), `"[2].presetConfig.walletAddress"`)
}
