package trading

import (
	"encoding/json"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePositive(t *testing.T) {
	cases := []struct {
		in, want string
		err      bool
	}{
		{"", "0", false}, {"  ", "0", false}, {"1.5", "1.5", false}, {"0", "", true}, {"-2", "", true}, {"abc", "", true},
	}
	for _, c := range cases {
		d, err := ParsePositive("x", c.in)
		if c.err {
			assert.Error(t, err, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		assert.True(t, d.Equal(decimal.RequireFromString(c.want)), c.in)
	}
}

func TestAliceID(t *testing.T) {
	a, k, err := SplitAliceID(AliceID("sim-paper", "BTC/USD"))
	require.NoError(t, err)
	assert.Equal(t, "sim-paper", a)
	assert.Equal(t, "BTC/USD", k)
	for _, bad := range []string{"", "AAPL", "|AAPL", "acct|"} {
		_, _, err := SplitAliceID(bad)
		assert.Error(t, err, bad)
	}
}

func TestOrderValidateAndChanges(t *testing.T) {
	q := decimal.NewFromInt(1)
	cases := []struct {
		o  Order
		ok bool
	}{
		{Order{Action: Buy, OrderType: Market, TotalQuantity: q}, true},
		{Order{Action: Buy, OrderType: Market, CashQty: q}, true},
		{Order{Action: "HOLD", OrderType: Market, TotalQuantity: q}, false},
		{Order{Action: Buy, OrderType: Limit, TotalQuantity: q}, false},
		{Order{Action: Sell, OrderType: Stop, TotalQuantity: q, AuxPrice: q}, true},
		{Order{Action: Sell, OrderType: StopLimit, TotalQuantity: q, AuxPrice: q}, false},
		{Order{Action: Sell, OrderType: Trail, TotalQuantity: q, TrailingPercent: q}, true},
		{Order{Action: Sell, OrderType: Trail, TotalQuantity: q}, false},
		{Order{Action: Buy, OrderType: Market}, false},
	}
	for i, c := range cases {
		assert.Equal(t, c.ok, c.o.Validate() == nil, "case %d", i)
	}
	o := OrderChanges{LmtPrice: decimal.NewFromInt(5), TIF: GTC}.Apply(Order{Action: Buy, OrderType: Limit, TotalQuantity: q, LmtPrice: q, TIF: Day})
	assert.True(t, o.LmtPrice.Equal(decimal.NewFromInt(5)))
	assert.True(t, o.TotalQuantity.Equal(q), "zero fields are unchanged")
	assert.Equal(t, GTC, o.TIF)
}

func TestUnsetDecimalsAreOmitted(t *testing.T) {
	b, err := json.Marshal(Order{Action: Buy, OrderType: Market, TotalQuantity: decimal.RequireFromString("2.5"), TIF: Day})
	require.NoError(t, err)
	assert.JSONEq(t, `{"action":"BUY","orderType":"MKT","totalQuantity":"2.5","tif":"DAY"}`, string(b))
	var back Order
	require.NoError(t, json.Unmarshal(b, &back))
	assert.True(t, back.TotalQuantity.Equal(decimal.RequireFromString("2.5")))
}

// A risk block carries only what the venue reported; nothing reported is
// no block at all (never an implied 1×), and it serialises with
// OpenAlice's field names.
func TestNewPositionRisk(t *testing.T) {
	d := decimal.RequireFromString
	cases := []struct {
		name     string
		lev, liq decimal.Decimal
		mode     MarginMode
		want     string // JSON, "" for nil
	}{
		{"nothing reported", decimal.Zero, decimal.Zero, "", ""},
		{"all", d("10"), d("45000.5"), Isolated, `{"leverage":"10","liquidationPrice":"45000.5","marginMode":"isolated"}`},
		{"zero liquidation is unreported", d("5"), decimal.Zero, Cross, `{"leverage":"5","marginMode":"cross"}`},
		{"mode only", decimal.Zero, decimal.Zero, Cross, `{"marginMode":"cross"}`},
		{"negative is unreported", d("-1"), d("-3"), "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewPositionRisk(c.lev, c.liq, c.mode)
			if c.want == "" {
				require.Nil(t, r)
				b, err := json.Marshal(Position{Risk: r})
				require.NoError(t, err)
				require.NotContains(t, string(b), "risk")
				return
			}
			b, err := json.Marshal(r)
			require.NoError(t, err)
			require.JSONEq(t, c.want, string(b))
		})
	}
}
