//go:build !ccxt

package uta

// Brokers behind build tags add their presets here. Without -tags ccxt
// there are none, so the default build never compiles CCXT; with it,
// extra_ccxt.go supplies okx, bitget, hyperliquid and ccxt-custom.

func taggedFactories() map[string]BrokerFactory { return nil }

func taggedChecks() map[string]PresetCheck { return nil }

func taggedPresets() []Preset { return nil }
