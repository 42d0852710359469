package marketdata

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/alice-trading/alice/core"
)

// FundQuery is one kind of fund/index/analyst research question: the
// ETF, index, analyst-estimate and short-interest tools each ask one.
type FundQuery int

const (
	ETFSearch FundQuery = iota + 1
	ETFInfo
	ETFHoldings
	ETFSectors
	ETFCountries
	IndexSearch
	IndexConstituents
	Estimates
	ShortInterest
)

// fundTool describes the tool that asks a FundQuery.
type fundTool struct {
	q      FundQuery
	name   string
	group  string
	arg    string // "symbol" or "query"
	desc   string
	argDoc string
}

// fundTools are OpenAlice's ETF, index and equity research tools (names
// and parameters as in its src/tool/etf.ts, indices.ts, equity.ts), plus
// etfGetCountries and indexGetConstituents, which OpenAlice reaches only
// through its OpenBB-style routes and alice publishes as tools.
var fundTools = []fundTool{
	{ETFSearch, "etfSearch", "etf", "query", "Find ETFs by keyword or theme (e.g. robotics, uranium, semiconductors). " +
		"A thematic ETF's existence says an issuer saw capital behind the theme; call etfGetInfo next to see how much (AUM, volume).",
		"theme or keyword, e.g. robotics"},
	{ETFInfo, "etfGetInfo", "etf", "symbol", "An ETF's profile: issuer/family, category, inception date, AUM (total_assets), NAV, " +
		"average volume, returns. AUM × volume gauges how much capital a theme attracted. If unsure of the ticker, use etfSearch first.",
		"ETF ticker, e.g. XLK, SMH, BOTZ"},
	{ETFHoldings, "etfGetHoldings", "etf", "symbol", "An ETF's holdings and their weights (weight is a fraction: 0.0789 = 7.89%). " +
		"Shows single-name concentration a sector label hides. Yahoo carries the top 10 only.", "ETF ticker, e.g. XLK, SMH"},
	{ETFSectors, "etfGetSectors", "etf", "symbol", "An ETF's sector breakdown: exposure weight per sector (a fraction), largest first.",
		"ETF ticker, e.g. XLK, SMH"},
	{ETFCountries, "etfGetCountries", "etf", "symbol", "An ETF's country breakdown: exposure weight per country. Needs the OpenBB backend (providers fmp or tmx).",
		"ETF ticker, e.g. VT, EFA"},
	{IndexSearch, "indexSearch", "index", "query", "Search listed indices by keyword (CBOE catalogue, keyless): symbol, name, description. " +
		"The discovery step for volatility families (VIX, VVIX, sector vols), buy-write/put-write benchmarks and rate indices.",
		"keyword, e.g. volatility, VIX, dividend"},
	{IndexConstituents, "indexGetConstituents", "index", "symbol", "The constituents of an index (symbol, name, weight where given). " +
		"Needs the OpenBB backend (fmp: sp500, nasdaq, dowjones; cboe: European Cboe indices; tmx: Canadian).",
		"index symbol, e.g. sp500, dowjones, BUK100P"},
	{Estimates, "equityGetEstimates", "equity", "symbol", "The analyst price-target consensus for a stock: target high/low/consensus/median, " +
		"recommendation and analyst count (plus EPS and revenue estimates by period where the source has them). " +
		"Compare the consensus with the current price for the street's implied upside; the high-low spread reads as disagreement.",
		"ticker, e.g. AAPL"},
	{ShortInterest, "equityGetShortInterest", "equity", "symbol", "Share statistics and short interest for a stock: shares outstanding, float, " +
		"shares short (current and prior month), short % of float, days to cover. Rising short interest with high days to cover = crowded short.",
		"ticker, e.g. GME"},
}

// FundSource answers FundQuery questions. arg is the symbol or the search
// query; limit caps searches (0: the source's default). The rows carry
// OpenBB's standard field names (symbol, name, weight, sector, country,
// target_consensus, short_interest, …).
type FundSource interface {
	Name() string
	Fund(ctx context.Context, q FundQuery, arg string, limit int) ([]any, error)
}

// FundReply is what the tools return.
type FundReply struct {
	Symbol  string `json:"symbol,omitempty"`
	Query   string `json:"query,omitempty"`
	Source  string `json:"source"`
	Count   int    `json:"count"`
	Results []any  `json:"results"`
}

// unavailable is the error for a question a backend cannot answer.
func unavailable(tool, backend, hint string) error {
	return fmt.Errorf("%w: %s is not available on market data backend %s (%s)", ErrUnsupported, tool, backend, hint)
}

// toolOf names the tool that asks q (for errors).
func toolOf(q FundQuery) string {
	for _, t := range fundTools {
		if t.q == q {
			return t.name
		}
	}
	return fmt.Sprintf("fund query %d", int(q))
}

// fundsOf is the FundSource behind a market data backend: the OpenBB API
// itself, Yahoo (quoteSummary, search and the CBOE index catalogue) for
// the yahoo and auto backends, none for the others.
func fundsOf(src Source) FundSource {
	switch s := src.(type) {
	case *OpenBB:
		return s
	case *Yahoo:
		return NewYahooFunds(s.c, "", nil)
	case *Fallback:
		if y, ok := s.primary.(*Yahoo); ok {
			return NewYahooFunds(y.c, "", nil)
		}
	}
	return nil
}

// RegisterFundTools publishes the ETF, index, estimate and short-interest
// tools over funds; with funds nil every call is an error naming the
// backend (backend) and the ones that can answer.
func RegisterFundTools(reg core.ToolRegistry, backend string, funds FundSource) {
	for _, t := range fundTools {
		props := fmt.Sprintf(`"%s":{"type":"string","maxLength":100,"description":%q}`, t.arg, t.argDoc)
		if t.q == ETFSearch {
			props += `,"limit":{"type":"integer","minimum":1,"maximum":100,"description":"max results (default: the provider's)"}`
		}
		name := t.name
		desc := t.desc + " Backend: " + backend + "."
		reg.Register(core.Tool{
			Name: name, Group: t.group, Description: desc,
			InputSchema: core.Schema(fmt.Sprintf(`{"type":"object","properties":{%s},"required":["%s"]}`, props, t.arg)),
			Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
				// Each tool takes only its own argument (symbol, or query
				// and limit): anything else is refused by DecodeArgs.
				var a struct {
					Symbol string `json:"symbol"`
				}
				var qa struct {
					Query string `json:"query"`
					Limit *int   `json:"limit"`
				}
				var err error
				if t.arg == "query" {
					err = core.DecodeArgs(args, &qa)
				} else {
					err = core.DecodeArgs(args, &a)
				}
				if err != nil {
					return nil, err
				}
				arg := strings.TrimSpace(a.Symbol + qa.Query)
				if len(arg) > 100 {
					return nil, fmt.Errorf("%s is longer than 100 characters", t.arg)
				}
				if arg == "" {
					return nil, fmt.Errorf("%s is required", t.arg)
				}
				limit := 0
				if qa.Limit != nil {
					if *qa.Limit < 1 || *qa.Limit > 100 {
						return nil, fmt.Errorf("limit must be 1..100, got %d", *qa.Limit)
					}
					limit = *qa.Limit
				}
				if funds == nil {
					return nil, unavailable(name, backend, "use market-data.json backend auto, yahoo or openbb")
				}
				rows, err := funds.Fund(ctx, t.q, arg, limit)
				if err != nil {
					if errors.Is(err, ErrUnsupported) {
						return nil, err
					}
					return nil, fmt.Errorf("%s (market data backend %s): %w", name, funds.Name(), err)
				}
				if limit > 0 && len(rows) > limit {
					rows = rows[:limit]
				}
				if rows == nil {
					rows = []any{}
				}
				r := FundReply{Source: funds.Name(), Count: len(rows), Results: rows}
				if t.arg == "query" {
					r.Query = arg
				} else {
					r.Symbol = strings.ToUpper(arg)
				}
				return r, nil
			},
		})
	}
}
