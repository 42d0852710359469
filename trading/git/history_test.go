package git

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/alice-trading/alice/trading"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
)

// One history seen both ways: orders alice placed (attributed to the
// session that staged them), an order placed outside alice that a poll
// observed, their fills found by sync, and a rejected commit.
func TestOrderAndTradeHistoryWithObservedOrders(t *testing.T) {
	ctx := context.Background()
	d := decimal.RequireFromString
	f := newFake()
	path := filepath.Join(t.TempDir(), "commit.json")
	g := open(t, path, f)
	s1 := &Provenance{Session: "tui/default", Channel: "tui", Agent: "openai:m"}
	s2 := &Provenance{Session: "mcp-ask__x", Channel: "mcp-ask", Agent: "claude-code"}

	mkt := buy("AAPL", "1", trading.Market)
	mkt.StagedBy = s1
	_, err := g.Stage(mkt)
	require.NoError(t, err)
	p, err := g.Commit("entry AAPL")
	require.NoError(t, err)
	_, _, err = g.Push(ctx, p.Hash)
	require.NoError(t, err)

	lmt := buy("MSFT", "1", trading.Limit)
	lmt.StagedBy = s2
	_, err = g.Stage(lmt)
	require.NoError(t, err)
	p, err = g.Commit("bid MSFT")
	require.NoError(t, err)
	_, _, err = g.Push(ctx, p.Hash)
	require.NoError(t, err)

	// The broker lists MSFT (ours), TSLA (placed in the venue's app) and an
	// order carrying a client id alice minted (ours, from a crashed push).
	ext := trading.Order{Action: trading.Sell, OrderType: trading.Limit, TotalQuantity: d("5"), LmtPrice: d("200"), TIF: trading.GTC}
	listed := []ObservedOrder{
		{Contract: trading.Contract{Symbol: "MSFT"}, Order: *lmt.Order, OrderID: "ord-2"},
		{Contract: trading.Contract{Symbol: "TSLA"}, Order: ext, OrderID: "ext-1"},
		{Contract: trading.Contract{Symbol: "TSLA"}, Order: ext, OrderID: "ext-1"}, // listed twice: recorded once
		{Contract: trading.Contract{Symbol: "NVDA"}, Order: trading.Order{ClientOrderID: "alice-deadbeef-0", Action: trading.Buy}, OrderID: "ord-x"},
		// The stop-loss leg the broker opened for alice's AAPL order is
		// alice's own, not an external order.
		{Contract: trading.Contract{Symbol: "AAPL"}, Order: trading.Order{Action: trading.Sell, OrderType: trading.Stop, TotalQuantity: d("1"), AuxPrice: d("80"), TIF: trading.GTC, ParentID: "ord-1", OCAGroup: "oca-ord-1"}, OrderID: "leg-1"},
	}
	c, ok, err := g.RecordObserved(ctx, listed)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, "[observed] 1 external order(s) not placed through alice", c.Message)
	require.Len(t, c.Operations, 1)
	require.NotNil(t, c.StateAfter)
	var bracket []string
	for _, k := range g.Log(0, "") {
		if strings.HasPrefix(k.Message, BracketMessagePrefix) {
			bracket = append(bracket, k.Message)
		}
	}
	require.Equal(t, []string{"[bracket] 1 take-profit/stop-loss leg(s) of ord-1"}, bracket, "the leg is recorded as alice's bracket")
	_, again, err := g.RecordObserved(ctx, listed)
	require.NoError(t, err)
	require.False(t, again, "an order is observed once")
	require.ElementsMatch(t, []string{"ord-2", "ext-1", "leg-1"}, g.PendingOrderIDs(), "sync follows the observed order and the leg too")
	// Only legs new: recorded, and nothing external to announce.
	_, ok, err = g.RecordObserved(ctx, append(listed, ObservedOrder{Contract: trading.Contract{Symbol: "AAPL"}, Order: trading.Order{Action: trading.Sell, OrderType: trading.Limit, TotalQuantity: d("1"), LmtPrice: d("120"), TIF: trading.GTC, ParentID: "ord-1"}, OrderID: "leg-2"}))
	require.NoError(t, err)
	require.False(t, ok, "a bracket leg is not an external order")
	require.Contains(t, g.PendingOrderIDs(), "leg-2")
	_, err = g.Stage(Operation{Action: ObserveExternalOrder, Contract: &trading.Contract{Symbol: "X"}, Order: &ext})
	require.Error(t, err, "observations are never staged")

	// Both fill at the broker; sync records it.
	f.mu.Lock()
	f.orders["ord-2"].Status, f.orders["ord-2"].FilledQty, f.orders["ord-2"].AvgFillPrice = trading.StatusFilled, d("1"), d("89.5")
	f.orders["ext-1"] = &trading.OpenOrder{Contract: trading.Contract{Symbol: "TSLA"}, Order: ext, Status: trading.StatusFilled, FilledQty: d("5"), AvgFillPrice: d("201")}
	for _, leg := range []string{"leg-1", "leg-2"} { // still resting
		f.orders[leg] = &trading.OpenOrder{Contract: trading.Contract{Symbol: "AAPL"}, Order: trading.Order{OrderID: leg, ParentID: "ord-1"}, Status: trading.StatusSubmitted}
	}
	f.mu.Unlock()
	sr, err := g.Sync(ctx, 0)
	require.NoError(t, err)
	require.Equal(t, 2, sr.UpdatedCount)

	// A commit withdrawn before it ran still has a row, without an order id.
	_, err = g.Stage(buy("AMD", "3", trading.Market))
	require.NoError(t, err)
	p, err = g.Commit("maybe AMD")
	require.NoError(t, err)
	_, err = g.Reject(ctx, p.Hash, "changed my mind")
	require.NoError(t, err)

	// The history survives a reopen unchanged.
	g = open(t, path, f)
	orders := g.OrderHistory(0)
	require.Len(t, orders, 6)
	byID := map[string]OrderHistoryEntry{}
	for _, o := range orders {
		byID[o.OrderID] = o
	}
	require.Equal(t, SourceAlice, byID["leg-1"].Source, "a bracket leg is alice's")
	require.Equal(t, SourceExternal, byID["ext-1"].Source)
	require.Equal(t, "AMD", orders[0].Contract.Symbol, "newest first")
	require.Equal(t, StatusUserRejected, orders[0].Status)
	require.Equal(t, "changed my mind", orders[0].Error)
	require.Empty(t, orders[0].OrderID)

	tsla := byID["ext-1"]
	require.Equal(t, SourceExternal, tsla.Source)
	require.Equal(t, StatusFilled, tsla.Status)
	require.Equal(t, trading.Sell, tsla.Side)
	require.Equal(t, "201", tsla.AvgFillPrice.String())
	require.Equal(t, "200", tsla.LimitPrice.String())
	require.NotNil(t, tsla.ResolvedAt)
	require.Nil(t, tsla.StagedBy)

	msft := byID["ord-2"]
	require.Equal(t, SourceAlice, msft.Source)
	require.Equal(t, StatusFilled, msft.Status)
	require.Equal(t, "bid MSFT", msft.Message)
	require.Equal(t, s2, msft.StagedBy)
	require.Equal(t, s1, byID["ord-1"].StagedBy)
	require.Equal(t, StatusFilled, byID["ord-1"].Status)
	require.Len(t, g.OrderHistory(2), 2)

	trades := g.TradeHistory(0)
	require.Len(t, trades, 3)
	tr := map[string]TradeHistoryEntry{}
	for _, x := range trades {
		tr[x.OrderID] = x
	}
	require.Equal(t, TradeFromExternal, tr["ext-1"].Source)
	require.Equal(t, "1005", tr["ext-1"].Value.String())
	require.Equal(t, trading.Sell, tr["ext-1"].Side)
	require.Equal(t, TradeFromOrder, tr["ord-2"].Source)
	require.Equal(t, "89.5", tr["ord-2"].Price.String())
	require.Equal(t, s2, tr["ord-2"].StagedBy)
	require.Equal(t, "100", tr["ord-1"].Value.String())
	require.Equal(t, s1, tr["ord-1"].StagedBy)
}

// The projections on hand-built histories: a replacing modify, a cancel,
// a partially filled then cancelled order, and closing a short.
func TestProjectionsTable(t *testing.T) {
	d := decimal.RequireFromString
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	aapl := &trading.Contract{Symbol: "AAPL"}
	lmt := &trading.Order{Action: trading.Buy, OrderType: trading.Limit, TotalQuantity: d("10"), LmtPrice: d("100")}
	place := Commit{Hash: "c1", Message: "bid", Timestamp: at(1), Operations: []Operation{{Action: PlaceOrder, Contract: aapl, Order: lmt}},
		Results: []Result{{Action: PlaceOrder, Success: true, OrderID: "a", Status: StatusSubmitted}}}
	replace := Commit{Hash: "c2", Message: "raise bid", Timestamp: at(2),
		Operations: []Operation{{Action: ModifyOrder, OrderID: "a", Changes: &trading.OrderChanges{LmtPrice: d("101")}}},
		Results:    []Result{{Action: ModifyOrder, Success: true, OrderID: "b", Status: StatusSubmitted}}}
	inPlace := Commit{Hash: "c2", Message: "raise bid", Timestamp: at(2),
		Operations: []Operation{{Action: ModifyOrder, OrderID: "a", Changes: &trading.OrderChanges{LmtPrice: d("101"), TotalQuantity: d("4")}}},
		Results:    []Result{{Action: ModifyOrder, Success: true, OrderID: "a", Status: StatusSubmitted}}}
	cancel := func(id string) Commit {
		return Commit{Hash: "c3", Message: "pull", Timestamp: at(3), Operations: []Operation{{Action: CancelOrder, OrderID: id}},
			Results: []Result{{Action: CancelOrder, Success: true, OrderID: id, Status: StatusCancelled}}}
	}
	sync := func(id string, st ResultStatus, qty, px string) Commit {
		r := Result{Action: SyncOrders, Success: true, OrderID: id, Status: st}
		if qty != "" {
			r.FilledQty, r.FilledPrice = d(qty), d(px)
		}
		return Commit{Hash: "s", Message: "[sync]", Timestamp: at(4), Operations: []Operation{{Action: SyncOrders}}, Results: []Result{r}}
	}
	short := Commit{Hash: "c0", Timestamp: at(0), StateAfter: &State{Positions: []trading.Position{{Contract: *aapl, Side: trading.Short, Quantity: d("2")}}}}
	closeIt := Commit{Hash: "c5", Message: "cover", Timestamp: at(5), Operations: []Operation{{Action: ClosePosition, Contract: aapl}},
		Results: []Result{{Action: ClosePosition, Success: true, OrderID: "z", Status: StatusFilled, FilledQty: d("2"), FilledPrice: d("98")}}}

	type row struct {
		id     string
		status ResultStatus
		limit  string
		qty    string
		side   trading.Action
	}
	cases := []struct {
		name    string
		commits []Commit
		orders  []row // newest first
		fills   []string
	}{
		{"replacing modify moves the order to its new id", []Commit{place, replace, sync("b", StatusFilled, "10", "101")},
			[]row{{"b", StatusFilled, "101", "10", trading.Buy}, {"a", StatusCancelled, "100", "10", trading.Buy}}, []string{"b 10@101"}},
		{"in-place modify updates the row", []Commit{place, inPlace},
			[]row{{"a", StatusSubmitted, "101", "4", trading.Buy}}, nil},
		{"cancel resolves", []Commit{place, cancel("a")}, []row{{"a", StatusCancelled, "100", "10", trading.Buy}}, nil},
		{"cancel of an unknown order adds nothing", []Commit{cancel("q")}, []row{}, nil},
		{"partial fill then cancelled still counts the fill", []Commit{place, sync("a", StatusCancelled, "3", "99.5")},
			[]row{{"a", StatusCancelled, "100", "10", trading.Buy}}, []string{"a 3@99.5"}},
		{"closing a short is a buy", []Commit{short, closeIt}, []row{{"z", StatusFilled, "0", "0", trading.Buy}}, []string{"z 2@98"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ProjectOrders(tc.commits, 0)
			require.Len(t, got, len(tc.orders))
			for i, w := range tc.orders {
				require.Equal(t, w.id, got[i].OrderID)
				require.Equal(t, w.status, got[i].Status)
				require.Equal(t, w.limit, got[i].LimitPrice.String())
				require.Equal(t, w.qty, got[i].Quantity.String())
				require.Equal(t, w.side, got[i].Side)
			}
			var fills []string
			for _, f := range ProjectTrades(tc.commits, 0) {
				fills = append(fills, f.OrderID+" "+f.Quantity.String()+"@"+f.Price.String())
				require.Equal(t, f.Quantity.Mul(f.Price).String(), f.Value.String())
			}
			require.Equal(t, tc.fills, fills)
		})
	}
}
