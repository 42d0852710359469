package research

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
)

// fakeSources serves the recorded responses under testdata/ the way
// SEC EDGAR, Nasdaq, Yahoo, FRED, BLS and EIA answer, and counts requests.
type fakeSources struct {
	t    *testing.T
	mu   sync.Mutex
	hits map[string]int
	ua   []string
}

func (fs *fakeSources) count(p string) int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.hits[p]
}

func (fs *fakeSources) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	fs.mu.Lock()
	fs.hits[r.URL.Path]++
	fs.ua = append(fs.ua, r.UserAgent())
	fs.mu.Unlock()
	q := r.URL.Query()
	file := ""
	switch p := r.URL.Path; {
	case p == "/files/company_tickers.json":
		file = "company_tickers.json"
	case strings.HasPrefix(p, "/api/xbrl/companyfacts/"):
		file = "companyfacts_" + path.Base(p)
	case strings.HasPrefix(p, "/submissions/"):
		file = "submissions_" + path.Base(p)
	case strings.HasPrefix(p, "/Archives/edgar/data/320193/"):
		file = "form4_" + strings.TrimPrefix(path.Base(p), "wk-form4_")
	case p == "/api/calendar/earnings":
		file = "nasdaq_earnings_" + q.Get("date") + ".json"
		if _, err := os.Stat(filepath.Join("testdata", file)); err != nil {
			file = "nasdaq_earnings_empty.json"
		}
	case p == "/v1/finance/screener/predefined/saved":
		file = "yahoo_" + q.Get("scrIds") + ".json"
	case strings.HasPrefix(p, "/fred/") || strings.HasPrefix(p, "/geofred/"):
		if q.Get("api_key") != "fred-test-key" || q.Get("file_type") != "json" {
			http.Error(w, `{"error_code":400,"error_message":"Bad Request.  The value for variable api_key is not registered."}`, 400)
			return
		}
		switch p {
		case "/fred/series/search":
			file = "fred_search.json"
		case "/fred/series/observations":
			file = "fred_observations_" + q.Get("series_id") + ".json"
		case "/geofred/series/data":
			file = "geofred_" + q.Get("series_id") + ".json"
		}
	case p == "/publicAPI/v2/timeseries/data/":
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", 405)
			return
		}
		file = "bls_timeseries.json"
		if strings.Contains(string(body), "NOPE") {
			file = "bls_error.json"
		}
	case strings.HasPrefix(p, "/v2/"):
		if q.Get("api_key") != "eia-test-key" {
			http.Error(w, `{"error":{"code":"API_KEY_INVALID"}}`, 403)
			return
		}
		switch p {
		case "/v2/steo/data/":
			file = "eia_steo.json"
		case "/v2/petroleum/sum/sndw/data/":
			file = "eia_sndw.json"
		}
	}
	body, err := os.ReadFile(filepath.Join("testdata", file))
	if file == "" || err != nil {
		http.Error(w, `{"message":"no recording"}`, 404)
		return
	}
	w.Write(body)
}

func newTestService(t *testing.T, mutate func(*config.Research)) (*Service, *fakeSources) {
	t.Helper()
	fs := &fakeSources{t: t, hits: map[string]int{}}
	srv := httptest.NewServer(fs)
	t.Cleanup(srv.Close)
	cfg := config.DefaultResearch()
	cfg.UserAgent = "alice-test tester@example.com"
	for _, s := range []*config.ResearchSource{&cfg.SEC, &cfg.SECArchives, &cfg.FRED, &cfg.BLS, &cfg.EIA, &cfg.Nasdaq, &cfg.Yahoo} {
		s.BaseURL = srv.URL
	}
	cfg.FRED.APIKey, cfg.FRED.APIKeyEnv = "fred-test-key", ""
	cfg.EIA.APIKey, cfg.EIA.APIKeyEnv = "eia-test-key", ""
	cfg.BLS.APIKeyEnv = ""
	if mutate != nil {
		mutate(&cfg)
	}
	now := func() time.Time { return time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC) }
	s, err := New(cfg, Options{Client: srv.Client(), Now: now})
	require.NoError(t, err)
	return s, fs
}

// call runs a tool through a ToolCenter, as the agent and MCP do, and
// decodes the JSON result.
func call(t *testing.T, tc *core.ToolCenter, name, args string) (map[string]any, error) {
	t.Helper()
	res, err := tc.Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(res)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m, nil
}

func TestResearchToolsAnswerFromRecordedData(t *testing.T) {
	s, fs := newTestService(t, nil)
	tc := core.NewToolCenter(nil)
	RegisterTools(tc, s)

	names := map[string]bool{}
	for _, ti := range tc.Inventory() {
		names[ti.Name] = true
	}
	for _, n := range []string{"equityGetFinancials", "equityGetRatios", "equityGetEarningsCalendar", "equityGetInsiderTrading",
		"equityDiscover", "economyFredSearch", "economyFredSeries", "economyFredRegional", "economyBlsSearch",
		"economyBlsSeries", "economyEnergyOutlook", "economyPetroleumStatus"} {
		require.True(t, names[n], "tool %s registered", n)
	}

	cases := []struct {
		tool, args string
		check      func(t *testing.T, m map[string]any)
	}{
		{"equityGetFinancials", `{"symbol":"aapl","type":"income","limit":2}`, func(t *testing.T, m map[string]any) {
			require.Equal(t, "0000320193", m["cik"])
			ps := m["periods"].([]any)
			require.Len(t, ps, 2)
			p0 := ps[0].(map[string]any)
			require.Equal(t, "2024-09-28", p0["periodEnd"])
			v := p0["values"].(map[string]any)
			require.Equal(t, "391035000000", v["revenue"])
			require.Equal(t, "93736000000", v["netIncome"])
			require.Equal(t, "6.08", v["epsDiluted"])
			// The 2023 figure was restated in the 2024 10-K: the newer filing wins.
			require.Equal(t, "2024-11-01", ps[1].(map[string]any)["filed"])
		}},
		{"equityGetFinancials", `{"symbol":"AAPL","type":"cash","period":"quarter"}`, func(t *testing.T, m map[string]any) {
			ps := m["periods"].([]any)
			byEnd := map[string]map[string]any{}
			for _, p := range ps {
				byEnd[p.(map[string]any)["periodEnd"].(string)] = p.(map[string]any)
			}
			// Q1 is reported as a quarter; Q2, Q3 and Q4 are year-to-date
			// figures minus the previous year-to-date figure.
			require.Equal(t, "39895000000", byEnd["2023-12-30"]["values"].(map[string]any)["operatingCashFlow"])
			require.Equal(t, "22690000000", byEnd["2024-03-30"]["values"].(map[string]any)["operatingCashFlow"])
			require.Equal(t, "28858000000", byEnd["2024-06-29"]["values"].(map[string]any)["operatingCashFlow"])
			q4 := byEnd["2024-09-28"]
			require.Equal(t, "26811000000", q4["values"].(map[string]any)["operatingCashFlow"])
			require.Equal(t, "Q4", q4["fiscalPeriod"])
			require.Equal(t, []any{"operatingCashFlow"}, q4["derived"])
		}},
		{"equityGetFinancials", `{"symbol":"AAPL","type":"balance"}`, func(t *testing.T, m map[string]any) {
			ps := m["periods"].([]any)
			require.Len(t, ps, 2, "annual balance sheets only (the 10-Q one is left out)")
			require.Equal(t, "364980000000", ps[0].(map[string]any)["values"].(map[string]any)["totalAssets"])
		}},
		{"equityGetRatios", `{"symbol":"AAPL","limit":1}`, func(t *testing.T, m map[string]any) {
			r := m["periods"].([]any)[0].(map[string]any)["ratios"].(map[string]any)
			require.Equal(t, "0.4621", r["grossMargin"])    // 180683 / 391035
			require.Equal(t, "0.2397", r["netMargin"])      // 93736 / 391035
			require.Equal(t, "1.6459", r["returnOnEquity"]) // 93736 / 56950
			require.Equal(t, "0.8673", r["currentRatio"])   // 152987 / 176392
			require.Equal(t, "5.4088", r["debtToEquity"])   // 308030 / 56950 = 5.40878…
		}},
		{"equityGetInsiderTrading", `{"symbol":"AAPL"}`, func(t *testing.T, m map[string]any) {
			tr := m["trades"].([]any)
			require.Len(t, tr, 2)
			a := tr[0].(map[string]any)
			require.Equal(t, "LEVINSON ARTHUR D", a["owner"])
			require.Equal(t, "Director", a["relationship"])
			require.Equal(t, "open-market sale", a["transactionType"])
			require.Equal(t, "33618000", a["value"]) // 150000 × 224.12
			require.Equal(t, "4010000", a["sharesOwnedAfter"])
			b := tr[1].(map[string]any)
			require.Equal(t, "Chief Executive Officer", b["relationship"])
			require.Equal(t, "grant or award", b["transactionType"])
		}},
		{"equityGetEarningsCalendar", `{"start_date":"2026-11-23","end_date":"2026-11-29"}`, func(t *testing.T, m map[string]any) {
			e := m["earnings"].([]any)
			require.Len(t, e, 3)
			require.Equal(t, "after close", e[0].(map[string]any)["time"])
			require.Equal(t, "2026-11-24", e[2].(map[string]any)["date"])
		}},
		{"equityGetEarningsCalendar", `{"symbol":"dell"}`, func(t *testing.T, m map[string]any) {
			e := m["earnings"].([]any)
			require.Len(t, e, 1)
			require.Equal(t, "DELL", e[0].(map[string]any)["symbol"])
			require.Equal(t, "2026-11-30", m["end_date"], "default range is a week from today")
		}},
		{"equityDiscover", `{"type":"gainers"}`, func(t *testing.T, m map[string]any) {
			r := m["results"].([]any)
			require.Len(t, r, 2)
			require.Equal(t, "SMCI", r[0].(map[string]any)["symbol"])
			require.Equal(t, "Super Micro Computer, Inc.", r[0].(map[string]any)["name"])
			require.Equal(t, "17.05", r[0].(map[string]any)["changePercent"])
		}},
		{"economyFredSearch", `{"query":"unemployment","limit":5}`, func(t *testing.T, m map[string]any) {
			r := m["results"].([]any)
			require.Equal(t, "UNRATE", r[0].(map[string]any)["id"])
		}},
		{"economyFredSeries", `{"symbol":"gdp"}`, func(t *testing.T, m map[string]any) {
			obs := m["series"].(map[string]any)["GDP"].([]any)
			require.Len(t, obs, 3)
			require.Equal(t, "31012.456", obs[0].(map[string]any)["value"])
			require.Equal(t, "", obs[2].(map[string]any)["value"], `FRED's "." is no value`)
		}},
		{"economyFredRegional", `{"symbol":"WIPCPI","region_type":"state"}`, func(t *testing.T, m map[string]any) {
			d := m["data"].(map[string]any)["2025-01-01"].([]any)
			require.Equal(t, "Alabama", d[0].(map[string]any)["region"], "regions sorted")
		}},
		{"economyBlsSearch", `{"query":"core cpi"}`, func(t *testing.T, m map[string]any) {
			require.Equal(t, "CUSR0000SA0L1E", m["results"].([]any)[0].(map[string]any)["id"])
		}},
		{"economyBlsSeries", `{"symbol":"CUUR0000SA0","start_date":"2025-01-01"}`, func(t *testing.T, m map[string]any) {
			pts := m["series"].(map[string]any)["CUUR0000SA0"].([]any)
			require.Equal(t, "2026-10", pts[0].(map[string]any)["date"])
			require.Equal(t, "2025", pts[2].(map[string]any)["date"], "M13 is the annual average")
		}},
		{"economyEnergyOutlook", `{"category":"crude_oil_price"}`, func(t *testing.T, m map[string]any) {
			d := m["data"].([]any)
			require.Len(t, d, 2)
			require.Equal(t, "66.18", d[0].(map[string]any)["value"])
			require.Equal(t, "62.5", d[1].(map[string]any)["value"], "numeric values kept exactly")
		}},
		{"economyPetroleumStatus", `{"category":"crude_oil_stocks"}`, func(t *testing.T, m map[string]any) {
			d := m["data"].([]any)[0].(map[string]any)
			require.Equal(t, "WCESTUS1", d["series"])
			require.Equal(t, "MBBL", d["unit"])
			require.Equal(t, "427511", d["value"])
		}},
	}
	for _, c := range cases {
		t.Run(c.tool+c.args, func(t *testing.T) {
			m, err := call(t, tc, c.tool, c.args)
			require.NoError(t, err)
			c.check(t, m)
		})
	}
	for _, ua := range fs.ua {
		require.NotEmpty(t, ua)
	}
}

func TestResearchToolErrors(t *testing.T) {
	s, _ := newTestService(t, func(c *config.Research) {
		c.FRED.APIKey, c.FRED.APIKeyEnv = "", "ALICE_TEST_NO_SUCH_FRED_KEY"
		c.EIA.APIKey, c.EIA.APIKeyEnv = "", ""
	})
	tc := core.NewToolCenter(nil)
	RegisterTools(tc, s)
	cases := []struct{ tool, args, want string }{
		{"economyFredSeries", `{"symbol":"GDP"}`, "ALICE_TEST_NO_SUCH_FRED_KEY"},
		{"economyFredSearch", `{"query":"x"}`, "FRED API key missing"},
		{"economyEnergyOutlook", `{"category":"crude_oil_price"}`, `"eia.apiKey"`},
		{"economyEnergyOutlook", `{"category":"coal"}`, "category must be one of"},
		{"equityGetFinancials", `{"symbol":"AAPL","type":"equity"}`, "type must be income, balance or cash"},
		{"equityGetFinancials", `{"symbol":"AAPL","type":"income","period":"monthly"}`, "period must be annual or quarter"},
		{"equityGetFinancials", `{"symbol":"ZZZZ","type":"income"}`, `no US registrant with ticker "ZZZZ"`},
		{"equityGetFinancials", `{"symbol":"AAPL","type":"income","limit":0}`, "limit must be 1..40"},
		{"equityGetFinancials", `{"symbol":"AAPL","type":"income","bogus":1}`, "unknown parameter"},
		{"equityGetEarningsCalendar", `{"start_date":"2026-01-01","end_date":"2026-03-01"}`, "at most 31"},
		{"equityGetEarningsCalendar", `{"start_date":"23/11/2026"}`, "YYYY-MM-DD"},
		{"equityDiscover", `{"type":"best"}`, "gainers, losers or active"},
		{"economyBlsSeries", `{"symbol":"NOPE"}`, "Series does not exist"},
		{"economyFredRegional", `{"symbol":"WIPCPI","region_type":"planet"}`, "region_type must be"},
	}
	for _, c := range cases {
		t.Run(c.tool+c.args, func(t *testing.T) {
			_, err := call(t, tc, c.tool, c.args)
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
		})
	}
	var mk *MissingKeyError
	_, err := s.FredSeries(context.Background(), "GDP", "", "", 1, "")
	require.True(t, errors.As(err, &mk))
}

func TestResearchCachesAndKeepsKeysOutOfErrors(t *testing.T) {
	s, fs := newTestService(t, nil)
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		_, err := s.Financials(ctx, "AAPL", Income, Annual, 2)
		require.NoError(t, err)
	}
	require.Equal(t, 1, fs.count("/api/xbrl/companyfacts/CIK0000320193.json"), "answers are cached")
	require.Equal(t, 1, fs.count("/files/company_tickers.json"))

	// A transport error quoting the URL must not leak the key.
	cfg := config.DefaultResearch()
	cfg.FRED = config.ResearchSource{BaseURL: "http://127.0.0.1:1", APIKey: "super-secret-key"}
	s2, err := New(cfg, Options{Retries: -1})
	require.NoError(t, err)
	_, err = s2.FredSeries(ctx, "GDP", "", "", 1, "")
	require.Error(t, err)
	require.NotContains(t, err.Error(), "super-secret-key")
}

func TestBlsDate(t *testing.T) {
	for in, want := range map[[2]string]string{
		{"2026", "M01"}: "2026-01", {"2026", "M13"}: "2026", {"2026", "Q03"}: "2026-Q3",
		{"2026", "A01"}: "2026", {"2026", "S02"}: "2026-H2",
	} {
		require.Equal(t, want, blsDate(in[0], in[1]))
	}
}
