package research

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
)

const fredBase = "https://api.stlouisfed.org"

// fredKey returns the FRED key or the error naming where to set it.
func (s *Service) fredKey() (string, error) {
	if k := s.cfg.FRED.Key(); k != "" {
		return k, nil
	}
	return "", &MissingKeyError{Source: "FRED", Env: s.cfg.FRED.APIKeyEnv, Key: "fred.apiKey"}
}

func (s *Service) fredQuery(key string, kv ...string) url.Values {
	q := url.Values{"api_key": {key}, "file_type": {"json"}}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			q.Set(kv[i], kv[i+1])
		}
	}
	return q
}

// FredSeriesInfo is one search hit.
type FredSeriesInfo struct {
	ID                  string      `json:"id"`
	Title               string      `json:"title"`
	Frequency           string      `json:"frequency"`
	Units               string      `json:"units"`
	SeasonalAdjustment  string      `json:"seasonal_adjustment"`
	ObservationStart    string      `json:"observation_start"`
	ObservationEnd      string      `json:"observation_end"`
	LastUpdated         string      `json:"last_updated"`
	Popularity          json.Number `json:"popularity"`
	Notes               string      `json:"notes,omitempty"`
	FrequencyShort      string      `json:"frequency_short,omitempty"`
	UnitsShort          string      `json:"units_short,omitempty"`
	SeasonalAdjustShort string      `json:"seasonal_adjustment_short,omitempty"`
}

// FredSearch is economyFredSearch's answer.
type FredSearch struct {
	Query   string           `json:"query"`
	Count   int              `json:"count"`
	Results []FredSeriesInfo `json:"results"`
}

// FredSearch finds series by text, most popular first.
func (s *Service) FredSearch(ctx context.Context, query string, limit int) (FredSearch, error) {
	query = strings.TrimSpace(query)
	if query == "" {
		return FredSearch{}, fmt.Errorf("query is required")
	}
	if limit <= 0 || limit > 1000 {
		limit = 100
	}
	key, err := s.fredKey()
	if err != nil {
		return FredSearch{}, err
	}
	var resp struct {
		Count  int              `json:"count"`
		Series []FredSeriesInfo `json:"seriess"`
	}
	q := s.fredQuery(key, "search_text", query, "limit", fmt.Sprint(limit), "order_by", "popularity", "sort_order", "desc")
	if err := s.fred.Get(ctx, "/fred/series/search", q, &resp); err != nil {
		return FredSearch{}, err
	}
	for i := range resp.Series {
		resp.Series[i].Notes = clip(resp.Series[i].Notes, 300)
	}
	if resp.Series == nil {
		resp.Series = []FredSeriesInfo{}
	}
	return FredSearch{Query: query, Count: resp.Count, Results: resp.Series}, nil
}

// Observation is one dated value; Value is empty where the source has no
// figure (FRED writes ".").
type Observation struct {
	Date  string `json:"date"`
	Value string `json:"value"`
}

// FredSeries is economyFredSeries' answer: one entry per requested id.
type FredSeries struct {
	Series map[string][]Observation `json:"series"`
	Source string                   `json:"source"`
}

var fredFrequencies = map[string]bool{"": true, "d": true, "w": true, "bw": true, "m": true, "q": true, "sa": true, "a": true}

// FredSeries fetches observations for one or more comma-separated ids,
// newest first, up to limit each.
func (s *Service) FredSeries(ctx context.Context, symbols, start, end string, limit int, frequency string) (FredSeries, error) {
	ids := splitIDs(symbols)
	if len(ids) == 0 {
		return FredSeries{}, fmt.Errorf("symbol is required (a FRED series id such as GDP or CPIAUCSL, or a comma list)")
	}
	if len(ids) > 10 {
		return FredSeries{}, fmt.Errorf("at most 10 series per call, got %d", len(ids))
	}
	if !fredFrequencies[strings.ToLower(frequency)] {
		return FredSeries{}, fmt.Errorf("frequency must be one of d, w, bw, m, q, sa, a; got %q", frequency)
	}
	if err := checkDates(start, end); err != nil {
		return FredSeries{}, err
	}
	if limit <= 0 || limit > 10000 {
		limit = 100
	}
	key, err := s.fredKey()
	if err != nil {
		return FredSeries{}, err
	}
	out := FredSeries{Series: map[string][]Observation{}, Source: "FRED (Federal Reserve Bank of St. Louis)"}
	for _, id := range ids {
		var resp struct {
			Observations []Observation `json:"observations"`
		}
		q := s.fredQuery(key, "series_id", id, "observation_start", start, "observation_end", end,
			"limit", fmt.Sprint(limit), "sort_order", "desc", "frequency", strings.ToLower(frequency))
		if err := s.fred.Get(ctx, "/fred/series/observations", q, &resp); err != nil {
			return out, fmt.Errorf("series %s: %w", id, err)
		}
		obs := make([]Observation, 0, len(resp.Observations))
		for _, o := range resp.Observations {
			if o.Value == "." {
				o.Value = ""
			}
			obs = append(obs, o)
		}
		out.Series[id] = obs
	}
	return out, nil
}

// RegionalValue is one region's figure.
type RegionalValue struct {
	Region string `json:"region"`
	Code   string `json:"code"`
	Value  string `json:"value"`
	Series string `json:"series_id,omitempty"`
}

// FredRegional is economyFredRegional's answer.
type FredRegional struct {
	Symbol     string                     `json:"symbol"`
	Title      string                     `json:"title"`
	RegionType string                     `json:"region_type"`
	Units      string                     `json:"units"`
	Frequency  string                     `json:"frequency"`
	Data       map[string][]RegionalValue `json:"data"` // date → regions
}

var regionTypes = map[string]bool{"": true, "state": true, "msa": true, "county": true, "bea": true, "censusregion": true, "censusdivision": true, "country": true, "frb": true, "necta": true}

// FredRegional reads GeoFRED cross-sections for the series' region group.
func (s *Service) FredRegional(ctx context.Context, symbol, date, regionType, start string) (FredRegional, error) {
	symbol = strings.ToUpper(strings.TrimSpace(symbol))
	if symbol == "" {
		return FredRegional{}, fmt.Errorf("symbol is required (a GeoFRED series id such as WIPCPI)")
	}
	if !regionTypes[strings.ToLower(regionType)] {
		return FredRegional{}, fmt.Errorf("region_type must be state, msa, county, bea, censusregion, censusdivision, country, frb or necta; got %q", regionType)
	}
	if err := checkDates(date, start); err != nil {
		return FredRegional{}, err
	}
	key, err := s.fredKey()
	if err != nil {
		return FredRegional{}, err
	}
	var resp struct {
		Meta struct {
			Title      string                     `json:"title"`
			Region     string                     `json:"region"`
			Units      string                     `json:"units"`
			Frequency  string                     `json:"frequency"`
			Data       map[string][]RegionalValue `json:"data"`
			Seasonalty string                     `json:"seasonality"`
		} `json:"meta"`
	}
	q := s.fredQuery(key, "series_id", symbol, "date", date, "start_date", start)
	if err := s.fred.Get(ctx, "/geofred/series/data", q, &resp); err != nil {
		return FredRegional{}, err
	}
	rt := resp.Meta.Region
	if regionType != "" && !strings.EqualFold(rt, regionType) {
		return FredRegional{}, fmt.Errorf("series %s is published by %s, not %s", symbol, rt, regionType)
	}
	out := FredRegional{Symbol: symbol, Title: resp.Meta.Title, RegionType: rt, Units: resp.Meta.Units, Frequency: resp.Meta.Frequency, Data: resp.Meta.Data}
	if out.Data == nil {
		out.Data = map[string][]RegionalValue{}
	}
	for d := range out.Data {
		sort.Slice(out.Data[d], func(i, j int) bool { return out.Data[d][i].Region < out.Data[d][j].Region })
	}
	return out, nil
}

func splitIDs(s string) []string {
	var ids []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.ToUpper(strings.TrimSpace(p)); p != "" {
			ids = append(ids, p)
		}
	}
	return ids
}

func checkDates(ds ...string) error {
	for _, d := range ds {
		if d == "" {
			continue
		}
		if _, ok := parseDay(d); !ok {
			return fmt.Errorf("dates must be YYYY-MM-DD, got %q", d)
		}
	}
	return nil
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
