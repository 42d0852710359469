package uta

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
)

// restingModel is the state TestOrderModelRestingAndCloses drives: one
// simulator account with max-order-value 5,000 and max-position-size 25 %.
type restingModel struct {
	t            *testing.T
	m            *Manager
	u            *UTA
	r            *rand.Rand
	maxValue     decimal.Decimal
	maxPct       decimal.Decimal
	pushes       int
	guarded      int
	fills        int
	closes       int
	closeRefused int
	closeSplit   int
}

// partRe reads the part size a refused close proposes.
var partRe = regexp.MustCompile(`closePosition with qty "([0-9.]+)"`)

func (s *restingModel) contract(sym string) trading.Contract {
	c, err := s.u.ContractFromAliceID(context.Background(), trading.AliceID("model", sym))
	require.NoError(s.t, err)
	return c
}

// resting is every order the broker holds that may still fill.
func (s *restingModel) resting() []trading.OpenOrder {
	all, err := s.u.Sim().Orders(context.Background(), nil)
	require.NoError(s.t, err)
	var out []trading.OpenOrder
	for _, o := range all {
		if o.Status.Pending() {
			out = append(out, o)
		}
	}
	return out
}

func (s *restingModel) held(sym string) decimal.Decimal {
	pos, err := s.u.Positions(context.Background())
	require.NoError(s.t, err)
	for _, p := range pos {
		if p.Contract.Symbol == sym {
			return p.Quantity.Abs()
		}
	}
	return decimal.Zero
}

// checkExposure asserts the invariant: for every symbol, the position
// plus every resting buy (its remaining quantity at its limit, as if it
// filled) stays within max-position-size. tol allows for resting orders
// that filled at their limit, a little under the mark the position is
// now valued at.
func (s *restingModel) checkExposure(when string, tol decimal.Decimal) {
	ctx := context.Background()
	acct, err := s.u.Account(ctx)
	require.NoError(s.t, err)
	pos, err := s.u.Positions(ctx)
	require.NoError(s.t, err)
	exp := map[string]decimal.Decimal{}
	for _, p := range pos {
		exp[p.Contract.Symbol] = exp[p.Contract.Symbol].Add(p.MarketValue.Abs())
	}
	for _, o := range s.resting() {
		if o.Order.Action == trading.Buy {
			rest := o.Order.TotalQuantity.Sub(o.FilledQty)
			exp[o.Contract.Symbol] = exp[o.Contract.Symbol].Add(rest.Mul(o.Order.LmtPrice))
		}
	}
	for sym, v := range exp {
		pct := v.Div(acct.NetLiquidation).Mul(decimal.NewFromInt(100))
		require.False(s.t, pct.GreaterThan(s.maxPct.Add(tol)),
			"%s: %s position plus resting buys is %s%% of equity > max-position-size %s%%", when, sym, pct.StringFixed(2), s.maxPct)
	}
}

// stageOne stages one generated operation; false when staging refused it.
func (s *restingModel) stageOne(step int) bool {
	ctx := context.Background()
	r := s.r
	sym := []string{"AAPL", "MSFT"}[r.IntN(2)]
	c := s.contract(sym)
	q, err := s.u.Sim().Quote(ctx, c)
	require.NoError(s.t, err)
	lots := func(n int64) decimal.Decimal { return decimal.NewFromInt(1 + r.Int64N(n)) }
	var op git.Operation
	switch k := r.IntN(10); {
	case k < 4: // a resting buy just under the bid, about the max order value
		px := q.Bid.Mul(decimal.NewFromFloat(1 - 0.001*float64(1+r.IntN(9)))).Round(2)
		qty := lots(s.maxValue.Div(px).IntPart() + 2)
		op = git.Operation{Action: git.PlaceOrder, Contract: &c, Order: &trading.Order{Action: trading.Buy,
			OrderType: trading.Limit, TotalQuantity: qty, LmtPrice: px, TIF: trading.GTC}}
	case k == 4: // a market buy
		op = git.Operation{Action: git.PlaceOrder, Contract: &c, Order: &trading.Order{Action: trading.Buy,
			OrderType: trading.Market, TotalQuantity: lots(s.maxValue.Div(q.Ask).IntPart()), TIF: trading.Day}}
	case k == 5: // raise or lower a resting order
		rest := s.resting()
		if len(rest) == 0 {
			return false
		}
		o := rest[r.IntN(len(rest))]
		op = git.Operation{Action: git.ModifyOrder, OrderID: o.Order.OrderID, SymbolHint: o.Contract.Symbol,
			Changes: &trading.OrderChanges{TotalQuantity: lots(30)}}
	case k < 9: // close some, all, or more than is held
		held := s.held(sym)
		qty := decimal.Zero
		switch r.IntN(4) {
		case 1: // small enough to pass max-order-value, when held
			qty = lots(12)
		case 2, 3: // any size up to half as much again as is held
			qty = lots(held.Mul(decimal.NewFromFloat(1.5)).IntPart() + 2)
		}
		if held.IsZero() && qty.IsZero() {
			return false
		}
		op = git.Operation{Action: git.ClosePosition, Contract: &c, Quantity: qty}
		if _, err := s.u.Stage(ctx, op); err != nil {
			s.closeRefused++
			if qty.GreaterThan(held) {
				require.ErrorContains(s.t, err, qty.String())
				require.ErrorContains(s.t, err, held.String())
				return false
			}
			// worth more than max-order-value: the refusal proposes parts,
			// which the model then stages as an agent following it would
			require.ErrorContains(s.t, err, "above max-order-value 5000: nothing was staged", "step %d: close %s of %s %s", step, qty, held, sym)
			m := partRe.FindStringSubmatch(err.Error())
			require.Len(s.t, m, 2, err.Error())
			part := decimal.RequireFromString(m[1])
			require.False(s.t, part.Mul(q.Bid).GreaterThan(s.maxValue), "step %d: proposed part %s × bid %s exceeds the limit", step, part, q.Bid)
			s.closeSplit++
			_, err = s.u.Stage(ctx, git.Operation{Action: git.ClosePosition, Contract: &c, Quantity: part})
			return err == nil
		}
		require.False(s.t, qty.GreaterThan(held), "step %d: close of %s %s staged with only %s held", step, qty, sym, held)
		return true
	default: // cancel a resting order
		rest := s.resting()
		if len(rest) == 0 {
			return false
		}
		o := rest[r.IntN(len(rest))]
		op = git.Operation{Action: git.CancelOrder, OrderID: o.Order.OrderID, SymbolHint: o.Contract.Symbol}
	}
	_, err = s.u.Stage(ctx, op)
	return err == nil
}

// push commits what is staged and pushes it, asserting no executed
// operation (a close included) exceeds max-order-value.
func (s *restingModel) push(step int) {
	ctx := context.Background()
	out, err := s.m.Commit("model", fmt.Sprintf("step %d", step))
	require.NoError(s.t, err)
	res, err := s.m.Push(ctx, "model", out[0].Hash)
	require.NoError(s.t, err)
	s.pushes++
	s.guarded += len(res.Rejected)
	for _, sub := range res.Submitted {
		if sub.Action == git.ClosePosition && sub.FilledQty.IsPositive() {
			s.closes++
		}
		value := sub.FilledQty.Mul(sub.FilledPrice)
		require.False(s.t, value.GreaterThan(s.maxValue), "step %d: %s executed %s × %s = %s > max-order-value %s",
			step, sub.Action, sub.FilledQty, sub.FilledPrice, value, s.maxValue)
	}
}

// fillSome lets the market reach some resting orders: each fills whole at
// its limit, and no fill may exceed max-order-value.
func (s *restingModel) fillSome(step int) {
	for _, o := range s.resting() {
		if s.r.IntN(3) != 0 {
			continue
		}
		rest := o.Order.TotalQuantity.Sub(o.FilledQty)
		_, err := s.u.Sim().FillOrder(o.Order.OrderID, rest, o.Order.LmtPrice)
		require.NoError(s.t, err)
		s.fills++
		value := rest.Mul(o.Order.LmtPrice)
		require.False(s.t, value.GreaterThan(s.maxValue), "step %d: resting order %s filled %s > max-order-value %s",
			step, o.Order.OrderID, value, s.maxValue)
	}
}

// TestOrderModelRestingAndCloses generates resting limit buys, market
// buys, modifications, cancels and closePosition (some, all, more than
// held) across many commits, and lets the market fill resting orders
// between pushes. After every push and every round of fills: no symbol's
// position plus its resting buys exceeds max-position-size (so no later
// fill can breach it), no executed operation — closes included — exceeds
// max-order-value, and a close larger than the position is refused at
// staging naming both numbers.
func TestOrderModelRestingAndCloses(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.writeAccounts(t, config.Accounts{{ID: "model", Preset: "simulator", Enabled: true, AutoApprove: true,
		Guards: []config.Guard{{Type: "max-order-value", Options: map[string]any{"maxValue": "5000"}},
			{Type: "max-position-size", Options: map[string]any{"maxPercentOfEquity": 25}}},
		PresetConfig: []byte(`{"cash":"100000","seed":7}`)}})
	m := e.start(t)
	u, err := m.Get("model")
	require.NoError(t, err)
	require.NoError(t, u.Sim().SetMarkPrice("AAPL", decimal.NewFromInt(199)))
	require.NoError(t, u.Sim().SetMarkPrice("MSFT", decimal.NewFromInt(370)))
	s := &restingModel{t: t, m: m, u: u, r: rand.New(rand.NewPCG(22, 15)),
		maxValue: decimal.NewFromInt(5000), maxPct: decimal.NewFromInt(25)}
	tol := decimal.RequireFromString("0.3")
	for step := 0; step < 90; step++ {
		staged := 0
		for k := 1 + s.r.IntN(3); k > 0; k-- {
			if s.stageOne(step) {
				staged++
			}
		}
		if len(u.Git().Status().Staged) == 0 {
			continue
		}
		s.push(step)
		s.checkExposure(fmt.Sprintf("after push %d", step), tol)
		if step%2 == 1 {
			s.fillSome(step)
			s.checkExposure(fmt.Sprintf("after fills %d", step), tol)
		}
	}
	t.Logf("%d pushes, %d operations stopped by a guard, %d resting fills, %d closes executed, %d closes refused at staging (%d too large: staged as the proposed part)",
		s.pushes, s.guarded, s.fills, s.closes, s.closeRefused, s.closeSplit)
	require.Greater(t, s.pushes, 50)
	require.Greater(t, s.guarded, 10, "the generator must press against the guards")
	require.Greater(t, s.fills, 10)
	require.Greater(t, s.closes, 3)
	require.Greater(t, s.closeRefused, 3)
	require.Greater(t, s.closeSplit, 2, "closes above max-order-value must be generated")
}
