package marketdata

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
)

// AlpacaDataURL is the production host of Alpaca's Market Data API.
const AlpacaDataURL = "https://data.alpaca.markets"

// maxPages bounds pagination so a misbehaving server cannot loop us.
const maxPages = 50

// Alpaca reads bars and quotes from Alpaca Market Data API v2 (stocks) and
// v1beta3 (crypto). It has no symbol search or profiles.
type Alpaca struct {
	http dataClient
}

// NewAlpaca builds the backend; baseURL "" means AlpacaDataURL and client
// nil means a client with a 20 s timeout.
func NewAlpaca(baseURL, apiKey, apiSecret string, client *http.Client) (*Alpaca, error) {
	if baseURL == "" {
		baseURL = AlpacaDataURL
	}
	if apiKey == "" || apiSecret == "" {
		return nil, fmt.Errorf("alpaca market data needs an API key and secret (apiKey/apiKeyEnv, apiSecret/apiSecretEnv)")
	}
	h := http.Header{}
	h.Set("APCA-API-KEY-ID", apiKey)
	h.Set("APCA-API-SECRET-KEY", apiSecret)
	g, err := newDataClient("alpaca market data", client, baseURL, h)
	if err != nil {
		return nil, err
	}
	return &Alpaca{http: g}, nil
}

// Name implements Source.
func (a *Alpaca) Name() string { return "alpaca" }

// alpacaTimeframe maps an Interval to Alpaca's timeframe syntax.
func alpacaTimeframe(i Interval) (string, error) {
	switch {
	case i.Unit == Minute && i.N <= 59:
		return fmt.Sprintf("%dMin", i.N), nil
	case i.Unit == Hour && i.N <= 23:
		return fmt.Sprintf("%dHour", i.N), nil
	case i.Unit == Day && i.N == 1:
		return "1Day", nil
	case i.Unit == Week && i.N == 1:
		return "1Week", nil
	}
	return "", fmt.Errorf("alpaca does not offer %s bars (use 1-59m, 1-23h, 1d or 1w)", i)
}

// cryptoPair turns "BTC", "BTCUSD" or "BTC/USD" into Alpaca's "BTC/USD".
func cryptoPair(symbol string) string {
	s := strings.ToUpper(strings.TrimSpace(symbol))
	if strings.Contains(s, "/") {
		return s
	}
	for _, q := range []string{"USDT", "USDC", "USD"} {
		if base, ok := strings.CutSuffix(s, q); ok && base != "" {
			return base + "/" + q
		}
	}
	return s + "/USD"
}

type alpacaBar struct {
	T time.Time   `json:"t"`
	O json.Number `json:"o"`
	H json.Number `json:"h"`
	L json.Number `json:"l"`
	C json.Number `json:"c"`
	V json.Number `json:"v"`
}

func (b alpacaBar) bar() Bar {
	return Bar{Time: b.T, Open: num(b.O), High: num(b.H), Low: num(b.L), Close: num(b.C), Volume: num(b.V)}
}

type alpacaQuote struct {
	T  time.Time   `json:"t"`
	AP json.Number `json:"ap"`
	BP json.Number `json:"bp"`
}

type alpacaTrade struct {
	T time.Time   `json:"t"`
	P json.Number `json:"p"`
}

// Bars implements Source, following next_page_token.
func (a *Alpaca) Bars(ctx context.Context, symbol string, class trading.AssetClass, interval Interval, from, to time.Time) ([]Bar, error) {
	if err := checkRange(interval, from, to); err != nil {
		return nil, err
	}
	tf, err := alpacaTimeframe(interval)
	if err != nil {
		return nil, err
	}
	q := url.Values{"timeframe": {tf}, "start": {from.UTC().Format(time.RFC3339)}, "end": {to.UTC().Format(time.RFC3339)}, "limit": {"10000"}}
	var out []Bar
	for page := 0; page < maxPages; page++ {
		var next *string
		switch class {
		case trading.Crypto:
			pair := cryptoPair(symbol)
			q.Set("symbols", pair)
			var resp struct {
				Bars          map[string][]alpacaBar `json:"bars"`
				NextPageToken *string                `json:"next_page_token"`
			}
			if err := a.http.get(ctx, "/v1beta3/crypto/us/bars", q, &resp); err != nil {
				return nil, err
			}
			for _, b := range resp.Bars[pair] {
				out = append(out, b.bar())
			}
			next = resp.NextPageToken
		case "", trading.Equity, trading.Unknown:
			var resp struct {
				Bars          []alpacaBar `json:"bars"`
				NextPageToken *string     `json:"next_page_token"`
			}
			if err := a.http.get(ctx, "/v2/stocks/"+url.PathEscape(strings.ToUpper(symbol))+"/bars", q, &resp); err != nil {
				return nil, err
			}
			for _, b := range resp.Bars {
				out = append(out, b.bar())
			}
			next = resp.NextPageToken
		default:
			return nil, fmt.Errorf("alpaca: %s bars are %w", class, ErrUnsupported)
		}
		if next == nil || *next == "" {
			break
		}
		q.Set("page_token", *next)
	}
	return inRange(out, from, to), nil
}

// Quote implements Source from the latest quote (bid/ask) and latest trade.
func (a *Alpaca) Quote(ctx context.Context, symbol string, class trading.AssetClass) (Quote, error) {
	var qt alpacaQuote
	var tr alpacaTrade
	sym := strings.ToUpper(strings.TrimSpace(symbol))
	switch class {
	case trading.Crypto:
		sym = cryptoPair(symbol)
		p := url.Values{"symbols": {sym}}
		var qs struct {
			Quotes map[string]alpacaQuote `json:"quotes"`
		}
		if err := a.http.get(ctx, "/v1beta3/crypto/us/latest/quotes", p, &qs); err != nil {
			return Quote{}, err
		}
		var ts struct {
			Trades map[string]alpacaTrade `json:"trades"`
		}
		if err := a.http.get(ctx, "/v1beta3/crypto/us/latest/trades", p, &ts); err != nil {
			return Quote{}, err
		}
		var ok1, ok2 bool
		qt, ok1 = qs.Quotes[sym]
		tr, ok2 = ts.Trades[sym]
		if !ok1 && !ok2 {
			return Quote{}, fmt.Errorf("%w: alpaca has no crypto quote for %s", ErrNotFound, sym)
		}
	case "", trading.Equity, trading.Unknown:
		class = trading.Equity
		var qs struct {
			Quote alpacaQuote `json:"quote"`
		}
		if err := a.http.get(ctx, "/v2/stocks/"+url.PathEscape(sym)+"/quotes/latest", nil, &qs); err != nil {
			return Quote{}, err
		}
		var ts struct {
			Trade alpacaTrade `json:"trade"`
		}
		if err := a.http.get(ctx, "/v2/stocks/"+url.PathEscape(sym)+"/trades/latest", nil, &ts); err != nil {
			return Quote{}, err
		}
		qt, tr = qs.Quote, ts.Trade
	default:
		return Quote{}, fmt.Errorf("alpaca: %s quotes are %w", class, ErrUnsupported)
	}
	out := Quote{Symbol: sym, AssetClass: class, Bid: dec(qt.BP), Ask: dec(qt.AP), Last: dec(tr.P), Currency: "USD", Time: tr.T}
	if qt.T.After(out.Time) {
		out.Time = qt.T
	}
	if out.Last.IsZero() && !out.Bid.IsZero() && !out.Ask.IsZero() {
		out.Last = out.Bid.Add(out.Ask).Div(decimal.NewFromInt(2))
	}
	return out, nil
}

// Search implements Source: Alpaca's data API has no search endpoint.
func (a *Alpaca) Search(context.Context, string, trading.AssetClass, int) ([]Instrument, error) {
	return nil, fmt.Errorf("alpaca: symbol search is %w", ErrUnsupported)
}

// num parses a JSON number as float; malformed or missing values are 0.
func num(n json.Number) float64 {
	f, err := n.Float64()
	if err != nil {
		return 0
	}
	return f
}

// dec parses a JSON number exactly; malformed or missing values are zero.
func dec(n json.Number) decimal.Decimal {
	if n == "" {
		return decimal.Zero
	}
	d, err := decimal.NewFromString(n.String())
	if err != nil {
		return decimal.Zero
	}
	return d
}

func inRange(bars []Bar, from, to time.Time) []Bar {
	out := bars[:0]
	for _, b := range bars {
		if !b.Time.Before(from) && b.Time.Before(to) {
			out = append(out, b)
		}
	}
	return out
}
