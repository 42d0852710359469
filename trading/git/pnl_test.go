package git

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
)

// Realised P&L goes to the session that opened each lot, first in, first
// out, for longs and shorts; fills of orders placed outside alice are
// "external".
func TestRealizedBySession(t *testing.T) {
	d := decimal.RequireFromString
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	n := 0
	fill := func(sym string, side trading.Action, qty, px string, by *Provenance) Commit {
		n++
		op := Operation{Action: PlaceOrder, Contract: &trading.Contract{Symbol: sym},
			Order: &trading.Order{Action: side, OrderType: trading.Market, TotalQuantity: d(qty)}, StagedBy: by}
		return Commit{Hash: "c", Timestamp: t0.Add(time.Duration(n) * time.Minute), Operations: []Operation{op},
			Results: []Result{{Action: PlaceOrder, Success: true, OrderID: "o" + decimal.NewFromInt(int64(n)).String(), Status: StatusFilled, FilledQty: d(qty), FilledPrice: d(px)}}}
	}
	a := &Provenance{Session: "a"}
	b := &Provenance{Session: "b"}
	ext := Commit{Hash: "x", Timestamp: t0.Add(time.Hour), Operations: []Operation{{Action: ObserveExternalOrder, Contract: &trading.Contract{Symbol: "AAPL"},
		Order: &trading.Order{Action: trading.Sell, TotalQuantity: d("1")}}}, Results: []Result{{Action: ObserveExternalOrder, Success: true, OrderID: "e1", Status: StatusSubmitted}}}
	extFill := Commit{Hash: "y", Timestamp: t0.Add(2 * time.Hour), Operations: []Operation{{Action: SyncOrders}},
		Results: []Result{{Action: SyncOrders, Success: true, OrderID: "e1", Status: StatusFilled, FilledQty: d("1"), FilledPrice: d("130")}}}
	commits := []Commit{
		fill("AAPL", trading.Buy, "10", "100", a),  // a opens 10 @100
		fill("AAPL", trading.Buy, "5", "110", b),   // b opens 5 @110
		fill("AAPL", trading.Sell, "12", "120", b), // closes a's 10 (+200) and 2 of b's (+20)
		fill("TSLA", trading.Sell, "2", "300", a),  // a shorts 2 @300
		fill("TSLA", trading.Buy, "3", "250", nil), // covers a's short (+100), 1 long @250 unknown
		ext, extFill, // external sell of 1 AAPL @130 closes 1 of b's lot (+20 to b)
	}
	got := map[string]SessionPnL{}
	for _, s := range RealizedBySession(commits) {
		got[s.Session] = s
	}
	require.Equal(t, "300", got["a"].RealizedPnL.String())
	require.Equal(t, 2, got["a"].Fills)
	require.Equal(t, "1600", got["a"].Volume.String())
	require.Equal(t, "40", got["b"].RealizedPnL.String())
	require.Equal(t, 2, got["b"].Fills)
	require.Equal(t, "0", got["unknown"].RealizedPnL.String())
	require.Equal(t, 1, got["unknown"].Fills)
	require.Equal(t, 1, got["external"].Fills)
	require.True(t, got["external"].RealizedPnL.IsZero())
}
