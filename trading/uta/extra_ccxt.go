//go:build ccxt

package uta

import (
	"encoding/json"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading/broker"
	"github.com/alice-trading/alice/trading/ccxt"
	"github.com/alice-trading/alice/trading/sim"
)

// Built with -tags ccxt: the CCXT-backed presets (OpenAlice's ids and
// presetConfig shapes). extra_none.go is the default build's empty twin.

func taggedFactories() map[string]BrokerFactory {
	out := map[string]BrokerFactory{}
	for _, id := range ccxt.PresetIDs() {
		out[id] = func(acct config.Account, env BuildEnv) (broker.Broker, *sim.Broker, string, error) {
			cfg, key, err := ccxt.ParseConfig(id, acct.PresetConfig, env.Getenv)
			if err != nil {
				return nil, nil, key, err
			}
			return ccxt.New(acct.ID, cfg, env.Logger), nil, "", nil
		}
	}
	return out
}

func taggedChecks() map[string]PresetCheck {
	out := map[string]PresetCheck{}
	for _, id := range ccxt.PresetIDs() {
		out[id] = func(raw json.RawMessage, getenv func(string) string) (string, error) {
			_, key, err := ccxt.ParseConfig(id, raw, getenv)
			return key, err
		}
	}
	return out
}

func keyFields(up string, password bool) []PresetField {
	fs := []PresetField{
		{Key: "apiKeyEnv", Label: "API key env var", Kind: FieldEnvRef, Default: up + "_API_KEY", Required: true},
		{Key: "secretEnv", Label: "API secret env var", Kind: FieldEnvRef, Default: up + "_API_SECRET", Required: true},
	}
	if password {
		fs = append(fs, PresetField{Key: "passwordEnv", Label: "Passphrase env var", Kind: FieldEnvRef, Default: up + "_API_PASSWORD", Required: true})
	}
	return fs
}

func taggedPresets() []Preset {
	demo := PresetField{Key: "mode", Label: "Mode", Kind: FieldChoice, Options: []string{"demo", "live"}, Default: "demo",
		Help: "demo trading needs keys made in demo mode; live moves real money"}
	return []Preset{
		{ID: "okx", Name: "OKX (CCXT)", Description: "OKX unified account through CCXT: spot and perpetuals. Demo trading moves no real money; live does.",
			Fields: append([]PresetField{demo}, keyFields("OKX", true)...)},
		{ID: "bitget", Name: "Bitget (CCXT)", Description: "Bitget through CCXT: spot and USDT-M perpetuals. Demo trading moves no real money; live does.",
			Fields: append([]PresetField{demo}, keyFields("BITGET", true)...)},
		{ID: "hyperliquid", Name: "Hyperliquid (CCXT)", Description: "Hyperliquid perp DEX through CCXT; wallet signatures, no API keys. Use a dedicated API wallet's key.",
			Fields: []PresetField{
				{Key: "mode", Label: "Network", Kind: FieldChoice, Options: []string{"testnet", "live"}, Default: "testnet"},
				{Key: "walletAddress", Label: "Wallet address (0x…)", Kind: FieldString, Required: true},
				{Key: "privateKeyEnv", Label: "API wallet private key env var", Kind: FieldEnvRef, Default: "HYPERLIQUID_PRIVATE_KEY", Required: true},
			}},
		{ID: "ccxt-custom", Name: "CCXT custom (any exchange)", Description: "Any CCXT exchange id with raw credential fields. Untested per exchange; expect rough edges.",
			Fields: []PresetField{
				{Key: "exchange", Label: "CCXT exchange id", Kind: FieldString, Required: true, Help: "e.g. kucoin, gate, mexc"},
				{Key: "sandbox", Label: "Sandbox / testnet", Kind: FieldBool, Default: "true"},
				{Key: "demoTrading", Label: "Demo trading", Kind: FieldBool, Default: "false"},
				{Key: "apiKeyEnv", Label: "API key env var", Kind: FieldEnvRef, Help: "blank = <EXCHANGE>_API_KEY"},
				{Key: "secretEnv", Label: "API secret env var", Kind: FieldEnvRef, Help: "blank = <EXCHANGE>_API_SECRET"},
				{Key: "passwordEnv", Label: "Passphrase env var", Kind: FieldEnvRef, Help: "blank = <EXCHANGE>_API_PASSWORD"},
				{Key: "quote", Label: "Quote currency", Kind: FieldString, Default: "USDT"},
			}},
	}
}

func missingHint(string) string { return "" }
