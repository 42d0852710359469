package binance

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
	"github.com/alice-trading/alice/trading/broker/brokertest"
)

func newFake(t *testing.T, market string) (*Broker, *fakeBinance) {
	t.Helper()
	v := brokertest.NewVenue(decimal.NewFromInt(10_000), map[string]decimal.Decimal{
		"BTCUSDT": decimal.RequireFromString("91000"), "ETHUSDT": decimal.RequireFromString("3100")})
	f := &fakeBinance{v: v, futures: market == "futures", key: "key", secret: "secret", initial: decimal.NewFromInt(10_000)}
	v.Margin = f.futures
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	cfg, key, err := ParseConfig(json.RawMessage(`{"mode":"demo","market":"`+market+`","apiKey":"key","secret":"secret","baseUrl":"`+srv.URL+`"}`), nil)
	require.NoError(t, err, key)
	return New("binance-"+market, cfg, nil), f
}

func harness(t *testing.T, market string) *brokertest.Harness {
	b, f := newFake(t, market)
	return &brokertest.Harness{
		Broker:   b,
		Contract: trading.Contract{Symbol: "BTCUSDT", SecType: "CRYPTO", AssetClass: trading.Crypto},
		Qty:      decimal.RequireFromString("0.01"),
		Mid:      func() decimal.Decimal { _, _, m, _ := f.v.Quote("BTCUSDT"); return m },
		SetMid:   func(p decimal.Decimal) { f.v.SetPrice("BTCUSDT", p) },
		FillPartially: func(id string, q decimal.Decimal) {
			_, err := f.v.FillPartially(f.venueID(id), q)
			require.NoError(t, err)
		},
		SetFault:   func(x brokertest.Fault) { f.mu.Lock(); f.fault = x; f.mu.Unlock() },
		AlwaysOpen: true,
	}
}

// The shared broker behaviours against spot and USDⓈ-M futures, each
// through a signature-checking wire fake over a venue.
func TestBrokerContractSpot(t *testing.T) {
	brokertest.Run(t, func(t *testing.T) *brokertest.Harness { return harness(t, "spot") })
}

func TestBrokerContractFutures(t *testing.T) {
	brokertest.Run(t, func(t *testing.T) *brokertest.Harness { return harness(t, "futures") })
}

// Futures wire details: a sell opens a short with risk fields, stops are
// STOP_MARKET, closing is reduce-only, and quarterly contracts are not
// offered.
func TestFuturesShortRiskAndWire(t *testing.T) {
	b, f := newFake(t, "futures")
	ctx := context.Background()
	require.NoError(t, b.Init(ctx))
	c, err := b.ResolveNativeKey(ctx, "BTC/USDT:USDT")
	require.NoError(t, err)
	require.Equal(t, "BTCUSDT", c.Symbol)
	_, err = b.ResolveNativeKey(ctx, "BTCUSDT_261225")
	require.Equal(t, broker.CodeNotFound, broker.CodeOf(err), "only perpetuals")

	res, err := b.PlaceOrder(ctx, c, trading.Order{Action: trading.Sell, OrderType: trading.Market, TotalQuantity: decimal.RequireFromString("0.05"), ClientOrderID: "alice-f-1"}, nil)
	require.NoError(t, err)
	f.mu.Lock()
	q := f.lastQ
	f.mu.Unlock()
	require.Equal(t, "SELL", q["side"])
	require.Equal(t, "0.05", q["quantity"], "exact decimal strings")
	require.Equal(t, "alice-f-1", q["newClientOrderId"])
	o, err := b.Order(ctx, res.OrderID)
	require.NoError(t, err)
	require.Equal(t, trading.StatusFilled, o.Status)
	ps, err := b.Positions(ctx)
	require.NoError(t, err)
	require.Len(t, ps, 1, "flat rows are skipped")
	require.Equal(t, trading.Short, ps[0].Side)
	require.NotNil(t, ps[0].Risk)
	require.Equal(t, "10", ps[0].Risk.Leverage.String())
	require.Equal(t, trading.Cross, ps[0].Risk.MarginMode)
	require.True(t, ps[0].Risk.LiquidationPrice.GreaterThan(ps[0].AvgCost))

	_, err = b.PlaceOrder(ctx, c, trading.Order{Action: trading.Buy, OrderType: trading.Stop, AuxPrice: decimal.NewFromInt(95000), TotalQuantity: decimal.RequireFromString("0.01")}, nil)
	require.NoError(t, err)
	f.mu.Lock()
	q = f.lastQ
	f.mu.Unlock()
	require.Equal(t, "STOP_MARKET", q["type"])
	require.Equal(t, "95000", q["stopPrice"])

	_, err = b.ClosePosition(ctx, c, decimal.RequireFromString("0.06"))
	require.ErrorContains(t, err, "closing 0.06 BTCUSDT is more than the 0.05 held now; nothing was sent", "a close larger than the position is refused, never shrunk")

	_, err = b.ClosePosition(ctx, c, decimal.Zero)
	require.NoError(t, err)
	f.mu.Lock()
	q = f.lastQ
	f.mu.Unlock()
	require.Equal(t, "true", q["reduceOnly"])
	require.Equal(t, "BUY", q["side"])
	require.Equal(t, "0.05", q["quantity"])

	_, err = b.PlaceOrder(ctx, c, trading.Order{Action: trading.Buy, OrderType: trading.Limit, LmtPrice: decimal.NewFromInt(80000),
		TotalQuantity: decimal.RequireFromString("0.01"), TIF: trading.GTC}, &trading.TPSL{TakeProfit: &trading.PriceLeg{Price: decimal.NewFromInt(99000)}})
	require.ErrorContains(t, err, "take-profit/stop-loss", "legs are refused, never dropped")
}

// Spot wire details: a modify is cancel-replace with a new order id, and
// a spot sell of more than is held is refused by the venue.
func TestSpotCancelReplaceAndSigning(t *testing.T) {
	b, f := newFake(t, "spot")
	ctx := context.Background()
	require.NoError(t, b.Init(ctx))
	c, err := b.ResolveNativeKey(ctx, "btc")
	require.NoError(t, err)
	res, err := b.PlaceOrder(ctx, c, trading.Order{Action: trading.Buy, OrderType: trading.Limit, LmtPrice: decimal.NewFromInt(80000),
		TotalQuantity: decimal.RequireFromString("0.01"), TIF: trading.GTC}, nil)
	require.NoError(t, err)
	mod, err := b.ModifyOrder(ctx, res.OrderID, trading.OrderChanges{LmtPrice: decimal.NewFromInt(81000)})
	require.NoError(t, err)
	require.NotEqual(t, res.OrderID, mod.OrderID, "spot modify is cancel-replace")
	old, err := b.Order(ctx, res.OrderID)
	require.NoError(t, err)
	require.Equal(t, trading.StatusCancelled, old.Status)
	nu, err := b.Order(ctx, mod.OrderID)
	require.NoError(t, err)
	require.Equal(t, "81000", nu.Order.LmtPrice.String())
	require.Equal(t, "0.01", nu.Order.TotalQuantity.String())
	f.mu.Lock()
	signed := f.signed
	f.mu.Unlock()
	require.Positive(t, signed)

	// A fresh adapter (a restart) still finds an order it did not place.
	b2 := New("again", b.c.cfg, nil)
	o, err := b2.Order(ctx, res.OrderID)
	require.NoError(t, err)
	require.Equal(t, trading.StatusCancelled, o.Status)
}

func TestParseConfig(t *testing.T) {
	env := func(k string) string {
		return map[string]string{"BINANCE_API_KEY": "ek", "BINANCE_API_SECRET": "es"}[k]
	}
	cases := []struct {
		raw, key, base string
	}{
		{`{"mode":"live","apiKey":"k","secret":"s"}`, "", "https://api.binance.com"},
		{`{"mode":"demo"}`, "", "https://demo-api.binance.com"},
		{`{"mode":"demo","market":"futures"}`, "", "https://demo-fapi.binance.com"},
		{`{"mode":"testnet","market":"futures"}`, "", "https://testnet.binancefuture.com"},
		{`{"mode":"testnet"}`, "", "https://testnet.binance.vision"},
		{`{"mode":"paper"}`, "mode", ""},
		{`{"market":"coin-m"}`, "market", ""},
		{`{"apiKey":"k","secret":"s","sandbox":true}`, "sandbox", ""},
		{`{"baseUrl":"ftp://x"}`, "baseUrl", ""},
		{`{"recvWindowMs":120000}`, "recvWindowMs", ""},
	}
	for _, c := range cases {
		cfg, key, err := ParseConfig(json.RawMessage(c.raw), env)
		require.Equal(t, c.key, key, c.raw)
		if c.key != "" {
			require.Error(t, err, c.raw)
			continue
		}
		require.NoError(t, err, c.raw)
		require.Equal(t, c.base, cfg.BaseURL, c.raw)
	}
	_, key, err := ParseConfig(json.RawMessage(`{}`), func(string) string { return "" })
	require.Equal(t, "apiKey", key)
	require.ErrorContains(t, err, "BINANCE_API_KEY")
}

func TestSignMatchesBinanceDocs(t *testing.T) {
	// The worked example of Binance's "SIGNED endpoint security" docs.
	payload := "symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559"
	require.Equal(t, "c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71",
		Sign("NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j", payload))
}
