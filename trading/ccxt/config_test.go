//go:build ccxt

package ccxt

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseConfig(t *testing.T) {
	env := map[string]string{"OKX_API_KEY": "ek", "OKX_API_SECRET": "es", "OKX_API_PASSWORD": "ep", "HYPERLIQUID_PRIVATE_KEY": "0xabc"}
	getenv := func(k string) string { return env[k] }
	for _, c := range []struct {
		name, preset, raw string
		key               string // offending key; "" = valid
		check             func(t *testing.T, c Config)
	}{
		{name: "okx demo is CCXT sandbox", preset: "okx", raw: `{"mode":"demo","apiKey":"k","secret":"s","password":"p"}`,
			check: func(t *testing.T, c Config) {
				require.Equal(t, "okx", c.Exchange)
				require.True(t, c.Sandbox)
				require.False(t, c.DemoTrading)
				require.Equal(t, "USDT", c.Quote)
				require.True(t, c.Paper())
			}},
		{name: "okx keys from default env vars", preset: "okx", raw: `{}`,
			check: func(t *testing.T, c Config) {
				require.Equal(t, "live", c.Mode)
				require.False(t, c.Paper())
				require.Equal(t, []string{"ek", "es", "ep"}, []string{c.APIKey, c.Secret, c.Password})
			}},
		{name: "okx testnet is not a mode", preset: "okx", raw: `{"mode":"testnet","apiKey":"k","secret":"s","password":"p"}`, key: "mode"},
		{name: "bitget needs a passphrase", preset: "bitget", raw: `{"mode":"demo","apiKey":"k","secret":"s"}`, key: "password"},
		{name: "bitget demo is demoTrading", preset: "bitget", raw: `{"mode":"demo","apiKey":"k","secret":"s","password":"p"}`,
			check: func(t *testing.T, c Config) { require.True(t, c.DemoTrading) }},
		{name: "hyperliquid testnet, USDC quote", preset: "hyperliquid", raw: `{"mode":"testnet","walletAddress":"0x1"}`,
			check: func(t *testing.T, c Config) {
				require.True(t, c.Sandbox)
				require.Equal(t, "USDC", c.Quote)
				require.Equal(t, "0xabc", c.PrivateKey)
			}},
		{name: "hyperliquid needs a wallet", preset: "hyperliquid", raw: `{"privateKey":"0x2"}`, key: "walletAddress"},
		{name: "preset exchange cannot be overridden", preset: "okx", raw: `{"exchange":"kucoin"}`, key: "exchange"},
		{name: "misspelt key is named", preset: "okx", raw: `{"apiKeyEnvv":"K"}`, key: "apiKeyEnvv"},
		{name: "custom needs an exchange", preset: "ccxt-custom", raw: `{}`, key: "exchange"},
		{name: "custom exchange must exist in CCXT", preset: "ccxt-custom", raw: `{"exchange":"nosuchex"}`, key: "exchange"},
		{name: "custom kucoin sandbox", preset: "ccxt-custom", raw: `{"exchange":"KuCoin","sandbox":true,"quote":"usdc","marketType":"spot"}`,
			check: func(t *testing.T, c Config) {
				require.Equal(t, "kucoin", c.Exchange)
				require.Equal(t, "USDC", c.Quote)
				require.True(t, c.Paper())
				require.Equal(t, 20000, c.TimeoutMs)
			}},
		{name: "custom has no mode", preset: "ccxt-custom", raw: `{"exchange":"gate","mode":"demo"}`, key: "mode"},
		{name: "bad market type", preset: "ccxt-custom", raw: `{"exchange":"gate","marketType":"option"}`, key: "marketType"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, key, err := ParseConfig(c.preset, []byte(c.raw), getenv)
			if c.key != "" {
				require.Error(t, err)
				require.Equal(t, c.key, key, "%v", err)
				return
			}
			require.NoError(t, err)
			c.check(t, cfg)
		})
	}
	_, _, err := ParseConfig("bybit", []byte(`{}`), getenv)
	require.Error(t, err, "bybit is the native adapter's preset")
}
