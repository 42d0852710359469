//go:build ccxt

// Package ccxt is a broker backed by the CCXT Go library: OKX, Bitget,
// Hyperliquid and any other CCXT exchange id. It is compiled only with
// `-tags ccxt` because CCXT costs minutes and ~10 GB of compiler memory to
// build; the default build never imports it (trading/uta registers these
// presets from a tagged file).
package ccxt

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/alice-trading/alice/trading/broker"
)

// Config is the presetConfig of every CCXT-backed preset. The shapes are
// OpenAlice's: okx/bitget {mode live|demo, apiKey, secret, password},
// hyperliquid {mode live|testnet, walletAddress, privateKey}, ccxt-custom
// {exchange, sandbox, demoTrading, apiKey, secret, password, uid,
// walletAddress, privateKey}. Each secret may instead be named by an *Env
// field (the environment variable holding it), so keys can stay out of
// accounts.json.
type Config struct {
	Exchange    string `json:"exchange,omitempty"`
	Mode        string `json:"mode,omitempty"`
	Sandbox     bool   `json:"sandbox,omitempty"`
	DemoTrading bool   `json:"demoTrading,omitempty"`

	APIKey        string `json:"apiKey,omitempty"`
	APIKeyEnv     string `json:"apiKeyEnv,omitempty" cfg:"env"`
	Secret        string `json:"secret,omitempty"`
	SecretEnv     string `json:"secretEnv,omitempty" cfg:"env"`
	Password      string `json:"password,omitempty"`
	PasswordEnv   string `json:"passwordEnv,omitempty" cfg:"env"`
	UID           string `json:"uid,omitempty"`
	WalletAddress string `json:"walletAddress,omitempty"`
	PrivateKey    string `json:"privateKey,omitempty"`
	PrivateKeyEnv string `json:"privateKeyEnv,omitempty" cfg:"env"`

	// Quote is the currency balances and equity are reported in (USDT,
	// or USDC on Hyperliquid).
	Quote string `json:"quote,omitempty"`
	// MarketType restricts the catalogue: "spot", "swap" or "" for both.
	MarketType string `json:"marketType,omitempty"`
	// TimeoutMs bounds each CCXT request (CCXT calls take no context).
	TimeoutMs int `json:"timeoutMs,omitempty"`
}

// presetExchange maps each presetId served here to its fixed CCXT
// exchange id ("" = chosen by presetConfig.exchange).
func presetExchange() map[string]string {
	return map[string]string{"okx": "okx", "bitget": "bitget", "hyperliquid": "hyperliquid", "ccxt-custom": ""}
}

// PresetIDs lists the presetIds served by this package.
func PresetIDs() []string { return []string{"okx", "bitget", "hyperliquid", "ccxt-custom"} }

// ParseConfig decodes presetConfig for presetID strictly, applies the
// preset's mode (demo → demoTrading, testnet → sandbox), resolves secrets
// from the environment and checks that the exchange exists in CCXT and
// that the credentials it requires are present. It returns the offending
// key relative to presetConfig.
func ParseConfig(presetID string, raw json.RawMessage, getenv func(string) string) (Config, string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var c Config
	fixed, ok := presetExchange()[presetID]
	if !ok {
		return c, "", fmt.Errorf("preset %q is not a CCXT preset", presetID)
	}
	if k, err := broker.DecodePreset(raw, &c); err != nil {
		return c, k, err
	}
	if fixed != "" {
		if c.Exchange != "" && !strings.EqualFold(c.Exchange, fixed) {
			return c, "exchange", fmt.Errorf("the %s preset always uses exchange %q (use ccxt-custom for others)", presetID, fixed)
		}
		c.Exchange = fixed
		if c.Mode == "" {
			c.Mode = "live"
		}
		modes := map[string][]string{"okx": {"live", "demo"}, "bitget": {"live", "demo"}, "hyperliquid": {"live", "testnet"}}[presetID]
		switch {
		case !contains(modes, c.Mode):
			return c, "mode", fmt.Errorf("must be %s, got %q", strings.Join(modes, " or "), c.Mode)
		case c.Mode == "testnet":
			c.Sandbox = true
		case c.Mode == "demo" && presetID == "okx":
			c.Sandbox = true // OKX demo trading is CCXT's sandbox mode (x-simulated-trading header)
		case c.Mode == "demo":
			c.DemoTrading = true
		}
	} else {
		c.Exchange = strings.ToLower(strings.TrimSpace(c.Exchange))
		if c.Exchange == "" {
			return c, "exchange", errors.New("required: a CCXT exchange id such as kucoin, gate or mexc")
		}
		if c.Mode != "" {
			return c, "mode", errors.New("ccxt-custom has no mode; use sandbox or demoTrading")
		}
	}
	if !knownExchange(c.Exchange) {
		return c, "exchange", fmt.Errorf("%q is not a CCXT exchange id", c.Exchange)
	}
	up := strings.ToUpper(c.Exchange)
	c.APIKey = broker.Credential(c.APIKey, c.APIKeyEnv, up+"_API_KEY", getenv)
	c.Secret = broker.Credential(c.Secret, c.SecretEnv, up+"_API_SECRET", getenv)
	c.Password = broker.Credential(c.Password, c.PasswordEnv, up+"_API_PASSWORD", getenv)
	c.PrivateKey = broker.Credential(c.PrivateKey, c.PrivateKeyEnv, up+"_PRIVATE_KEY", getenv)
	need := map[string][]string{"okx": {"apiKey", "secret", "password"}, "bitget": {"apiKey", "secret", "password"},
		"hyperliquid": {"walletAddress", "privateKey"}}[presetID]
	have := map[string]string{"apiKey": c.APIKey, "secret": c.Secret, "password": c.Password, "walletAddress": c.WalletAddress, "privateKey": c.PrivateKey}
	for _, k := range need {
		if have[k] == "" {
			return c, k, fmt.Errorf("required: set %s, or %sEnv naming an environment variable (default %s)", k, k, defaultEnv(up, k))
		}
	}
	if c.Quote == "" {
		c.Quote = "USDT"
		if c.Exchange == "hyperliquid" {
			c.Quote = "USDC"
		}
	}
	c.Quote = strings.ToUpper(c.Quote)
	switch c.MarketType {
	case "", "spot", "swap":
	default:
		return c, "marketType", fmt.Errorf("must be spot, swap or empty (both), got %q", c.MarketType)
	}
	if c.TimeoutMs < 0 {
		return c, "timeoutMs", errors.New("must not be negative")
	}
	if c.TimeoutMs == 0 {
		c.TimeoutMs = 20000
	}
	return c, "", nil
}

func defaultEnv(up, key string) string {
	return up + map[string]string{"apiKey": "_API_KEY", "secret": "_API_SECRET", "password": "_API_PASSWORD", "privateKey": "_PRIVATE_KEY"}[key]
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// Paper reports whether the account moves no real money.
func (c Config) Paper() bool { return c.Sandbox || c.DemoTrading }
