package ibkr

import (
	"context"
	"math"
	"testing"

	"github.com/scmhub/ibapi"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

func ibDec(s string) ibapi.Decimal { return ibapi.StringToDecimal(s) }

// What TWS sends in contract details decides the tick and lot checks at
// staging: a missing or unusable minimum tick is an error (never "no tick
// check"), the lot comes from IB's size increment and minimum size, and
// when IB sends none the documented fallback is whole units (it refuses
// fractions rather than sending what IB may not take). Stocks trade in
// whole shares whatever the increment (Declared: the API's fractional
// trading needs a permission alice cannot see).
func TestContractDetailsAreStrict(t *testing.T) {
	t.Parallel()
	unset := ibapi.UNSET_DECIMAL
	tests := []struct {
		name         string
		secType      string
		minTick      float64
		inc, min     ibapi.Decimal
		wantErr      string
		lot, minQty  string
		fractionable bool
	}{
		{"stock with IB's increments", "STK", 0.01, ibDec("1"), ibDec("1"), "", "1", "1", false},
		{"fractional-eligible stock stays whole", "STK", 0.01, ibDec("0.0001"), ibDec("0.0001"), "", "1", "0", false},
		{"stock without increments: whole shares", "STK", 0.01, unset, unset, "", "1", "0", false},
		{"crypto in IB's increments", "CRYPTO", 0.25, ibDec("0.0001"), ibDec("0.001"), "", "0.0001", "0.001", true},
		{"zero increment (absent on the protobuf wire): whole units", "CRYPTO", 0.25, ibDec("0"), unset, "", "1", "0", false},
		{"crypto without increments: whole units (documented fallback)", "CRYPTO", 0.25, unset, unset, "", "1", "0", false},
		{"forex lot of 1", "CASH", 0.00005, ibDec("1"), ibDec("1"), "", "1", "1", false},
		{"unset minimum tick", "STK", ibapi.UNSET_FLOAT, ibDec("1"), ibDec("1"), "minimum tick", "", "", false},
		{"zero minimum tick", "STK", 0, ibDec("1"), ibDec("1"), "minimum tick", "", "", false},
		{"NaN minimum tick", "STK", math.NaN(), ibDec("1"), ibDec("1"), "minimum tick", "", "", false},
		{"negative increment", "CRYPTO", 0.25, ibDec("-1"), unset, "size increment", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ibapi.NewContractDetails()
			d.Contract.Symbol, d.Contract.SecType, d.Contract.ConID = "X", tt.secType, 42
			d.MinTick, d.SizeIncrement, d.MinSize = tt.minTick, tt.inc, tt.min
			got, err := detailsOf(*d, trading.Contract{Symbol: "X", AssetClass: classOf(tt.secType)}, nil)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, broker.CodeBadData, broker.CodeOf(err))
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.lot, got.LotSize.String())
			assert.Equal(t, tt.minQty, got.MinQty.String())
			assert.Equal(t, tt.fractionable, got.Fractionable)
			assert.True(t, got.MinTick.IsPositive())
		})
	}
}

// A position row whose quantity, price, value or average cost TWS sent
// as unset/NaN/Inf is an error for the call (BAD_DATA), never a zero that
// feeds equity and the guards. Unset P&L fields are reported as zero
// (IB's "not available"); NaN there is still an error.
func TestPortfolioRowsAreStrict(t *testing.T) {
	t.Parallel()
	good := portfolioRow{qty: ibDec("10"), price: 370.5, value: 3705, avgCost: 300, unreal: 705, realized: 0}
	p, err := positionOf(good)
	require.NoError(t, err)
	assert.Equal(t, "3705", p.MarketValue.String())
	for _, tt := range []struct {
		name  string
		mut   func(*portfolioRow)
		field string
	}{
		{"unset quantity", func(r *portfolioRow) { r.qty = ibapi.UNSET_DECIMAL }, "position"},
		{"unset market price", func(r *portfolioRow) { r.price = ibapi.UNSET_FLOAT }, "marketPrice"},
		{"NaN market value", func(r *portfolioRow) { r.value = math.NaN() }, "marketValue"},
		{"infinite average cost", func(r *portfolioRow) { r.avgCost = math.Inf(1) }, "averageCost"},
		{"NaN unrealized P&L", func(r *portfolioRow) { r.unreal = math.NaN() }, "unrealizedPNL"},
	} {
		r := good
		tt.mut(&r)
		_, err := positionOf(r)
		require.Error(t, err, tt.name)
		assert.Equal(t, broker.CodeBadData, broker.CodeOf(err), tt.name)
		assert.Contains(t, err.Error(), tt.field, tt.name)
	}
	r := good
	r.unreal, r.realized = ibapi.UNSET_FLOAT, ibapi.UNSET_FLOAT
	p, err = positionOf(r)
	require.NoError(t, err)
	assert.True(t, p.UnrealizedPnL.IsZero() && p.RealizedPnL.IsZero())
}

// What goes to TWS is exactly the order: a price or cash amount a double
// cannot carry exactly is refused (IB's API takes doubles), and an order
// without a time in force is refused instead of becoming DAY.
func TestOrdersReachIBExactly(t *testing.T) {
	t.Parallel()
	base := trading.Order{Action: trading.Buy, OrderType: trading.Limit, TotalQuantity: decimal.NewFromInt(1), LmtPrice: decimal.RequireFromString("123.45"), TIF: trading.GTC}
	io, err := toIBOrder(base, "DU1")
	require.NoError(t, err)
	assert.Equal(t, 123.45, io.LmtPrice)
	assert.Equal(t, "GTC", io.TIF)

	o := base
	o.LmtPrice = decimal.RequireFromString("12345678.123456789") // 17 significant digits
	_, err = toIBOrder(o, "DU1")
	require.ErrorContains(t, err, "lmtPrice 12345678.123456789 cannot be sent to IB exactly")

	o = base
	o.TIF = ""
	_, err = toIBOrder(o, "DU1")
	require.ErrorContains(t, err, "time in force")
}

// A close larger than the position held at the venue when it executes is
// refused, never shrunk to what is held.
func TestClosePositionNeverShrinks(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	require.NoError(t, r.b.Init(ctx))
	_, err := r.b.PlaceOrder(ctx, trading.Contract{Symbol: "MSFT"}, trading.Order{Action: trading.Buy, OrderType: trading.Market,
		TotalQuantity: decimal.NewFromInt(3), TIF: trading.Day}, nil)
	require.NoError(t, err)
	ps, err := r.b.Positions(ctx)
	require.NoError(t, err)
	require.Len(t, ps, 1)
	_, err = r.b.ClosePosition(ctx, ps[0].Contract, decimal.NewFromInt(5))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "closing 5 MSFT is more than the 3 held")
	ps, err = r.b.Positions(ctx)
	require.NoError(t, err)
	require.True(t, ps[0].Quantity.Equal(decimal.NewFromInt(3)), "nothing was sent")
}
