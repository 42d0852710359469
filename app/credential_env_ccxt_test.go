//go:build ccxt

package app_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/config"
)

// With the CCXT presets built in, their default key names are kept from
// sessions too, used or not (black-box N2: OKX_API_KEY reached them).
func TestCCXTDefaultKeyNamesAreHidden(t *testing.T) {
	t.Parallel()
	names := app.CredentialEnvNames(config.NewStore(t.TempDir()))
	for _, want := range []string{"OKX_API_KEY", "OKX_API_SECRET", "OKX_API_PASSWORD", "BITGET_API_KEY", "HYPERLIQUID_PRIVATE_KEY"} {
		require.Contains(t, names, want)
	}
}
