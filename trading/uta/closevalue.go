package uta

import (
	"context"
	"fmt"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"

	"github.com/shopspring/decimal"
)

// checkCloseValue refuses, at staging, a close that max-order-value would
// refuse at push at the current quote: a close is one market order of
// its quantity, and alice never splits or shrinks it on its own. The
// message says how large a part the guard allows and how many parts the
// close takes, so the agent (or person) can stage the parts explicitly —
// each its own order, each checked by the guards again at push, and each
// shown to the person approving. The push-time guard stays the judge: a
// part the market pushes over the limit before the push is refused there.
func (u *UTA) checkCloseValue(ctx context.Context, op git.Operation) error {
	if !u.guards.Has("max-order-value") {
		return nil
	}
	gc, err := u.guardContext(ctx, op)
	if err != nil {
		return fmt.Errorf("cannot check the close against max-order-value: %w", err)
	}
	if gc.Order == nil {
		return nil // no position: the broker refuses the close, nothing to value
	}
	for _, v := range u.guards.Assess(ctx, gc) {
		if v.Guard != "max-order-value" || v.Reject == "" {
			continue
		}
		if !v.Value.IsPositive() { // could not be valued: the push refuses it too
			return fmt.Errorf("closePosition %s: %s; nothing was staged", op.Contract.Symbol, v.Reject)
		}
		return u.closeTooLarge(ctx, op, gc.Order.TotalQuantity, v.Value, v.Limit)
	}
	return nil
}

// closeTooLarge is the refusal of a close worth value > limit.
func (u *UTA) closeTooLarge(ctx context.Context, op git.Operation, qty, value, limit decimal.Decimal) error {
	sym := op.Contract.Symbol
	price := value.Div(qty)
	step := trading.QuantityStep(qty)
	if d, err := u.details(ctx, *op.Contract); err == nil {
		step = d.LotStep()
	}
	what := fmt.Sprintf("closing %s %s is one order worth about %s at the current price, above max-order-value %s: nothing was staged",
		qty, sym, value.StringFixed(2), limit)
	part := trading.FitQuantity(limit, price, step)
	if !part.IsPositive() {
		return fmt.Errorf("%s. Not even one lot (%s %s ≈ %s) fits within the guard, so this position cannot be closed through alice "+
			"while max-order-value is %s: a person can raise it (Settings → Accounts → guards) or close the position at the venue",
			what, step, sym, step.Mul(price).StringFixed(2), limit)
	}
	parts := qty.Div(part).Ceil()
	return fmt.Errorf("%s. The guard allows at most %s %s per order at this price: close it in %s parts — closePosition with qty %q "+
		"for each (the last one smaller), one commit or several; each part is its own order, shown to the person approving and "+
		"checked by the guards again at push (a part the price has pushed over the limit by then is refused). Or a person raises max-order-value",
		what, part, sym, parts, part.String())
}
