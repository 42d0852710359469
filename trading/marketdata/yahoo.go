package marketdata

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/yahoo"
)

// YahooURL is the production host of Yahoo Finance's public JSON API.
const YahooURL = yahoo.URL

// Yahoo is the market data Source over the shared Yahoo client (chart and
// search endpoints). Profiles are assembled from the search hit (name,
// sector, industry) and the chart meta (price, 52-week range), which avoids
// the crumb-protected quoteSummary endpoint.
type Yahoo struct {
	c *yahoo.Client
}

// NewYahoo builds the backend over a new Yahoo client; baseURL "" means
// YahooURL.
func NewYahoo(baseURL string, client *http.Client) (*Yahoo, error) {
	c, err := yahoo.New(yahoo.Options{BaseURL: baseURL, HTTP: client})
	if err != nil {
		return nil, fmt.Errorf("market data: %w", err)
	}
	return YahooSource(c), nil
}

// YahooSource adapts an existing Yahoo client, so market data and research
// can share one (one cache, one rate limit).
func YahooSource(c *yahoo.Client) *Yahoo { return &Yahoo{c: c} }

// Name implements Source.
func (y *Yahoo) Name() string { return "yahoo" }

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

func (y *Yahoo) chart(ctx context.Context, sym string, q url.Values) (*yahoo.Chart, error) {
	c, err := y.c.Chart(ctx, sym, q)
	if errors.Is(err, yahoo.ErrNotFound) {
		return nil, errors.Join(ErrNotFound, err)
	}
	return c, err
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
	sym := yahoo.Symbol(symbol, class)
	c, err := y.chart(ctx, sym, url.Values{
		"interval": {iv}, "period1": {strconv.FormatInt(from.Unix(), 10)}, "period2": {strconv.FormatInt(to.Unix(), 10)},
		"includePrePost": {"false"},
	})
	if err != nil {
		return nil, err
	}
	r := c
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
	sym := yahoo.Symbol(symbol, class)
	c, err := y.chart(ctx, sym, url.Values{"interval": {"1d"}, "range": {"1d"}})
	if err != nil {
		return Quote{}, err
	}
	m := c.Meta
	if class == "" {
		class = yahoo.Class(m.InstrumentType)
	}
	return Quote{
		Symbol: m.Symbol, AssetClass: class, Last: dec(m.RegularMarketPrice), High: dec(m.RegularMarketDayHigh),
		Low: dec(m.RegularMarketDayLow), Volume: dec(m.RegularMarketVolume), Currency: m.Currency,
		Time: time.Unix(m.RegularMarketTime, 0).UTC(),
	}, nil
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
		for _, c := range yahoo.Commodities() {
			if strings.Contains(c.Key, ql) || strings.Contains(strings.ToLower(c.Name), ql) {
				out = append(out, Instrument{Symbol: c.Key, Name: c.Name + " (" + c.Symbol + ")", AssetClass: trading.Commodity})
			}
		}
	}
	count := limit
	if class == "" {
		count = limit * 4
	}
	hits, err := y.c.Search(ctx, query, min(count, 100))
	if err != nil {
		return nil, err
	}
	for _, q := range hits {
		c := yahoo.Class(q.QuoteType)
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
	m := c.Meta
	p := Profile{
		Symbol: m.Symbol, Name: m.LongName, AssetClass: yahoo.Class(m.InstrumentType), Exchange: m.FullExchangeName,
		Currency: m.Currency, Price: dec(m.RegularMarketPrice), High52w: dec(m.FiftyTwoWeekHigh),
		Low52w: dec(m.FiftyTwoWeekLow), Source: y.Name(),
	}
	if p.Name == "" {
		p.Name = m.ShortName
	}
	if hits, err := y.c.Search(ctx, sym, 5); err == nil {
		for _, q := range hits {
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
