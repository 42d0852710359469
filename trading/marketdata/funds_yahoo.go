package marketdata

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/alice-trading/alice/core/httpjson"
	"github.com/alice-trading/alice/trading/yahoo"
)

// CBOEURL is the host of Cboe's public index catalogue.
const CBOEURL = "https://cdn.cboe.com"

// cboeIndexPath is the catalogue of every Cboe-calculated index.
const cboeIndexPath = "/api/global/us_indices/definitions/all_indices.json"

// YahooFunds answers the fund tools keylessly: Yahoo's quoteSummary
// modules (topHoldings, fundProfile, summaryDetail, defaultKeyStatistics,
// financialData, earningsTrend), Yahoo search for ETFs, and Cboe's index
// catalogue for indexSearch. Country weights and index constituents have
// no keyless source here; those need the OpenBB backend.
type YahooFunds struct {
	y    *yahoo.Client
	cboe *httpjson.Client
}

// NewYahooFunds builds the source; cboeURL "" means CBOEURL.
func NewYahooFunds(y *yahoo.Client, cboeURL string, client *http.Client) *YahooFunds {
	if cboeURL == "" {
		cboeURL = CBOEURL
	}
	c, err := httpjson.New(httpjson.Options{Name: "cboe", BaseURL: cboeURL, HTTP: client, Timeout: 30 * time.Second,
		CacheTTL: 24 * time.Hour, CacheEntries: 4, Retries: 1, MaxBody: 16 << 20})
	if err != nil {
		c = nil // a bad URL: indexSearch reports it
	}
	return &YahooFunds{y: y, cboe: c}
}

// Name implements FundSource.
func (f *YahooFunds) Name() string { return "yahoo" }

// ynum is a quoteSummary number: plain (formatted=false) or Yahoo's
// {"raw": 1.2, "fmt": "1.20"}; {} and null are absent.
type ynum struct{ p *float64 }

func (n *ynum) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	if b[0] == '{' {
		var o struct {
			Raw *float64 `json:"raw"`
		}
		if err := json.Unmarshal(b, &o); err != nil {
			return err
		}
		n.p = o.Raw
		return nil
	}
	if b[0] == '"' { // Yahoo sometimes quotes large counts
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		var f float64
		if _, err := fmt.Sscan(s, &f); err == nil {
			n.p = &f
		}
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	n.p = &f
	return nil
}

// date renders an epoch-seconds ynum as YYYY-MM-DD.
func (n ynum) date() string {
	if n.p == nil || *n.p <= 0 {
		return ""
	}
	return time.Unix(int64(*n.p), 0).UTC().Format("2006-01-02")
}

// Fund implements FundSource.
func (f *YahooFunds) Fund(ctx context.Context, q FundQuery, arg string, limit int) ([]any, error) {
	sym := strings.ToUpper(strings.TrimSpace(arg))
	switch q {
	case ETFSearch:
		return f.etfSearch(ctx, arg, limit)
	case ETFInfo:
		return f.etfInfo(ctx, sym)
	case ETFHoldings, ETFSectors:
		return f.topHoldings(ctx, sym, q)
	case IndexSearch:
		return f.indexSearch(ctx, arg)
	case Estimates:
		return f.estimates(ctx, sym)
	case ShortInterest:
		return f.shortInterest(ctx, sym)
	case ETFCountries:
		return nil, unavailable(toolOf(q), "yahoo", "Yahoo has no country weights; use backend openbb with provider fmp or tmx")
	case IndexConstituents:
		return nil, unavailable(toolOf(q), "yahoo", "no keyless constituents source; use backend openbb with provider fmp, cboe or tmx")
	}
	return nil, fmt.Errorf("unknown fund query %d", int(q))
}

type etfHit struct {
	Symbol    string `json:"symbol"`
	Name      string `json:"name,omitempty"`
	Exchange  string `json:"exchange,omitempty"`
	QuoteType string `json:"quote_type"`
}

func (f *YahooFunds) etfSearch(ctx context.Context, query string, limit int) ([]any, error) {
	n := 25
	if limit > 0 {
		n = min(100, 3*limit)
	}
	hits, err := f.y.Search(ctx, query, n)
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, h := range hits {
		if !strings.EqualFold(h.QuoteType, "ETF") {
			continue
		}
		name := h.LongName
		if name == "" {
			name = h.ShortName
		}
		out = append(out, etfHit{Symbol: h.Symbol, Name: name, Exchange: h.ExchDisp, QuoteType: h.QuoteType})
	}
	return out, nil
}

// etfInfoRow is OpenBB's yfinance EtfInfo row (the fields Yahoo fills).
type etfInfoRow struct {
	Symbol        string   `json:"symbol"`
	Name          string   `json:"name,omitempty"`
	Description   string   `json:"description,omitempty"`
	InceptionDate string   `json:"inception_date,omitempty"`
	FundType      string   `json:"fund_type,omitempty"`
	FundFamily    string   `json:"fund_family,omitempty"`
	Category      string   `json:"category,omitempty"`
	Exchange      string   `json:"exchange,omitempty"`
	Currency      string   `json:"currency,omitempty"`
	NavPrice      *float64 `json:"nav_price,omitempty"`
	TotalAssets   *float64 `json:"total_assets,omitempty"`
	TrailingPE    *float64 `json:"trailing_pe,omitempty"`
	DividendYield *float64 `json:"dividend_yield,omitempty"`
	YearHigh      *float64 `json:"year_high,omitempty"`
	YearLow       *float64 `json:"year_low,omitempty"`
	MA50d         *float64 `json:"ma_50d,omitempty"`
	MA200d        *float64 `json:"ma_200d,omitempty"`
	ReturnYTD     *float64 `json:"return_ytd,omitempty"`
	Return3y      *float64 `json:"return_3y_avg,omitempty"`
	Return5y      *float64 `json:"return_5y_avg,omitempty"`
	Beta3y        *float64 `json:"beta_3y_avg,omitempty"`
	VolumeAvg     *float64 `json:"volume_avg,omitempty"`
	VolumeAvg10d  *float64 `json:"volume_avg_10d,omitempty"`
	PrevClose     *float64 `json:"prev_close,omitempty"`
}

func (f *YahooFunds) etfInfo(ctx context.Context, sym string) ([]any, error) {
	s, err := f.y.QuoteSummary(ctx, sym, "price", "summaryDetail", "defaultKeyStatistics", "fundProfile", "summaryProfile")
	if err != nil {
		return nil, err
	}
	var price struct {
		LongName, ShortName, ExchangeName, Currency, QuoteType string
	}
	var detail struct {
		NavPrice, TotalAssets, TrailingPE, Yield, FiftyTwoWeekHigh, FiftyTwoWeekLow ynum
		FiftyDayAverage, TwoHundredDayAverage, AverageVolume, AverageVolume10days   ynum
		PreviousClose                                                               ynum
	}
	var stats struct {
		FundFamily, Category, LegalType                                             string
		FundInceptionDate, YtdReturn, ThreeYearAverageReturn, FiveYearAverageReturn ynum
		Beta3Year, TotalAssets                                                      ynum
	}
	var profile struct{ Family, CategoryName, LegalType string }
	var summary struct{ LongBusinessSummary string }
	if err := s.Module("price", &price); err != nil {
		return nil, err
	}
	_ = s.Module("summaryDetail", &detail)
	_ = s.Module("defaultKeyStatistics", &stats)
	_ = s.Module("fundProfile", &profile)
	_ = s.Module("summaryProfile", &summary)
	r := etfInfoRow{Symbol: sym, Name: price.LongName, Description: summary.LongBusinessSummary, InceptionDate: stats.FundInceptionDate.date(),
		FundType: first(stats.LegalType, profile.LegalType, price.QuoteType), FundFamily: first(stats.FundFamily, profile.Family),
		Category: first(stats.Category, profile.CategoryName), Exchange: price.ExchangeName, Currency: price.Currency,
		NavPrice: detail.NavPrice.p, TotalAssets: detail.TotalAssets.p, TrailingPE: detail.TrailingPE.p, DividendYield: detail.Yield.p,
		YearHigh: detail.FiftyTwoWeekHigh.p, YearLow: detail.FiftyTwoWeekLow.p, MA50d: detail.FiftyDayAverage.p, MA200d: detail.TwoHundredDayAverage.p,
		ReturnYTD: stats.YtdReturn.p, Return3y: stats.ThreeYearAverageReturn.p, Return5y: stats.FiveYearAverageReturn.p, Beta3y: stats.Beta3Year.p,
		VolumeAvg: detail.AverageVolume.p, VolumeAvg10d: detail.AverageVolume10days.p, PrevClose: detail.PreviousClose.p}
	if r.Name == "" {
		r.Name = price.ShortName
	}
	if r.TotalAssets == nil {
		r.TotalAssets = stats.TotalAssets.p
	}
	return []any{r}, nil
}

type holdingRow struct {
	Symbol string   `json:"symbol,omitempty"`
	Name   string   `json:"name,omitempty"`
	Weight *float64 `json:"weight"`
}

type sectorRow struct {
	Symbol string  `json:"symbol"`
	Sector string  `json:"sector"`
	Weight float64 `json:"weight"`
}

// sectorNames are Yahoo's sector keys as display names.
var sectorNames = map[string]string{
	"realestate": "Real Estate", "consumer_cyclical": "Consumer Cyclical", "basic_materials": "Basic Materials",
	"consumer_defensive": "Consumer Defensive", "technology": "Technology", "communication_services": "Communication Services",
	"financial_services": "Financial Services", "utilities": "Utilities", "industrials": "Industrials", "energy": "Energy",
	"healthcare": "Healthcare",
}

func (f *YahooFunds) topHoldings(ctx context.Context, sym string, q FundQuery) ([]any, error) {
	s, err := f.y.QuoteSummary(ctx, sym, "topHoldings")
	if err != nil {
		return nil, err
	}
	var th struct {
		Holdings []struct {
			Symbol         string `json:"symbol"`
			HoldingName    string `json:"holdingName"`
			HoldingPercent ynum   `json:"holdingPercent"`
		} `json:"holdings"`
		SectorWeightings []map[string]ynum `json:"sectorWeightings"`
	}
	if err := s.Module("topHoldings", &th); err != nil {
		return nil, err
	}
	out := []any{}
	if q == ETFHoldings {
		for _, h := range th.Holdings {
			out = append(out, holdingRow{Symbol: h.Symbol, Name: h.HoldingName, Weight: h.HoldingPercent.p})
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%w: no holdings for %s (Yahoo carries holdings for funds and ETFs only)", ErrNotFound, sym)
		}
		return out, nil
	}
	var rows []sectorRow
	for _, m := range th.SectorWeightings {
		for k, w := range m {
			if w.p == nil {
				continue
			}
			name := sectorNames[k]
			if name == "" {
				name = k
			}
			rows = append(rows, sectorRow{Symbol: sym, Sector: name, Weight: *w.p})
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: no sector weights for %s (Yahoo carries them for funds and ETFs only)", ErrNotFound, sym)
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].Weight != rows[j].Weight {
			return rows[i].Weight > rows[j].Weight
		}
		return rows[i].Sector < rows[j].Sector
	})
	for _, r := range rows {
		out = append(out, r)
	}
	return out, nil
}

func first(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
