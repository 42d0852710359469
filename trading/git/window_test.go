package git

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/alice-trading/alice/trading"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
)

// genHistory draws a history the way accounts write one: orders placed
// (filled at once, resting or rejected), closes, orders observed at the
// broker, cancels, modifications (in place, or replaced under a new id as
// Alpaca does), sync commits that fill or cancel resting orders, and
// states with long and short positions. Timestamps are in whole seconds
// and often repeat, so ties at the window's edge are exercised.
func genHistory(r *rand.Rand, n int) []Commit {
	var out []Commit
	var resting []string
	next := 0
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := func(i int64) decimal.Decimal { return decimal.NewFromInt(i) }
	for len(out) < n {
		if r.IntN(3) > 0 {
			at = at.Add(time.Duration(r.IntN(2)) * time.Second)
		}
		c := Commit{Hash: fmt.Sprintf("%08x", len(out)), Message: fmt.Sprintf("c%d", len(out)), Timestamp: at}
		newID := func() string { next++; return fmt.Sprintf("o%d", next) }
		sym := []string{"AAPL", "MSFT", "BTC"}[r.IntN(3)]
		switch k := r.IntN(10); {
		case k < 4 || len(resting) == 0:
			for j := 0; j <= r.IntN(2); j++ {
				op := buy(sym, fmt.Sprint(1+r.IntN(9)), []trading.OrderType{trading.Market, trading.Limit}[r.IntN(2)])
				op.StagedBy = &Provenance{Session: fmt.Sprintf("s%d", r.IntN(3))}
				id := newID()
				res := Result{Action: PlaceOrder, Success: true, OrderID: id, Status: StatusSubmitted}
				switch r.IntN(3) {
				case 0:
					res.Status, res.FilledQty, res.FilledPrice = StatusFilled, op.Order.TotalQuantity, d(100+int64(r.IntN(50)))
				case 1:
					resting = append(resting, id)
				default:
					if r.IntN(2) == 0 {
						res = Result{Action: PlaceOrder, Status: StatusRejected, Error: "no"}
					} else {
						resting = append(resting, id)
					}
				}
				c.Operations, c.Results = append(c.Operations, op), append(c.Results, res)
			}
		case k == 4:
			c.Operations = []Operation{{Action: ClosePosition, Contract: &trading.Contract{Symbol: sym}, Quantity: d(int64(r.IntN(3)))}}
			c.Results = []Result{{Action: ClosePosition, Success: true, OrderID: newID(), Status: StatusFilled, FilledQty: d(2), FilledPrice: d(120)}}
		case k == 5:
			id := newID()
			c.Operations = []Operation{{Action: ObserveExternalOrder, Contract: &trading.Contract{Symbol: sym},
				Order: &trading.Order{Action: trading.Sell, OrderType: trading.Limit, TotalQuantity: d(3), LmtPrice: d(150)}}}
			c.Results = []Result{{Action: ObserveExternalOrder, Success: true, OrderID: id, Status: StatusSubmitted}}
			resting = append(resting, id)
		case k == 6:
			i := r.IntN(len(resting))
			c.Operations = []Operation{{Action: CancelOrder, OrderID: resting[i]}}
			c.Results = []Result{{Action: CancelOrder, Success: r.IntN(4) > 0, OrderID: resting[i], Status: StatusCancelled}}
			resting = append(resting[:i], resting[i+1:]...)
		case k == 7:
			i := r.IntN(len(resting))
			old := resting[i]
			ch := &trading.OrderChanges{TotalQuantity: d(int64(1 + r.IntN(9))), LmtPrice: d(int64(80 + r.IntN(40)))}
			res := Result{Action: ModifyOrder, Success: r.IntN(5) > 0, OrderID: old, Status: StatusSubmitted}
			if r.IntN(2) == 0 { // replaced under a new id, as Alpaca does
				res.OrderID = newID()
				if res.Success {
					resting[i] = res.OrderID
				}
			}
			c.Operations, c.Results = []Operation{{Action: ModifyOrder, OrderID: old, Changes: ch}}, []Result{res}
		default:
			c.Operations = []Operation{{Action: SyncOrders}}
			for j := 0; j < 1+r.IntN(2) && len(resting) > 0; j++ {
				i := r.IntN(len(resting))
				res := Result{Action: SyncOrders, Success: true, OrderID: resting[i], Status: StatusCancelled}
				if r.IntN(3) > 0 {
					res.Status, res.FilledQty, res.FilledPrice = StatusFilled, d(int64(1+r.IntN(5))), d(110)
				}
				if r.IntN(4) == 0 { // a partial fill: still resting
					res.Status = StatusSubmitted
				} else {
					resting = append(resting[:i], resting[i+1:]...)
				}
				c.Results = append(c.Results, res)
			}
		}
		if r.IntN(3) == 0 {
			side := []trading.Side{trading.Long, trading.Short}[r.IntN(2)]
			c.StateAfter = &State{Positions: []trading.Position{{Contract: trading.Contract{Symbol: sym}, Side: side, Quantity: d(5)}}}
		}
		out = append(out, c)
	}
	return out
}

// Reading the newest rows from the tail of the history gives exactly the
// rows a projection of the whole history gives, for every limit, on
// randomly generated histories.
func TestHistoryWindowMatchesFullProjection(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 60; seed++ {
		r := rand.New(rand.NewPCG(seed, 22))
		commits := genHistory(r, 20+r.IntN(200))
		allOrders := projectOrders(commits, nil, 0)
		allTrades := projectTrades(commits, nil, 0)
		for _, limit := range []int{1, 2, 3, 5, 10, 50, 500} {
			wantO := allOrders[:min(limit, len(allOrders))]
			require.Equal(t, wantO, ProjectOrders(commits, limit), "seed %d limit %d: orders", seed, limit)
			wantT := allTrades[:min(limit, len(allTrades))]
			require.Equal(t, wantT, ProjectTrades(commits, limit), "seed %d limit %d: trades", seed, limit)
		}
	}
}

// On a 100,000-commit history the newest rows are read from the tail:
// the window the projection reads is a few commits, and the rows are the
// newest ones.
func TestHistoryReadsAreBoundedOnALargeHistory(t *testing.T) {
	t.Parallel()
	const n = 100_000
	g := open(t, filepath.Join(t.TempDir(), "commit.json"), newFake())
	commits := make([]Commit, n)
	for i := range commits {
		commits[i] = Commit{Hash: fmt.Sprintf("%08x", i), Message: "seed", Operations: []Operation{buy("AAPL", "1", trading.Market)},
			Results:   []Result{{Action: PlaceOrder, Success: true, Status: StatusFilled, OrderID: fmt.Sprintf("o%d", i), FilledQty: decimal.NewFromInt(1), FilledPrice: decimal.NewFromInt(100)}},
			Timestamp: time.Unix(int64(i), 0).UTC()}
	}
	g.f.Commits = commits
	require.Equal(t, n-50, ordersWindow(commits, 50))
	require.Equal(t, n-50, tradesWindow(commits, 50))
	rows := g.OrderHistory(50)
	require.Len(t, rows, 50)
	require.Equal(t, fmt.Sprintf("o%d", n-1), rows[0].OrderID)
	require.Equal(t, fmt.Sprintf("o%d", n-50), rows[49].OrderID)
	trades := g.TradeHistory(50)
	require.Len(t, trades, 50)
	require.Equal(t, fmt.Sprintf("o%d", n-1), trades[0].OrderID)
}
