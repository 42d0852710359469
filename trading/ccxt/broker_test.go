//go:build ccxt

package ccxt

import (
	"context"
	"testing"

	ccxtlib "github.com/ccxt/ccxt/go/v4"
	"github.com/stretchr/testify/require"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker/brokertest"
)

func newHarness(t *testing.T) *brokertest.Harness {
	v := brokertest.NewVenue(decimal.NewFromInt(100_000), map[string]decimal.Decimal{
		"BTC/USDT": decimal.NewFromInt(60_000), "ETH/USDT": decimal.NewFromInt(3_000)})
	fx := newFakeExchange(v)
	cfg := Config{Exchange: "okx", Quote: "USDT", TimeoutMs: 1000}
	b := newBroker("okx-test", cfg, nil, func() (exchange, error) { return fx, nil })
	c := trading.Contract{Symbol: "BTC/USDT", SecType: "CRYPTO", AssetClass: trading.Crypto}
	return &brokertest.Harness{
		Broker: b, Contract: c, Qty: decimal.RequireFromString("0.01"),
		Mid: func() decimal.Decimal {
			_, _, mid, err := v.Quote("BTC/USDT")
			if err != nil {
				t.Fatal(err)
			}
			return mid
		},
		SetMid: func(d decimal.Decimal) { v.SetPrice("BTC/USDT", d) },
		FillPartially: func(id string, q decimal.Decimal) {
			if _, err := v.FillPartially(id, q); err != nil {
				t.Fatal(err)
			}
		},
		SetFault:   fx.setFault,
		AlwaysOpen: true,
	}
}

// TestContract runs the broker contract suite against the CCXT adapter
// driving a fake CCXT exchange (unified API) over a brokertest.Venue.
func TestContract(t *testing.T) { brokertest.Run(t, newHarness) }

// Swap positions come from fetchPositions in base units (contracts ×
// contract size); closing a short buys it back at market.
func TestSwapPositionsAndClose(t *testing.T) {
	v := brokertest.NewVenue(decimal.NewFromInt(10_000), map[string]decimal.Decimal{"BTC/USDT:USDT": decimal.NewFromInt(60_000)})
	fx := newFakeExchange(v)
	fx.positions = []ccxtlib.Position{{Symbol: ptr("BTC/USDT:USDT"), Contracts: ptr(3.0), ContractSize: ptr(0.01), Side: ptr("short"),
		EntryPrice: ptr(61_000.5), MarkPrice: ptr(60_000.0), UnrealizedPnl: ptr(30.015)}}
	b := newBroker("okx-swap", Config{Exchange: "okx", Quote: "USDT", TimeoutMs: 1000}, nil, func() (exchange, error) { return fx, nil })
	ctx := context.Background()
	require.NoError(t, b.Init(ctx))

	ps, err := b.Positions(ctx)
	require.NoError(t, err)
	require.Len(t, ps, 1)
	p := ps[0]
	require.Equal(t, trading.Short, p.Side)
	require.Equal(t, "0.03", p.Quantity.String())
	require.Equal(t, "61000.5", p.AvgCost.String())
	require.Equal(t, "30.015", p.UnrealizedPnL.String())
	require.Contains(t, p.Contract.Description, "perpetual")

	a, err := b.Account(ctx)
	require.NoError(t, err)
	require.True(t, a.NetLiquidation.Equal(decimal.NewFromInt(10_000)), "CCXT's total is already equity: %s", a.NetLiquidation)
	require.Equal(t, "30.015", a.UnrealizedPnL.String())

	_, err = b.ClosePosition(ctx, p.Contract, decimal.RequireFromString("0.04"))
	require.ErrorContains(t, err, "more than the 0.03 held now; nothing was sent", "a close larger than the position is refused, never shrunk")
	res, err := b.ClosePosition(ctx, p.Contract, decimal.RequireFromString("0.01"))
	require.NoError(t, err)
	o, err := v.Get(res.OrderID)
	require.NoError(t, err)
	require.True(t, o.Buy, "closing a short buys")
	fx.mu.Lock()
	require.Equal(t, true, fx.lastParams["reduceOnly"], "a derivative close is reduceOnly")
	fx.mu.Unlock()
	require.Equal(t, "0.01", o.Qty.String())
	require.Equal(t, brokertest.StateFilled, o.State)
}

// Hyperliquid refuses market orders without a reference price (CCXT
// derives the IOC limit from it), so the broker supplies the last price.
func TestHyperliquidMarketOrderCarriesReferencePrice(t *testing.T) {
	v := brokertest.NewVenue(decimal.NewFromInt(10_000), map[string]decimal.Decimal{"BTC/USDC:USDC": decimal.NewFromInt(60_000)})
	fx := newFakeExchange(v)
	b := newBroker("hl", Config{Exchange: "hyperliquid", Quote: "USDC", TimeoutMs: 1000}, nil, func() (exchange, error) { return fx, nil })
	ctx := context.Background()
	require.NoError(t, b.Init(ctx))
	c, err := b.ResolveNativeKey(ctx, "BTC") // bare base → the USDC perpetual
	require.NoError(t, err)
	require.Equal(t, "BTC/USDC:USDC", c.Symbol)
	_, err = b.PlaceOrder(ctx, c, trading.Order{Action: trading.Buy, OrderType: trading.Market, TotalQuantity: decimal.RequireFromString("0.001"), TIF: trading.GTC}, nil)
	require.NoError(t, err)
	fx.mu.Lock()
	defer fx.mu.Unlock()
	require.NotNil(t, fx.lastPrice)
	require.Equal(t, 60_000.0, *fx.lastPrice)
}
