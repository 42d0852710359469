package marketdata

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading"
)

func openbbRoutes(r *http.Request) (string, int) {
	switch r.URL.Path {
	case "/api/v1/equity/price/quote":
		return "openbb/equity_quote.json", 200
	case "/api/v1/equity/price/historical":
		return "openbb/equity_historical.json", 200
	case "/api/v1/currency/price/historical":
		return "openbb/currency_historical.json", 200
	case "/api/v1/crypto/price/historical":
		return "openbb/crypto_historical_intraday.json", 200
	case "/api/v1/equity/search":
		return "openbb/equity_search.json", 200
	case "/api/v1/equity/profile":
		return "openbb/equity_profile.json", 200
	case "/api/v1/economy/cpi":
		return "openbb/economy_cpi.json", 200
	}
	return "", 0
}

func newOpenBB(t *testing.T, provider string) (*OpenBB, *replay) {
	t.Helper()
	rp, base := newReplay(t, openbbRoutes)
	o, err := NewOpenBB(base, "tok-1", provider, nil)
	require.NoError(t, err)
	o.now = func() time.Time { return time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC) }
	return o, rp
}

// The OpenBB backend over documented OBBject responses: every asset
// class alice maps, the provider choice and token on every request.
func TestOpenBBBackend(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	o, rp := newOpenBB(t, "yfinance")
	require.Equal(t, "openbb (yfinance)", o.Name())

	q, err := o.Quote(ctx, "aapl", trading.Equity)
	require.NoError(t, err)
	require.Equal(t, "AAPL", q.Symbol)
	require.Equal(t, "190.01", q.Last.String())
	require.Equal(t, "189.98", q.Bid.String())
	require.Equal(t, "190.02", q.Ask.String())
	require.Equal(t, "51234567", q.Volume.String())
	require.Equal(t, "openbb (yfinance)", q.Source)
	require.False(t, q.Simulated)

	from := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	to := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	bars, err := o.Bars(ctx, "AAPL", trading.Equity, Interval{1, Day}, from, to)
	require.NoError(t, err)
	require.Len(t, bars, 3)
	require.Equal(t, 190.01, bars[2].Close)
	require.Equal(t, time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC), bars[2].Time)

	fx, err := o.Quote(ctx, "EUR/USD", trading.Currency)
	require.NoError(t, err)
	require.Equal(t, "1.0588", fx.Last.String(), "the last daily bar")
	require.Equal(t, trading.Currency, fx.AssetClass)

	hourly, err := o.Bars(ctx, "BTC-USD", trading.Crypto, Interval{1, Hour}, time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC), to)
	require.NoError(t, err)
	require.Len(t, hourly, 2)
	require.Equal(t, time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC), hourly[1].Time)

	hits, err := o.Search(ctx, "apple", "", 1)
	require.NoError(t, err)
	require.Equal(t, []Instrument{{Symbol: "AAPL", Name: "Apple Inc.", AssetClass: trading.Equity}}, hits)

	p, err := o.Profile(ctx, "AAPL")
	require.NoError(t, err)
	require.Equal(t, "Technology", p.Sector)
	require.Equal(t, "Consumer Electronics", p.Industry)
	require.Equal(t, "NMS", p.Exchange)

	_, err = o.Quote(ctx, "gold", trading.Commodity)
	require.ErrorIs(t, err, ErrUnsupported)

	seen := map[string]http.Header{}
	queries := map[string]string{}
	for _, r := range rp.requests() {
		seen[r.URL.Path] = r.Header
		queries[r.URL.Path] = r.URL.RawQuery
		require.Equal(t, "yfinance", r.URL.Query().Get("provider"), r.URL.Path)
		require.Equal(t, "Bearer tok-1", r.Header.Get("Authorization"))
	}
	require.Contains(t, queries["/api/v1/currency/price/historical"], "symbol=EURUSD")
	require.Contains(t, queries["/api/v1/crypto/price/historical"], "symbol=BTCUSD")
	require.Contains(t, queries["/api/v1/crypto/price/historical"], "interval=1h")
	require.Contains(t, queries["/api/v1/equity/price/historical"], "start_date=2026-11-20")
}

// openbbGet reaches the other routers (economy here) and refuses a route
// outside them; the OBBject warnings come through.
func TestOpenBBGetTool(t *testing.T) {
	t.Parallel()
	o, _ := newOpenBB(t, "")
	tc := core.NewToolCenter(nil)
	RegisterTools(tc, o)
	for _, name := range []string{"openbbGet", "marketGetQuote", "marketGetHistory", "equityGetProfile"} {
		_, ok := tc.Get(name)
		require.True(t, ok, name)
	}
	res, err := tc.Call(context.Background(), "openbbGet", []byte(`{"route":"economy/cpi","params":{"country":"united_states"}}`))
	require.NoError(t, err)
	require.Contains(t, core.ResultText(res), `"provider":"fred"`)
	require.Contains(t, core.ResultText(res), `"value":0.0287`)
	for _, bad := range []string{"../admin", "system/shutdown", "economy", "economy/CPI?x=1"} {
		_, err := tc.Call(context.Background(), "openbbGet", []byte(`{"route":"`+bad+`"}`))
		require.ErrorContains(t, err, "want <router>/<command>", bad)
	}
	res, err = tc.Call(context.Background(), "marketGetHistory", []byte(`{"symbol":"EURUSD","assetClass":"currency","days":3650}`))
	require.NoError(t, err)
	require.Contains(t, core.ResultText(res), `"source":"openbb"`)
}

// A server that is down, or refuses the token, is an error naming the
// backend, its address and what to check.
func TestOpenBBDownNamesTheBackend(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close()
	o, err := NewOpenBB(base, "", "", nil)
	require.NoError(t, err)
	_, err = o.Quote(context.Background(), "AAPL", trading.Equity)
	require.ErrorContains(t, err, "market data backend openbb at "+base+" is not answering")
	require.ErrorContains(t, err, "openbb-api")

	deny := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"detail":"Invalid token"}`, http.StatusUnauthorized)
	}))
	t.Cleanup(deny.Close)
	o, err = NewOpenBB(deny.URL, "wrong", "", nil)
	require.NoError(t, err)
	_, err = o.Bars(context.Background(), "AAPL", trading.Equity, Interval{1, Day}, time.Now().Add(-48*time.Hour), time.Now())
	require.ErrorContains(t, err, "refused the credentials")

	_, err = NewOpenBB("ftp://nope", "", "", nil)
	require.ErrorContains(t, err, "market data backend openbb")
}
