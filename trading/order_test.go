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

func TestValidateRefusesFieldsThatDoNotApply(t *testing.T) {
	d := decimal.RequireFromString
	lmt := func(f func(*Order)) Order {
		o := Order{Action: Buy, OrderType: Limit, TotalQuantity: d("1"), LmtPrice: d("10"), TIF: GTC}
		f(&o)
		return o
	}
	long := strings.Repeat("x", MaxIDChars+1)
	for _, tt := range []struct {
		name string
		o    Order
		want string // "" = valid
	}{
		{"plain LMT", lmt(func(*Order) {}), ""},
		{"trailingPercent on LMT", lmt(func(o *Order) { o.TrailingPercent = d("5") }), "trailingPercent does not apply to LMT"},
		{"trailStopPrice on LMT", lmt(func(o *Order) { o.TrailStopPrice = d("9") }), "trailStopPrice does not apply to LMT"},
		{"auxPrice on LMT", lmt(func(o *Order) { o.AuxPrice = d("9") }), "auxPrice does not apply to LMT"},
		{"lmtPrice on MKT", lmt(func(o *Order) { o.OrderType = Market }), "lmtPrice does not apply to MKT"},
		{"lmtPrice on STP", lmt(func(o *Order) { o.OrderType, o.AuxPrice = Stop, d("9") }), "lmtPrice does not apply to STP"},
		{"STP LMT takes both", lmt(func(o *Order) { o.OrderType, o.AuxPrice = StopLimit, d("9") }), ""},
		{"TRAIL LIMIT takes lmt and trail", lmt(func(o *Order) { o.OrderType, o.TrailingPercent = TrailLimit, d("5") }), ""},
		{"goodTillDate on GTC", lmt(func(o *Order) { o.GoodTillDate = "20300131 16:00:00" }), "goodTillDate applies only to tif GTD"},
		{"goodTillDate path", lmt(func(o *Order) { o.TIF, o.GoodTillDate = GTD, "../../x" }), "is not a date-time"},
		{"goodTillDate zone path", lmt(func(o *Order) { o.TIF, o.GoodTillDate = GTD, "20300131 16:00:00 ../../etc/passwd" }), "is not a date-time"},
		{"goodTillDate RFC 3339", lmt(func(o *Order) { o.TIF, o.GoodTillDate = GTD, "2030-01-31T16:00:00Z" }), ""},
		{"goodTillDate IB", lmt(func(o *Order) { o.TIF, o.GoodTillDate = GTD, "20300131 16:00:00" }), ""},
		{"goodTillDate IB UTC", lmt(func(o *Order) { o.TIF, o.GoodTillDate = GTD, "20300131-16:00:00" }), ""},
		{"goodTillDate IB zone", lmt(func(o *Order) { o.TIF, o.GoodTillDate = GTD, "20300131 16:00:00 America/New_York" }), ""},
		{"goodTillDate 1 MB", lmt(func(o *Order) { o.TIF, o.GoodTillDate = GTD, strings.Repeat("2", 1<<20) }), "goodTillDate: 1048576 characters is too long"},
		{"parentId too long", lmt(func(o *Order) { o.ParentID = long }), "parentId: 65 characters is too long"},
		{"ocaGroup too long", lmt(func(o *Order) { o.OCAGroup = long }), "ocaGroup: 65 characters is too long"},
		{"orderId too long", lmt(func(o *Order) { o.OrderID = long }), "orderId: 65 characters is too long"},
		{"clientOrderId too long", lmt(func(o *Order) { o.ClientOrderID = long }), "clientOrderId: 65 characters is too long"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.o.Validate()
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			require.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestCheckNewOCAGroupAndParentID(t *testing.T) {
	leg := func(group string, st OrderStatus) OpenOrder {
		return OpenOrder{Contract: Contract{Symbol: "GOOGL"}, Status: st,
			Order: Order{OrderID: "sim-ord-3", Action: Sell, OrderType: Stop, OCAGroup: group}}
	}
	open := []OpenOrder{leg("oca-sim-ord-1", StatusSubmitted), leg("done", StatusFilled), leg("gone", StatusCancelled), leg("odd", "PendingSubmit")}
	for _, tt := range []struct {
		name, group, parent, want string
	}{
		{"no group", "", "", ""},
		{"new group", "pair-1", "", ""},
		{"group with open orders", "oca-sim-ord-1", "", "already has open orders at the broker"},
		{"same group, other case", "OCA-SIM-ORD-1", "", "already has open orders at the broker"},
		{"unknown status counts as open", "odd", "", "already has open orders"},
		{"only filled orders", "done", "", ""},
		{"only cancelled orders", "gone", "", ""},
		{"alice's prefix is reserved", "alice-0123abcd-x", "", "reserved"},
		{"bad characters", "a b", "", "may use only"},
		{"too long", strings.Repeat("g", MaxOCAGroupChars+1), "", "too long"},
		{"parentId", "", "nope", "parentId is not accepted"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := Order{OCAGroup: tt.group, ParentID: tt.parent}.CheckNew(open)
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			require.Contains(t, err.Error(), tt.want)
		})
	}
	require.Equal(t, "alice-0123abcd-pair", CommitOCAGroup("0123abcd", "pair"))
	require.Equal(t, "", CommitOCAGroup("0123abcd", ""))
}

func TestModifyTypeChangeDropsPricesTheNewTypeDoesNotTake(t *testing.T) {
	d := decimal.RequireFromString
	o := Order{Action: Buy, OrderType: Limit, TotalQuantity: d("1"), LmtPrice: d("10"), TIF: GTD, GoodTillDate: "20300131 16:00:00"}
	next := OrderChanges{OrderType: Market, TIF: GTC}.Apply(o)
	require.True(t, next.LmtPrice.IsZero())
	require.Empty(t, next.GoodTillDate)
	require.NoError(t, next.Validate())
	require.ErrorContains(t, OrderChanges{OrderType: Market, LmtPrice: d("10")}.Validate(), "lmtPrice does not apply to MKT")
	require.ErrorContains(t, OrderChanges{GoodTillDate: "nope"}.Validate(), "is not a date-time")
	require.NoError(t, OrderChanges{OrderType: Stop, AuxPrice: d("9")}.Validate())
}
