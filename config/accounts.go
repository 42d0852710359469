package config

import (
	"encoding/json"
	"fmt"
	"regexp"
)

// AccountsFile is accounts.json: the trading accounts (UTAs).
const AccountsFile = "accounts.json"

// Guard is one entry of an account's guard pipeline.
type Guard struct {
	Type    string         `json:"type"`
	Options map[string]any `json:"options,omitempty"`
}

// Account configures one Unified Trading Account.
type Account struct {
	ID    string `json:"id"`
	Label string `json:"label,omitempty"`
	// Preset picks the broker: "simulator", "alpaca", …
	Preset  string `json:"presetId"`
	Enabled bool   `json:"enabled"`
	// AutoApprove lets pushes run without a human approval. Off by default:
	// money moves only when a person says so.
	AutoApprove bool `json:"autoApprove,omitempty"`
	// ReadOnly (OpenAlice's key) lets alice read the account but never
	// stage an operation on it.
	ReadOnly bool    `json:"readOnly,omitempty"`
	Guards   []Guard `json:"guards"`
	// Ephemeral is accepted so OpenAlice's accounts.json loads unchanged;
	// alice keeps every account's history, so it has no effect here.
	Ephemeral bool `json:"ephemeral,omitempty"`
	// PresetConfig is broker-specific; the trading package decodes and
	// validates it (reporting keys as accounts[i].presetConfig.x).
	PresetConfig json.RawMessage `json:"presetConfig,omitempty"`
}

// UnmarshalJSON defaults Enabled to true when the key is absent.
func (a *Account) UnmarshalJSON(b []byte) error {
	type plain Account
	p := plain{Enabled: true}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*a = Account(p)
	return nil
}

var accountIDRe = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,47}$`)

// Accounts is accounts.json.
type Accounts []Account

// DefaultAccounts seeds one simulated paper account so a fresh machine with
// no keys and no network has a live portfolio.
func DefaultAccounts() Accounts {
	return Accounts{{
		ID:      "sim-paper",
		Label:   "Simulated paper",
		Preset:  "simulator",
		Enabled: true,
		Guards: []Guard{
			{Type: "max-position-size", Options: map[string]any{"maxPercentOfEquity": 25}},
			{Type: "max-order-value", Options: map[string]any{"maxValue": "50000"}},
		},
		PresetConfig: json.RawMessage(`{"cash":"100000","seed":42}`),
	}}
}

// Validate checks ids (they name directories) and uniqueness.
func (c *Accounts) Validate() (string, error) {
	seen := map[string]bool{}
	for i, a := range *c {
		if !accountIDRe.MatchString(a.ID) {
			return fmt.Sprintf("[%d].id", i), fmt.Errorf("must match %s, got %q", accountIDRe, a.ID)
		}
		if seen[a.ID] {
			return fmt.Sprintf("[%d].id", i), fmt.Errorf("duplicate account id %q", a.ID)
		}
		seen[a.ID] = true
		if a.Preset == "" {
			return fmt.Sprintf("[%d].presetId", i), fmt.Errorf("is required (e.g. \"simulator\", \"alpaca\")")
		}
		for j, g := range a.Guards {
			if g.Type == "" {
				return fmt.Sprintf("[%d].guards[%d].type", i, j), fmt.Errorf("is required")
			}
		}
	}
	return "", nil
}

// SnapshotFile is snapshot.json.
const SnapshotFile = "snapshot.json"

// Snapshot configures periodic account snapshots.
type Snapshot struct {
	Enabled bool   `json:"enabled"`
	Every   string `json:"every"`
}

// DefaultSnapshot takes a snapshot every 15 minutes.
func DefaultSnapshot() Snapshot { return Snapshot{Enabled: true, Every: "15m"} }

// Validate checks the interval.
func (c *Snapshot) Validate() (string, error) {
	if _, err := ParseEvery(c.Every); err != nil {
		return "every", err
	}
	return "", nil
}

// MarketDataFile is market-data.json.
const MarketDataFile = "market-data.json"

// MarketData picks the market data backend for bars, quotes and research.
type MarketData struct {
	// Backend is "simulated" (default, offline) or a real HTTP backend.
	Backend string `json:"backend"`
	// BaseURL overrides the backend's endpoint (tests, proxies).
	BaseURL      string `json:"baseUrl,omitempty"`
	APIKey       string `json:"apiKey,omitempty"`
	APIKeyEnv    string `json:"apiKeyEnv,omitempty"`
	APISecret    string `json:"apiSecret,omitempty"`
	APISecretEnv string `json:"apiSecretEnv,omitempty"`
	// Seed drives the simulated market so prices are reproducible.
	Seed int64 `json:"seed"`
}

// DefaultMarketData is the offline simulated market.
func DefaultMarketData() MarketData { return MarketData{Backend: "simulated", Seed: 42} }

// Validate checks the backend name.
func (c *MarketData) Validate() (string, error) {
	switch c.Backend {
	case "simulated", "alpaca", "yahoo":
		return "", nil
	}
	return "backend", fmt.Errorf("unknown backend %q (want simulated, alpaca or yahoo)", c.Backend)
}
