// Package yahoo is alice's one client for Yahoo Finance's unauthenticated
// JSON endpoints: the chart (/v8/finance/chart), symbol search
// (/v1/finance/search), predefined screens
// (/v1/finance/screener/predefined/saved) and quoteSummary modules
// (/v10/finance/quoteSummary, behind a cookie + crumb session, summary.go). Market data (bars, quotes,
// search, profiles) and research (gainers/losers screens) both use it, so
// every Yahoo request is cached briefly, spaced by one rate limiter and
// retried the same way.
package yahoo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/alice-trading/alice/core/httpjson"
)

// URL is the production host of Yahoo Finance's public JSON API.
const URL = "https://query1.finance.yahoo.com"

// ErrNotFound is returned (wrapped) when Yahoo knows no such symbol or
// screen.
var ErrNotFound = errors.New("not found on yahoo")

// Defaults for Options left zero. Yahoo's endpoints are unofficial and
// block addresses that poll hard, so requests are spaced and answers kept
// for a short while (quotes are delayed anyway).
const (
	DefaultPerSecond = 2
	DefaultBurst     = 8
	DefaultCacheTTL  = 15 * time.Second
)

// Options configure a Client; the zero value is production Yahoo.
type Options struct {
	// BaseURL "" means URL.
	BaseURL string
	// HTTP is the transport (nil: 20 s timeout).
	HTTP *http.Client
	// PerSecond and Burst space requests (0: the defaults).
	PerSecond float64
	Burst     int
	// CacheTTL keeps answers (0: DefaultCacheTTL; negative: no cache).
	CacheTTL time.Duration
	// Retries for transient failures (0: 2; negative: none).
	Retries int
	// Now is the cache's clock (nil: time.Now).
	Now func() time.Time
	// CookieURL is where the quoteSummary session cookie is fetched ("":
	// the package's CookieURL).
	CookieURL string
}

// Client reads Yahoo Finance. It is safe for concurrent use.
type Client struct {
	http      *httpjson.Client
	raw       *http.Client // the transport, for the session cookie
	cookieURL string
	sess      session
}

// userAgent is sent with every request: Yahoo rejects Go's default.
const userAgent = "Mozilla/5.0 (compatible; alice-trading-agent/1.0)"

// New builds a client.
func New(o Options) (*Client, error) {
	if o.BaseURL == "" {
		o.BaseURL = URL
	}
	if o.PerSecond <= 0 {
		o.PerSecond = DefaultPerSecond
	}
	if o.Burst <= 0 {
		o.Burst = DefaultBurst
	}
	switch {
	case o.CacheTTL == 0:
		o.CacheTTL = DefaultCacheTTL
	case o.CacheTTL < 0:
		o.CacheTTL = 0
	}
	switch {
	case o.Retries == 0:
		o.Retries = 2
	case o.Retries < 0:
		o.Retries = 0
	}
	c, err := httpjson.New(httpjson.Options{
		Name: "yahoo", BaseURL: o.BaseURL, HTTP: o.HTTP, Timeout: 20 * time.Second,
		// Yahoo rejects Go's default user agent.
		Headers:   http.Header{"User-Agent": {userAgent}},
		PerSecond: o.PerSecond, Burst: o.Burst, CacheTTL: o.CacheTTL, Retries: o.Retries, Now: o.Now,
	})
	if err != nil {
		return nil, err
	}
	raw := o.HTTP
	if raw == nil {
		raw = &http.Client{Timeout: 20 * time.Second}
	}
	if o.CookieURL == "" {
		o.CookieURL = CookieURL
	}
	return &Client{http: c, raw: raw, cookieURL: o.CookieURL}, nil
}

// get fetches path?q into v; a 404 is ErrNotFound.
func (c *Client) get(ctx context.Context, path string, q url.Values, v any) error {
	err := c.http.Get(ctx, path, q, v)
	if errors.Is(err, httpjson.ErrNotFound) {
		return errors.Join(ErrNotFound, err)
	}
	return err
}

// ChartMeta is the chart's meta block. Numbers stay json.Number so
// prices convert to decimals without float rounding.
type ChartMeta struct {
	Currency             string      `json:"currency"`
	Symbol               string      `json:"symbol"`
	ExchangeName         string      `json:"exchangeName"`
	FullExchangeName     string      `json:"fullExchangeName"`
	InstrumentType       string      `json:"instrumentType"`
	LongName             string      `json:"longName"`
	ShortName            string      `json:"shortName"`
	RegularMarketTime    int64       `json:"regularMarketTime"`
	RegularMarketPrice   json.Number `json:"regularMarketPrice"`
	RegularMarketDayHigh json.Number `json:"regularMarketDayHigh"`
	RegularMarketDayLow  json.Number `json:"regularMarketDayLow"`
	RegularMarketVolume  json.Number `json:"regularMarketVolume"`
	FiftyTwoWeekHigh     json.Number `json:"fiftyTwoWeekHigh"`
	FiftyTwoWeekLow      json.Number `json:"fiftyTwoWeekLow"`
}

// OHLCV holds parallel columns; an element is nil where Yahoo sent null
// (halted or not-yet-traded periods).
type OHLCV struct {
	Open   []*json.Number `json:"open"`
	High   []*json.Number `json:"high"`
	Low    []*json.Number `json:"low"`
	Close  []*json.Number `json:"close"`
	Volume []*json.Number `json:"volume"`
}

// Chart is one symbol's chart result.
type Chart struct {
	Meta       ChartMeta `json:"meta"`
	Timestamp  []int64   `json:"timestamp"`
	Indicators struct {
		Quote []OHLCV `json:"quote"`
	} `json:"indicators"`
}

type chartEnvelope struct {
	Chart struct {
		Result []Chart `json:"result"`
		Error  *struct {
			Code        string `json:"code"`
			Description string `json:"description"`
		} `json:"error"`
	} `json:"chart"`
}

// Chart reads /v8/finance/chart/{symbol} with the given query (interval,
// range or period1/period2, …). symbol is a Yahoo symbol (see Symbol).
func (c *Client) Chart(ctx context.Context, symbol string, q url.Values) (*Chart, error) {
	var env chartEnvelope
	if err := c.get(ctx, "/v8/finance/chart/"+url.PathEscape(symbol), q, &env); err != nil {
		return nil, fmt.Errorf("yahoo chart %s: %w", symbol, err)
	}
	if e := env.Chart.Error; e != nil {
		return nil, fmt.Errorf("%w: yahoo chart %s: %s (%s)", ErrNotFound, symbol, e.Description, e.Code)
	}
	if len(env.Chart.Result) == 0 {
		return nil, fmt.Errorf("%w: yahoo returned no chart for %s", ErrNotFound, symbol)
	}
	return &env.Chart.Result[0], nil
}

// SearchQuote is one symbol search hit.
type SearchQuote struct {
	Symbol    string `json:"symbol"`
	ShortName string `json:"shortname"`
	LongName  string `json:"longname"`
	QuoteType string `json:"quoteType"`
	Exchange  string `json:"exchange"`
	ExchDisp  string `json:"exchDisp"`
	Sector    string `json:"sector"`
	Industry  string `json:"industry"`
}

// Search finds up to count symbols matching query.
func (c *Client) Search(ctx context.Context, query string, count int) ([]SearchQuote, error) {
	var s struct {
		Quotes []SearchQuote `json:"quotes"`
	}
	err := c.get(ctx, "/v1/finance/search", url.Values{
		"q": {query}, "quotesCount": {strconv.Itoa(count)}, "newsCount": {"0"}, "listsCount": {"0"},
	}, &s)
	if err != nil {
		return nil, fmt.Errorf("yahoo search: %w", err)
	}
	return s.Quotes, nil
}

// ScreenQuote is one row of a predefined screen.
type ScreenQuote struct {
	Symbol        string      `json:"symbol"`
	ShortName     string      `json:"shortName"`
	LongName      string      `json:"longName"`
	Price         json.Number `json:"regularMarketPrice"`
	Change        json.Number `json:"regularMarketChange"`
	ChangePercent json.Number `json:"regularMarketChangePercent"`
	Volume        json.Number `json:"regularMarketVolume"`
	MarketCap     json.Number `json:"marketCap"`
	Exchange      string      `json:"fullExchangeName"`
}

// Screen reads a predefined screen such as day_gainers, day_losers or
// most_actives.
func (c *Client) Screen(ctx context.Context, id string, count int) ([]ScreenQuote, error) {
	var s struct {
		Finance struct {
			Result []struct {
				Quotes []ScreenQuote `json:"quotes"`
			} `json:"result"`
		} `json:"finance"`
	}
	q := url.Values{"scrIds": {id}, "count": {strconv.Itoa(count)}}
	if err := c.get(ctx, "/v1/finance/screener/predefined/saved", q, &s); err != nil {
		return nil, fmt.Errorf("yahoo screen %s: %w", id, err)
	}
	if len(s.Finance.Result) == 0 {
		return nil, fmt.Errorf("%w: yahoo: empty screen %s", ErrNotFound, id)
	}
	return s.Finance.Result[0].Quotes, nil
}
