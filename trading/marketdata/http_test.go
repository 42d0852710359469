package marketdata

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading"
)

// replay serves recorded responses from testdata/ and remembers
// the requests it saw.
type replay struct {
	t      *testing.T
	mu     sync.Mutex
	seen   []*http.Request
	routes func(r *http.Request) (file string, status int)
}

func (rp *replay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rp.mu.Lock()
	rp.seen = append(rp.seen, r.Clone(context.Background()))
	rp.mu.Unlock()
	file, status := rp.routes(r)
	if file == "" {
		http.Error(w, `{"message":"no recording for `+r.URL.Path+`"}`, http.StatusTeapot)
		return
	}
	body, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		rp.t.Errorf("recording %s: %v", file, err)
		http.Error(w, err.Error(), 500)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func (rp *replay) requests() []*http.Request {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return append([]*http.Request(nil), rp.seen...)
}

func newReplay(t *testing.T, routes func(r *http.Request) (string, int)) (*replay, string) {
	rp := &replay{t: t, routes: routes}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	return rp, srv.URL
}

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func alpacaRoutes(r *http.Request) (string, int) {
	switch r.URL.Path {
	case "/v2/stocks/AAPL/bars":
		if r.URL.Query().Get("page_token") != "" {
			return "alpaca/stocks_AAPL_bars_page2.json", 200
		}
		return "alpaca/stocks_AAPL_bars_page1.json", 200
	case "/v2/stocks/AAPL/quotes/latest":
		return "alpaca/stocks_AAPL_quotes_latest.json", 200
	case "/v2/stocks/AAPL/trades/latest":
		return "alpaca/stocks_AAPL_trades_latest.json", 200
	case "/v1beta3/crypto/us/bars":
		return "alpaca/crypto_bars_BTCUSD.json", 200
	case "/v1beta3/crypto/us/latest/quotes":
		return "alpaca/crypto_latest_quotes.json", 200
	case "/v1beta3/crypto/us/latest/trades":
		return "alpaca/crypto_latest_trades.json", 200
	case "/v2/stocks/NOPE!/bars":
		return "alpaca/error_invalid_symbol.json", 422
	}
	return "", 0
}

func TestAlpacaStockBarsPaginatesAndAuthenticates(t *testing.T) {
	rp, base := newReplay(t, alpacaRoutes)
	src, err := Open(config.MarketData{Backend: "alpaca", BaseURL: base, APIKeyEnv: "MY_KEY"}, nil, Options{
		Getenv: func(k string) string {
			return map[string]string{"MY_KEY": "key-1", DefaultAlpacaSecretEnv: "secret-1"}[k]
		},
	})
	require.NoError(t, err)
	from := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	bars, err := src.Bars(context.Background(), "aapl", trading.Equity, Interval{1, Day}, from, from.AddDate(0, 0, 7))
	require.NoError(t, err)
	require.Len(t, bars, 4)
	require.Equal(t, time.Date(2024, 6, 3, 4, 0, 0, 0, time.UTC), bars[0].Time)
	require.InDelta(t, 194.03, bars[0].Close, 1e-9)
	require.InDelta(t, 194.48, bars[3].Close, 1e-9)
	require.InDelta(t, 41181753, bars[3].Volume, 1e-9)

	reqs := rp.requests()
	require.Len(t, reqs, 2)
	require.Equal(t, "key-1", reqs[0].Header.Get("APCA-API-KEY-ID"))
	require.Equal(t, "secret-1", reqs[0].Header.Get("APCA-API-SECRET-KEY"))
	require.Equal(t, "1Day", reqs[0].URL.Query().Get("timeframe"))
	require.Equal(t, "2024-06-01T00:00:00Z", reqs[0].URL.Query().Get("start"))
	require.Equal(t, "QUFQTHxEfDIwMjQtMDYtMDRUMDQ6MDA6MDAuMDAwMDAwMDAwWg==", reqs[1].URL.Query().Get("page_token"))
}

func TestAlpacaQuotesKeepDecimals(t *testing.T) {
	_, base := newReplay(t, alpacaRoutes)
	a, err := NewAlpaca(base, "k", "s", nil)
	require.NoError(t, err)

	q, err := a.Quote(context.Background(), "AAPL", trading.Equity)
	require.NoError(t, err)
	require.True(t, d("196.89").Equal(q.Last), q.Last.String())
	require.True(t, d("196.88").Equal(q.Bid))
	require.True(t, d("196.9").Equal(q.Ask))
	require.Equal(t, 2024, q.Time.Year())

	cq, err := a.Quote(context.Background(), "BTCUSD", trading.Crypto)
	require.NoError(t, err)
	require.Equal(t, "BTC/USD", cq.Symbol)
	require.True(t, d("69338.7").Equal(cq.Last))
	require.True(t, d("69321.5").Equal(cq.Bid))
}

func TestAlpacaCryptoBars(t *testing.T) {
	rp, base := newReplay(t, alpacaRoutes)
	a, err := NewAlpaca(base, "k", "s", nil)
	require.NoError(t, err)
	from := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	bars, err := a.Bars(context.Background(), "BTC", trading.Crypto, Interval{1, Day}, from, from.AddDate(0, 0, 7))
	require.NoError(t, err)
	require.Len(t, bars, 2)
	require.InDelta(t, 70567.45, bars[1].Close, 1e-9)
	require.Equal(t, "BTC/USD", rp.requests()[0].URL.Query().Get("symbols"))
}

func TestAlpacaErrors(t *testing.T) {
	_, base := newReplay(t, alpacaRoutes)
	a, err := NewAlpaca(base, "k", "s", nil)
	require.NoError(t, err)
	from := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	ctx := context.Background()

	_, err = a.Bars(ctx, "NOPE!", trading.Equity, Interval{1, Day}, from, from.AddDate(0, 0, 1))
	require.ErrorContains(t, err, "422")
	require.ErrorContains(t, err, "invalid symbol")

	_, err = a.Bars(ctx, "AAPL", trading.Equity, Interval{3, Day}, from, from.AddDate(0, 0, 1))
	require.ErrorContains(t, err, "does not offer 3d")
	_, err = a.Bars(ctx, "AAPL", trading.Equity, Interval{1, Day}, from, from)
	require.ErrorContains(t, err, "empty time range")
	_, err = a.Quote(ctx, "EURUSD", trading.Currency)
	require.ErrorIs(t, err, ErrUnsupported)
	_, err = a.Search(ctx, "apple", "", 5)
	require.ErrorIs(t, err, ErrUnsupported)

	_, err = NewAlpaca(base, "", "", nil)
	require.ErrorContains(t, err, "API key")
}

func yahooRoutes(r *http.Request) (string, int) {
	switch r.URL.Path {
	case "/v8/finance/chart/AAPL":
		return "yahoo/chart_AAPL_1d.json", 200
	case "/v8/finance/chart/ZZZZ":
		return "yahoo/chart_notfound.json", 404
	case "/v1/finance/search":
		return "yahoo/search_apple.json", 200
	}
	return "", 0
}

func TestYahooBarsDropNullRows(t *testing.T) {
	rp, base := newReplay(t, yahooRoutes)
	src, err := Open(config.MarketData{Backend: "yahoo", BaseURL: base}, nil, Options{})
	require.NoError(t, err)
	from := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	bars, err := src.Bars(context.Background(), "AAPL", trading.Equity, Interval{1, Day}, from, from.AddDate(0, 0, 7))
	require.NoError(t, err)
	require.Len(t, bars, 4, "the 2024-06-06 row is all null")
	require.Equal(t, time.Date(2024, 6, 7, 13, 30, 0, 0, time.UTC), bars[3].Time)
	require.InDelta(t, 196.89, bars[3].Close, 1e-6)

	q := rp.requests()[0].URL.Query()
	require.Equal(t, "1d", q.Get("interval"))
	require.Equal(t, "1717200000", q.Get("period1"))
	require.NotEmpty(t, rp.requests()[0].Header.Get("User-Agent"))
}

func TestYahooQuoteSearchProfile(t *testing.T) {
	_, base := newReplay(t, yahooRoutes)
	y, err := NewYahoo(base, nil)
	require.NoError(t, err)
	ctx := context.Background()

	q, err := y.Quote(ctx, "AAPL", "")
	require.NoError(t, err)
	require.True(t, d("196.89").Equal(q.Last))
	require.True(t, d("53103912").Equal(q.Volume))
	require.Equal(t, trading.Equity, q.AssetClass)
	require.Equal(t, "USD", q.Currency)

	hits, err := y.Search(ctx, "apple", "", 10)
	require.NoError(t, err)
	require.Equal(t, Instrument{Symbol: "AAPL", Name: "Apple Inc.", AssetClass: trading.Equity, Exchange: "NASDAQ"}, hits[0])
	var crypto []string
	for _, h := range hits {
		if h.AssetClass == trading.Crypto {
			crypto = append(crypto, h.Symbol)
		}
	}
	require.Equal(t, []string{"APPLE-USD"}, crypto)

	gold, err := y.Search(ctx, "gold", trading.Commodity, 5)
	require.NoError(t, err)
	require.Equal(t, "gold", gold[0].Symbol, "commodities come from the canonical catalogue")

	p, err := y.Profile(ctx, "aapl")
	require.NoError(t, err)
	require.Equal(t, "Apple Inc.", p.Name)
	require.Equal(t, "Technology", p.Sector)
	require.Equal(t, "Consumer Electronics", p.Industry)
	require.True(t, d("199.62").Equal(p.High52w))
	require.False(t, p.Simulated)

	_, err = y.Quote(ctx, "ZZZZ", trading.Equity)
	require.True(t, errors.Is(err, ErrNotFound), "%v", err)
}

func TestOpenRejectsUnknownBackend(t *testing.T) {
	_, err := Open(config.MarketData{Backend: "bloomberg"}, nil, Options{})
	require.ErrorContains(t, err, "unknown market data backend")
	_, err = Open(config.MarketData{Backend: "yahoo", BaseURL: "ftp://x"}, nil, Options{})
	require.ErrorContains(t, err, "market data: yahoo: invalid base URL")
}
