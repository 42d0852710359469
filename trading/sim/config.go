package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

// DefaultCash is the paper account's starting balance.
var defaultCash = decimal.NewFromInt(100000)

// Config is the simulator preset's presetConfig.
type Config struct {
	// Cash is the starting balance (decimal string), used only when no
	// saved state exists yet.
	Cash decimal.Decimal `json:"cash"`
	// Seed picks the simulated market; 0 means "the shared market".
	Seed int64 `json:"seed"`
	// Prices is "simulated" (default) or "real": marks come from the
	// market-data backend's real quotes when it has them (the account
	// manager refreshes them), else from the simulated market.
	Prices string `json:"prices,omitempty"`
	// Leverage 1 (default) is a cash account; above 1 (at most 100) a
	// cross-margin account whose positions report leverage and a
	// liquidation price (margin.go).
	Leverage decimal.Decimal `json:"leverage"`
}

// ParseConfig decodes and validates presetConfig. On error it returns the
// offending key relative to presetConfig (e.g. "cash") so the caller can
// report accounts.json[i].presetConfig.cash.
func ParseConfig(raw json.RawMessage) (Config, string, error) {
	c := Config{Cash: defaultCash}
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return c, "", nil
	}
	var wire struct {
		Cash     json.RawMessage `json:"cash"`
		Seed     *int64          `json:"seed"`
		Prices   string          `json:"prices"`
		Leverage json.RawMessage `json:"leverage"`
		// OpenAlice's mock-simulator mints an instance id into its
		// presetConfig; accepted so its accounts.json loads unchanged.
		InstanceID string `json:"_instanceId"`
	}
	if k, err := broker.DecodePreset(raw, &wire); err != nil {
		return c, k, err // a wrong type names its key: "expected a whole number, got 4.5"
	}
	if len(wire.Cash) > 0 {
		s := strings.Trim(string(wire.Cash), `"`)
		d, err := decimal.NewFromString(s)
		if err != nil {
			return c, "cash", fmt.Errorf("must be a decimal amount like \"100000\", got %s", wire.Cash)
		}
		if !d.IsPositive() {
			return c, "cash", fmt.Errorf("must be > 0, got %s", s)
		}
		// an amount like any order's cash: at most 10^12, 2 decimals
		if d.GreaterThan(trading.MaxCash) || d.Exponent() < -trading.CashPlaces && !d.Equal(d.Round(trading.CashPlaces)) {
			return c, "cash", fmt.Errorf("must be an amount of at most %s with at most %d decimals, got %s", trading.MaxCash, trading.CashPlaces, s)
		}
		c.Cash = d
	}
	if wire.Seed != nil {
		c.Seed = *wire.Seed
	}
	if len(wire.Leverage) > 0 {
		l, err := decimal.NewFromString(strings.Trim(string(wire.Leverage), `"`))
		if err != nil {
			return c, "leverage", fmt.Errorf("must be a number like 2 or \"2.5\", got %s", wire.Leverage)
		}
		if l.LessThan(decimal.NewFromInt(1)) || l.GreaterThan(maxLeverage) {
			return c, "leverage", fmt.Errorf("must be between 1 (a cash account) and %s, got %s", maxLeverage, l)
		}
		c.Leverage = l
	}
	switch wire.Prices {
	case "", "simulated", "real":
		c.Prices = wire.Prices
	default:
		return c, "prices", fmt.Errorf("must be simulated or real, got %q", wire.Prices)
	}
	return c, "", nil
}
