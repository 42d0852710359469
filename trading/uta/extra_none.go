//go:build !ccxt

package uta

// Brokers behind build tags add their presets here. Without -tags ccxt
// there are none, so the default build never compiles CCXT; with it,
// extra_ccxt.go supplies okx, bitget, hyperliquid and ccxt-custom.

func taggedFactories() map[string]BrokerFactory { return nil }

func taggedChecks() map[string]PresetCheck { return nil }

func taggedPresets() []Preset { return nil }

// missingHint explains an unknown preset that a tagged build would know.
func missingHint(id string) string {
	switch id {
	case "okx", "bitget", "hyperliquid", "ccxt-custom":
		return "; this alice was built without CCXT: rebuild with `make build-ccxt` (go build -tags ccxt)"
	}
	return ""
}
