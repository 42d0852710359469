package research

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
)

const eiaBase = "https://api.eia.gov"

// eiaSeries maps the tools' categories to EIA series ids.
var (
	steoCategories = map[string][]string{
		"crude_oil_price":       {"BREPUUS", "WTIPUUS"}, // Brent and WTI spot, $/bbl
		"gasoline_price":        {"MGRARUS"},            // regular retail, $/gal
		"natural_gas_price":     {"NGHHUUS"},            // Henry Hub spot, $/MMBtu
		"crude_oil_production":  {"COPRPUS"},            // U.S. crude production, MMb/d
		"petroleum_consumption": {"PATCPUSX"},           // U.S. liquid fuels consumption, MMb/d
	}
	weeklyCategories = map[string][]string{
		"crude_oil_production": {"WCRFPUS2"}, // field production, Mb/d
		"crude_oil_stocks":     {"WCESTUS1"}, // commercial crude stocks excl. SPR, Mb
		"gasoline_stocks":      {"WGTSTUS1"}, // total motor gasoline stocks, Mb
		"distillate_stocks":    {"WDISTUS1"}, // distillate fuel oil stocks, Mb
		"refinery_utilization": {"WPULEUS3"}, // percent utilization of operable capacity
	}
)

func categoryNames(m map[string][]string) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// flexValue accepts EIA's values, which arrive as numbers or strings.
type flexValue string

func (v *flexValue) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		*v = ""
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = flexValue(s)
		return nil
	}
	*v = flexValue(b)
	return nil
}

// EnergyPoint is one period of one series.
type EnergyPoint struct {
	Period      string `json:"period"`
	Series      string `json:"series"`
	Description string `json:"description"`
	Value       string `json:"value"`
	Unit        string `json:"unit"`
}

// EnergyData is the answer of both EIA tools.
type EnergyData struct {
	Category string        `json:"category"`
	Source   string        `json:"source"`
	Data     []EnergyPoint `json:"data"`
}

func (s *Service) eiaKey() (string, error) {
	if k := s.cfg.EIA.Key(); k != "" {
		return k, nil
	}
	return "", &MissingKeyError{Source: "EIA", Env: s.cfg.EIA.APIKeyEnv, Key: "eia.apiKey"}
}

// EnergyOutlook reads the Short-Term Energy Outlook (monthly history and
// forecast) for a category.
func (s *Service) EnergyOutlook(ctx context.Context, category, start, end string) (EnergyData, error) {
	ids, ok := steoCategories[category]
	if !ok {
		return EnergyData{}, fmt.Errorf("category must be one of %s; got %q", categoryNames(steoCategories), category)
	}
	if err := checkDates(start, end); err != nil {
		return EnergyData{}, err
	}
	// STEO periods are months.
	month := func(d string) string {
		if len(d) >= 7 {
			return d[:7]
		}
		return d
	}
	return s.eia(ctx, "/v2/steo/data/", "monthly", "seriesId", ids, month(start), month(end), category, "EIA Short-Term Energy Outlook")
}

// PetroleumStatus reads the Weekly Petroleum Status Report for a category.
func (s *Service) PetroleumStatus(ctx context.Context, category, start, end string) (EnergyData, error) {
	ids, ok := weeklyCategories[category]
	if !ok {
		return EnergyData{}, fmt.Errorf("category must be one of %s; got %q", categoryNames(weeklyCategories), category)
	}
	if err := checkDates(start, end); err != nil {
		return EnergyData{}, err
	}
	return s.eia(ctx, "/v2/petroleum/sum/sndw/data/", "weekly", "series", ids, start, end, category, "EIA Weekly Petroleum Status Report")
}

func (s *Service) eia(ctx context.Context, path, frequency, facet string, ids []string, start, end, category, label string) (EnergyData, error) {
	key, err := s.eiaKey()
	if err != nil {
		return EnergyData{}, err
	}
	q := url.Values{"api_key": {key}, "frequency": {frequency}, "data[0]": {"value"},
		"sort[0][column]": {"period"}, "sort[0][direction]": {"desc"}, "length": {"120"}}
	for _, id := range ids {
		q.Add("facets["+facet+"][]", id)
	}
	if start != "" {
		q.Set("start", start)
	}
	if end != "" {
		q.Set("end", end)
	}
	var resp struct {
		Response struct {
			Data []map[string]flexValue `json:"data"`
		} `json:"response"`
		Error string `json:"error"`
	}
	if err := s.eiaSrc.Get(ctx, path, q, &resp); err != nil {
		return EnergyData{}, err
	}
	if resp.Error != "" {
		return EnergyData{}, fmt.Errorf("EIA: %s", resp.Error)
	}
	out := EnergyData{Category: category, Source: label, Data: []EnergyPoint{}}
	for _, row := range resp.Response.Data {
		p := EnergyPoint{Period: string(row["period"]), Series: string(row[facet]), Value: string(row["value"])}
		p.Description = string(row["seriesDescription"])
		if p.Description == "" {
			p.Description = string(row["series-description"])
		}
		p.Unit = string(row["unit"])
		if p.Unit == "" {
			p.Unit = string(row["units"])
		}
		out.Data = append(out.Data, p)
	}
	return out, nil
}
