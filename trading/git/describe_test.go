package git

import (
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
)

func TestDescribe(t *testing.T) {
	aapl := &trading.Contract{Symbol: "AAPL"}
	cases := []struct {
		op   Operation
		want string
	}{
		{Operation{Action: "placeOrder", Contract: aapl, Order: &trading.Order{Action: "BUY", OrderType: "MKT", TotalQuantity: decimal.NewFromInt(10)}}, "placeOrder BUY 10 AAPL (MKT)"},
		{Operation{Action: "placeOrder", Contract: aapl, Order: &trading.Order{Action: "SELL", OrderType: "LMT", TotalQuantity: decimal.NewFromInt(5), LmtPrice: decimal.RequireFromString("190.5")}}, "placeOrder SELL 5 AAPL @190.5 (LMT)"},
		{Operation{Action: "placeOrder", Contract: aapl, Order: &trading.Order{Action: "BUY", OrderType: "MKT", CashQty: decimal.NewFromInt(500)}}, "placeOrder BUY $500 AAPL (MKT)"},
		{Operation{Action: "closePosition", Contract: aapl}, "closePosition AAPL all"},
		{Operation{Action: "closePosition", Contract: aapl, Quantity: decimal.NewFromInt(2)}, "closePosition AAPL 2"},
		{Operation{Action: "cancelOrder", OrderID: "mock-ord-3"}, "cancelOrder mock-ord-3"},
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, tc.op.Describe())
	}
}
