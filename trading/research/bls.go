package research

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/alice-trading/alice/core/httpjson"
)

const blsBase = "https://api.bls.gov"

// blsCatalog is the series economyBlsSearch searches. BLS publishes no
// search API, so the widely followed headline series are listed here; any
// other id still works with economyBlsSeries.
var blsCatalog = []struct{ ID, Title, Survey string }{
	{"CUUR0000SA0", "CPI-U: all items, U.S. city average, not seasonally adjusted", "CPI"},
	{"CUSR0000SA0", "CPI-U: all items, U.S. city average, seasonally adjusted", "CPI"},
	{"CUSR0000SA0L1E", "CPI-U: all items less food and energy (core CPI), seasonally adjusted", "CPI"},
	{"CUSR0000SAF1", "CPI-U: food, seasonally adjusted", "CPI"},
	{"CUSR0000SA0E", "CPI-U: energy, seasonally adjusted", "CPI"},
	{"CUSR0000SAH1", "CPI-U: shelter, seasonally adjusted", "CPI"},
	{"CUUR0000SETB01", "CPI-U: gasoline (all types), not seasonally adjusted", "CPI"},
	{"WPSFD4", "PPI: final demand, seasonally adjusted", "PPI"},
	{"WPUFD49104", "PPI: final demand less foods, energy and trade services", "PPI"},
	{"LNS14000000", "Unemployment rate, 16 years and over, seasonally adjusted", "CPS"},
	{"LNS11300000", "Labor force participation rate, seasonally adjusted", "CPS"},
	{"LNS12300000", "Employment-population ratio, seasonally adjusted", "CPS"},
	{"LNS13327709", "U-6 unemployment rate (total unemployed plus marginally attached and part time for economic reasons)", "CPS"},
	{"CES0000000001", "Total nonfarm payrolls (employment), thousands, seasonally adjusted", "CES"},
	{"CES0500000003", "Average hourly earnings of all private employees, seasonally adjusted", "CES"},
	{"CES0500000002", "Average weekly hours of all private employees, seasonally adjusted", "CES"},
	{"CES3000000001", "Manufacturing employment, thousands, seasonally adjusted", "CES"},
	{"JTS000000000000000JOL", "JOLTS: job openings, total nonfarm, seasonally adjusted", "JOLTS"},
	{"JTS000000000000000QUR", "JOLTS: quits rate, total nonfarm, seasonally adjusted", "JOLTS"},
	{"JTS000000000000000HIR", "JOLTS: hires, total nonfarm, seasonally adjusted", "JOLTS"},
	{"PRS85006092", "Nonfarm business labor productivity, percent change, seasonally adjusted", "Productivity"},
	{"PRS85006112", "Nonfarm business unit labor costs, percent change, seasonally adjusted", "Productivity"},
	{"CIU1010000000000A", "Employment cost index: total compensation, civilian workers, 12-month percent change", "ECI"},
	{"EIUIR", "Import price index: all commodities", "Import/export prices"},
	{"EIUIQ", "Export price index: all commodities", "Import/export prices"},
}

// BlsSearchHit is one catalog match.
type BlsSearchHit struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Survey string `json:"survey"`
}

// BlsSearch is economyBlsSearch's answer.
type BlsSearch struct {
	Query   string         `json:"query"`
	Note    string         `json:"note"`
	Results []BlsSearchHit `json:"results"`
}

// BlsSearch matches every word of query against the catalog's ids, titles
// and surveys (case-insensitive), best match first.
func (s *Service) BlsSearch(query string, limit int) (BlsSearch, error) {
	words := strings.Fields(strings.ToLower(query))
	if len(words) == 0 {
		return BlsSearch{}, fmt.Errorf("query is required (e.g. \"unemployment\", \"core cpi\", \"payrolls\")")
	}
	if limit <= 0 {
		limit = 20
	}
	type scored struct {
		hit   BlsSearchHit
		score int
	}
	var hits []scored
	for _, c := range blsCatalog {
		text := strings.ToLower(c.ID + " " + c.Title + " " + c.Survey)
		score := 0
		for _, w := range words {
			if strings.Contains(text, w) {
				score++
			}
		}
		if score > 0 {
			hits = append(hits, scored{BlsSearchHit{c.ID, c.Title, c.Survey}, score})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	out := BlsSearch{Query: query, Results: []BlsSearchHit{},
		Note: "BLS has no search API; this searches alice's catalog of headline series. Any BLS series id works with economyBlsSeries."}
	for _, h := range hits {
		if len(out.Results) >= limit {
			break
		}
		out.Results = append(out.Results, h.hit)
	}
	return out, nil
}

// blsResponse is publicAPI/v2/timeseries/data.
type blsResponse struct {
	Status  string   `json:"status"`
	Message []string `json:"message"`
	Results struct {
		Series []struct {
			SeriesID string `json:"seriesID"`
			Data     []struct {
				Year       string `json:"year"`
				Period     string `json:"period"`
				PeriodName string `json:"periodName"`
				Value      string `json:"value"`
				Latest     string `json:"latest,omitempty"`
			} `json:"data"`
		} `json:"series"`
	} `json:"Results"`
}

// BlsPoint is one period's value.
type BlsPoint struct {
	Date       string `json:"date"` // YYYY-MM for monthly, YYYY-Qn, YYYY for annual
	Period     string `json:"period"`
	PeriodName string `json:"periodName"`
	Value      string `json:"value"`
}

// BlsSeries is economyBlsSeries' answer.
type BlsSeries struct {
	Series  map[string][]BlsPoint `json:"series"`
	Source  string                `json:"source"`
	Message []string              `json:"message,omitempty"`
}

// BlsSeries fetches one or more comma-separated series between the years
// of start and end (default: the last three years), newest first. A key
// is optional: without one BLS allows 25 requests a day and 10 years.
func (s *Service) BlsSeries(ctx context.Context, symbols, start, end string) (BlsSeries, error) {
	ids := splitIDs(symbols)
	if len(ids) == 0 {
		return BlsSeries{}, fmt.Errorf("symbol is required (a BLS series id such as CUUR0000SA0; economyBlsSearch finds ids)")
	}
	if len(ids) > 25 {
		return BlsSeries{}, fmt.Errorf("at most 25 series per call, got %d", len(ids))
	}
	from, to, err := dateRange(start, end, s.now(), 0)
	if err != nil {
		return BlsSeries{}, err
	}
	if start == "" {
		from = to.AddDate(-3, 0, 0)
	}
	body := map[string]any{"seriesid": ids, "startyear": fmt.Sprint(from.Year()), "endyear": fmt.Sprint(to.Year())}
	if k := s.cfg.BLS.Key(); k != "" {
		body["registrationkey"] = k
	}
	var resp blsResponse
	if err := s.bls.JSON(ctx, httpjson.Request{Path: "/publicAPI/v2/timeseries/data/", Body: body, Idempotent: true}, &resp); err != nil {
		return BlsSeries{}, err
	}
	if resp.Status != "REQUEST_SUCCEEDED" {
		return BlsSeries{}, fmt.Errorf("BLS: %s: %s", resp.Status, strings.Join(resp.Message, "; "))
	}
	out := BlsSeries{Series: map[string][]BlsPoint{}, Source: "U.S. Bureau of Labor Statistics", Message: resp.Message}
	for _, sr := range resp.Results.Series {
		pts := make([]BlsPoint, 0, len(sr.Data))
		for _, d := range sr.Data {
			pts = append(pts, BlsPoint{Date: blsDate(d.Year, d.Period), Period: d.Period, PeriodName: d.PeriodName, Value: d.Value})
		}
		out.Series[sr.SeriesID] = pts
	}
	return out, nil
}

// blsDate turns (2024, M03) into 2024-03, (2024, Q02) into 2024-Q2 and
// (2024, A01 or M13) into 2024.
func blsDate(year, period string) string {
	switch {
	case strings.HasPrefix(period, "M") && period != "M13":
		return year + "-" + strings.TrimPrefix(period, "M")
	case strings.HasPrefix(period, "Q"):
		return year + "-Q" + strings.TrimLeft(strings.TrimPrefix(period, "Q"), "0")
	case strings.HasPrefix(period, "S"):
		return year + "-H" + strings.TrimLeft(strings.TrimPrefix(period, "S"), "0")
	}
	return year
}
