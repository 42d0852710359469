package marketdata

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/core/httpjson"
	"github.com/alice-trading/alice/trading"
)

// OpenBB is the market data Source over an OpenBB Platform REST API server
// (`openbb-api`, default http://127.0.0.1:6900): equity, crypto and
// currency prices, symbol search and company profiles through the
// /api/v1/<router>/… routes, each answering OpenBB's OBBject envelope
// {results, provider, warnings, chart, extra}. Get reaches any other route
// of the routers alice allows (index, economy, commodity, …).
type OpenBB struct {
	c        *httpjson.Client
	base     string
	provider string
	now      func() time.Time
}

// OpenBBDefaultURL is where `openbb-api` listens by default.
const OpenBBDefaultURL = "http://127.0.0.1:6900"

// NewOpenBB builds the backend. token, when set, is sent as a bearer token
// (an API behind auth); provider, when set, is passed as OpenBB's
// provider= choice (yfinance, fmp, polygon, …) on every call.
func NewOpenBB(baseURL, token, provider string, client *http.Client) (*OpenBB, error) {
	if baseURL == "" {
		baseURL = OpenBBDefaultURL
	}
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	c, err := httpjson.New(httpjson.Options{Name: "openbb", BaseURL: baseURL, HTTP: client, Headers: h,
		Timeout: 30 * time.Second, CacheTTL: 15 * time.Second, Retries: 1})
	if err != nil {
		return nil, fmt.Errorf("market data backend openbb: %w", err)
	}
	return &OpenBB{c: c, base: strings.TrimRight(baseURL, "/"), provider: provider, now: time.Now}, nil
}

// Name implements Source.
func (o *OpenBB) Name() string {
	if o.provider != "" {
		return "openbb (" + o.provider + ")"
	}
	return "openbb"
}

// OBBject is OpenBB's response envelope.
type OBBject struct {
	Results  json.RawMessage `json:"results"`
	Provider string          `json:"provider,omitempty"`
	Warnings []struct {
		Category string `json:"category,omitempty"`
		Message  string `json:"message"`
	} `json:"warnings,omitempty"`
	Chart json.RawMessage `json:"chart,omitempty"`
	Extra json.RawMessage `json:"extra,omitempty"`
}

// routeRE is what Get accepts as a route: routers alice allows, then
// lower-case path segments.
var routeRE = regexp.MustCompile(`^(equity|crypto|currency|commodity|index|economy|etf|fixedincome|derivatives|news|regulators)(/[a-z0-9_]+)+$`)

// Get calls /api/v1/<route> with params (provider added unless given) and
// returns the envelope. A server that does not answer is an error naming
// the backend and its address.
func (o *OpenBB) Get(ctx context.Context, route string, params url.Values) (OBBject, error) {
	route = strings.Trim(strings.TrimSpace(route), "/")
	if !routeRE.MatchString(route) {
		return OBBject{}, fmt.Errorf("openbb route %q: want <router>/<command>, e.g. economy/cpi or index/price/historical (routers: equity, crypto, currency, commodity, index, economy, etf, fixedincome, derivatives, news, regulators)", route)
	}
	q := url.Values{}
	for k, v := range params {
		q[k] = v
	}
	// A "provider" key that is present but empty asks for the server's
	// default priority (it is not sent).
	if _, set := q["provider"]; !set && o.provider != "" {
		q.Set("provider", o.provider)
	}
	if len(q["provider"]) == 0 || q.Get("provider") == "" {
		delete(q, "provider")
	}
	res, err := o.c.Do(ctx, httpjson.Request{Path: "/api/v1/" + route, Query: q})
	if err != nil {
		return OBBject{}, o.explain(route, err)
	}
	var env OBBject
	if err := res.Decode(&env); err != nil {
		return OBBject{}, fmt.Errorf("market data backend openbb at %s: /api/v1/%s answered something that is not an OBBject: %w", o.base, route, err)
	}
	return env, nil
}

// explain turns a failed call into an error that names the backend.
func (o *OpenBB) explain(route string, err error) error {
	var te *httpjson.TransportError
	switch {
	case errors.As(err, &te):
		return fmt.Errorf("market data backend openbb at %s is not answering (is `openbb-api` running? market-data.json baseUrl): %w", o.base, err)
	case errors.Is(err, httpjson.ErrUnauthorized), errors.Is(err, httpjson.ErrForbidden):
		return fmt.Errorf("market data backend openbb at %s refused the credentials (market-data.json apiKey/apiKeyEnv): %w", o.base, err)
	case errors.Is(err, httpjson.ErrNotFound):
		return errors.Join(ErrNotFound, fmt.Errorf("market data backend openbb at %s: /api/v1/%s: %w", o.base, route, err))
	}
	return fmt.Errorf("market data backend openbb at %s: /api/v1/%s: %w", o.base, route, err)
}

// onum is a JSON number or null.
type onum = *float64

func dnum(f onum) decimal.Decimal {
	if f == nil {
		return decimal.Zero
	}
	return decimal.NewFromFloat(*f)
}

func fnum(f onum) float64 {
	if f == nil {
		return 0
	}
	return *f
}

// priceRoute is the historical route for an asset class.
func priceRoute(class trading.AssetClass) (string, error) {
	switch class {
	case "", trading.Equity, trading.Unknown:
		return "equity/price/historical", nil
	case trading.Crypto:
		return "crypto/price/historical", nil
	case trading.Currency:
		return "currency/price/historical", nil
	}
	return "", fmt.Errorf("%w: openbb has no %s price route alice maps (use economy/commodity routes through openbbGet, or the auto/yahoo backend)", ErrUnsupported, class)
}

// obbSymbol maps alice's pair forms (BTC/USD, BTC-USD, EUR/USD) to the
// concatenated form OpenBB's crypto and currency routes take.
func obbSymbol(symbol string, class trading.AssetClass) string {
	s := strings.ToUpper(strings.TrimSpace(symbol))
	if class == trading.Crypto || class == trading.Currency {
		s = strings.NewReplacer("/", "", "-", "").Replace(s)
		if class == trading.Crypto && !strings.HasSuffix(s, "USD") && !strings.HasSuffix(s, "USDT") {
			s += "USD"
		}
	}
	return s
}

func obbInterval(i Interval) (string, error) {
	switch {
	case i.Unit == Minute && (i.N == 1 || i.N == 5 || i.N == 15 || i.N == 30):
		return i.String(), nil
	case i.Unit == Hour && i.N == 1:
		return "1h", nil
	case i.Unit == Day && i.N == 1:
		return "1d", nil
	case i.Unit == Week && i.N == 1:
		return "1W", nil
	}
	return "", fmt.Errorf("openbb does not offer %s bars (use 1m,5m,15m,30m,1h,1d,1w)", i)
}

type obbBar struct {
	Date   string `json:"date"`
	Open   onum   `json:"open"`
	High   onum   `json:"high"`
	Low    onum   `json:"low"`
	Close  onum   `json:"close"`
	Volume onum   `json:"volume"`
}

// parseDate reads OpenBB's dates: "2024-01-02" or an RFC 3339 time.
func parseDate(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("openbb: unreadable date %q", s)
}

// Bars implements Source.
func (o *OpenBB) Bars(ctx context.Context, symbol string, class trading.AssetClass, interval Interval, from, to time.Time) ([]Bar, error) {
	if err := checkRange(interval, from, to); err != nil {
		return nil, err
	}
	route, err := priceRoute(class)
	if err != nil {
		return nil, err
	}
	iv, err := obbInterval(interval)
	if err != nil {
		return nil, err
	}
	q := url.Values{"symbol": {obbSymbol(symbol, class)}, "interval": {iv},
		"start_date": {from.UTC().Format("2006-01-02")}, "end_date": {to.UTC().Format("2006-01-02")}}
	env, err := o.Get(ctx, route, q)
	if err != nil {
		return nil, err
	}
	var rows []obbBar
	if err := json.Unmarshal(env.Results, &rows); err != nil {
		return nil, fmt.Errorf("openbb %s: results: %w", route, err)
	}
	out := make([]Bar, 0, len(rows))
	for _, r := range rows {
		t, err := parseDate(r.Date)
		if err != nil {
			return nil, err
		}
		if t.Before(from) || !t.Before(to) {
			continue
		}
		out = append(out, Bar{Time: t, Open: fnum(r.Open), High: fnum(r.High), Low: fnum(r.Low), Close: fnum(r.Close), Volume: fnum(r.Volume)})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: openbb returned no %s bars for %s", ErrNotFound, interval, symbol)
	}
	return out, nil
}

type obbQuote struct {
	Symbol    string `json:"symbol"`
	Name      string `json:"name"`
	LastPrice onum   `json:"last_price"`
	Price     onum   `json:"price"` // some providers (fmp)
	Bid       onum   `json:"bid"`
	Ask       onum   `json:"ask"`
	High      onum   `json:"high"`
	Low       onum   `json:"low"`
	Close     onum   `json:"close"`
	Volume    onum   `json:"volume"`
	Currency  string `json:"currency"`
}

// Quote implements Source: equity/price/quote for equities; crypto and
// currency pairs have no quote route, so their last daily bar is used.
func (o *OpenBB) Quote(ctx context.Context, symbol string, class trading.AssetClass) (Quote, error) {
	if class == trading.Crypto || class == trading.Currency || class == trading.Commodity {
		to := o.now().UTC().Add(24 * time.Hour)
		bars, err := o.Bars(ctx, symbol, class, Interval{N: 1, Unit: Day}, to.Add(-10*24*time.Hour), to)
		if err != nil {
			return Quote{}, err
		}
		b := bars[len(bars)-1]
		return Quote{Symbol: strings.ToUpper(symbol), AssetClass: class, Last: decimal.NewFromFloat(b.Close),
			High: decimal.NewFromFloat(b.High), Low: decimal.NewFromFloat(b.Low), Volume: decimal.NewFromFloat(b.Volume),
			Time: b.Time, Source: o.Name()}, nil
	}
	env, err := o.Get(ctx, "equity/price/quote", url.Values{"symbol": {strings.ToUpper(strings.TrimSpace(symbol))}})
	if err != nil {
		return Quote{}, err
	}
	var rows []obbQuote
	if err := json.Unmarshal(env.Results, &rows); err != nil {
		return Quote{}, fmt.Errorf("openbb equity/price/quote: results: %w", err)
	}
	if len(rows) == 0 {
		return Quote{}, fmt.Errorf("%w: openbb has no quote for %s", ErrNotFound, symbol)
	}
	r := rows[0]
	last := dnum(r.LastPrice)
	if last.IsZero() {
		last = dnum(r.Price)
	}
	if last.IsZero() {
		last = dnum(r.Close)
	}
	return Quote{Symbol: r.Symbol, AssetClass: trading.Equity, Last: last, Bid: dnum(r.Bid), Ask: dnum(r.Ask),
		High: dnum(r.High), Low: dnum(r.Low), Volume: dnum(r.Volume), Currency: r.Currency, Time: o.now().UTC(), Source: o.Name()}, nil
}

// Search implements Source through <router>/search.
func (o *OpenBB) Search(ctx context.Context, query string, class trading.AssetClass, limit int) ([]Instrument, error) {
	route, rc := "equity/search", trading.Equity
	switch class {
	case trading.Crypto:
		route, rc = "crypto/search", trading.Crypto
	case trading.Currency:
		route, rc = "currency/search", trading.Currency
	case trading.Commodity:
		return nil, fmt.Errorf("%w: openbb has no commodity search", ErrUnsupported)
	}
	env, err := o.Get(ctx, route, url.Values{"query": {query}})
	if err != nil {
		return nil, err
	}
	var rows []struct {
		Symbol string `json:"symbol"`
		Name   string `json:"name"`
	}
	if err := json.Unmarshal(env.Results, &rows); err != nil {
		return nil, fmt.Errorf("openbb %s: results: %w", route, err)
	}
	out := []Instrument{}
	for _, r := range rows {
		if limit > 0 && len(out) >= limit {
			break
		}
		out = append(out, Instrument{Symbol: r.Symbol, Name: r.Name, AssetClass: rc})
	}
	return out, nil
}

// Profile implements ProfileSource through equity/profile.
func (o *OpenBB) Profile(ctx context.Context, symbol string) (Profile, error) {
	env, err := o.Get(ctx, "equity/profile", url.Values{"symbol": {strings.ToUpper(strings.TrimSpace(symbol))}})
	if err != nil {
		return Profile{}, err
	}
	var rows []struct {
		Symbol      string `json:"symbol"`
		Name        string `json:"name"`
		Exchange    string `json:"stock_exchange"`
		Sector      string `json:"sector"`
		Industry    string `json:"industry_category"`
		Description string `json:"long_description"`
		Currency    string `json:"currency"`
	}
	if err := json.Unmarshal(env.Results, &rows); err != nil {
		return Profile{}, fmt.Errorf("openbb equity/profile: results: %w", err)
	}
	if len(rows) == 0 {
		return Profile{}, fmt.Errorf("%w: openbb has no profile for %s", ErrNotFound, symbol)
	}
	r := rows[0]
	return Profile{Symbol: r.Symbol, Name: r.Name, AssetClass: trading.Equity, Exchange: r.Exchange, Currency: r.Currency,
		Sector: r.Sector, Industry: r.Industry, Description: r.Description, Source: o.Name()}, nil
}
