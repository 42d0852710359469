package marketdata

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// obbFundRoute is the OpenBB Platform route answering a FundQuery, the
// providers OpenBB documents for it, and the keyless one alice asks for
// when the configured provider is not among them ("" = the server's
// default).
type obbFundRoute struct {
	route     string
	arg       string
	providers []string
	keyless   string
}

var obbFundRoutes = map[FundQuery]obbFundRoute{
	ETFSearch:         {"etf/search", "query", []string{"fmp", "intrinio", "tmx"}, "tmx"},
	ETFInfo:           {"etf/info", "symbol", []string{"yfinance", "fmp", "intrinio", "tmx"}, "yfinance"},
	ETFHoldings:       {"etf/holdings", "symbol", []string{"fmp", "intrinio", "sec", "tmx"}, "sec"},
	ETFSectors:        {"etf/sectors", "symbol", []string{"fmp", "tmx"}, ""},
	ETFCountries:      {"etf/countries", "symbol", []string{"fmp", "tmx"}, ""},
	IndexSearch:       {"index/search", "query", []string{"cboe"}, "cboe"},
	IndexConstituents: {"index/constituents", "symbol", []string{"cboe", "fmp", "tmx"}, ""},
	Estimates:         {"equity/estimates/consensus", "symbol", []string{"yfinance", "fmp", "intrinio", "tmx"}, "yfinance"},
	// OpenAlice's equityGetShortInterest reads share statistics with
	// short interest (yfinance); FINRA's equity/shorts/short_interest is a
	// different, settlement-date series.
	ShortInterest: {"equity/ownership/share_statistics", "symbol", []string{"yfinance", "fmp", "intrinio"}, "yfinance"},
}

// fundProvider picks the provider to send: the configured one when the
// route has it, else the route's keyless one, else none (empty slice: the
// server's default priority).
func (o *OpenBB) fundProvider(r obbFundRoute) []string {
	switch {
	case o.provider != "" && slices.Contains(r.providers, o.provider):
		return []string{o.provider}
	case r.keyless != "":
		return []string{r.keyless}
	}
	return []string{}
}

// Fund implements FundSource over the OpenBB Platform API: the route's
// results rows are returned as OpenBB sent them.
func (o *OpenBB) Fund(ctx context.Context, q FundQuery, arg string, limit int) ([]any, error) {
	r, ok := obbFundRoutes[q]
	if !ok {
		return nil, fmt.Errorf("unknown fund query %d", int(q))
	}
	v := strings.TrimSpace(arg)
	if r.arg == "symbol" {
		v = strings.ToUpper(v)
		if q == IndexConstituents && (v == "SP500" || v == "NASDAQ" || v == "DOWJONES") {
			v = strings.ToLower(v) // fmp's names
		}
	}
	params := url.Values{r.arg: {v}, "provider": o.fundProvider(r)}
	env, err := o.Get(ctx, r.route, params)
	if err != nil {
		return nil, err
	}
	var rows []any
	if err := json.Unmarshal(env.Results, &rows); err != nil {
		var one map[string]any // a provider answering one object
		if json.Unmarshal(env.Results, &one) != nil {
			return nil, fmt.Errorf("openbb %s: results: %w", r.route, err)
		}
		rows = []any{one}
	}
	if len(rows) == 0 {
		msg := ""
		for _, w := range env.Warnings {
			msg += "; " + w.Message
		}
		return nil, fmt.Errorf("%w: openbb %s returned no rows for %s%s", ErrNotFound, r.route, v, msg)
	}
	return rows, nil
}
