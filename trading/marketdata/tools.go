package marketdata

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading"
)

// searchClasses is the order results are grouped in.
var searchClasses = []trading.AssetClass{trading.Equity, trading.Crypto, trading.Currency, trading.Commodity}

// RegisterTools publishes marketSearchForResearch, the quote/history
// tools, the ETF/index/estimate/short-interest tools (funds.go) and, when
// src implements ProfileSource, equityGetProfile.
func RegisterTools(reg core.ToolRegistry, src Source) {
	reg.Register(core.Tool{
		Name:  "marketSearchForResearch",
		Group: "market-search",
		Description: "Search symbols for research across equities, crypto, currencies and commodities by ticker or name. " +
			"Returns up to `limit` matches per asset class (default 20). Backend: " + src.Name() + ".",
		InputSchema: core.Schema(`{"type":"object","properties":{
			"query":{"type":"string","description":"ticker or name fragment, e.g. AAPL, apple, bitcoin, gold"},
			"limit":{"type":"integer","minimum":1,"maximum":100,"description":"max results per asset class (default 20)"}},
			"required":["query"]}`),
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			var a struct {
				Query string `json:"query"`
				Limit *int   `json:"limit"`
			}
			if err := core.DecodeArgs(args, &a); err != nil {
				return nil, err
			}
			return searchForResearch(ctx, src, a.Query, a.Limit)
		},
	})
	registerQuoteTools(reg, src)
	RegisterFundTools(reg, src.Name(), fundsOf(src))
	ps, ok := src.(ProfileSource)
	if !ok {
		return
	}
	reg.Register(core.Tool{
		Name:        "equityGetProfile",
		Group:       "equity",
		Description: "Company profile and key metrics (name, exchange, sector, industry, price, 52-week range) for an equity symbol. Backend: " + src.Name() + "; simulated profiles are synthetic and labelled simulated:true.",
		InputSchema: core.Schema(`{"type":"object","properties":{"symbol":{"type":"string","description":"ticker, e.g. AAPL"}},"required":["symbol"]}`),
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			var a struct {
				Symbol string `json:"symbol"`
			}
			if err := core.DecodeArgs(args, &a); err != nil {
				return nil, err
			}
			if strings.TrimSpace(a.Symbol) == "" {
				return nil, errors.New("symbol is required")
			}
			return ps.Profile(ctx, a.Symbol)
		},
	})
}

// SearchResult is marketSearchForResearch's reply.
type SearchResult struct {
	Query   string       `json:"query"`
	Source  string       `json:"source"`
	Count   int          `json:"count"`
	Results []Instrument `json:"results"`
}

func searchForResearch(ctx context.Context, src Source, query string, limitp *int) (SearchResult, error) {
	query = strings.TrimSpace(query)
	if query == "" {
		return SearchResult{}, errors.New("query is required")
	}
	limit := 20
	if limitp != nil {
		if *limitp < 1 || *limitp > 100 {
			return SearchResult{}, fmt.Errorf("limit must be 1..100, got %d", *limitp)
		}
		limit = *limitp
	}
	hits, err := src.Search(ctx, query, "", limit*len(searchClasses))
	if err != nil {
		return SearchResult{}, err
	}
	// Cap per class and group in a stable order.
	groups := map[trading.AssetClass][]Instrument{}
	for _, h := range hits {
		c := h.AssetClass
		if len(groups[c]) < limit {
			groups[c] = append(groups[c], h)
		}
	}
	res := SearchResult{Query: query, Source: src.Name(), Results: []Instrument{}}
	for _, c := range append(searchClasses, trading.Unknown) {
		res.Results = append(res.Results, groups[c]...)
	}
	res.Count = len(res.Results)
	return res, nil
}
