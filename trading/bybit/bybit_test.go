package bybit

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

func newFake(t *testing.T) (*Broker, *fakeBybit) {
	t.Helper()
	v := brokertest.NewVenue(decimal.NewFromInt(10_000), map[string]decimal.Decimal{
		"BTCUSDT": decimal.RequireFromString("91000"), "ETHUSDT": decimal.RequireFromString("3100")})
	v.Margin = true
	f := &fakeBybit{v: v, key: "key", secret: "secret", initial: decimal.NewFromInt(10_000)}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	cfg, key, err := ParseConfig(json.RawMessage(`{"mode":"demo","apiKey":"key","secret":"secret","baseUrl":"`+srv.URL+`"}`), nil)
	require.NoError(t, err, key)
	return New("bybit-demo", cfg, nil), f
}

// TestBrokerContract runs the shared broker behaviours against the adapter
// talking to a signature-checking v5 fake over a venue.
func TestBrokerContract(t *testing.T) {
	brokertest.Run(t, func(t *testing.T) *brokertest.Harness {
		b, f := newFake(t)
		return &brokertest.Harness{
			Broker:   b,
			Contract: trading.Contract{Symbol: "BTCUSDT", SecType: "CRYPTO", AssetClass: trading.Crypto},
			Qty:      decimal.RequireFromString("0.01"), // fractional
			Mid:      func() decimal.Decimal { _, _, m, _ := f.v.Quote("BTCUSDT"); return m },
			SetMid:   func(p decimal.Decimal) { f.v.SetPrice("BTCUSDT", p) },
			FillPartially: func(id string, q decimal.Decimal) {
				_, err := f.v.FillPartially(id, q)
				require.NoError(t, err)
			},
			SetFault:   func(x brokertest.Fault) { f.mu.Lock(); f.fault = x; f.mu.Unlock() },
			AlwaysOpen: true,
		}
	})
}

func TestShortPerpetualAndWireDetails(t *testing.T) {
	b, f := newFake(t)
	ctx := context.Background()
	require.NoError(t, b.Init(ctx))
	c, err := b.ResolveNativeKey(ctx, "BTC/USDT:USDT") // CCXT-style symbols resolve
	require.NoError(t, err)
	require.Equal(t, "BTCUSDT", c.Symbol)

	// A sell on a perpetual opens a short; Bybit reports side "Sell".
	res, err := b.PlaceOrder(ctx, c, trading.Order{Action: trading.Sell, OrderType: trading.Market, TotalQuantity: decimal.RequireFromString("0.05"), ClientOrderID: "alice-s-1"}, nil)
	require.NoError(t, err)
	f.mu.Lock()
	body := f.lastBody
	f.mu.Unlock()
	require.Equal(t, "linear", body["category"])
	require.Equal(t, "Sell", body["side"])
	require.Equal(t, "0.05", body["qty"], "quantities are sent as exact decimal strings")
	require.Equal(t, "alice-s-1", body["orderLinkId"])
	o, err := b.Order(ctx, res.OrderID)
	require.NoError(t, err)
	require.Equal(t, trading.StatusFilled, o.Status)
	ps, err := b.Positions(ctx)
	require.NoError(t, err)
	require.Len(t, ps, 1)
	require.Equal(t, trading.Short, ps[0].Side)
	require.Equal(t, "0.05", ps[0].Quantity.String())
	require.Equal(t, "USDT", ps[0].Currency)
	// Bybit reports leverage, liquidation price and margin mode per position.
	require.NotNil(t, ps[0].Risk)
	require.Equal(t, "10", ps[0].Risk.Leverage.String())
	require.True(t, ps[0].Risk.LiquidationPrice.GreaterThan(ps[0].AvgCost), "a short liquidates above entry: %s", ps[0].Risk.LiquidationPrice)
	require.Equal(t, trading.Isolated, ps[0].Risk.MarginMode)

	// Price falls: the short gains, and equity (in USDT) shows it.
	f.v.SetPrice("BTCUSDT", decimal.RequireFromString("90000"))
	a, err := b.Account(ctx)
	require.NoError(t, err)
	require.Equal(t, "USDT", a.BaseCurrency)
	require.True(t, a.UnrealizedPnL.IsPositive(), "short gains when price falls: %s", a.UnrealizedPnL)

	// A sell stop is sent as a conditional order triggering on a fall.
	_, err = b.PlaceOrder(ctx, c, trading.Order{Action: trading.Sell, OrderType: trading.Stop, AuxPrice: decimal.NewFromInt(85000), TotalQuantity: decimal.RequireFromString("0.01")}, nil)
	require.NoError(t, err)
	f.mu.Lock()
	body = f.lastBody
	f.mu.Unlock()
	require.Equal(t, "85000", body["triggerPrice"])
	require.EqualValues(t, 2, body["triggerDirection"])

	// A close larger than the position is refused, never shrunk to it.
	_, err = b.ClosePosition(ctx, c, decimal.RequireFromString("0.06"))
	require.ErrorContains(t, err, "closing 0.06 BTCUSDT is more than the 0.05 held now; nothing was sent")

	// Close the short with a reduce-only buy.
	_, err = b.ClosePosition(ctx, c, decimal.Zero)
	require.NoError(t, err)
	f.mu.Lock()
	body = f.lastBody
	f.mu.Unlock()
	require.Equal(t, true, body["reduceOnly"])
	require.Equal(t, "Buy", body["side"])
	ps, err = b.Positions(ctx)
	require.NoError(t, err)
	require.Empty(t, ps)
	a, err = b.Account(ctx)
	require.NoError(t, err)
	require.True(t, a.RealizedPnL.IsPositive(), "realised gain kept: %s", a.RealizedPnL)
}

func TestWrongSecretIsAuth(t *testing.T) {
	b, _ := newFake(t)
	b.c.cfg.Secret = "wrong"
	err := b.Init(context.Background())
	require.Error(t, err)
	require.Equal(t, broker.CodeAuth, broker.CodeOf(err))
	require.Contains(t, err.Error(), "error sign")
	var be *broker.Error
	require.ErrorAs(t, err, &be)
	require.Contains(t, be.Hint, "demo")
}

func TestParseConfig(t *testing.T) {
	env := map[string]string{"MY_KEY": "k", "MY_SECRET": "s", "BYBIT_API_KEY": "dk", "BYBIT_API_SECRET": "ds"}
	getenv := func(k string) string { return env[k] }
	cases := []struct {
		raw, wantKey, wantBase string
	}{
		// OpenAlice's accounts.json shape loads as it is.
		{`{"mode":"demo","apiKey":"a","secret":"b"}`, "", DemoURL},
		{`{"mode":"testnet","apiKeyEnv":"MY_KEY","secretEnv":"MY_SECRET"}`, "", TestnetURL},
		{`{}`, "", LiveURL}, // keys from BYBIT_API_KEY / BYBIT_API_SECRET
		{`{"mode":"paper"}`, "mode", ""},
		{`{"mode":"demo","category":"options"}`, "category", ""},
		{`{"mode":"demo","apiKey":"a","secret":"b","pasword":"x"}`, "pasword", ""},
		{`{"baseUrl":"::nope"}`, "baseUrl", ""},
	}
	for _, c := range cases {
		cfg, key, err := ParseConfig(json.RawMessage(c.raw), getenv)
		if c.wantKey != "" {
			require.Error(t, err, c.raw)
			require.Equal(t, c.wantKey, key, c.raw)
			continue
		}
		require.NoError(t, err, c.raw)
		require.Equal(t, c.wantBase, cfg.BaseURL)
		require.Equal(t, "linear", cfg.Category)
	}
	_, key, err := ParseConfig(json.RawMessage(`{"mode":"demo"}`), func(string) string { return "" })
	require.Error(t, err)
	require.Equal(t, "apiKey", key)
	require.Contains(t, err.Error(), "BYBIT_API_KEY")
}
