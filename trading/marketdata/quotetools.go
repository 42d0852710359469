package marketdata

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading"
)

// History is marketGetHistory's reply.
type History struct {
	Symbol     string             `json:"symbol"`
	AssetClass trading.AssetClass `json:"assetClass"`
	Interval   string             `json:"interval"`
	Source     string             `json:"source"`
	Simulated  bool               `json:"simulated,omitempty"`
	Bars       []Bar              `json:"bars"`
}

// barsFrom is implemented by backends that can say which provider
// answered (the auto backend).
type barsFrom interface {
	BarsFrom(ctx context.Context, symbol string, class trading.AssetClass, interval Interval, from, to time.Time) ([]Bar, string, error)
}

const classProp = `"assetClass":{"type":"string","enum":["equity","crypto","currency","commodity"],"description":"default equity; currency pairs like EURUSD, commodities like gold, crude_oil, GC=F"}`

// registerQuoteTools publishes marketGetQuote and marketGetHistory (every
// asset class: equities, crypto, currencies, commodities) and, on the
// OpenBB backend, openbbGet.
func registerQuoteTools(reg core.ToolRegistry, src Source) {
	reg.Register(core.Tool{
		Name:  "marketGetQuote",
		Group: "market-search",
		Description: "Latest price of an equity, crypto pair, currency pair (EURUSD) or commodity (gold, crude_oil) from the market data backend (" + src.Name() +
			"). source says which provider answered; simulated:true marks a price from alice's offline simulated market.",
		InputSchema: core.Schema(`{"type":"object","properties":{"symbol":{"type":"string"},` + classProp + `},"required":["symbol"]}`),
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			var a struct {
				Symbol     string `json:"symbol"`
				AssetClass string `json:"assetClass"`
			}
			if err := core.DecodeArgs(args, &a); err != nil {
				return nil, err
			}
			class, err := quoteClass(a.Symbol, a.AssetClass)
			if err != nil {
				return nil, err
			}
			q, err := src.Quote(ctx, strings.TrimSpace(a.Symbol), class)
			if err != nil {
				return nil, err
			}
			if q.Source == "" {
				q.Source = src.Name()
			}
			return q, nil
		},
	})
	reg.Register(core.Tool{
		Name:  "marketGetHistory",
		Group: "market-search",
		Description: "OHLCV candles of an equity, crypto pair, currency pair or commodity from the market data backend (" + src.Name() +
			"), oldest first. source says which provider answered; simulated:true marks synthetic bars.",
		InputSchema: core.Schema(`{"type":"object","properties":{"symbol":{"type":"string"},` + classProp + `,
			"interval":{"type":"string","description":"bar size: 1m, 5m, 15m, 30m, 1h, 1d (default), 1w"},
			"days":{"type":"integer","minimum":1,"maximum":3650,"description":"how far back, in days (default 30)"}},"required":["symbol"]}`),
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			var a struct {
				Symbol     string `json:"symbol"`
				AssetClass string `json:"assetClass"`
				Interval   string `json:"interval"`
				Days       *int   `json:"days"`
			}
			if err := core.DecodeArgs(args, &a); err != nil {
				return nil, err
			}
			class, err := quoteClass(a.Symbol, a.AssetClass)
			if err != nil {
				return nil, err
			}
			if a.Interval == "" {
				a.Interval = "1d"
			}
			iv, err := ParseInterval(a.Interval)
			if err != nil {
				return nil, err
			}
			days := 30
			if a.Days != nil {
				if *a.Days < 1 || *a.Days > 3650 {
					return nil, errors.New("days must be between 1 and 3650")
				}
				days = *a.Days
			}
			to := time.Now().UTC()
			from := to.Add(-time.Duration(days) * 24 * time.Hour)
			h := History{Symbol: strings.TrimSpace(a.Symbol), AssetClass: class, Interval: iv.String(), Source: src.Name()}
			if bf, ok := src.(barsFrom); ok {
				h.Bars, h.Source, err = bf.BarsFrom(ctx, h.Symbol, class, iv, from, to)
			} else {
				h.Bars, err = src.Bars(ctx, h.Symbol, class, iv, from, to)
			}
			if err != nil {
				return nil, err
			}
			h.Simulated = h.Source == "simulated"
			if h.Bars == nil {
				h.Bars = []Bar{}
			}
			return h, nil
		},
	})
	ob, ok := src.(*OpenBB)
	if !ok {
		return
	}
	reg.Register(core.Tool{
		Name:  "openbbGet",
		Group: "market-search",
		Description: "Call any route of the OpenBB Platform API this alice uses (" + ob.Name() + "): e.g. economy/cpi {country: united_states}, " +
			"index/price/historical {symbol: SPX}, commodity/price/spot, etf/holdings {symbol: SPY}. Returns OpenBB's {results, provider, warnings}.",
		InputSchema: core.Schema(`{"type":"object","properties":{
			"route":{"type":"string","description":"<router>/<command> under /api/v1, e.g. economy/cpi"},
			"params":{"type":"object","additionalProperties":{"type":"string"},"description":"query parameters as strings"}},"required":["route"]}`),
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			var a struct {
				Route  string            `json:"route"`
				Params map[string]string `json:"params"`
			}
			if err := core.DecodeArgs(args, &a); err != nil {
				return nil, err
			}
			q := url.Values{}
			for k, v := range a.Params {
				q.Set(k, v)
			}
			env, err := ob.Get(ctx, a.Route, q)
			if err != nil {
				return nil, err
			}
			return map[string]any{"results": env.Results, "provider": env.Provider, "warnings": env.Warnings}, nil
		},
	})
}

// quoteClass validates the asset class ("" = equity) and the symbol.
func quoteClass(symbol, class string) (trading.AssetClass, error) {
	if strings.TrimSpace(symbol) == "" {
		return "", errors.New("symbol is required")
	}
	c, err := trading.ParseAssetClass(class)
	if err != nil {
		return "", err
	}
	switch c {
	case "":
		return trading.Equity, nil
	case trading.Unknown:
		return "", fmt.Errorf("assetClass must be equity, crypto, currency or commodity")
	}
	return c, nil
}
