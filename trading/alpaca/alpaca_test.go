package alpaca

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeAlpaca speaks the subset of Alpaca's v2 trading and data APIs the
// adapter uses, with Alpaca's JSON shapes (money as strings).
type fakeAlpaca struct {
	mu       sync.Mutex
	orders   map[string]map[string]any
	clientID map[string]string
	lastBody map[string]any
	n        int
}

func newFakeAlpaca(t *testing.T) (*fakeAlpaca, *httptest.Server) {
	f := &fakeAlpaca{orders: map[string]map[string]any{}, clientID: map[string]string{}}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	return f, srv
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func (f *fakeAlpaca) serve(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("APCA-API-KEY-ID") != "key" || r.Header.Get("APCA-API-SECRET-KEY") != "secret" {
		writeJSON(w, 401, map[string]any{"code": 40110000, "message": "request is not authorized"})
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	p := r.URL.Path
	switch {
	case p == "/v2/account":
		writeJSON(w, 200, map[string]any{"currency": "USD", "cash": "50000.50", "equity": "101234.56", "buying_power": "100001", "last_equity": "100000", "status": "ACTIVE"})
	case p == "/v2/positions" && r.Method == http.MethodGet:
		writeJSON(w, 200, []map[string]any{{"symbol": "AAPL", "asset_class": "us_equity", "exchange": "NASDAQ", "qty": "10", "side": "long",
			"avg_entry_price": "180.5", "current_price": "190.25", "market_value": "1902.5", "unrealized_pl": "97.5"}})
	case strings.HasPrefix(p, "/v2/positions/") && r.Method == http.MethodDelete:
		f.n++
		id := fmt.Sprintf("close-%d", f.n)
		o := map[string]any{"id": id, "symbol": strings.TrimPrefix(p, "/v2/positions/"), "qty": r.URL.Query().Get("qty"), "side": "sell",
			"type": "market", "time_in_force": "day", "status": "accepted", "filled_qty": "0", "filled_avg_price": nil}
		f.orders[id] = o
		writeJSON(w, 200, o)
	case p == "/v2/orders" && r.Method == http.MethodPost:
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		f.lastBody = body
		if cid, _ := body["client_order_id"].(string); cid != "" {
			if _, dup := f.clientID[cid]; dup {
				writeJSON(w, 422, map[string]any{"code": 40010001, "message": "client_order_id must be unique"})
				return
			}
		}
		if body["symbol"] == "GME" {
			writeJSON(w, 403, map[string]any{"code": 40310000, "message": "insufficient buying power"})
			return
		}
		f.n++
		id := fmt.Sprintf("ord-%d", f.n)
		status, filled, avg := "new", any("0"), any(nil)
		if body["type"] == "market" {
			status, filled, avg = "filled", body["qty"], "190.1"
		}
		o := map[string]any{"id": id, "client_order_id": body["client_order_id"], "symbol": body["symbol"], "asset_class": "us_equity",
			"qty": body["qty"], "notional": body["notional"], "side": body["side"], "type": body["type"], "time_in_force": body["time_in_force"],
			"limit_price": body["limit_price"], "stop_price": body["stop_price"], "status": status, "filled_qty": filled, "filled_avg_price": avg,
			"created_at": "2026-01-05T15:00:00Z", "updated_at": "2026-01-05T15:00:01Z"}
		f.orders[id] = o
		if cid, _ := body["client_order_id"].(string); cid != "" {
			f.clientID[cid] = id
		}
		writeJSON(w, 200, o)
	case p == "/v2/orders" && r.Method == http.MethodGet:
		var out []map[string]any
		for _, o := range f.orders {
			out = append(out, o)
		}
		writeJSON(w, 200, out)
	case strings.HasPrefix(p, "/v2/orders/"):
		id := strings.TrimPrefix(p, "/v2/orders/")
		o, ok := f.orders[id]
		if !ok {
			writeJSON(w, 404, map[string]any{"code": 40410000, "message": "order not found"})
			return
		}
		switch r.Method {
		case http.MethodGet:
			writeJSON(w, 200, o)
		case http.MethodDelete:
			o["status"] = "canceled"
			w.WriteHeader(204)
		case http.MethodPatch:
			var body map[string]any
			_ = json.NewDecoder(r.Body).Decode(&body)
			o["status"] = "replaced"
			f.n++
			nid := fmt.Sprintf("ord-%d", f.n)
			n := map[string]any{}
			for k, v := range o {
				n[k] = v
			}
			n["id"], n["status"] = nid, "new"
			if v, ok := body["limit_price"]; ok {
				n["limit_price"] = v
			}
			if v, ok := body["qty"]; ok {
				n["qty"] = v
			}
			f.orders[nid] = n
			writeJSON(w, 200, n)
		}
	case p == "/v2/clock":
		writeJSON(w, 200, map[string]any{"timestamp": "2026-01-05T10:00:00-05:00", "is_open": true,
			"next_open": "2026-01-06T09:30:00-05:00", "next_close": "2026-01-05T16:00:00-05:00"})
	case p == "/v2/assets":
		writeJSON(w, 200, []map[string]any{
			{"id": "1", "class": "us_equity", "exchange": "NASDAQ", "symbol": "AAPL", "name": "Apple Inc. Common Stock", "status": "active", "tradable": true, "fractionable": true},
			{"id": "2", "class": "us_equity", "exchange": "NASDAQ", "symbol": "AMZN", "name": "Amazon.com Inc", "status": "active", "tradable": true},
			{"id": "3", "class": "crypto", "exchange": "CRYPTO", "symbol": "BTC/USD", "name": "Bitcoin / US Dollar", "status": "active", "tradable": true},
			{"id": "4", "class": "us_equity", "exchange": "OTC", "symbol": "APPX", "name": "Not tradable", "status": "active", "tradable": false},
		})
	case strings.HasPrefix(p, "/v2/assets/"):
		sym := strings.TrimPrefix(p, "/v2/assets/")
		if sym != "AAPL" {
			writeJSON(w, 404, map[string]any{"code": 40410000, "message": "asset not found"})
			return
		}
		writeJSON(w, 200, map[string]any{"id": "1", "class": "us_equity", "exchange": "NASDAQ", "symbol": "AAPL", "name": "Apple Inc.", "status": "active", "tradable": true, "fractionable": true})
	case p == "/v2/stocks/AAPL/quotes/latest":
		writeJSON(w, 200, map[string]any{"symbol": "AAPL", "quote": map[string]any{"ap": 190.3, "as": 2, "bp": 190.2, "bs": 3, "t": "2026-01-05T15:00:00Z"}})
	case p == "/v2/stocks/AAPL/trades/latest":
		writeJSON(w, 200, map[string]any{"symbol": "AAPL", "trade": map[string]any{"p": 190.25, "s": 100, "t": "2026-01-05T15:00:01Z"}})
	case p == "/v2/boom":
		writeJSON(w, 500, map[string]any{"message": "internal"})
	default:
		writeJSON(w, 404, map[string]any{"message": "no route " + r.Method + " " + p})
	}
}

func newTestBroker(t *testing.T) (*Broker, *fakeAlpaca) {
	f, srv := newFakeAlpaca(t)
	cfg, key, err := ParseConfig([]byte(fmt.Sprintf(`{"apiKey":"key","apiSecret":"secret","baseUrl":%q,"dataUrl":%q}`, srv.URL, srv.URL)), nil)
	require.NoError(t, err, key)
	return New("alp", cfg, nil), f
}

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestAccountPositionsClock(t *testing.T) {
	ctx := context.Background()
	b, _ := newTestBroker(t)
	require.NoError(t, b.Init(ctx))
	a, err := b.Account(ctx)
	require.NoError(t, err)
	assert.True(t, a.NetLiquidation.Equal(d("101234.56")))
	assert.True(t, a.TotalCashValue.Equal(d("50000.50")))
	assert.True(t, a.BuyingPower.Equal(d("100001")))
	assert.True(t, a.UnrealizedPnL.Equal(d("97.5")))
	pos, err := b.Positions(ctx)
	require.NoError(t, err)
	require.Len(t, pos, 1)
	assert.Equal(t, "alp|AAPL", pos[0].Contract.AliceID)
	assert.True(t, pos[0].AvgCost.Equal(d("180.5")))
	assert.Equal(t, trading.Long, pos[0].Side)
	clk, err := b.MarketClock(ctx)
	require.NoError(t, err)
	assert.True(t, clk.IsOpen)
	require.NotNil(t, clk.NextOpen)
	assert.Equal(t, 6, clk.NextOpen.Day())
}

func TestOrderLifecycle(t *testing.T) {
	ctx := context.Background()
	b, f := newTestBroker(t)
	c := trading.Contract{Symbol: "AAPL"}
	res, err := b.PlaceOrder(ctx, c, trading.Order{Action: trading.Buy, OrderType: trading.Market, TotalQuantity: d("3"), ClientOrderID: "alice-x-0"}, nil)
	require.NoError(t, err)
	assert.Equal(t, trading.StatusFilled, res.Status)
	assert.True(t, res.FilledPrice.Equal(d("190.1")))
	assert.Equal(t, "day", f.lastBody["time_in_force"])
	assert.Equal(t, "3", f.lastBody["qty"])

	_, err = b.PlaceOrder(ctx, c, trading.Order{Action: trading.Buy, OrderType: trading.Market, TotalQuantity: d("3"), ClientOrderID: "alice-x-0"}, nil)
	require.Error(t, err, "duplicate client order id is refused by the venue")
	assert.Equal(t, broker.CodeExchange, broker.CodeOf(err))

	lim, err := b.PlaceOrder(ctx, c, trading.Order{Action: trading.Sell, OrderType: trading.StopLimit, TotalQuantity: d("1"),
		LmtPrice: d("170"), AuxPrice: d("171"), TIF: trading.GTC},
		&trading.TPSL{StopLoss: &trading.PriceLeg{Price: d("160")}})
	require.NoError(t, err)
	assert.Equal(t, trading.StatusSubmitted, lim.Status)
	assert.Equal(t, "stop_limit", f.lastBody["type"])
	assert.Equal(t, "171", f.lastBody["stop_price"])
	assert.Equal(t, "oto", f.lastBody["order_class"])
	assert.Equal(t, "gtc", f.lastBody["time_in_force"])

	mod, err := b.ModifyOrder(ctx, lim.OrderID, trading.OrderChanges{LmtPrice: d("169.5")})
	require.NoError(t, err)
	assert.NotEqual(t, lim.OrderID, mod.OrderID, "Alpaca replaces orders")
	old, err := b.Order(ctx, lim.OrderID)
	require.NoError(t, err)
	assert.Equal(t, trading.StatusCancelled, old.Status, "replaced maps to cancelled")
	o, err := b.Order(ctx, mod.OrderID)
	require.NoError(t, err)
	assert.True(t, o.Order.LmtPrice.Equal(d("169.5")))
	assert.Equal(t, trading.StopLimit, o.Order.OrderType)

	_, err = b.CancelOrder(ctx, mod.OrderID)
	require.NoError(t, err)
	o, _ = b.Order(ctx, mod.OrderID)
	assert.Equal(t, trading.StatusCancelled, o.Status)

	_, err = b.Order(ctx, "missing")
	assert.Equal(t, broker.CodeNotFound, broker.CodeOf(err))
	os, err := b.Orders(ctx, []string{mod.OrderID, "missing"})
	require.NoError(t, err)
	assert.Len(t, os, 1, "unknown ids are skipped")

	cl, err := b.ClosePosition(ctx, c, d("2"))
	require.NoError(t, err)
	assert.Equal(t, trading.StatusSubmitted, cl.Status)
	o, _ = b.Order(ctx, cl.OrderID)
	assert.True(t, o.Order.TotalQuantity.Equal(d("2")))

	_, err = b.PlaceOrder(ctx, c, trading.Order{Action: trading.Buy, OrderType: trading.MarketOnClose, TotalQuantity: d("1")}, nil)
	assert.Error(t, err, "MOC is not mapped")
}

func TestErrorsMapToCodes(t *testing.T) {
	ctx := context.Background()
	f, srv := newFakeAlpaca(t)
	_ = f
	cfg, _, err := ParseConfig([]byte(fmt.Sprintf(`{"apiKey":"wrong","apiSecret":"secret","baseUrl":%q}`, srv.URL)), nil)
	require.NoError(t, err)
	bad := New("alp", cfg, nil)
	err = bad.Init(ctx)
	require.Error(t, err)
	w := broker.ToWire(err)
	assert.Equal(t, broker.CodeAuth, w.Code)
	assert.False(t, w.Transient)
	assert.NotEmpty(t, w.Hint)

	b, _ := newTestBroker(t)
	_, err = b.PlaceOrder(ctx, trading.Contract{Symbol: "GME"}, trading.Order{Action: trading.Buy, OrderType: trading.Market, TotalQuantity: d("1")}, nil)
	assert.Contains(t, err.Error(), "insufficient buying power")
	err = b.c.do(ctx, http.MethodGet, srv.URL, "/v2/boom", nil, nil, nil)
	assert.Equal(t, broker.CodeNetwork, broker.CodeOf(err))
	assert.True(t, broker.ToWire(err).Transient)

	dead, _, _ := ParseConfig([]byte(`{"apiKey":"k","apiSecret":"s","baseUrl":"http://127.0.0.1:1"}`), nil)
	_, err = New("x", dead, nil).Account(ctx)
	assert.Equal(t, broker.CodeNetwork, broker.CodeOf(err))
}

func TestSearchDetailsAndQuote(t *testing.T) {
	ctx := context.Background()
	b, _ := newTestBroker(t)
	cases := []struct {
		pattern string
		class   trading.AssetClass
		want    []string
	}{
		{"A", "", []string{"AAPL", "AMZN"}}, // APPX is not tradable
		{"apple", "", []string{"AAPL"}},
		{"BTCUSD", trading.Crypto, []string{"BTC/USD"}},
		{"BTC", "", []string{"BTC/USD"}},
		{"A", trading.Crypto, nil},
	}
	for _, tc := range cases {
		cs, err := b.SearchContracts(ctx, tc.pattern, tc.class)
		require.NoError(t, err)
		var got []string
		for _, c := range cs {
			got = append(got, c.Symbol)
		}
		assert.Equal(t, tc.want, got, tc.pattern)
	}
	det, err := b.ContractDetails(ctx, trading.Contract{AliceID: "alp|AAPL"})
	require.NoError(t, err)
	assert.True(t, det.Fractionable)
	assert.Equal(t, "STK", det.Contract.SecType)
	_, err = b.ResolveNativeKey(ctx, "NOPE")
	assert.Equal(t, broker.CodeNotFound, broker.CodeOf(err))

	q, err := b.Quote(ctx, trading.Contract{Symbol: "AAPL"})
	require.NoError(t, err)
	assert.True(t, q.Last.Equal(d("190.25")))
	assert.True(t, q.Bid.Equal(d("190.2")))
	assert.True(t, q.Ask.Equal(d("190.3")))
}

func TestParseConfig(t *testing.T) {
	env := map[string]string{"APCA_API_KEY_ID": "envkey", "APCA_API_SECRET_KEY": "envsecret", "MY_KEY": "mine"}
	getenv := func(k string) string { return env[k] }
	cases := []struct {
		raw, key, base, apiKey string
	}{
		{`{}`, "", PaperURL, "envkey"},
		{`{"paper":false}`, "", LiveURL, "envkey"},
		{`{"apiKeyEnv":"MY_KEY"}`, "", PaperURL, "mine"},
		{`{"apiKeyEnv":"MISSING"}`, "apiKey", "", ""},
		{`{"baseUrl":"not a url"}`, "baseUrl", "", ""},
		{`{"secret":"x"}`, "secret", "", ""},
		{`{"mode":"paper","apiKey":"k","apiSecret":"s"}`, "", PaperURL, "k"},
		{`{"mode":"live"}`, "", LiveURL, "envkey"},
		{`{"mode":"demo"}`, "mode", "", ""},
		{`{"mode":"live","paper":true}`, "paper", "", ""},
	}
	for _, tc := range cases {
		c, key, err := ParseConfig([]byte(tc.raw), getenv)
		if tc.key != "" {
			require.Error(t, err, tc.raw)
			assert.Equal(t, tc.key, key, tc.raw)
			continue
		}
		require.NoError(t, err, tc.raw)
		assert.Equal(t, tc.base, c.BaseURL)
		assert.Equal(t, tc.apiKey, c.APIKey)
	}
}
