package uta

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
	"github.com/alice-trading/alice/trading/git"

	"github.com/shopspring/decimal"
)

// ErrReadOnly is wrapped by the refusal to stage on a readOnly account.
var ErrReadOnly = errors.New("read-only account")

// Stage validates an operation once, against the one order model, the
// instrument and the venue, and stages it. It is the only way the tools
// (and through them the TUI, Telegram and chat) stage anything, so what a
// guard values and what a broker receives is the order checked here:
//
//   - a readOnly account refuses every operation, saying why;
//   - an order names exactly one of quantity and cash, within bounds;
//   - its quantity is a whole number of the instrument's lots and its
//     prices sit on the tick grid (details from the broker);
//   - the venue accepts its type, time in force, cash amount, hours and
//     attached legs for the instrument's asset class; an order with no time
//     in force gets the venue's default and the result says so.
func (u *UTA) Stage(ctx context.Context, op git.Operation) (git.StageResult, error) {
	if u.cfg.ReadOnly {
		return git.StageResult{}, fmt.Errorf("account %s is read-only (readOnly: true in accounts.json), so it never stages orders: %w", u.cfg.ID, ErrReadOnly)
	}
	if u.gate != nil {
		if err := u.gate(ctx); err != nil {
			return git.StageResult{}, err
		}
	}
	if err := u.git.Frozen(); err != nil { // before asking the venue anything
		return git.StageResult{}, err
	}
	var notes []string
	switch op.Action {
	case git.PlaceOrder:
		if op.Contract == nil || op.Order == nil {
			return git.StageResult{}, op.Validate()
		}
		o := *op.Order
		d, err := u.details(ctx, *op.Contract)
		if err != nil {
			return git.StageResult{}, err
		}
		caps := u.broker.Capabilities()
		class := d.Contract.AssetClass
		if class == "" {
			class = op.Contract.AssetClass
		}
		if o.TIF == "" {
			cc, ok := caps.For(class)
			if !ok {
				return git.StageResult{}, caps.Check(class, o, op.TPSL)
			}
			o.TIF = cc.DefaultTIF
			notes = append(notes, fmt.Sprintf("tif was not given: %s's default for %s, %s, is used (it is in the approval text)", caps.Venue, cc.Class, o.TIF))
		}
		if err := o.Validate(); err != nil {
			return git.StageResult{}, err
		}
		if err := caps.Check(class, o, op.TPSL); err != nil {
			return git.StageResult{}, err
		}
		if err := o.ValidateFor(*d); err != nil {
			return git.StageResult{}, err
		}
		if err := checkLegs(op.TPSL, *d); err != nil {
			return git.StageResult{}, err
		}
		if err := u.checkNew(ctx, o); err != nil {
			return git.StageResult{}, err
		}
		op.Order = &o
	case git.ModifyOrder:
		if op.Changes == nil {
			return git.StageResult{}, op.Validate()
		}
		if err := u.checkModify(ctx, op); err != nil {
			return git.StageResult{}, err
		}
	case git.CancelOrder:
		if _, err := u.openOrder(ctx, op.OrderID); err != nil {
			return git.StageResult{}, err
		}
	case git.ClosePosition:
		if op.Contract != nil && op.Quantity.IsPositive() {
			if op.Quantity.GreaterThan(trading.MaxQuantity) {
				return git.StageResult{}, fmt.Errorf("qty: %s is above the limit %s", op.Quantity, trading.MaxQuantity)
			}
			d, err := u.details(ctx, *op.Contract)
			if err != nil {
				return git.StageResult{}, err
			}
			if err := d.CheckQuantity("qty", op.Quantity); err != nil {
				return git.StageResult{}, err
			}
			pos, err := u.broker.Positions(ctx)
			u.observe(err)
			if err != nil {
				return git.StageResult{}, fmt.Errorf("cannot check the close against the position: %w", err)
			}
			if held, _ := heldQuantity(pos, op.Contract.Symbol); op.Quantity.GreaterThan(held) {
				return git.StageResult{}, fmt.Errorf("qty: closing %s %s is more than the %s held; a close never opens the other side (place an order for that)", op.Quantity, op.Contract.Symbol, held)
			}
		}
		if op.Contract != nil {
			if err := u.checkCloseValue(ctx, op); err != nil {
				return git.StageResult{}, err
			}
		}
	}
	res, err := u.git.Stage(op)
	if err != nil {
		return res, err
	}
	if res.Note != "" {
		notes = append(notes, res.Note)
	}
	res.Note = strings.Join(notes, "; ")
	return res, nil
}

// checkNew applies the order model's checks against what rests at the
// broker (trading.Order.CheckNew): an OCA group in use there is refused.
// When the broker cannot list its orders an OCA order is refused, since
// nothing could be checked.
func (u *UTA) checkNew(ctx context.Context, o trading.Order) error {
	if o.OCAGroup == "" {
		return o.CheckNew(nil)
	}
	if err := o.CheckNew(nil); err != nil { // the name itself, before asking the venue
		return err
	}
	open, err := u.broker.Orders(ctx, nil)
	u.observe(err)
	if err != nil {
		return fmt.Errorf("ocaGroup: cannot check the group against %s's orders: %w; nothing was staged", u.broker.Capabilities().Venue, err)
	}
	return o.CheckNew(open)
}

// details reads the instrument's specification from the broker; staging
// is refused when it cannot be read, since nothing could be checked.
func (u *UTA) details(ctx context.Context, c trading.Contract) (*trading.ContractDetails, error) {
	d, err := u.broker.ContractDetails(ctx, c)
	u.observe(err)
	if err != nil {
		return nil, fmt.Errorf("cannot check the order against %s's specification: %w", c.Symbol, err)
	}
	if d == nil {
		return nil, fmt.Errorf("cannot check the order: %s has no specification for %s", u.broker.Capabilities().Venue, c.Symbol)
	}
	return d, nil
}

// checkLegs bounds take-profit / stop-loss prices and puts them on the
// tick grid too.
func checkLegs(t *trading.TPSL, d trading.ContractDetails) error {
	if t == nil {
		return nil
	}
	type price struct {
		name string
		v    decimal.Decimal
	}
	var ps []price
	if l := t.TakeProfit; l != nil {
		ps = append(ps, price{"takeProfit.price", l.Price}, price{"takeProfit.limitPrice", l.LimitPrice})
	}
	if l := t.StopLoss; l != nil {
		ps = append(ps, price{"stopLoss.price", l.Price}, price{"stopLoss.limitPrice", l.LimitPrice})
	}
	for _, p := range ps {
		switch {
		case p.v.IsZero():
		case p.v.GreaterThan(trading.MaxPrice):
			return fmt.Errorf("%s: %s is above the limit %s", p.name, p.v, trading.MaxPrice)
		case d.MinTick.IsPositive() && !p.v.Mod(d.MinTick).IsZero():
			return fmt.Errorf("%s: %s is not a multiple of %s's tick size %s", p.name, p.v, d.Contract.Symbol, d.MinTick)
		}
	}
	return nil
}

// checkModify validates a modification as the order it produces: the
// changed order must pass the same checks a new order does.
func (u *UTA) checkModify(ctx context.Context, op git.Operation) error {
	ch := *op.Changes
	if err := ch.Validate(); err != nil {
		return err
	}
	probe := trading.Order{Action: trading.Buy, OrderType: trading.Limit, TotalQuantity: ch.TotalQuantity,
		LmtPrice: ch.LmtPrice, AuxPrice: ch.AuxPrice, TrailStopPrice: ch.TrailStopPrice, TrailingPercent: ch.TrailingPercent}
	if probe.TotalQuantity.IsZero() {
		probe.TotalQuantity = trading.MaxQuantity
	}
	if probe.LmtPrice.IsZero() {
		probe.LmtPrice = trading.MaxPrice
	}
	if err := probe.Validate(); err != nil {
		return err
	}
	open, err := u.openOrder(ctx, op.OrderID)
	if err != nil || open == nil {
		return err // nil: the venue could not say now; the push asks again
	}
	next := ch.Apply(open.Order)
	if err := next.Validate(); err != nil {
		return fmt.Errorf("order %s after this change: %w", op.OrderID, err)
	}
	caps := u.broker.Capabilities()
	if err := caps.CheckChanges(open.Contract.AssetClass, ch); err != nil {
		return err
	}
	if d, err := u.broker.ContractDetails(ctx, open.Contract); err == nil && d != nil {
		if err := next.ValidateFor(*d); err != nil {
			return fmt.Errorf("order %s after this change: %w", op.OrderID, err)
		}
	}
	return nil
}

// openOrder reads an order a modify or cancel names. An order the venue
// does not know, or one that no longer rests, is refused at staging;
// when the venue cannot answer now (nil, nil) the push asks again.
func (u *UTA) openOrder(ctx context.Context, id string) (*trading.OpenOrder, error) {
	o, err := u.broker.Order(ctx, id)
	u.observe(err)
	switch {
	case broker.CodeOf(err) == broker.CodeNotFound:
		return nil, fmt.Errorf("order %q: %s has no such order (see getOrders); nothing was staged", id, u.broker.Capabilities().Venue)
	case err != nil || o == nil:
		return nil, nil
	case !o.Status.Pending():
		return nil, fmt.Errorf("order %q is already %s, so it can no longer be changed or cancelled (see getOrders); nothing was staged", id, o.Status)
	}
	return o, nil
}
