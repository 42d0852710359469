package yahoo

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
)

func TestSymbolMapping(t *testing.T) {
	t.Parallel()
	cases := []struct {
		sym   string
		class trading.AssetClass
		want  string
	}{
		{"aapl", trading.Equity, "AAPL"},
		{"BTC", trading.Crypto, "BTC-USD"},
		{"BTCUSD", trading.Crypto, "BTC-USD"},
		{"ETH/USD", trading.Crypto, "ETH-USD"},
		{"EURUSD", trading.Currency, "EURUSD=X"},
		{"gold", trading.Commodity, "GC=F"},
		{"XAU", trading.Commodity, "GC=F"},
		{"crude_oil", trading.Commodity, "CL=F"},
		{"^GSPC", trading.Equity, "^GSPC"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, Symbol(c.sym, c.class), c.sym)
	}
}

func TestClassFromQuoteType(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]trading.AssetClass{
		"EQUITY": trading.Equity, "etf": trading.Equity, "INDEX": trading.Equity, "CRYPTOCURRENCY": trading.Crypto,
		"CURRENCY": trading.Currency, "FUTURE": trading.Commodity, "OPTION": trading.Unknown, "": trading.Unknown,
	} {
		require.Equal(t, want, Class(in), in)
	}
}

// One client serves every endpoint with one cache: a repeated chart or
// screen request inside the TTL is answered without a request.
func TestScreenChartAndCache(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		require.NotEmpty(t, r.Header.Get("User-Agent"))
		switch r.URL.Path {
		case "/v1/finance/screener/predefined/saved":
			if r.URL.Query().Get("scrIds") != "day_gainers" {
				fmt.Fprint(w, `{"finance":{"result":[]}}`)
				return
			}
			fmt.Fprint(w, `{"finance":{"result":[{"quotes":[{"symbol":"NVDA","shortName":"NVIDIA","regularMarketPrice":130.25,"regularMarketChangePercent":4.5}]}]}}`)
		case "/v8/finance/chart/GC=F":
			fmt.Fprint(w, `{"chart":{"result":[{"meta":{"symbol":"GC=F","instrumentType":"FUTURE","regularMarketPrice":2350.1},"timestamp":[1717200000],"indicators":{"quote":[{"open":[1],"high":[2],"low":[0.5],"close":[null],"volume":[10]}]}}]}}`)
		case "/v8/finance/chart/NOPE":
			fmt.Fprint(w, `{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found, symbol may be delisted"}}}`)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	c, err := New(Options{BaseURL: srv.URL, PerSecond: 1000})
	require.NoError(t, err)
	ctx := context.Background()

	rows, err := c.Screen(ctx, "day_gainers", 5)
	require.NoError(t, err)
	require.Equal(t, "NVDA", rows[0].Symbol)
	require.Equal(t, "130.25", rows[0].Price.String())
	_, err = c.Screen(ctx, "day_gainers", 5)
	require.NoError(t, err)
	require.EqualValues(t, 1, calls.Load(), "the second screen came from the cache")

	ch, err := c.Chart(ctx, Symbol("gold", trading.Commodity), nil)
	require.NoError(t, err)
	require.Equal(t, trading.Commodity, Class(ch.Meta.InstrumentType))
	require.Nil(t, ch.Indicators.Quote[0].Close[0])
	require.Equal(t, "2350.1", ch.Meta.RegularMarketPrice.String())

	_, err = c.Chart(ctx, "NOPE", nil)
	require.ErrorIs(t, err, ErrNotFound)
	_, err = c.Chart(ctx, "MISSING", nil)
	require.ErrorIs(t, err, ErrNotFound, "a 404 is ErrNotFound too")
	_, err = c.Screen(ctx, "nothing", 5)
	require.ErrorIs(t, err, ErrNotFound)

	_, err = New(Options{BaseURL: "ftp://x"})
	require.ErrorContains(t, err, "yahoo: invalid base URL")
	_, err = New(Options{CacheTTL: -time.Second, Retries: -1})
	require.NoError(t, err)
}
