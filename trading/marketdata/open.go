package marketdata

import (
	"fmt"
	"log/slog"
	"net/http"
	"os"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading/simmarket"
	"github.com/alice-trading/alice/trading/yahoo"
)

// Default environment variables for Alpaca keys, shared with the broker.
const (
	DefaultAlpacaKeyEnv    = "APCA_API_KEY_ID"
	DefaultAlpacaSecretEnv = "APCA_API_SECRET_KEY"
	// DefaultOpenBBTokenEnv holds the bearer token of an OpenBB API server
	// behind auth (optional).
	DefaultOpenBBTokenEnv = "OPENBB_API_TOKEN"
)

// Options are the optional dependencies of Open.
type Options struct {
	// HTTPClient is used by HTTP backends (nil: 20 s timeout client).
	HTTPClient *http.Client
	// Getenv resolves apiKeyEnv/apiSecretEnv (nil: os.Getenv).
	Getenv func(string) string
	// Yahoo, when set, is the shared Yahoo client the "yahoo" backend
	// uses (its base URL then wins over cfg.BaseURL).
	Yahoo *yahoo.Client
	// Logger records when "auto" falls back to the simulated market.
	Logger *slog.Logger
}

// Open builds the backend named by cfg. market is the shared simulated
// market (required for "simulated", ignored otherwise).
func Open(cfg config.MarketData, market *simmarket.Market, opts Options) (Source, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	switch cfg.Backend {
	case "", "simulated":
		if market == nil {
			market = simmarket.New(cfg.Seed)
		}
		return NewSimulated(market, nil), nil
	case "alpaca":
		key := secret(cfg.APIKey, cfg.APIKeyEnv, DefaultAlpacaKeyEnv, getenv)
		sec := secret(cfg.APISecret, cfg.APISecretEnv, DefaultAlpacaSecretEnv, getenv)
		return NewAlpaca(cfg.BaseURL, key, sec, opts.HTTPClient)
	case "yahoo":
		if opts.Yahoo != nil {
			return YahooSource(opts.Yahoo), nil
		}
		return NewYahoo(cfg.BaseURL, opts.HTTPClient)
	case "auto":
		if market == nil {
			market = simmarket.New(cfg.Seed)
		}
		var y *Yahoo
		if opts.Yahoo != nil {
			y = YahooSource(opts.Yahoo)
		} else {
			var err error
			if y, err = NewYahoo(cfg.BaseURL, opts.HTTPClient); err != nil {
				return nil, err
			}
		}
		return NewFallback(y, NewSimulated(market, nil), opts.Logger), nil
	case "openbb":
		return NewOpenBB(cfg.BaseURL, secret(cfg.APIKey, cfg.APIKeyEnv, DefaultOpenBBTokenEnv, getenv), cfg.Provider, opts.HTTPClient)
	}
	return nil, fmt.Errorf("unknown market data backend %q (want auto, simulated, yahoo, alpaca or openbb)", cfg.Backend)
}

// secret prefers the literal value, then the named env var, then the
// default env var.
func secret(literal, env, defEnv string, getenv func(string) string) string {
	if literal != "" {
		return literal
	}
	if env != "" {
		return getenv(env)
	}
	return getenv(defEnv)
}
