//go:build ccxt

package ccxt

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	ccxtlib "github.com/ccxt/ccxt/go/v4"

	"github.com/alice-trading/alice/trading/broker"
)

// exchange is the part of CCXT's unified API the broker uses. The live
// value is a ccxtlib.IExchange (which satisfies it as is); tests use a fake
// that keeps its state in a brokertest.Venue.
type exchange interface {
	LoadMarkets(params ...interface{}) (map[string]ccxtlib.MarketInterface, error)
	GetMarketsList() []ccxtlib.MarketInterface
	GetHas() map[string]interface{}
	FetchBalance(params ...interface{}) (ccxtlib.Balances, error)
	FetchTicker(symbol string, options ...ccxtlib.FetchTickerOptions) (ccxtlib.Ticker, error)
	CreateOrder(symbol string, typ string, side string, amount float64, options ...ccxtlib.CreateOrderOptions) (ccxtlib.Order, error)
	EditOrder(id string, symbol string, typ string, side string, options ...ccxtlib.EditOrderOptions) (ccxtlib.Order, error)
	CancelOrder(id string, options ...ccxtlib.CancelOrderOptions) (ccxtlib.Order, error)
	FetchOrder(id string, options ...ccxtlib.FetchOrderOptions) (ccxtlib.Order, error)
	FetchOpenOrders(options ...ccxtlib.FetchOpenOrdersOptions) ([]ccxtlib.Order, error)
	FetchPositions(options ...ccxtlib.FetchPositionsOptions) ([]ccxtlib.Position, error)
	Close() []error
}

func knownExchange(id string) bool { return slices.Contains(ccxtlib.Exchanges, id) }

// newExchange builds the CCXT exchange for cfg. extra is deep-merged into
// CCXT's user config (tests point "urls" at a local server).
func newExchange(cfg Config, extra map[string]any) (exchange, error) {
	// The rate limiter stays on: besides sparing the exchange, its throttle
	// orders CCXT's parallel requests (loadMarkets fetches market types
	// concurrently); with it off, the race detector flags CCXT's unguarded
	// writes of Last_response_headers from those goroutines.
	opts := map[string]any{"enableRateLimit": true, "timeout": cfg.TimeoutMs}
	for k, v := range map[string]string{"apiKey": cfg.APIKey, "secret": cfg.Secret, "password": cfg.Password,
		"uid": cfg.UID, "walletAddress": cfg.WalletAddress, "privateKey": cfg.PrivateKey} {
		if v != "" {
			opts[k] = v
		}
	}
	for k, v := range extra {
		opts[k] = v
	}
	ex := ccxtlib.CreateExchange(cfg.Exchange, opts)
	if ex == nil {
		return nil, broker.Errorf(broker.CodeConfig, "CCXT has no exchange %q", cfg.Exchange)
	}
	if cfg.Sandbox {
		ex.SetSandboxMode(true)
	}
	if cfg.DemoTrading {
		ex.EnableDemoTrading(true)
	}
	return ex, nil
}

// errorCodes maps CCXT's error classes (its exception hierarchy, flattened
// in Go to Error.Type) to broker codes. Anything unlisted is UNKNOWN.
func errorCodes() map[string]broker.Code {
	return map[string]broker.Code{
		"AuthenticationError": broker.CodeAuth, "PermissionDenied": broker.CodeAuth, "AccountNotEnabled": broker.CodeAuth,
		"AccountSuspended": broker.CodeAuth,
		"NetworkError":     broker.CodeNetwork, "DDoSProtection": broker.CodeNetwork, "RateLimitExceeded": broker.CodeNetwork,
		"ExchangeNotAvailable": broker.CodeNetwork, "OnMaintenance": broker.CodeNetwork, "InvalidNonce": broker.CodeNetwork,
		"RequestTimeout": broker.CodeNetwork, "ChecksumError": broker.CodeNetwork,
		"OrderNotFound": broker.CodeNotFound, "BadSymbol": broker.CodeNotFound,
		"MarketClosed":  broker.CodeMarketClosed,
		"ExchangeError": broker.CodeExchange, "InsufficientFunds": broker.CodeExchange, "InvalidOrder": broker.CodeExchange,
		"DuplicateOrderId": broker.CodeExchange, "BadRequest": broker.CodeExchange, "OperationRejected": broker.CodeExchange,
		"OperationFailed": broker.CodeExchange, "NotSupported": broker.CodeExchange, "ArgumentsRequired": broker.CodeExchange,
		"OrderNotFillable": broker.CodeExchange, "OrderImmediatelyFillable": broker.CodeExchange, "ContractUnavailable": broker.CodeExchange,
		"InvalidAddress": broker.CodeExchange, "NoChange": broker.CodeExchange, "ManualInteractionNeeded": broker.CodeExchange,
		"RestrictedLocation": broker.CodeAuth, "BadResponse": broker.CodeUnknown, "NullResponse": broker.CodeUnknown,
	}
}

// wrap turns a CCXT error into a *broker.Error naming what was attempted.
func wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	var be *broker.Error
	if errors.As(err, &be) {
		return err
	}
	msg := fmt.Sprintf(format, args...)
	var ce *ccxtlib.Error
	if errors.As(err, &ce) {
		code, ok := errorCodes()[string(ce.Type)]
		if !ok {
			code = broker.CodeUnknown
		}
		out := &broker.Error{Code: code, Msg: msg + ": " + string(ce.Type) + ": " + firstLine(ce.Message)}
		if code == broker.CodeAuth {
			out.Hint = "check the API key, secret and passphrase (demo/testnet keys only work in that mode)"
		}
		return out
	}
	return &broker.Error{Code: broker.CodeUnknown, Msg: msg, Err: err}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
