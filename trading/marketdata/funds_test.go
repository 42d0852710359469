package marketdata

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading/simmarket"
	"github.com/alice-trading/alice/trading/yahoo"
)

// fakeYahoo plays Yahoo's keyless session dance: /fc sets a cookie,
// /v1/test/getcrumb hands out a crumb for it, quoteSummary answers only
// with both (401 "Invalid Crumb" otherwise). expire makes the first
// crumb go stale after one use. The Cboe catalogue is on the same host.
type fakeYahoo struct {
	t       *testing.T
	mu      sync.Mutex
	crumbs  int
	stale   map[string]bool
	expire  bool
	summary []string // modules asked for, per quoteSummary call
}

func (f *fakeYahoo) serveFile(w http.ResponseWriter, status int, file string) {
	body, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		f.t.Errorf("fixture %s: %v", file, err)
		http.Error(w, err.Error(), 500)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func (f *fakeYahoo) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case r.URL.Path == "/fc":
		http.SetCookie(w, &http.Cookie{Name: "A3", Value: "d=session-1"})
		http.Error(w, "not found", http.StatusNotFound) // as fc.yahoo.com does
	case r.URL.Path == "/v1/test/getcrumb":
		if !strings.Contains(r.Header.Get("Cookie"), "A3=d=session-1") {
			http.Error(w, "", http.StatusUnauthorized)
			return
		}
		f.crumbs++
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("crumb" + string(rune('0'+f.crumbs))))
	case strings.HasPrefix(r.URL.Path, "/v10/finance/quoteSummary/"):
		crumb := r.URL.Query().Get("crumb")
		if crumb == "" || f.stale[crumb] || !strings.Contains(r.Header.Get("Cookie"), "A3=") {
			f.serveFile(w, http.StatusUnauthorized, "yahoo/invalid_crumb.json")
			return
		}
		if f.expire {
			f.stale[crumb] = true
		}
		mods := r.URL.Query().Get("modules")
		f.summary = append(f.summary, mods)
		sym := strings.TrimPrefix(r.URL.Path, "/v10/finance/quoteSummary/")
		switch {
		case sym == "SMH" && mods == "topHoldings":
			f.serveFile(w, 200, "yahoo/quotesummary_SMH_topHoldings.json")
		case sym == "SMH" && strings.HasPrefix(mods, "price,"):
			f.serveFile(w, 200, "yahoo/quotesummary_SMH_info.json")
		case sym == "AAPL" && strings.HasPrefix(mods, "financialData"):
			f.serveFile(w, 200, "yahoo/quotesummary_AAPL_estimates.json")
		case sym == "AAPL" && mods == "topHoldings":
			f.serveFile(w, 200, "yahoo/quotesummary_AAPL_estimates.json") // a stock: no topHoldings module
		case sym == "GME":
			f.serveFile(w, 200, "yahoo/quotesummary_GME_shares.json")
		default:
			f.serveFile(w, http.StatusNotFound, "yahoo/quotesummary_notfound.json")
		}
	case r.URL.Path == "/v1/finance/search":
		f.serveFile(w, 200, "yahoo/search_robotics.json")
	case r.URL.Path == cboeIndexPath:
		f.serveFile(w, 200, "cboe/all_indices.json")
	default:
		http.Error(w, "no route "+r.URL.Path, http.StatusTeapot)
	}
}

func newYahooFundTools(t *testing.T, expire bool) (*core.ToolCenter, *fakeYahoo) {
	t.Helper()
	fy := &fakeYahoo{t: t, stale: map[string]bool{}, expire: expire}
	srv := httptest.NewServer(fy)
	t.Cleanup(srv.Close)
	yc, err := yahoo.New(yahoo.Options{BaseURL: srv.URL, CookieURL: srv.URL + "/fc", CacheTTL: -1, Retries: -1})
	require.NoError(t, err)
	tc := core.NewToolCenter(nil)
	RegisterFundTools(tc, "auto (yahoo, else simulated)", NewYahooFunds(yc, srv.URL, nil))
	return tc, fy
}

// call runs a tool and decodes its reply.
func callFund(t *testing.T, tc *core.ToolCenter, name, args string) (FundReply, []map[string]any) {
	t.Helper()
	res, err := tc.Call(context.Background(), name, []byte(args))
	require.NoError(t, err, name)
	text := core.ResultText(res)
	var r FundReply
	require.NoError(t, json.Unmarshal([]byte(text), &r), text)
	var rows struct {
		Results []map[string]any `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &rows))
	return r, rows.Results
}

// The keyless default answers OpenAlice's ETF, index, estimate and
// short-interest tools from Yahoo quoteSummary (after the cookie/crumb
// session), Yahoo search and Cboe's catalogue, with OpenBB's field names.
func TestYahooFundTools(t *testing.T) {
	t.Parallel()
	tc, fy := newYahooFundTools(t, false)

	r, rows := callFund(t, tc, "etfGetHoldings", `{"symbol":"smh"}`)
	require.Equal(t, "SMH", r.Symbol)
	require.Equal(t, "yahoo", r.Source)
	require.Equal(t, 3, r.Count)
	require.Equal(t, map[string]any{"symbol": "NVDA", "name": "NVIDIA Corp", "weight": 0.1921}, rows[0])

	_, rows = callFund(t, tc, "etfGetSectors", `{"symbol":"SMH"}`)
	require.Len(t, rows, 7)
	require.Equal(t, map[string]any{"symbol": "SMH", "sector": "Technology", "weight": 0.9801}, rows[0], "largest first")
	require.Equal(t, "Industrials", rows[1]["sector"])

	_, rows = callFund(t, tc, "etfGetInfo", `{"symbol":"SMH"}`)
	require.Len(t, rows, 1)
	info := rows[0]
	require.Equal(t, "VanEck Semiconductor ETF", info["name"])
	require.Equal(t, "VanEck", info["fund_family"])
	require.Equal(t, "Technology", info["category"])
	require.Equal(t, "2011-12-08", info["inception_date"])
	require.Equal(t, 24816005120.0, info["total_assets"])
	require.Equal(t, 7153410.0, info["volume_avg"])
	require.Equal(t, 251.1, info["nav_price"])
	require.Contains(t, info["description"], "semiconductor production")

	r, rows = callFund(t, tc, "etfSearch", `{"query":"robotics","limit":2}`)
	require.Equal(t, "robotics", r.Query)
	require.Equal(t, 2, r.Count, "limit applies, ETFs only")
	require.Equal(t, "BOTZ", rows[0]["symbol"])
	require.Equal(t, "ROBO", rows[1]["symbol"], "the equity IRBT is left out")

	_, rows = callFund(t, tc, "equityGetEstimates", `{"symbol":"AAPL"}`)
	est := rows[0]
	require.Equal(t, "Apple Inc.", est["name"])
	require.Equal(t, 300.0, est["target_high"], "Yahoo's {raw, fmt} numbers are read too")
	require.Equal(t, 184.0, est["target_low"])
	require.Equal(t, 245.73, est["target_consensus"])
	require.Equal(t, 250.0, est["target_median"])
	require.Equal(t, "buy", est["recommendation"])
	require.Equal(t, 38.0, est["number_of_analysts"])
	periods := est["estimates"].([]any)
	require.Len(t, periods, 2)
	q0 := periods[0].(map[string]any)
	require.Equal(t, "0q", q0["period"])
	require.Equal(t, 2.67, q0["eps_avg"])
	require.Equal(t, 137830000000.0, q0["revenue_avg"])
	y1 := periods[1].(map[string]any)
	require.NotContains(t, y1, "eps_low", "an empty {} is absent, not zero")

	_, rows = callFund(t, tc, "equityGetShortInterest", `{"symbol":"GME"}`)
	si := rows[0]
	require.Equal(t, 55112300.0, si["short_interest"], "a quoted count is read as a number")
	require.Equal(t, 0.1357, si["short_percent_of_float"])
	require.Equal(t, 4.87, si["days_to_cover"])
	require.Equal(t, 51034000.0, si["short_interest_prev_month"])
	require.Equal(t, "2025-10-15", si["short_interest_prev_date"])
	require.Equal(t, 446938000.0, si["outstanding_shares"])
	require.Equal(t, 0.3401, si["institution_float_ownership"])

	r, rows = callFund(t, tc, "indexSearch", `{"query":"volatility"}`)
	require.Equal(t, "yahoo", r.Source)
	var syms []string
	for _, row := range rows {
		syms = append(syms, row["symbol"].(string))
	}
	require.Equal(t, []string{"VIX", "VVIX", "VXN"}, syms)

	fy.mu.Lock()
	require.Equal(t, 1, fy.crumbs, "one session serves every call")
	fy.mu.Unlock()

	// Not on Yahoo: an error naming the backend and what can answer.
	for _, c := range []struct{ tool, want string }{
		{"etfGetCountries", "etfGetCountries is not available on market data backend yahoo (Yahoo has no country weights; use backend openbb"},
		{"indexGetConstituents", "indexGetConstituents is not available on market data backend yahoo"},
	} {
		_, err := tc.Call(context.Background(), c.tool, []byte(`{"symbol":"VT"}`))
		require.ErrorContains(t, err, c.want)
	}
	// A stock has no holdings; an unknown symbol is not found; both name the backend.
	_, err := tc.Call(context.Background(), "etfGetHoldings", []byte(`{"symbol":"AAPL"}`))
	require.ErrorContains(t, err, "etfGetHoldings (market data backend yahoo)")
	require.ErrorContains(t, err, "no topHoldings module")
	_, err = tc.Call(context.Background(), "equityGetEstimates", []byte(`{"symbol":"NOPE"}`))
	require.ErrorIs(t, err, yahoo.ErrNotFound)
	require.ErrorContains(t, err, "Quote not found for symbol: NOPE")
	// Bad arguments are tool errors.
	_, err = tc.Call(context.Background(), "etfGetInfo", []byte(`{"symbol":"  "}`))
	require.ErrorContains(t, err, "symbol is required")
	_, err = tc.Call(context.Background(), "etfSearch", []byte(`{"query":"x","limit":0}`))
	require.ErrorContains(t, err, "limit must be 1..100")
	_, err = tc.Call(context.Background(), "etfGetInfo", []byte(`{"ticker":"SMH"}`))
	require.Error(t, err, "an unknown argument is refused")
	_, err = tc.Call(context.Background(), "etfGetInfo", []byte(`{"query":"SMH"}`))
	require.Error(t, err, "another tool's argument is refused")
	_, err = tc.Call(context.Background(), "etfGetInfo", []byte(`{"symbol":"`+strings.Repeat("A", 101)+`"}`))
	require.ErrorContains(t, err, "longer than 100")
}

// Yahoo refuses a stale crumb with 401: the client fetches a new session
// once and the call succeeds.
func TestYahooQuoteSummaryRenewsAStaleCrumb(t *testing.T) {
	t.Parallel()
	tc, fy := newYahooFundTools(t, true)
	callFund(t, tc, "etfGetHoldings", `{"symbol":"SMH"}`)
	callFund(t, tc, "etfGetSectors", `{"symbol":"SMH"}`)
	fy.mu.Lock()
	defer fy.mu.Unlock()
	require.Equal(t, 2, fy.crumbs, "the second call renewed the session")
	require.Len(t, fy.summary, 2)
}

// Yahoo unreachable: the error says which backend failed.
func TestYahooFundsDown(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close()
	yc, err := yahoo.New(yahoo.Options{BaseURL: base, CookieURL: base + "/fc", Retries: -1})
	require.NoError(t, err)
	tc := core.NewToolCenter(nil)
	RegisterFundTools(tc, "yahoo", NewYahooFunds(yc, base, nil))
	_, err = tc.Call(context.Background(), "etfGetSectors", []byte(`{"symbol":"SMH"}`))
	require.ErrorContains(t, err, "etfGetSectors (market data backend yahoo)")
	require.True(t, Unavailable(err), "a transport failure: %v", err)
}

func openbbFundRoutes(r *http.Request) (string, int) {
	switch r.URL.Path {
	case "/api/v1/etf/info":
		return "openbb/etf_info.json", 200
	case "/api/v1/etf/holdings":
		return "openbb/etf_holdings.json", 200
	case "/api/v1/etf/sectors":
		return "openbb/etf_sectors.json", 200
	case "/api/v1/etf/countries":
		if r.URL.Query().Get("symbol") == "SPY" {
			return "openbb/etf_countries_empty.json", 200
		}
		return "openbb/etf_countries.json", 200
	case "/api/v1/etf/search":
		return "openbb/etf_search.json", 200
	case "/api/v1/index/search":
		return "openbb/index_search.json", 200
	case "/api/v1/index/constituents":
		return "openbb/index_constituents.json", 200
	case "/api/v1/equity/estimates/consensus":
		return "openbb/estimates_consensus.json", 200
	case "/api/v1/equity/ownership/share_statistics":
		return "openbb/share_statistics.json", 200
	}
	return "", 0
}

// The OpenBB backend answers every fund tool from its route, with the
// configured provider where the route has it and a keyless one (or the
// server's default) where it does not.
func TestOpenBBFundTools(t *testing.T) {
	t.Parallel()
	rp, base := newReplay(t, openbbFundRoutes)
	o, err := NewOpenBB(base, "tok-1", "fmp", nil)
	require.NoError(t, err)
	tc := core.NewToolCenter(nil)
	RegisterTools(tc, o)

	cases := []struct {
		tool, args, path, param, provider string
		check                             func(rows []map[string]any)
	}{
		{"etfGetInfo", `{"symbol":"smh"}`, "/api/v1/etf/info", "symbol=SMH", "fmp", func(rows []map[string]any) {
			require.Equal(t, 24816005120.0, rows[0]["total_assets"])
		}},
		{"etfGetHoldings", `{"symbol":"SMH"}`, "/api/v1/etf/holdings", "symbol=SMH", "fmp", func(rows []map[string]any) {
			require.Equal(t, "NVDA", rows[0]["symbol"])
			require.Equal(t, "US67066G1040", rows[0]["isin"], "OpenBB's extra fields pass through")
		}},
		{"etfGetSectors", `{"symbol":"SMH"}`, "/api/v1/etf/sectors", "symbol=SMH", "fmp", func(rows []map[string]any) {
			require.Equal(t, "Technology", rows[0]["sector"])
		}},
		{"etfGetCountries", `{"symbol":"VT"}`, "/api/v1/etf/countries", "symbol=VT", "fmp", func(rows []map[string]any) {
			require.Len(t, rows, 3)
			require.Equal(t, "United States", rows[0]["country"])
			require.Equal(t, 0.6215, rows[0]["weight"])
		}},
		{"etfSearch", `{"query":"robotics","limit":1}`, "/api/v1/etf/search", "query=robotics", "fmp", func(rows []map[string]any) {
			require.Len(t, rows, 1)
			require.Equal(t, "BOTZ", rows[0]["symbol"])
		}},
		{"indexSearch", `{"query":"vix"}`, "/api/v1/index/search", "query=vix", "cboe", func(rows []map[string]any) {
			require.Equal(t, "VIX", rows[0]["symbol"])
		}},
		{"indexGetConstituents", `{"symbol":"SP500"}`, "/api/v1/index/constituents", "symbol=sp500", "fmp", func(rows []map[string]any) {
			require.Equal(t, "AAPL", rows[0]["symbol"])
			require.Equal(t, "Microsoft Corporation", rows[1]["name"])
		}},
		{"equityGetEstimates", `{"symbol":"AAPL"}`, "/api/v1/equity/estimates/consensus", "symbol=AAPL", "fmp", func(rows []map[string]any) {
			require.Equal(t, 245.73, rows[0]["target_consensus"])
		}},
		{"equityGetShortInterest", `{"symbol":"GME"}`, "/api/v1/equity/ownership/share_statistics", "symbol=GME", "fmp", func(rows []map[string]any) {
			require.Equal(t, 4.87, rows[0]["days_to_cover"])
		}},
	}
	for _, c := range cases {
		r, rows := callFund(t, tc, c.tool, c.args)
		require.Equal(t, "openbb (fmp)", r.Source, c.tool)
		c.check(rows)
		last := rp.requests()[len(rp.requests())-1]
		require.Equal(t, c.path, last.URL.Path, c.tool)
		require.Contains(t, last.URL.RawQuery, c.param, c.tool)
		require.Equal(t, c.provider, last.URL.Query().Get("provider"), c.tool)
		require.Equal(t, "Bearer tok-1", last.Header.Get("Authorization"))
	}

	// No rows: not found, with OpenBB's warning.
	_, err = tc.Call(context.Background(), "etfGetCountries", []byte(`{"symbol":"SPY"}`))
	require.ErrorIs(t, err, ErrNotFound)
	require.ErrorContains(t, err, "No country data found for SPY.")

	// A provider the route lacks: the keyless one, or the server's default.
	o2, err := NewOpenBB(base, "", "polygon", nil)
	require.NoError(t, err)
	tc2 := core.NewToolCenter(nil)
	RegisterTools(tc2, o2)
	callFund(t, tc2, "etfGetInfo", `{"symbol":"SMH"}`)
	require.Equal(t, "yfinance", rp.requests()[len(rp.requests())-1].URL.Query().Get("provider"))
	callFund(t, tc2, "etfGetSectors", `{"symbol":"SMH"}`)
	_, sent := rp.requests()[len(rp.requests())-1].URL.Query()["provider"]
	require.False(t, sent, "no provider: the server's default priority")
}

// A backend without fund data (the simulated market) and an OpenBB
// server that is down both answer with an error naming the backend.
func TestFundToolsUnavailable(t *testing.T) {
	t.Parallel()
	tc := core.NewToolCenter(nil)
	RegisterTools(tc, NewSimulated(simmarket.New(42), nil))
	for _, name := range []string{"etfSearch", "etfGetInfo", "etfGetHoldings", "etfGetSectors", "etfGetCountries", "indexSearch",
		"indexGetConstituents", "equityGetEstimates", "equityGetShortInterest"} {
		tl, ok := tc.Get(name)
		require.True(t, ok, name)
		arg := "symbol"
		if strings.Contains(string(tl.InputSchema), `"query"`) {
			arg = "query"
		}
		_, err := tc.Call(context.Background(), name, []byte(`{"`+arg+`":"SPY"}`))
		require.ErrorContains(t, err, name+" is not available on market data backend simulated (use market-data.json backend auto, yahoo or openbb)")
	}

	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close()
	o, err := NewOpenBB(base, "", "", nil)
	require.NoError(t, err)
	tc = core.NewToolCenter(nil)
	RegisterTools(tc, o)
	_, err = tc.Call(context.Background(), "etfGetHoldings", []byte(`{"symbol":"SPY"}`))
	require.ErrorContains(t, err, "etfGetHoldings (market data backend openbb): market data backend openbb at "+base+" is not answering")
}

// Yahoo hands out no session cookie (a consent wall, a block): the error
// says so instead of sending a crumb-less request.
func TestYahooWithoutSessionCookie(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "consent required", http.StatusForbidden)
	}))
	t.Cleanup(srv.Close)
	yc, err := yahoo.New(yahoo.Options{BaseURL: srv.URL, CookieURL: srv.URL + "/fc", Retries: -1})
	require.NoError(t, err)
	tc := core.NewToolCenter(nil)
	RegisterFundTools(tc, "yahoo", NewYahooFunds(yc, srv.URL, nil))
	_, err = tc.Call(context.Background(), "equityGetShortInterest", []byte(`{"symbol":"GME"}`))
	require.ErrorIs(t, err, yahoo.ErrNoSession)
	require.ErrorContains(t, err, "set no cookie (status 403)")
}
