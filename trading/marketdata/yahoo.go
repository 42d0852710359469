package marketdata

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/alice-trading/alice/trading"
)

// YahooURL is the production host of Yahoo Finance's public JSON API.
const YahooURL = "https://query1.finance.yahoo.com"

// Yahoo reads the unauthenticated chart (/v8/finance/chart) and search
// (/v1/finance/search) endpoints. Profiles are assembled from the search
// hit (name, sector, industry) and the chart meta (price, 52-week range),
// which avoids the crumb-protected quoteSummary endpoint.
type Yahoo struct {
	http httpGetter
}

// NewYahoo builds the backend; baseURL "" means YahooURL.
func NewYahoo(baseURL string, client *http.Client) (*Yahoo, error) {
	if baseURL == "" {
		baseURL = YahooURL
	}
	h := http.Header{}
	// Yahoo rejects Go's default user agent.
	h.Set("User-Agent", "Mozilla/5.0 (compatible; alice-trading-agent/1.0)")
	g, err := newHTTPGetter(client, baseURL, h)
	if err != nil {
		return nil, err
	}
	return &Yahoo{http: g}, nil
}

// Name implements Source.
func (y *Yahoo) Name() string { return "yahoo" }

// commodityCatalogue maps canonical commodity names (and common tickers)
// to Yahoo front-month futures symbols.
var commodityCatalogue = []struct{ Key, Name, Yahoo string }{
	{"gold", "Gold", "GC=F"}, {"silver", "Silver", "SI=F"}, {"platinum", "Platinum", "PL=F"},
	{"palladium", "Palladium", "PA=F"}, {"copper", "Copper", "HG=F"}, {"crude_oil", "WTI crude oil", "CL=F"},
	{"brent", "Brent crude oil", "BZ=F"}, {"natural_gas", "Natural gas", "NG=F"}, {"gasoline", "RBOB gasoline", "RB=F"},
	{"heating_oil", "Heating oil", "HO=F"}, {"corn", "Corn", "ZC=F"}, {"wheat", "Wheat", "ZW=F"},
	{"soybeans", "Soybeans", "ZS=F"}, {"coffee", "Coffee", "KC=F"}, {"sugar", "Sugar", "SB=F"},
	{"cotton", "Cotton", "CT=F"}, {"cocoa", "Cocoa", "CC=F"}, {"live_cattle", "Live cattle", "LE=F"},
}

var commodityAliases = map[string]string{"XAU": "gold", "XAG": "silver", "WTI": "crude_oil", "OIL": "crude_oil", "NATGAS": "natural_gas"}

// yahooSymbol maps Alice's symbol conventions to Yahoo's: BTC → BTC-USD,
// EURUSD → EURUSD=X, gold/XAU → GC=F.
func yahooSymbol(symbol string, class trading.AssetClass) string {
	s := strings.TrimSpace(symbol)
	up := strings.ToUpper(s)
	if strings.ContainsAny(up, "=^") {
		return up
	}
	switch class {
	case trading.Crypto:
		if strings.Contains(up, "-") {
			return up
		}
		up = strings.ReplaceAll(up, "/", "")
		for _, q := range []string{"USDT", "USD"} {
			if base, ok := strings.CutSuffix(up, q); ok && base != "" {
				return base + "-USD"
			}
		}
		return up + "-USD"
	case trading.Currency:
		return strings.ReplaceAll(up, "/", "") + "=X"
	case trading.Commodity:
		key := strings.ToLower(s)
		if a, ok := commodityAliases[up]; ok {
			key = a
		}
		for _, c := range commodityCatalogue {
			if c.Key == key {
				return c.Yahoo
			}
		}
	}
	return up
}

func yahooInterval(i Interval) (string, error) {
	switch {
	case i.Unit == Minute && (i.N == 1 || i.N == 2 || i.N == 5 || i.N == 15 || i.N == 30 || i.N == 90):
		return strconv.Itoa(i.N) + "m", nil
	case i.Unit == Hour && i.N == 1:
		return "1h", nil
	case i.Unit == Day && (i.N == 1 || i.N == 5):
		return strconv.Itoa(i.N) + "d", nil
	case i.Unit == Week && i.N == 1:
		return "1wk", nil
	}
	return "", fmt.Errorf("yahoo does not offer %s bars (use 1m,2m,5m,15m,30m,90m,1h,1d,5d,1w)", i)
}

type yahooChart struct {
	Chart struct {
		Result []struct {
			Meta struct {
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
			} `json:"meta"`
			Timestamp  []int64 `json:"timestamp"`
			Indicators struct {
				Quote []struct {
					Open   []*json.Number `json:"open"`
					High   []*json.Number `json:"high"`
					Low    []*json.Number `json:"low"`
					Close  []*json.Number `json:"close"`
					Volume []*json.Number `json:"volume"`
				} `json:"quote"`
			} `json:"indicators"`
		} `json:"result"`
		Error *struct {
			Code        string `json:"code"`
			Description string `json:"description"`
		} `json:"error"`
	} `json:"chart"`
}

func (y *Yahoo) chart(ctx context.Context, sym string, q url.Values) (*yahooChart, error) {
	var c yahooChart
	if err := y.http.get(ctx, "/v8/finance/chart/"+url.PathEscape(sym), q, &c); err != nil {
		return nil, fmt.Errorf("yahoo chart %s: %w", sym, err)
	}
	if c.Chart.Error != nil {
		return nil, fmt.Errorf("%w: yahoo chart %s: %s (%s)", ErrNotFound, sym, c.Chart.Error.Description, c.Chart.Error.Code)
	}
	if len(c.Chart.Result) == 0 {
		return nil, fmt.Errorf("%w: yahoo returned no chart for %s", ErrNotFound, sym)
	}
	return &c, nil
}

// Bars implements Source. Rows with a null open/high/low/close (Yahoo emits
// them for halted or not-yet-traded periods) are dropped.
func (y *Yahoo) Bars(ctx context.Context, symbol string, class trading.AssetClass, interval Interval, from, to time.Time) ([]Bar, error) {
	if err := checkRange(interval, from, to); err != nil {
		return nil, err
	}
	iv, err := yahooInterval(interval)
	if err != nil {
		return nil, err
	}
	sym := yahooSymbol(symbol, class)
	c, err := y.chart(ctx, sym, url.Values{
		"interval": {iv}, "period1": {strconv.FormatInt(from.Unix(), 10)}, "period2": {strconv.FormatInt(to.Unix(), 10)},
		"includePrePost": {"false"},
	})
	if err != nil {
		return nil, err
	}
	r := c.Chart.Result[0]
	if len(r.Indicators.Quote) == 0 {
		return nil, nil
	}
	q := r.Indicators.Quote[0]
	var out []Bar
	for i, ts := range r.Timestamp {
		o, h, l, cl := at(q.Open, i), at(q.High, i), at(q.Low, i), at(q.Close, i)
		if o == nil || h == nil || l == nil || cl == nil {
			continue
		}
		b := Bar{Time: time.Unix(ts, 0).UTC(), Open: num(*o), High: num(*h), Low: num(*l), Close: num(*cl)}
		if v := at(q.Volume, i); v != nil {
			b.Volume = num(*v)
		}
		out = append(out, b)
	}
	return inRange(out, from, to), nil
}

func at(xs []*json.Number, i int) *json.Number {
	if i < len(xs) {
		return xs[i]
	}
	return nil
}

// Quote implements Source from the chart meta (Yahoo's chart has no
// bid/ask, so those stay unset).
func (y *Yahoo) Quote(ctx context.Context, symbol string, class trading.AssetClass) (Quote, error) {
	sym := yahooSymbol(symbol, class)
	c, err := y.chart(ctx, sym, url.Values{"interval": {"1d"}, "range": {"1d"}})
	if err != nil {
		return Quote{}, err
	}
	m := c.Chart.Result[0].Meta
	if class == "" {
		class = yahooClass(m.InstrumentType)
	}
	return Quote{
		Symbol: m.Symbol, AssetClass: class, Last: dec(m.RegularMarketPrice), High: dec(m.RegularMarketDayHigh),
		Low: dec(m.RegularMarketDayLow), Volume: dec(m.RegularMarketVolume), Currency: m.Currency,
		Time: time.Unix(m.RegularMarketTime, 0).UTC(),
	}, nil
}

func yahooClass(quoteType string) trading.AssetClass {
	switch strings.ToUpper(quoteType) {
	case "EQUITY", "ETF", "MUTUALFUND", "INDEX":
		return trading.Equity
	case "CRYPTOCURRENCY":
		return trading.Crypto
	case "CURRENCY":
		return trading.Currency
	case "FUTURE", "COMMODITY":
		return trading.Commodity
	}
	return trading.Unknown
}

type yahooSearch struct {
	Quotes []struct {
		Symbol    string `json:"symbol"`
		ShortName string `json:"shortname"`
		LongName  string `json:"longname"`
		QuoteType string `json:"quoteType"`
		Exchange  string `json:"exchange"`
		ExchDisp  string `json:"exchDisp"`
		Sector    string `json:"sector"`
		Industry  string `json:"industry"`
	} `json:"quotes"`
}

func (y *Yahoo) search(ctx context.Context, query string, count int) (*yahooSearch, error) {
	var s yahooSearch
	err := y.http.get(ctx, "/v1/finance/search", url.Values{
		"q": {query}, "quotesCount": {strconv.Itoa(count)}, "newsCount": {"0"}, "listsCount": {"0"},
	}, &s)
	if err != nil {
		return nil, fmt.Errorf("yahoo search: %w", err)
	}
	return &s, nil
}

// Search implements Source; commodities also match the canonical catalogue
// (gold, crude_oil, …) because Yahoo's search ranks futures poorly.
func (y *Yahoo) Search(ctx context.Context, query string, class trading.AssetClass, limit int) ([]Instrument, error) {
	if strings.TrimSpace(query) == "" {
		return nil, fmt.Errorf("search query is empty")
	}
	if limit <= 0 {
		limit = 20
	}
	if class == trading.Unknown {
		class = ""
	}
	var out []Instrument
	if class == "" || class == trading.Commodity {
		ql := strings.ToLower(strings.TrimSpace(query))
		for _, c := range commodityCatalogue {
			if strings.Contains(c.Key, ql) || strings.Contains(strings.ToLower(c.Name), ql) {
				out = append(out, Instrument{Symbol: c.Key, Name: c.Name + " (" + c.Yahoo + ")", AssetClass: trading.Commodity})
			}
		}
	}
	count := limit
	if class == "" {
		count = limit * 4
	}
	s, err := y.search(ctx, query, min(count, 100))
	if err != nil {
		return nil, err
	}
	for _, q := range s.Quotes {
		c := yahooClass(q.QuoteType)
		if class != "" && c != class {
			continue
		}
		name := q.LongName
		if name == "" {
			name = q.ShortName
		}
		out = append(out, Instrument{Symbol: q.Symbol, Name: name, AssetClass: c, Exchange: q.ExchDisp})
	}
	if class != "" && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// Profile implements ProfileSource.
func (y *Yahoo) Profile(ctx context.Context, symbol string) (Profile, error) {
	sym := strings.ToUpper(strings.TrimSpace(symbol))
	if sym == "" {
		return Profile{}, fmt.Errorf("symbol is required")
	}
	c, err := y.chart(ctx, sym, url.Values{"interval": {"1d"}, "range": {"1d"}})
	if err != nil {
		return Profile{}, err
	}
	m := c.Chart.Result[0].Meta
	p := Profile{
		Symbol: m.Symbol, Name: m.LongName, AssetClass: yahooClass(m.InstrumentType), Exchange: m.FullExchangeName,
		Currency: m.Currency, Price: dec(m.RegularMarketPrice), High52w: dec(m.FiftyTwoWeekHigh),
		Low52w: dec(m.FiftyTwoWeekLow), Source: y.Name(),
	}
	if p.Name == "" {
		p.Name = m.ShortName
	}
	if s, err := y.search(ctx, sym, 5); err == nil {
		for _, q := range s.Quotes {
			if strings.EqualFold(q.Symbol, sym) {
				p.Sector, p.Industry = q.Sector, q.Industry
				if p.Name == "" {
					p.Name = q.LongName
				}
				break
			}
		}
	}
	return p, nil
}
