package research

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/alice-trading/alice/core"
)

// typed adapts a handler over a decoded argument struct to core.Tool.
func typed[A any](name, group, desc, schema string, fn func(ctx context.Context, a A) (any, error)) core.Tool {
	return core.Tool{
		Name: name, Group: group, Description: desc, InputSchema: core.Schema(schema),
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			var a A
			if err := core.DecodeArgs(args, &a); err != nil {
				return nil, err
			}
			return fn(ctx, a)
		},
	}
}

func period(p string) (Period, error) {
	switch p {
	case "", "annual":
		return Annual, nil
	case "quarter":
		return Quarter, nil
	}
	return "", fmt.Errorf("period must be annual or quarter, got %q", p)
}

func orDefault(p *int, def, max int) (int, error) {
	if p == nil {
		return def, nil
	}
	if *p < 1 || *p > max {
		return 0, fmt.Errorf("limit must be 1..%d, got %d", max, *p)
	}
	return *p, nil
}

const dateProps = `"start_date":{"type":"string","description":"YYYY-MM-DD"},"end_date":{"type":"string","description":"YYYY-MM-DD"}`

// categoryRange is the arguments of the two EIA tools.
type categoryRange struct {
	Category string `json:"category"`
	Start    string `json:"start_date"`
	End      string `json:"end_date"`
}

// RegisterTools publishes the twelve research tools with OpenAlice's names
// and parameters.
func RegisterTools(reg core.ToolRegistry, s *Service) {
	type symLimit struct {
		Symbol string `json:"symbol"`
		Period string `json:"period"`
		Limit  *int   `json:"limit"`
	}
	reg.Register(typed("equityGetFinancials", "equity",
		"Income statement, balance sheet or cash-flow statement of a US-listed company, as filed with the SEC (XBRL company facts). Values in USD; quarterly flows the company reports only year-to-date are derived and listed under `derived`.",
		`{"type":"object","properties":{"symbol":{"type":"string","description":"ticker, e.g. AAPL"},
		"type":{"type":"string","enum":["income","balance","cash"]},
		"period":{"type":"string","enum":["annual","quarter"],"description":"default annual"},
		"limit":{"type":"integer","minimum":1,"maximum":40,"description":"periods, newest first (default 5)"}},"required":["symbol","type"]}`,
		func(ctx context.Context, a struct {
			Symbol string `json:"symbol"`
			Type   string `json:"type"`
			Period string `json:"period"`
			Limit  *int   `json:"limit"`
		}) (any, error) {
			p, err := period(a.Period)
			if err != nil {
				return nil, err
			}
			n, err := orDefault(a.Limit, 5, 40)
			if err != nil {
				return nil, err
			}
			return s.Financials(ctx, a.Symbol, StatementType(a.Type), p, n)
		}))
	reg.Register(typed("equityGetRatios", "equity",
		"Profitability, liquidity and leverage ratios (margins, ROE, ROA, current ratio, debt/equity) computed from the company's SEC filings.",
		`{"type":"object","properties":{"symbol":{"type":"string"},"period":{"type":"string","enum":["annual","quarter"]},
		"limit":{"type":"integer","minimum":1,"maximum":40}},"required":["symbol"]}`,
		func(ctx context.Context, a symLimit) (any, error) {
			p, err := period(a.Period)
			if err != nil {
				return nil, err
			}
			n, err := orDefault(a.Limit, 5, 40)
			if err != nil {
				return nil, err
			}
			return s.Ratios(ctx, a.Symbol, p, n)
		}))
	reg.Register(typed("equityGetEarningsCalendar", "equity",
		"Scheduled earnings reports between start_date and end_date (default the next 7 days, at most 31), optionally for one symbol, with EPS forecast and last year's EPS.",
		`{"type":"object","properties":{"symbol":{"type":"string"},`+dateProps+`}}`,
		func(ctx context.Context, a struct {
			Symbol string `json:"symbol"`
			Start  string `json:"start_date"`
			End    string `json:"end_date"`
		}) (any, error) {
			return s.EarningsCalendar(ctx, a.Symbol, a.Start, a.End)
		}))
	reg.Register(typed("equityGetInsiderTrading", "equity",
		"Recent insider transactions (SEC Form 4): who, role, buy/sell/award code, shares, price, value and holdings after.",
		`{"type":"object","properties":{"symbol":{"type":"string"},"limit":{"type":"integer","minimum":1,"maximum":100,"description":"default 20"}},"required":["symbol"]}`,
		func(ctx context.Context, a struct {
			Symbol string `json:"symbol"`
			Limit  *int   `json:"limit"`
		}) (any, error) {
			n, err := orDefault(a.Limit, 20, 100)
			if err != nil {
				return nil, err
			}
			return s.InsiderTrading(ctx, a.Symbol, n)
		}))
	reg.Register(typed("equityDiscover", "equity",
		"Today's US market movers: top gainers, losers or most active stocks.",
		`{"type":"object","properties":{"type":{"type":"string","enum":["gainers","losers","active"]}},"required":["type"]}`,
		func(ctx context.Context, a struct {
			Type string `json:"type"`
		}) (any, error) {
			return s.Discover(ctx, DiscoverType(a.Type), 25)
		}))
	reg.Register(typed("economyFredSearch", "economy",
		"Search FRED (Federal Reserve Economic Data) series by text, most popular first. Needs a free FRED API key.",
		`{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer","minimum":1,"maximum":1000,"description":"default 100"}},"required":["query"]}`,
		func(ctx context.Context, a struct {
			Query string `json:"query"`
			Limit *int   `json:"limit"`
		}) (any, error) {
			n, err := orDefault(a.Limit, 100, 1000)
			if err != nil {
				return nil, err
			}
			return s.FredSearch(ctx, a.Query, n)
		}))
	reg.Register(typed("economyFredSeries", "economy",
		"Observations of FRED series (one id or a comma list, e.g. GDP,CPIAUCSL,UNRATE), newest first. frequency aggregates: d, w, bw, m, q, sa, a.",
		`{"type":"object","properties":{"symbol":{"type":"string"},`+dateProps+`,
		"limit":{"type":"integer","minimum":1,"maximum":10000},"frequency":{"type":"string"}},"required":["symbol"]}`,
		func(ctx context.Context, a struct {
			Symbol    string `json:"symbol"`
			Start     string `json:"start_date"`
			End       string `json:"end_date"`
			Limit     *int   `json:"limit"`
			Frequency string `json:"frequency"`
		}) (any, error) {
			n, err := orDefault(a.Limit, 100, 10000)
			if err != nil {
				return nil, err
			}
			return s.FredSeries(ctx, a.Symbol, a.Start, a.End, n, a.Frequency)
		}))
	reg.Register(typed("economyFredRegional", "economy",
		"Regional cross-section of a GeoFRED series (values per state, MSA or county) for a date.",
		`{"type":"object","properties":{"symbol":{"type":"string"},"date":{"type":"string","description":"YYYY-MM-DD"},
		"region_type":{"type":"string","enum":["state","msa","county","bea","censusregion","censusdivision","country","frb","necta"]},
		"start_date":{"type":"string","description":"YYYY-MM-DD"}},"required":["symbol"]}`,
		func(ctx context.Context, a struct {
			Symbol     string `json:"symbol"`
			Date       string `json:"date"`
			RegionType string `json:"region_type"`
			Start      string `json:"start_date"`
		}) (any, error) {
			return s.FredRegional(ctx, a.Symbol, a.Date, a.RegionType, a.Start)
		}))
	reg.Register(typed("economyBlsSearch", "economy",
		"Find Bureau of Labor Statistics series ids (CPI, PPI, payrolls, unemployment, JOLTS, productivity) by keywords.",
		`{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer","minimum":1,"maximum":100}},"required":["query"]}`,
		func(_ context.Context, a struct {
			Query string `json:"query"`
			Limit *int   `json:"limit"`
		}) (any, error) {
			n, err := orDefault(a.Limit, 20, 100)
			if err != nil {
				return nil, err
			}
			return s.BlsSearch(a.Query, n)
		}))
	reg.Register(typed("economyBlsSeries", "economy",
		"Values of BLS series (one id or a comma list) between the years of start_date and end_date (default the last three years), newest first.",
		`{"type":"object","properties":{"symbol":{"type":"string"},`+dateProps+`},"required":["symbol"]}`,
		func(ctx context.Context, a struct {
			Symbol string `json:"symbol"`
			Start  string `json:"start_date"`
			End    string `json:"end_date"`
		}) (any, error) {
			return s.BlsSeries(ctx, a.Symbol, a.Start, a.End)
		}))
	reg.Register(typed("economyEnergyOutlook", "economy",
		"EIA Short-Term Energy Outlook: monthly history and forecast of oil, gasoline and natural gas prices, crude production and petroleum consumption. Needs a free EIA API key.",
		`{"type":"object","properties":{"category":{"type":"string","enum":["crude_oil_price","gasoline_price","natural_gas_price","crude_oil_production","petroleum_consumption"]},`+dateProps+`},"required":["category"]}`,
		func(ctx context.Context, a categoryRange) (any, error) {
			return s.EnergyOutlook(ctx, a.Category, a.Start, a.End)
		}))
	reg.Register(typed("economyPetroleumStatus", "economy",
		"EIA Weekly Petroleum Status Report: US crude production, crude/gasoline/distillate stocks and refinery utilization by week. Needs a free EIA API key.",
		`{"type":"object","properties":{"category":{"type":"string","enum":["crude_oil_production","crude_oil_stocks","gasoline_stocks","distillate_stocks","refinery_utilization"]},`+dateProps+`},"required":["category"]}`,
		func(ctx context.Context, a categoryRange) (any, error) {
			return s.PetroleumStatus(ctx, a.Category, a.Start, a.End)
		}))
}
