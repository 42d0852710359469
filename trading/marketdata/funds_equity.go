package marketdata

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/alice-trading/alice/core/httpjson"
)

// consensusRow is OpenBB's yfinance PriceTargetConsensus row, plus the
// per-period EPS and revenue estimates of Yahoo's earningsTrend.
type consensusRow struct {
	Symbol             string           `json:"symbol"`
	Name               string           `json:"name,omitempty"`
	TargetHigh         *float64         `json:"target_high"`
	TargetLow          *float64         `json:"target_low"`
	TargetConsensus    *float64         `json:"target_consensus"`
	TargetMedian       *float64         `json:"target_median"`
	Recommendation     string           `json:"recommendation,omitempty"`
	RecommendationMean *float64         `json:"recommendation_mean,omitempty"`
	NumberOfAnalysts   *float64         `json:"number_of_analysts,omitempty"`
	CurrentPrice       *float64         `json:"current_price,omitempty"`
	Currency           string           `json:"currency,omitempty"`
	Periods            []periodEstimate `json:"estimates,omitempty"`
}

// periodEstimate is one earningsTrend period (0q this quarter, +1q next,
// 0y this fiscal year, +1y next).
type periodEstimate struct {
	Period          string   `json:"period"`
	EndDate         string   `json:"end_date,omitempty"`
	EPSAvg          *float64 `json:"eps_avg,omitempty"`
	EPSLow          *float64 `json:"eps_low,omitempty"`
	EPSHigh         *float64 `json:"eps_high,omitempty"`
	EPSAnalysts     *float64 `json:"eps_analysts,omitempty"`
	EPSYearAgo      *float64 `json:"eps_year_ago,omitempty"`
	RevenueAvg      *float64 `json:"revenue_avg,omitempty"`
	RevenueLow      *float64 `json:"revenue_low,omitempty"`
	RevenueHigh     *float64 `json:"revenue_high,omitempty"`
	RevenueAnalysts *float64 `json:"revenue_analysts,omitempty"`
	Growth          *float64 `json:"growth,omitempty"`
}

func (f *YahooFunds) estimates(ctx context.Context, sym string) ([]any, error) {
	s, err := f.y.QuoteSummary(ctx, sym, "financialData", "earningsTrend", "price")
	if err != nil {
		return nil, err
	}
	var fd struct {
		TargetHighPrice, TargetLowPrice, TargetMeanPrice, TargetMedianPrice ynum
		RecommendationMean, NumberOfAnalystOpinions, CurrentPrice           ynum
		RecommendationKey, FinancialCurrency                                string
	}
	if err := s.Module("financialData", &fd); err != nil {
		return nil, err
	}
	if fd.NumberOfAnalystOpinions.p == nil && fd.TargetMeanPrice.p == nil {
		return nil, fmt.Errorf("%w: no analyst price targets for %s", ErrNotFound, sym)
	}
	var price struct{ LongName, ShortName, Currency string }
	_ = s.Module("price", &price)
	r := consensusRow{Symbol: sym, Name: first(price.LongName, price.ShortName), TargetHigh: fd.TargetHighPrice.p, TargetLow: fd.TargetLowPrice.p,
		TargetConsensus: fd.TargetMeanPrice.p, TargetMedian: fd.TargetMedianPrice.p, Recommendation: fd.RecommendationKey,
		RecommendationMean: fd.RecommendationMean.p, NumberOfAnalysts: fd.NumberOfAnalystOpinions.p, CurrentPrice: fd.CurrentPrice.p,
		Currency: first(fd.FinancialCurrency, price.Currency)}
	var trend struct {
		Trend []struct {
			Period           string `json:"period"`
			EndDate          string `json:"endDate"`
			Growth           ynum   `json:"growth"`
			EarningsEstimate struct {
				Avg, Low, High, NumberOfAnalysts, YearAgoEps ynum
			} `json:"earningsEstimate"`
			RevenueEstimate struct {
				Avg, Low, High, NumberOfAnalysts ynum
			} `json:"revenueEstimate"`
		} `json:"trend"`
	}
	if s.Module("earningsTrend", &trend) == nil {
		for _, t := range trend.Trend {
			e, v := t.EarningsEstimate, t.RevenueEstimate
			r.Periods = append(r.Periods, periodEstimate{Period: t.Period, EndDate: t.EndDate, EPSAvg: e.Avg.p, EPSLow: e.Low.p,
				EPSHigh: e.High.p, EPSAnalysts: e.NumberOfAnalysts.p, EPSYearAgo: e.YearAgoEps.p, RevenueAvg: v.Avg.p,
				RevenueLow: v.Low.p, RevenueHigh: v.High.p, RevenueAnalysts: v.NumberOfAnalysts.p, Growth: t.Growth.p})
		}
	}
	return []any{r}, nil
}

// shareStatsRow is OpenBB's yfinance ShareStatistics row.
type shareStatsRow struct {
	Symbol                    string   `json:"symbol"`
	Date                      string   `json:"date,omitempty"`
	FloatShares               *float64 `json:"float_shares"`
	OutstandingShares         *float64 `json:"outstanding_shares"`
	ImpliedSharesOutstanding  *float64 `json:"implied_shares_outstanding,omitempty"`
	ShortInterest             *float64 `json:"short_interest"`
	ShortPercentOfFloat       *float64 `json:"short_percent_of_float"`
	DaysToCover               *float64 `json:"days_to_cover"`
	ShortInterestPrevMonth    *float64 `json:"short_interest_prev_month"`
	ShortInterestPrevDate     string   `json:"short_interest_prev_date,omitempty"`
	InsiderOwnership          *float64 `json:"insider_ownership,omitempty"`
	InstitutionOwnership      *float64 `json:"institution_ownership,omitempty"`
	InstitutionFloatOwnership *float64 `json:"institution_float_ownership,omitempty"`
}

func (f *YahooFunds) shortInterest(ctx context.Context, sym string) ([]any, error) {
	s, err := f.y.QuoteSummary(ctx, sym, "defaultKeyStatistics", "majorHoldersBreakdown")
	if err != nil {
		return nil, err
	}
	var k struct {
		SharesOutstanding, FloatShares, ImpliedSharesOutstanding, SharesShort, ShortPercentOfFloat ynum
		ShortRatio, SharesShortPriorMonth, DateShortInterest, SharesShortPreviousMonthDate         ynum
		HeldPercentInsiders, HeldPercentInstitutions                                               ynum
	}
	if err := s.Module("defaultKeyStatistics", &k); err != nil {
		return nil, err
	}
	if k.SharesOutstanding.p == nil && k.SharesShort.p == nil {
		return nil, fmt.Errorf("%w: no share statistics for %s", ErrNotFound, sym)
	}
	var mh struct {
		InsidersPercentHeld, InstitutionsPercentHeld, InstitutionsFloatPercentHeld ynum
	}
	_ = s.Module("majorHoldersBreakdown", &mh)
	r := shareStatsRow{Symbol: sym, Date: k.DateShortInterest.date(), FloatShares: k.FloatShares.p, OutstandingShares: k.SharesOutstanding.p,
		ImpliedSharesOutstanding: k.ImpliedSharesOutstanding.p, ShortInterest: k.SharesShort.p, ShortPercentOfFloat: k.ShortPercentOfFloat.p,
		DaysToCover: k.ShortRatio.p, ShortInterestPrevMonth: k.SharesShortPriorMonth.p, ShortInterestPrevDate: k.SharesShortPreviousMonthDate.date(),
		InsiderOwnership: k.HeldPercentInsiders.p, InstitutionOwnership: k.HeldPercentInstitutions.p,
		InstitutionFloatOwnership: mh.InstitutionsFloatPercentHeld.p}
	if r.InsiderOwnership == nil {
		r.InsiderOwnership = mh.InsidersPercentHeld.p
	}
	if r.InstitutionOwnership == nil {
		r.InstitutionOwnership = mh.InstitutionsPercentHeld.p
	}
	return []any{r}, nil
}

// indexRow is OpenBB's cboe IndexSearch row.
type indexRow struct {
	Symbol      string `json:"symbol"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Currency    string `json:"currency,omitempty"`
	TimeZone    string `json:"time_zone,omitempty"`
}

// indexSearch filters Cboe's catalogue (fetched once a day) by symbol,
// name or description.
func (f *YahooFunds) indexSearch(ctx context.Context, query string) ([]any, error) {
	if f.cboe == nil {
		return nil, fmt.Errorf("cboe index catalogue: bad base URL")
	}
	resp, err := f.cboe.Do(ctx, httpjson.Request{Path: cboeIndexPath})
	if err != nil {
		return nil, fmt.Errorf("cboe index catalogue: %w", err)
	}
	res := resp.Body
	type entry struct {
		IndexSymbol string `json:"index_symbol"`
		Symbol      string `json:"symbol"`
		Name        string `json:"name"`
		Description string `json:"description"`
		Currency    string `json:"currency"`
		TimeZone    string `json:"time_zone"`
	}
	var list []entry
	if err := json.Unmarshal(res, &list); err != nil {
		var wrapped struct {
			Data []entry `json:"data"`
		}
		if err2 := json.Unmarshal(res, &wrapped); err2 != nil {
			return nil, fmt.Errorf("cboe index catalogue: %w", err)
		}
		list = wrapped.Data
	}
	q := strings.ToLower(strings.TrimSpace(query))
	out := []any{}
	for _, e := range list {
		sym := first(e.IndexSymbol, e.Symbol)
		if !strings.Contains(strings.ToLower(sym), q) && !strings.Contains(strings.ToLower(e.Name), q) &&
			!strings.Contains(strings.ToLower(e.Description), q) {
			continue
		}
		out = append(out, indexRow{Symbol: sym, Name: e.Name, Description: e.Description, Currency: e.Currency, TimeZone: e.TimeZone})
	}
	return out, nil
}
