package git

import (
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
)

// What a person approves (Telegram /trading, the Portfolio pane) is the
// Describe line, so every field that changes what executes must be in it:
// a stop price, trailing amounts, attached take-profit/stop-loss legs, a
// time in force (always), and what a modifyOrder changes.
func TestDescribeShowsEverythingThatExecutes(t *testing.T) {
	d := decimal.RequireFromString
	aapl := &trading.Contract{Symbol: "AAPL"}
	cases := []struct {
		name string
		op   Operation
		want string
	}{
		{"stop", Operation{Action: PlaceOrder, Contract: aapl, Order: &trading.Order{Action: "SELL", OrderType: "STP", TotalQuantity: d("10"), AuxPrice: d("150"), TIF: trading.Day}},
			"placeOrder SELL 10 AAPL (STP) stop 150 DAY"},
		{"stop limit gtc outside rth", Operation{Action: PlaceOrder, Contract: aapl, Order: &trading.Order{Action: "SELL", OrderType: "STP LMT", TotalQuantity: d("10"), LmtPrice: d("149"), AuxPrice: d("150"), TIF: trading.GTC, OutsideRTH: true}},
			"placeOrder SELL 10 AAPL @149 (STP LMT) stop 150 GTC outside RTH"},
		{"trailing", Operation{Action: PlaceOrder, Contract: aapl, Order: &trading.Order{Action: "SELL", OrderType: "TRAIL", TotalQuantity: d("1"), TrailingPercent: d("2.5"), TIF: trading.GTD, GoodTillDate: "20260301 16:00:00"}},
			"placeOrder SELL 1 AAPL (TRAIL) trail 2.5% GTD 20260301 16:00:00"},
		{"trail stop price", Operation{Action: PlaceOrder, Contract: aapl, Order: &trading.Order{Action: "SELL", OrderType: "TRAIL", TotalQuantity: d("1"), TrailStopPrice: d("140")}},
			"placeOrder SELL 1 AAPL (TRAIL) trail stop 140"},
		{"tpsl", Operation{Action: PlaceOrder, Contract: aapl, Order: &trading.Order{Action: "BUY", OrderType: "LMT", TotalQuantity: d("5"), LmtPrice: d("190")},
			TPSL: &trading.TPSL{TakeProfit: &trading.PriceLeg{Price: d("210")}, StopLoss: &trading.PriceLeg{Price: d("180"), LimitPrice: d("179")}}},
			"placeOrder BUY 5 AAPL @190 (LMT) take-profit 210 stop-loss 180 (limit 179)"},
		{"modify", Operation{Action: ModifyOrder, OrderID: "ord-7", Changes: &trading.OrderChanges{TotalQuantity: d("3"), LmtPrice: d("188"), OrderType: "LMT", TIF: trading.GTC}},
			"modifyOrder ord-7: quantity 3, limit 188, type LMT, GTC"},
		{"modify stop", Operation{Action: ModifyOrder, OrderID: "ord-8", SymbolHint: "AAPL", Changes: &trading.OrderChanges{AuxPrice: d("151"), TrailingPercent: d("1"), TrailStopPrice: d("150"), GoodTillDate: "20260302"}},
			"modifyOrder ord-8 (AAPL): stop 151, trail 1%, trail stop 150, good till 20260302"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.op.Describe())
		})
	}
}
