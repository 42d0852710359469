package guard

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"

	"github.com/shopspring/decimal"
)

var hundred = decimal.NewFromInt(100)

// maxPositionSize caps a position's share of equity, counted as the
// exposure an order could leave in its direction: the position now, plus
// every resting order of the same symbol and side (they may still fill),
// plus this order. A buy is judged against the long side, a sell (or a
// close) against the short side, so a sell that opens or grows a short
// is judged like a buy; an order that only reduces a position passes.
type maxPositionSize struct{ maxPct decimal.Decimal }

func newMaxPositionSize(opts map[string]any) (Guard, error) {
	if err := knownOptions(opts, "maxPercentOfEquity"); err != nil {
		return nil, err
	}
	pct, err := bounded("max-position-size", opts, "maxPercentOfEquity", decimal.NewFromInt(25))
	return &maxPositionSize{maxPct: pct}, err
}

func (g *maxPositionSize) Type() string { return "max-position-size" }

func (g *maxPositionSize) Assess(ctx context.Context, gc Context) Verdict {
	v := Verdict{Guard: g.Type(), Measure: "position", Limit: g.maxPct, Unit: "% of equity"}
	o, c, ok := gc.Executes()
	if !ok {
		return v
	}
	v.Applies = true
	added, err := gc.Notional(ctx)
	if err != nil {
		v.Reject = err.Error()
		return v
	}
	resting, err := gc.restingValue(ctx, c.Symbol, o.Action)
	if err != nil {
		v.Reject = err.Error()
		return v
	}
	held := gc.heldValue(c.Symbol, o.Action)
	after := held.Add(resting).Add(added)
	equity := gc.Account.NetLiquidation
	if !after.IsPositive() {
		// Only reduces the position on the other side: say by how much
		// (this order alone; the decision counts resting orders too).
		v.Measure = "reduces the position:"
		if equity.IsPositive() {
			from := held.Neg().Div(equity).Mul(hundred).Round(1)
			v.From, v.Value = &from, held.Add(added).Neg().Div(equity).Mul(hundred).Round(1)
		} else {
			v.Limit = decimal.Zero // no share to show: "max-position-size: ok"
		}
		return v
	}
	if !equity.IsPositive() {
		v.Reject = "account equity is not positive; no position fits within a share of it"
		return v
	}
	if o.Action == trading.Sell {
		v.Measure = "short position"
	}
	if resting.IsPositive() {
		v.Measure += " (with resting orders)"
	}
	from := decimal.Max(held, decimal.Zero).Div(equity).Mul(hundred).Round(1)
	pct := after.Div(equity).Mul(hundred)
	v.From, v.Value = &from, pct.Round(1)
	if pct.GreaterThan(g.maxPct) {
		side := "Position"
		if o.Action == trading.Sell {
			side = "Short position"
		}
		v.Reject = fmt.Sprintf("%s for %s would be %s%% of equity (limit: %s%%)", side, c.Symbol, pct.StringFixed(1), g.maxPct)
		if resting.IsPositive() {
			v.Reject += fmt.Sprintf(", counting %s of resting %s orders", resting.StringFixed(2), strings.ToLower(string(o.Action)))
		}
	}
	return v
}

// heldValue is the position's market value signed for the side: positive
// when the position is in that direction (long for a buy, short for a
// sell), negative when it is the other way.
func (gc Context) heldValue(sym string, side trading.Action) decimal.Decimal {
	total := decimal.Zero
	for _, p := range gc.Positions {
		if !strings.EqualFold(p.Contract.Symbol, sym) {
			continue
		}
		mv := p.MarketValue.Abs()
		if p.Side == trading.Short {
			mv = mv.Neg()
		}
		total = total.Add(mv)
	}
	if side == trading.Sell {
		return total.Neg()
	}
	return total
}

// restingValue values the resting orders of one symbol and side: their
// remaining quantity at the price they can fill at (trading.Order.Notional).
func (gc Context) restingValue(ctx context.Context, sym string, side trading.Action) (decimal.Decimal, error) {
	total := decimal.Zero
	for _, r := range gc.Resting {
		if !r.Status.Pending() || r.Order.Action != side || !strings.EqualFold(r.Contract.Symbol, sym) {
			continue
		}
		o := r.Order
		if o.CashQty.IsPositive() {
			o.CashQty = o.CashQty.Sub(r.FilledQty.Mul(r.AvgFillPrice))
			if !o.CashQty.IsPositive() {
				continue
			}
		} else {
			o.TotalQuantity = o.TotalQuantity.Sub(r.FilledQty)
			if !o.TotalQuantity.IsPositive() {
				continue
			}
		}
		var q trading.Quote
		var qerr error
		if gc.Quote != nil && o.CashQty.IsZero() {
			q, qerr = gc.Quote(ctx, r.Contract)
		}
		v := o.Notional(q)
		if !v.IsPositive() {
			if qerr == nil {
				qerr = fmt.Errorf("no price")
			}
			return decimal.Zero, fmt.Errorf("cannot value resting order %s for %s: %v", o.OrderID, sym, qerr)
		}
		total = total.Add(v)
	}
	return total, nil
}

func (g *maxPositionSize) Check(ctx context.Context, gc Context) string {
	return g.Assess(ctx, gc).Reject
}

// cooldown spaces orders in the same symbol: an order is refused until
// minIntervalMs after the last order in its symbol that executed (was
// submitted to or filled at the broker). Judging records nothing; the
// pipeline's Executed arms it, so an order another guard or the broker
// refused never starts a cooldown. The times live in the account's guard
// State, persisted, so a restart or a config reload keeps them.
type cooldown struct {
	interval time.Duration
	st       *State
}

func newCooldown(opts map[string]any) (Guard, error) {
	if err := knownOptions(opts, "minIntervalMs"); err != nil {
		return nil, err
	}
	ms, err := bounded("cooldown", opts, "minIntervalMs", decimal.NewFromInt(60000))
	return &cooldown{interval: time.Duration(ms.IntPart()) * time.Millisecond, st: NewMemoryState()}, err
}

func (g *cooldown) Type() string { return "cooldown" }

func (g *cooldown) attach(st *State) { g.st = st }

func (g *cooldown) Assess(_ context.Context, gc Context) Verdict {
	v := Verdict{Guard: g.Type(), Measure: "last order", Limit: decimal.NewFromInt(int64(g.interval / time.Second)), Unit: "s ago"}
	if gc.Op.Action != git.PlaceOrder {
		return v
	}
	v.Applies = true
	sym := strings.ToUpper(gc.Op.Symbol())
	r, ok := g.st.get(g.Type(), sym)
	if !ok {
		v.Limit, v.Unit = decimal.Zero, ""
		return v
	}
	since := gc.Now.Sub(r.Time)
	v.Value = decimal.NewFromInt(int64(since / time.Second))
	if left := g.interval - since; left > 0 {
		v.Reject = fmt.Sprintf("Cooldown active for %s: %ds remaining", sym, int((left+time.Second-1)/time.Second))
	}
	return v
}

func (g *cooldown) Check(ctx context.Context, gc Context) string { return g.Assess(ctx, gc).Reject }

// executed arms the cooldown for the symbol of a placeOrder that executed.
func (g *cooldown) executed(gc Context, at time.Time) error {
	if gc.Op.Action != git.PlaceOrder {
		return nil
	}
	return g.st.put(stateRecord{Guard: g.Type(), Key: strings.ToUpper(gc.Op.Symbol()), Time: at})
}

// symbolWhitelist allows only listed symbols.
type symbolWhitelist struct{ allowed map[string]bool }

func newSymbolWhitelist(opts map[string]any) (Guard, error) {
	if err := knownOptions(opts, "symbols"); err != nil {
		return nil, err
	}
	raw, _ := opts["symbols"].([]any)
	g := &symbolWhitelist{allowed: map[string]bool{}}
	for _, v := range raw {
		s, ok := v.(string)
		if !ok || strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("option symbols: every entry must be a non-empty string")
		}
		g.allowed[strings.ToUpper(strings.TrimSpace(s))] = true
	}
	if len(g.allowed) == 0 {
		return nil, fmt.Errorf("option symbols: a non-empty list of symbols is required")
	}
	return g, nil
}

func (g *symbolWhitelist) Type() string { return "symbol-whitelist" }

func (g *symbolWhitelist) Assess(_ context.Context, gc Context) Verdict {
	v := Verdict{Guard: g.Type()}
	sym := gc.Op.Symbol()
	if sym == "unknown" {
		return v
	}
	v.Applies = true
	if !g.allowed[strings.ToUpper(sym)] {
		v.Reject = fmt.Sprintf("Symbol %s is not in the whitelist", sym)
	}
	return v
}

func (g *symbolWhitelist) Check(ctx context.Context, gc Context) string {
	return g.Assess(ctx, gc).Reject
}

// maxOrderValue caps a single order's notional value: what will execute,
// valued by trading.Order.Notional.
type maxOrderValue struct{ max decimal.Decimal }

func newMaxOrderValue(opts map[string]any) (Guard, error) {
	if err := knownOptions(opts, "maxValue"); err != nil {
		return nil, err
	}
	if v, ok := opts["maxValue"]; !ok || v == nil {
		return nil, fmt.Errorf("option maxValue is required (a positive number; null is not one)")
	}
	v, err := bounded("max-order-value", opts, "maxValue", decimal.Zero)
	return &maxOrderValue{max: v}, err
}

func (g *maxOrderValue) Type() string { return "max-order-value" }

func (g *maxOrderValue) Assess(ctx context.Context, gc Context) Verdict {
	v := Verdict{Guard: g.Type(), Measure: "order value", Limit: g.max}
	_, c, ok := gc.Executes()
	if !ok {
		return v
	}
	v.Applies = true
	value, err := gc.Notional(ctx)
	if err != nil {
		v.Reject = err.Error()
		return v
	}
	v.Value = value
	if value.GreaterThan(g.max) {
		v.Reject = fmt.Sprintf("Order value %s for %s exceeds the limit %s%s", value.StringFixed(2), c.Symbol, g.max, fitHint(gc, value, g.max))
	}
	return v
}

// fitHint says what would fit within the limit: a smaller cash amount, or
// the largest quantity (in the order's own precision) at the price the
// order was valued at.
func fitHint(gc Context, value, limit decimal.Decimal) string {
	o, c, _ := gc.Executes()
	if o.CashQty.IsPositive() {
		return fmt.Sprintf("; a cashQty of at most %s fits", limit)
	}
	if !o.TotalQuantity.IsPositive() {
		return ""
	}
	price := value.Div(o.TotalQuantity)
	fit := trading.FitQuantity(limit, price, trading.QuantityStep(o.TotalQuantity))
	if !fit.IsPositive() {
		return fmt.Sprintf("; not even %s %s fits at this price", trading.QuantityStep(o.TotalQuantity), c.Symbol)
	}
	if gc.Op.Action == git.ModifyOrder {
		return fmt.Sprintf("; at this price at most %s %s (still to fill) fit", fit, c.Symbol)
	}
	return fmt.Sprintf("; at this price at most %s %s fit in one order (split it into orders of at most %s, each checked again)", fit, c.Symbol, fit)
}

func (g *maxOrderValue) Check(ctx context.Context, gc Context) string {
	return g.Assess(ctx, gc).Reject
}

// dailyLoss blocks new buys once today's equity drop (start-of-day net
// liquidation minus now: realized and unrealized) reaches the limit;
// closing and cancelling stay allowed so risk can always be reduced.
type dailyLoss struct {
	maxLoss, maxPct decimal.Decimal
	st              *State
}

func newDailyLoss(opts map[string]any) (Guard, error) {
	if err := knownOptions(opts, "maxLoss", "maxLossPercent"); err != nil {
		return nil, err
	}
	g := &dailyLoss{st: NewMemoryState()}
	var err error
	if g.maxLoss, err = bounded("daily-loss", opts, "maxLoss", decimal.Zero); err != nil {
		return nil, err
	}
	if g.maxPct, err = bounded("daily-loss", opts, "maxLossPercent", decimal.Zero); err != nil {
		return nil, err
	}
	if g.maxLoss.IsZero() && g.maxPct.IsZero() {
		return nil, fmt.Errorf("set maxLoss (amount) or maxLossPercent")
	}
	return g, nil
}

func (g *dailyLoss) Type() string { return "daily-loss" }

func (g *dailyLoss) attach(st *State) { g.st = st }

// base is today's starting equity: the earliest equity known today,
// either the day's first snapshot (DayStartEquity, taken at DayStartAt)
// or the equity this guard saw at its first check today, before that
// operation executed (recorded, persisted, by Check only). Preferring the
// snapshot alone undercounted: when the day's first snapshot was the one
// taken after the day's first trade, that trade's cost (spread, fees) was
// already out of the baseline.
func (g *dailyLoss) base(gc Context, record bool) decimal.Decimal {
	day := gc.Now.UTC().Format(time.DateOnly)
	own, ok := g.st.get(g.Type(), day)
	if !ok && record && gc.Account.NetLiquidation.IsPositive() {
		own, _ = g.st.putIfAbsent(stateRecord{Guard: g.Type(), Key: day, Time: gc.Now, Value: gc.Account.NetLiquidation})
		ok = true
	}
	if gc.DayStartEquity.IsPositive() && (!ok || gc.DayStartAt.IsZero() || !gc.DayStartAt.After(own.Time)) {
		return gc.DayStartEquity
	}
	if ok {
		return own.Value
	}
	return gc.Account.NetLiquidation
}

func (g *dailyLoss) assess(gc Context, record bool) Verdict {
	v := Verdict{Guard: g.Type(), Measure: "lost today"}
	base := g.base(gc, record)
	o, _, ok := gc.Executes()
	if !ok || o.Action != trading.Buy || gc.Op.Action == git.ClosePosition || !base.IsPositive() {
		return v
	}
	v.Applies = true
	loss := decimal.Max(base.Sub(gc.Account.NetLiquidation), decimal.Zero)
	pct := loss.Div(base).Mul(hundred)
	if g.maxLoss.IsPositive() {
		v.Value, v.Limit = loss, g.maxLoss
	} else {
		v.Value, v.Limit, v.Unit = pct.Round(2), g.maxPct, "% of the day's starting equity"
	}
	if !loss.IsPositive() {
		return v
	}
	if g.maxLoss.IsPositive() && loss.GreaterThanOrEqual(g.maxLoss) {
		v.Reject = fmt.Sprintf("Daily loss %s reached the limit %s; only closing trades are allowed today", loss.StringFixed(2), g.maxLoss)
		return v
	}
	if g.maxPct.IsPositive() && pct.GreaterThanOrEqual(g.maxPct) {
		v.Value, v.Limit, v.Unit = pct.Round(2), g.maxPct, "% of the day's starting equity"
		v.Reject = fmt.Sprintf("Daily loss %s%% reached the limit %s%%; only closing trades are allowed today", pct.StringFixed(2), g.maxPct)
	}
	return v
}

func (g *dailyLoss) Assess(_ context.Context, gc Context) Verdict { return g.assess(gc, false) }

func (g *dailyLoss) Check(_ context.Context, gc Context) string { return g.assess(gc, true).Reject }
