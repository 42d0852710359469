package uta

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
)

// genOrder draws an order of any type, side, TIF and sizing — valid or
// not — around the pinned marks, the way a careless or hostile agent
// would write one.
func genOrder(r *rand.Rand, marks map[string]decimal.Decimal) (string, trading.Order, *trading.TPSL) {
	syms := []string{"AAPL", "MSFT", "BTC", "EURUSD", "XAU"}
	sym := syms[r.IntN(len(syms))]
	mark := marks[sym]
	o := trading.Order{Action: []trading.Action{trading.Buy, trading.Sell}[r.IntN(2)],
		OrderType: trading.AllOrderTypes[r.IntN(len(trading.AllOrderTypes))]}
	wild := r.IntN(3) == 0 // a third of the orders are careless or hostile
	if wild {
		o.TIF = []trading.TIF{"", trading.Day, trading.GTC, trading.IOC, trading.FOK, trading.OPG, trading.GTD}[r.IntN(7)]
		if o.TIF == trading.GTD && r.IntN(2) == 0 {
			o.GoodTillDate = "20260301 16:00:00"
		}
	} else {
		o.TIF = []trading.TIF{"", trading.Day, trading.GTC, trading.IOC}[r.IntN(4)]
		o.OrderType = []trading.OrderType{trading.Market, trading.Limit, trading.Stop, trading.StopLimit}[r.IntN(4)]
	}
	// quantities from dust to absurd, with any number of decimals
	qty := decimal.New(1+r.Int64N(999), int32(r.IntN(14))-10)
	cash := decimal.New(1+r.Int64N(99999), -int32(r.IntN(4)))
	if !wild { // about 100-6,000 worth, in whole lots
		qty = decimal.NewFromInt(100 + r.Int64N(5900)).Div(mark).Round(0)
		if qty.IsZero() {
			qty = decimal.New(1+r.Int64N(99), -3)
		}
		cash = decimal.NewFromInt(100 + r.Int64N(5900))
	}
	switch r.IntN(5) {
	case 0:
		o.CashQty = cash
	case 1:
		o.TotalQuantity, o.CashQty = qty, cash // both: must never reach a broker
	default:
		o.TotalQuantity = qty
	}
	near := func() decimal.Decimal { // ±20% of the mark, sometimes off the tick
		p := mark.Mul(decimal.NewFromFloat(0.8 + 0.4*r.Float64()))
		if !wild {
			return p.Round(2)
		}
		return p.Round(int32(r.IntN(4)))
	}
	switch o.OrderType {
	case trading.Limit:
		o.LmtPrice = near()
	case trading.Stop:
		o.AuxPrice = near()
	case trading.StopLimit, trading.TrailLimit:
		o.LmtPrice, o.AuxPrice = near(), near()
		o.TrailingPercent = decimal.NewFromInt(1 + r.Int64N(5))
	case trading.Trail:
		o.TrailingPercent = decimal.NewFromInt(1 + r.Int64N(5))
	}
	var tpsl *trading.TPSL
	if r.IntN(6) == 0 {
		tpsl = &trading.TPSL{TakeProfit: &trading.PriceLeg{Price: mark.Mul(decimal.NewFromFloat(1.1)).Round(2)}}
	}
	return sym, o, tpsl
}

// TestOrderModel generates orders of every type, side, TIF and sizing and
// runs each through stage → commit → push on the simulator with guards.
// Invariants: no executed order exceeds a configured guard (valued the
// way it filled), every order a broker holds is exactly one that a commit
// carried (same side, type, size, prices, TIF), once, and an order that
// carries both a quantity and a cash amount never reaches the broker.
func TestOrderModel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	maxValue := decimal.NewFromInt(5000)
	maxPct := decimal.NewFromInt(25)
	e.writeAccounts(t, config.Accounts{{ID: "model", Preset: "simulator", Enabled: true, AutoApprove: true,
		Guards: []config.Guard{{Type: "max-order-value", Options: map[string]any{"maxValue": "5000"}},
			{Type: "max-position-size", Options: map[string]any{"maxPercentOfEquity": 25}}},
		PresetConfig: []byte(`{"cash":"100000","seed":7}`)}})
	m := e.start(t)
	ctx := context.Background()
	u, err := m.Get("model")
	require.NoError(t, err)
	marks := map[string]decimal.Decimal{"AAPL": decimal.NewFromInt(190), "MSFT": decimal.NewFromInt(370),
		"BTC": decimal.NewFromInt(65000), "EURUSD": decimal.RequireFromString("1.08"), "XAU": decimal.NewFromInt(2350)}
	for s, p := range marks {
		require.NoError(t, u.Sim().SetMarkPrice(s, p))
	}
	r := rand.New(rand.NewPCG(22, 2026))
	const n = 120
	approved := map[string]trading.Order{} // client order id → what the commit carried
	var staged, refused, executed, guarded int
	for i := 0; i < n; i++ {
		sym, o, tpsl := genOrder(r, marks)
		c, err := u.ContractFromAliceID(ctx, trading.AliceID("model", sym))
		require.NoError(t, err)
		_, err = u.Stage(ctx, git.Operation{Action: git.PlaceOrder, Contract: &c, Order: &o, TPSL: tpsl})
		if err != nil {
			refused++
			require.False(t, o.TotalQuantity.IsPositive() && o.CashQty.IsPositive() && err == nil)
			continue
		}
		require.False(t, o.TotalQuantity.IsPositive() && o.CashQty.IsPositive(), "an order with both quantity and cash was staged: %+v", o)
		staged++
		acct, err := u.Account(ctx)
		require.NoError(t, err)
		pos, err := u.Positions(ctx)
		require.NoError(t, err)
		held := decimal.Zero
		for _, p := range pos {
			if p.Contract.Symbol == sym {
				held = p.MarketValue.Abs()
			}
		}
		out, err := m.Commit("model", fmt.Sprintf("order %d", i))
		require.NoError(t, err)
		p := u.Git().PendingCommit()
		require.NotNil(t, p)
		for _, op := range p.Operations {
			approved[op.Order.ClientOrderID] = *op.Order
		}
		res, err := m.Push(ctx, "model", out[0].Hash)
		require.NoError(t, err)
		guarded += len(res.Rejected)
		for _, sub := range res.Submitted {
			if !sub.FilledQty.IsPositive() {
				continue
			}
			executed++
			value := sub.FilledQty.Mul(sub.FilledPrice)
			require.False(t, value.GreaterThan(maxValue), "order %d executed %s × %s = %s > max-order-value %s (%+v)", i, sub.FilledQty, sub.FilledPrice, value, maxValue, o)
			if o.Action == trading.Buy {
				pct := held.Add(value).Div(acct.NetLiquidation).Mul(decimal.NewFromInt(100))
				require.False(t, pct.GreaterThan(maxPct), "order %d made %s %s%% of equity > %s%% (%+v)", i, sym, pct.StringFixed(2), maxPct, o)
			}
		}
		if i%25 == 24 { // cancel what rests, through the same path
			orders, err := u.Orders(ctx, nil)
			require.NoError(t, err)
			for _, oo := range orders {
				if oo.Status.Pending() {
					_, err := u.Stage(ctx, git.Operation{Action: git.CancelOrder, OrderID: oo.Order.OrderID, SymbolHint: oo.Contract.Symbol})
					require.NoError(t, err)
				}
			}
			if len(u.Git().Status().Staged) > 0 {
				out, err := m.Commit("model", "cancel resting")
				require.NoError(t, err)
				_, err = m.Push(ctx, "model", out[0].Hash)
				require.NoError(t, err)
			}
		}
	}
	// executed = approved, once
	all, err := u.Sim().Orders(ctx, nil)
	require.NoError(t, err)
	seen := map[string]int{}
	for _, oo := range all {
		if oo.Order.ParentID != "" {
			continue // take-profit / stop-loss children the broker created
		}
		id := oo.Order.ClientOrderID
		seen[id]++
		want, ok := approved[id]
		require.True(t, ok, "broker holds order %s (%q) that no commit carried", oo.Order.OrderID, id)
		require.Equal(t, want.Action, oo.Order.Action, id)
		require.Equal(t, want.OrderType, oo.Order.OrderType, id)
		require.Equal(t, want.TIF, oo.Order.TIF, id)
		require.NotEmpty(t, oo.Order.TIF, "every executed order carries an explicit TIF")
		require.True(t, want.LmtPrice.Equal(oo.Order.LmtPrice) && want.AuxPrice.Equal(oo.Order.AuxPrice), id)
		if want.CashQty.IsZero() {
			require.True(t, want.TotalQuantity.Equal(oo.Order.TotalQuantity), "%s: approved %s, broker has %s", id, want.TotalQuantity, oo.Order.TotalQuantity)
		} else {
			require.False(t, oo.Order.TotalQuantity.Mul(oo.AvgFillPrice).GreaterThan(want.CashQty), "%s: a cash order spent more than its cash", id)
		}
	}
	for id, n := range seen {
		require.Equal(t, 1, n, "order %s reached the broker %d times", id, n)
	}
	t.Logf("generated %d orders: %d refused at staging, %d staged, %d stopped by a guard, %d executed", n, refused, staged, guarded, executed)
	require.Greater(t, executed, 15, "the generator must reach the broker often enough to test something")
	require.Greater(t, guarded, 8, "and press against the guards")
	require.Greater(t, refused, 20)
}
