package bybit

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A venue number that does not parse fails the call with BAD_DATA; it
// never becomes a zero in equity, positions, quotes or orders.
func TestBadVenueNumbersFailTheCall(t *testing.T) {
	t.Parallel()
	results := map[string]string{
		"/v5/account/wallet-balance": `{"list":[{"accountType":"UNIFIED","totalEquity":"12x","totalWalletBalance":"1","totalAvailableBalance":"1","totalPerpUPL":"0","coin":[]}]}`,
		"/v5/position/list":          `{"list":[{"symbol":"BTCUSDT","side":"Buy","size":"0.5","avgPrice":"NaN?","markPrice":"1"}]}`,
		"/v5/market/tickers":         `{"list":[{"symbol":"BTCUSDT","lastPrice":"9O000","bid1Price":"1","ask1Price":"1"}]}`,
		"/v5/order/realtime":         `{"list":[{"orderId":"1","symbol":"BTCUSDT","side":"Buy","orderType":"Limit","qty":"0.1","price":"1","cumExecQty":"0..1","orderStatus":"New","createdTime":"1"}]}`,
		"/v5/market/instruments-info": `{"list":[{"symbol":"BTCUSDT","status":"Trading","baseCoin":"BTC","quoteCoin":"USDT","settleCoin":"USDT",` +
			`"priceFilter":{"tickSize":"0.1"},"lotSizeFilter":{"qtyStep":"0.001","minOrderQty":"0.001","maxOrderQty":"100"}}]}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		res, ok := results[r.URL.Path]
		if !ok {
			res = `{"list":[]}`
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"retCode":0,"retMsg":"OK","result":` + res + `,"time":1}`))
	}))
	t.Cleanup(srv.Close)
	cfg, key, err := ParseConfig(json.RawMessage(`{"mode":"demo","apiKey":"key","secret":"secret","baseUrl":"`+srv.URL+`"}`), nil)
	require.NoError(t, err, key)
	b := New("bybit-demo", cfg, nil)
	ctx := context.Background()
	btc := trading.Contract{Symbol: "BTCUSDT", AssetClass: trading.Crypto}
	calls := map[string]func() error{
		"account":   func() error { _, err := b.Account(ctx); return err },
		"positions": func() error { _, err := b.Positions(ctx); return err },
		"quote":     func() error { _, err := b.Quote(ctx, btc); return err },
		"order":     func() error { _, err := b.Order(ctx, "1"); return err },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			err := call()
			require.Error(t, err)
			assert.Equal(t, broker.CodeBadData, broker.CodeOf(err), err.Error())
			assert.Contains(t, err.Error(), "where a number belongs")
		})
	}
	var n num
	require.NoError(t, json.Unmarshal([]byte(`""`), &n), "absent stays absent")
	require.NoError(t, json.Unmarshal([]byte(`12.5`), &n), "a JSON number is accepted")
	assert.Equal(t, "12.5", n.dec().String())
	var m ms
	require.Error(t, json.Unmarshal([]byte(`"17000000000001.5"`), &m))
}
