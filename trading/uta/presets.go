package uta

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/alice-trading/alice/config"
)

// FieldKind is how a preset field is typed and encoded in presetConfig.
type FieldKind string

const (
	FieldString  FieldKind = "string"  // plain JSON string
	FieldDecimal FieldKind = "decimal" // money: a decimal string, never a float
	FieldInt     FieldKind = "int"     // JSON integer
	FieldBool    FieldKind = "bool"    // JSON true/false
	FieldEnvRef  FieldKind = "env"     // the NAME of an environment variable holding a secret
	FieldSecret  FieldKind = "secret"  // a secret stored in accounts.json (UIs warn)
	FieldChoice  FieldKind = "choice"  // one of Options (a JSON string)
)

// PresetField describes one presetConfig key, so a UI can generate a form
// for any preset without knowing the broker.
type PresetField struct {
	Key      string    `json:"key"`
	Label    string    `json:"label"`
	Kind     FieldKind `json:"kind"`
	Default  string    `json:"default,omitempty"`
	Help     string    `json:"help,omitempty"`
	Required bool      `json:"required,omitempty"`
	Options  []string  `json:"options,omitempty"` // FieldChoice values, default first
}

// Preset describes a broker preset: its id (accounts.json presetId), a
// human name, and the fields of its presetConfig. Brokers added later
// register theirs in Presets; the factory's own ParseConfig still has the
// last word on validity.
type Preset struct {
	ID          string        `json:"id"`
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Fields      []PresetField `json:"fields"`
	// Extra is merged into presetConfig (e.g. paper:false for a live preset).
	Extra map[string]any `json:"extra,omitempty"`
	// Broker is the factory key used for presetId (defaults to ID).
	Broker string `json:"broker,omitempty"`
}

// Presets lists the account presets in display order.
func Presets() []Preset {
	return append([]Preset{
		{ID: "simulator", Name: "Simulator (paper)", Description: "Offline simulated broker on alice's deterministic market. No keys, no network.",
			Fields: []PresetField{
				{Key: "cash", Label: "Starting cash", Kind: FieldDecimal, Default: "100000", Help: "used only until the account has saved state"},
				{Key: "seed", Label: "Market seed", Kind: FieldInt, Default: "0", Help: "0 = the shared market from market-data.json"},
				{Key: "leverage", Label: "Leverage", Kind: FieldDecimal, Default: "1", Help: "1 = cash account; up to 100 = cross margin (positions show leverage and liquidation price)"},
			}},
		{ID: "alpaca-paper", Broker: "alpaca", Name: "Alpaca paper", Description: "Alpaca paper trading (https://paper-api.alpaca.markets).",
			Extra: map[string]any{"paper": true},
			Fields: []PresetField{
				{Key: "apiKeyEnv", Label: "API key env var", Kind: FieldEnvRef, Default: "APCA_API_KEY_ID", Required: true},
				{Key: "apiSecretEnv", Label: "API secret env var", Kind: FieldEnvRef, Default: "APCA_API_SECRET_KEY", Required: true},
			}},
		{ID: "alpaca-live", Broker: "alpaca", Name: "Alpaca LIVE (real money)", Description: "Alpaca live trading. Orders move real money.",
			Extra: map[string]any{"paper": false},
			Fields: []PresetField{
				{Key: "apiKeyEnv", Label: "API key env var", Kind: FieldEnvRef, Default: "APCA_API_KEY_ID", Required: true},
				{Key: "apiSecretEnv", Label: "API secret env var", Kind: FieldEnvRef, Default: "APCA_API_SECRET_KEY", Required: true},
			}},
		{ID: "bybit", Name: "Bybit", Description: "Bybit v5 (USDT perpetuals or spot). Demo and testnet move no real money; live does.",
			Fields: []PresetField{
				{Key: "mode", Label: "Mode", Kind: FieldChoice, Options: []string{"demo", "testnet", "live"}, Default: "demo"},
				{Key: "category", Label: "Category", Kind: FieldChoice, Options: []string{"linear", "spot"}, Default: "linear"},
				{Key: "apiKeyEnv", Label: "API key env var", Kind: FieldEnvRef, Default: "BYBIT_API_KEY", Required: true},
				{Key: "secretEnv", Label: "API secret env var", Kind: FieldEnvRef, Default: "BYBIT_API_SECRET", Required: true},
			}},
		{ID: "binance", Name: "Binance", Description: "Binance spot or USDⓈ-M futures (one market per account). Demo (demo.binance.com keys) and testnet move no real money; live does.",
			Fields: []PresetField{
				{Key: "mode", Label: "Mode", Kind: FieldChoice, Options: []string{"demo", "testnet", "live"}, Default: "demo"},
				{Key: "market", Label: "Market", Kind: FieldChoice, Options: []string{"spot", "futures"}, Default: "spot"},
				{Key: "apiKeyEnv", Label: "API key env var", Kind: FieldEnvRef, Default: "BINANCE_API_KEY", Required: true},
				{Key: "secretEnv", Label: "API secret env var", Kind: FieldEnvRef, Default: "BINANCE_API_SECRET", Required: true},
			}},
		{ID: "ibkr-tws", Name: "IBKR (TWS / IB Gateway)", Description: "Interactive Brokers through a running TWS or IB Gateway (log in there; no API keys). Paper ports 7497 (TWS) / 4002 (Gateway), live 7496 / 4001.",
			Fields: []PresetField{
				{Key: "host", Label: "Host", Kind: FieldString, Default: "127.0.0.1"},
				{Key: "port", Label: "Port", Kind: FieldInt, Default: "7497", Help: "TWS 7497 paper / 7496 live; IB Gateway 4002 paper / 4001 live"},
				{Key: "clientId", Label: "Client ID", Kind: FieldInt, Default: "0", Help: "unique among the API clients of this TWS"},
				{Key: "accountId", Label: "Account ID", Kind: FieldString, Help: "blank = the first account TWS reports"},
			}},
	}, taggedPresets()...) // -tags ccxt adds the CCXT presets
}

// PresetByID finds a preset.
func PresetByID(id string) (Preset, bool) {
	for _, p := range Presets() {
		if p.ID == id {
			return p, true
		}
	}
	return Preset{}, false
}

// BuildPresetConfig turns form values (key → text) into presetConfig JSON,
// typing each value by its field kind. It returns the offending key on a
// bad value.
func (p Preset) BuildPresetConfig(values map[string]string) (json.RawMessage, string, error) {
	out := map[string]any{}
	for k, v := range p.Extra {
		out[k] = v
	}
	for _, f := range p.Fields {
		v := strings.TrimSpace(values[f.Key])
		if v == "" {
			v = f.Default
		}
		if v == "" {
			if f.Required {
				return nil, f.Key, fmt.Errorf("%s is required", f.Label)
			}
			continue
		}
		switch f.Kind {
		case FieldInt:
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return nil, f.Key, fmt.Errorf("%s must be a whole number, got %q", f.Label, v)
			}
			if n == 0 && f.Key == "seed" {
				continue // 0 = shared market: leave the key out
			}
			out[f.Key] = n
		case FieldBool:
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, f.Key, fmt.Errorf("%s must be true or false, got %q", f.Label, v)
			}
			out[f.Key] = b
		case FieldChoice:
			if len(f.Options) > 0 && !slices.Contains(f.Options, v) {
				return nil, f.Key, fmt.Errorf("%s must be one of %v, got %q", f.Label, f.Options, v)
			}
			out[f.Key] = v
		case FieldEnvRef:
			if !config.ValidEnvName(v) { // the rule of every *Env key (config.CheckEnvName)
				return nil, f.Key, fmt.Errorf("%s must be an environment variable NAME (letters, digits and _, not starting with a digit, like APCA_API_KEY_ID), not a value, got %q", f.Label, v)
			}
			out[f.Key] = v
		default: // string, decimal (kept as a string: money is never a float), secret
			out[f.Key] = v
		}
	}
	raw, err := json.Marshal(out)
	return raw, "", err
}

// brokerFor maps a preset id to its factory key.
func brokerFor(presetID string) string {
	if p, ok := PresetByID(presetID); ok && p.Broker != "" {
		return p.Broker
	}
	return presetID
}
