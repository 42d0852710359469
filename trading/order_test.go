package trading

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePositiveBounds(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in, err string
	}{
		{"plain", "12.5", ""},
		{"ten places", "0.0000000001", ""},
		{"too many places", "0.00000000001", "totalQuantity: 0.00000000001 has 11 decimal places (at most 10)"},
		{"1e-30 written out", "0." + strings.Repeat("0", 29) + "1", "decimal places"},
		{"exponent", "1e-30", "no exponent"},
		{"huge exponent", "1e999999999", "no exponent"},
		{"too many significant digits", "1234567890.123456789", "19 significant digits (at most 18)"},
		{"too long", strings.Repeat("9", 33), "33 characters is too long (at most 32)"},
		{"zero", "0", "must be > 0"},
		{"negative", "-1", "must be > 0"},
		{"junk", "1O0", "not a decimal number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParsePositive("totalQuantity", c.in)
			if c.err == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
		})
	}
}

// A 3,000,000-digit quantity is refused by its length, before parsing
// (BenchmarkHugeQuantity measures it).
func TestHugeNumberIsRefusedByLength(t *testing.T) {
	t.Parallel()
	_, err := ParsePositive("totalQuantity", strings.Repeat("7", 3_000_000))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a number of 3000000 characters is too long (at most 32)")
	_, err = ParsePositive("totalQuantity", "   "+strings.Repeat("7", 40)+"   ")
	assert.Contains(t, err.Error(), "40 characters is too long")
}

func BenchmarkHugeQuantity(b *testing.B) {
	huge := strings.Repeat("7", 3_000_000)
	for b.Loop() {
		if _, err := ParsePositive("totalQuantity", huge); err == nil {
			b.Fatal("accepted")
		}
	}
}

func TestOrderValidateOneModel(t *testing.T) {
	t.Parallel()
	d := decimal.RequireFromString
	q := d("1")
	cases := []struct {
		name string
		o    Order
		err  string
	}{
		{"qty market", Order{Action: Buy, OrderType: Market, TotalQuantity: q}, ""},
		{"cash market", Order{Action: Buy, OrderType: Market, CashQty: d("1000.50")}, ""},
		{"both qty and cash", Order{Action: Buy, OrderType: Market, TotalQuantity: d("100"), CashQty: q}, "exactly one of totalQuantity"},
		{"neither", Order{Action: Buy, OrderType: Market}, "totalQuantity or cashQty is required"},
		{"cash with 3 places", Order{Action: Buy, OrderType: Market, CashQty: d("1.005")}, "cashQty: 1.005 has 3 decimal places (at most 2)"},
		{"absurd quantity", Order{Action: Buy, OrderType: Market, TotalQuantity: d("1000000000001")}, "totalQuantity: 1000000000001 is above the limit 1000000000000"},
		{"absurd price", Order{Action: Buy, OrderType: Limit, TotalQuantity: q, LmtPrice: d("2000000000000")}, "lmtPrice: 2000000000000 is above the limit"},
		{"negative", Order{Action: Buy, OrderType: Market, TotalQuantity: d("-1")}, "totalQuantity: must be > 0"},
		{"1e-30 shares", Order{Action: Buy, OrderType: Market, TotalQuantity: d("1e-30")}, "30 decimal places"},
		{"trail 100%", Order{Action: Sell, OrderType: Trail, TotalQuantity: q, TrailingPercent: d("100")}, "trailingPercent: 100 must be below 100"},
		{"bad tif", Order{Action: Buy, OrderType: Market, TotalQuantity: q, TIF: "FOREVER"}, "unknown tif"},
		{"gtd without date", Order{Action: Buy, OrderType: Market, TotalQuantity: q, TIF: GTD}, "GTD needs goodTillDate"},
		{"unknown side", Order{Action: "HOLD", OrderType: Market, TotalQuantity: q}, "unknown action"},
		{"limit without price", Order{Action: Buy, OrderType: Limit, TotalQuantity: q}, "LMT orders need lmtPrice"},
		{"stop", Order{Action: Sell, OrderType: Stop, TotalQuantity: q, AuxPrice: q}, ""},
		{"stop limit missing limit", Order{Action: Sell, OrderType: StopLimit, TotalQuantity: q, AuxPrice: q}, "need auxPrice and lmtPrice"},
		{"trail", Order{Action: Sell, OrderType: Trail, TotalQuantity: q, TrailingPercent: q}, ""},
		{"trail without amount", Order{Action: Sell, OrderType: Trail, TotalQuantity: q}, "need trailStopPrice or trailingPercent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.o.Validate()
			if c.err == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
		})
	}
}

func TestValidateForInstrument(t *testing.T) {
	t.Parallel()
	d := decimal.RequireFromString
	equity := ContractDetails{Contract: Contract{Symbol: "AAPL"}, MinTick: d("0.01"), LotSize: d("0.0001"), MinQty: d("0.0001"), Fractionable: true}
	whole := ContractDetails{Contract: Contract{Symbol: "IBM"}, MinTick: d("0.01")}
	cases := []struct {
		name string
		d    ContractDetails
		o    Order
		err  string
	}{
		{"fractional ok", equity, Order{TotalQuantity: d("0.5")}, ""},
		{"below the lot", equity, Order{TotalQuantity: d("0.00001")}, "totalQuantity: 0.00001 is not a multiple of AAPL's lot size 0.0001"},
		{"whole shares only", whole, Order{TotalQuantity: d("1.5")}, "not a whole number; IBM trades in whole units"},
		{"off the tick", equity, Order{TotalQuantity: d("1"), LmtPrice: d("190.005")}, "lmtPrice: 190.005 is not a multiple of AAPL's tick size 0.01"},
		{"stop off the tick", equity, Order{TotalQuantity: d("1"), AuxPrice: d("1.001")}, "auxPrice"},
		{"cash orders skip the lot", equity, Order{CashQty: d("10")}, ""},
		{"below min", ContractDetails{Contract: Contract{Symbol: "BTC"}, LotSize: d("0.001"), MinQty: d("0.01")}, Order{TotalQuantity: d("0.005")}, "below BTC's minimum quantity 0.01"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.o.ValidateFor(c.d)
			if c.err == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
		})
	}
}

func TestCapabilitiesCheck(t *testing.T) {
	t.Parallel()
	caps := Declare("Venue",
		ClassCaps{Class: Equity, OrderTypes: []OrderType{Market, Limit}, TIFs: []TIF{Day, GTC}, DefaultTIF: Day, CashOrders: true},
		ClassCaps{Class: Crypto, OrderTypes: []OrderType{Market}, TIFs: []TIF{GTC}, DefaultTIF: GTC})
	q := decimal.NewFromInt(1)
	cases := []struct {
		name  string
		class AssetClass
		o     Order
		tpsl  *TPSL
		err   string
	}{
		{"ok", Equity, Order{OrderType: Market, TIF: Day, TotalQuantity: q}, nil, ""},
		{"type", Equity, Order{OrderType: Stop, TIF: Day}, nil, "orderType: Venue does not accept STP orders for equity (it accepts MKT, LMT)"},
		{"tif for crypto", Crypto, Order{OrderType: Market, TIF: Day}, nil, `tif: Venue does not accept time in force "DAY" for crypto (it accepts GTC)`},
		{"empty tif is not a default here", Equity, Order{OrderType: Market}, nil, `time in force ""`},
		{"cash", Crypto, Order{OrderType: Market, TIF: GTC, CashQty: q}, nil, "cashQty: Venue does not accept cash-amount orders for crypto"},
		{"hours", Equity, Order{OrderType: Market, TIF: Day, OutsideRTH: true}, nil, "outsideRth"},
		{"brackets", Equity, Order{OrderType: Market, TIF: Day}, &TPSL{TakeProfit: &PriceLeg{Price: q}}, "takeProfit/stopLoss"},
		{"class", Currency, Order{OrderType: Market, TIF: Day}, nil, "Venue does not trade currency instruments (it trades equity, crypto)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := caps.Check(c.class, c.o, c.tpsl)
			if c.err == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
		})
	}
	assert.Equal(t, []string{"STK", "CRYPTO"}, caps.SupportedSecTypes)
	assert.Equal(t, []OrderType{Market, Limit}, caps.SupportedOrderTypes)
}
