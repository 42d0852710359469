//go:build !ccxt

package uta

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

// Without -tags ccxt the CCXT presets are absent, and an account using one
// is told how to get them rather than just "unknown preset".
func TestCCXTPresetsNeedTheTag(t *testing.T) {
	require.NotContains(t, DefaultFactories(), "okx")
	_, ok := PresetByID("okx")
	require.False(t, ok)
	err := ValidateAccount("accounts.json", 0, config.Account{ID: "okx-main", Preset: "okx", PresetConfig: []byte(`{}`)}, nil)
	require.Error(t, err)
	require.Contains(t, err.Error(), `"[0].presetId"`)
	require.Contains(t, err.Error(), "-tags ccxt")
}
