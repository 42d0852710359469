package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
)

// AccountsFile is accounts.json: the trading accounts (UTAs).
const AccountsFile = "accounts.json"

// Guard is one entry of an account's guard pipeline.
type Guard struct {
	Type    string         `json:"type"`
	Options map[string]any `json:"options,omitempty"`
}

// UnmarshalJSON refuses unknown keys ("option" for "options"), naming the
// nearest known one, wherever a guard list is read (accounts.json, the
// Settings guard form).
func (g *Guard) UnmarshalJSON(b []byte) error {
	if err := strictKeys(b, Guard{}, ""); err != nil {
		return err
	}
	type plain Guard
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*g = Guard(p)
	return nil
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

// UnmarshalJSON defaults Enabled to true when the key is absent and
// refuses unknown keys (a misspelt "readOnly" must not leave an account
// trading), naming the nearest known key.
func (a *Account) UnmarshalJSON(b []byte) error {
	type plain Account
	p := plain{Enabled: true}
	if err := strictKeys(b, Account{}, ""); err != nil {
		return err
	}
	var raw struct {
		Guards []json.RawMessage `json:"guards"`
	}
	if err := json.Unmarshal(b, &raw); err == nil {
		for j, g := range raw.Guards {
			if err := strictKeys(g, Guard{}, fmt.Sprintf("guards[%d].", j)); err != nil {
				return err
			}
		}
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*a = Account(p)
	return nil
}

// strictKeys refuses keys of the JSON object b that typ does not declare.
func strictKeys(b []byte, typ any, prefix string) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil // not an object: the typed decode reports it
	}
	known := JSONKeys(typ)
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(known, k) && k != "$schema" {
			return &keyError{Key: prefix + k, Msg: Unknown("key", k, known)}
		}
	}
	return nil
}

// UnmarshalJSON decodes accounts one by one so an error names the
// account's index: "[1].zzzJunk".
func (c *Accounts) UnmarshalJSON(b []byte) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return err
	}
	out := make(Accounts, len(raws))
	for i, r := range raws {
		if err := json.Unmarshal(r, &out[i]); err != nil {
			id := ""
			var probe struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(r, &probe) == nil && probe.ID != "" {
				id = fmt.Sprintf(" (account %q)", probe.ID)
			}
			var ke *keyError
			if errors.As(err, &ke) {
				return &keyError{Key: fmt.Sprintf("[%d].%s", i, ke.Key), Msg: ke.Msg + id}
			}
			// A wrong type names the whole path too: "[0].autoApprove".
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) && te.Field != "" {
				return &keyError{Key: fmt.Sprintf("[%d].%s", i, typeErrorPath(r, reflect.TypeFor[Account](), te.Field)),
					Msg: TypeMismatch(te) + id}
			}
			return err
		}
	}
	*c = out
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
	// Backend is "auto" (default: real keyless Yahoo prices when Yahoo
	// answers, else the simulated market, labelled), "simulated" (offline),
	// "yahoo", "alpaca" or "openbb" (an OpenBB Platform REST API server at
	// baseUrl; apiKey/apiKeyEnv is its bearer token).
	Backend string `json:"backend"`
	// BaseURL overrides the backend's endpoint (tests, proxies).
	BaseURL      string `json:"baseUrl,omitempty" cfg:"baseurl"`
	APIKey       string `json:"apiKey,omitempty"`
	APIKeyEnv    string `json:"apiKeyEnv,omitempty" cfg:"env"`
	APISecret    string `json:"apiSecret,omitempty"`
	APISecretEnv string `json:"apiSecretEnv,omitempty" cfg:"env"`
	// Provider is OpenBB's provider choice (yfinance, fmp, polygon, …);
	// "" lets the OpenBB server use its default.
	Provider string `json:"provider,omitempty"`
	// Seed drives the simulated market so prices are reproducible.
	Seed int64 `json:"seed"`
}

// DefaultMarketData is real keyless prices with the simulated market as
// the fallback (seed 42).
func DefaultMarketData() MarketData { return MarketData{Backend: "auto", Seed: 42} }

// Validate checks the backend name and the OpenBB provider choice.
func (c *MarketData) Validate() (string, error) {
	switch c.Backend {
	case "auto", "simulated", "alpaca", "yahoo":
		if c.Provider != "" {
			return "provider", fmt.Errorf("provider is OpenBB's provider choice; it needs backend \"openbb\" (backend is %q)", c.Backend)
		}
		return "", nil
	case "openbb":
		for _, r := range c.Provider {
			if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' {
				return "provider", fmt.Errorf("invalid OpenBB provider %q (e.g. yfinance, fmp, polygon, intrinio)", c.Provider)
			}
		}
		return "", nil
	}
	return "backend", fmt.Errorf("unknown backend %q (want auto, simulated, yahoo, alpaca or openbb)", c.Backend)
}
