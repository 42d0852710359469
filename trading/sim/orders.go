package sim

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"

	"github.com/shopspring/decimal"
)

func rejectErr(format string, args ...any) error {
	return broker.Errorf(broker.CodeExchange, format, args...)
}

// PlaceOrder accepts an order. MKT and MOC fill at once at the ask (buy)
// or bid (sell); other
// supported types rest until the mark crosses their price (a marketable
// limit fills immediately). A repeated ClientOrderID returns the original
// order instead of submitting twice.
func (b *Broker) PlaceOrder(_ context.Context, c trading.Contract, o trading.Order, tpsl *trading.TPSL) (trading.OrderResult, error) {
	if err := o.Validate(); err != nil {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "invalid order: %v", err)
	}
	in, err := b.lookup(c.Symbol)
	if err != nil {
		return trading.OrderResult{}, err
	}
	d := detailsOf(b.contractFor(in), in)
	if o.TIF == "" { // direct callers (tests, closes); staging always names one
		if cc, ok := b.Capabilities().For(d.Contract.AssetClass); ok {
			o.TIF = cc.DefaultTIF
		}
	}
	if err := b.Capabilities().Check(d.Contract.AssetClass, o, tpsl); err != nil {
		return trading.OrderResult{}, rejectErr("%v", err)
	}
	if err := o.ValidateFor(*d); err != nil {
		return trading.OrderResult{}, rejectErr("%v", err)
	}
	b.mu.Lock()
	res, fills, err := b.placeLocked(d, o, tpsl)
	b.saveLocked()
	b.mu.Unlock()
	b.emit(fills)
	return res, err
}

func (b *Broker) placeLocked(d *trading.ContractDetails, o trading.Order, tpsl *trading.TPSL) (trading.OrderResult, []Fill, error) {
	c := d.Contract
	if o.ClientOrderID != "" {
		for _, id := range b.st.OrderIDs {
			if ex := b.st.Orders[id]; ex.Order.ClientOrderID == o.ClientOrderID {
				return resultOf(ex), nil, nil
			}
		}
	}
	mark, err := b.marketPriceLocked(c.Symbol, o.Action)
	if err != nil {
		return trading.OrderResult{}, nil, err
	}
	if o.TotalQuantity.IsZero() {
		// a cash order buys (or sells) whole lots at the highest price it
		// can fill at — the same valuation the guards use — so what it
		// executes never exceeds its cash
		q := b.quoteLocked(c.Symbol, b.opts.Now())
		px := o.FillPrice(trading.Quote{Last: q.Last, Bid: q.Bid, Ask: q.Ask})
		if !px.IsPositive() {
			px = mark
		}
		lot := d.LotStep()
		o.TotalQuantity = o.CashQty.Div(px).Div(lot).Floor().Mul(lot)
		if !o.TotalQuantity.IsPositive() || (d.MinQty.IsPositive() && o.TotalQuantity.LessThan(d.MinQty)) {
			return trading.OrderResult{}, nil, rejectErr("cashQty %s buys less than one unit at %s", o.CashQty, px)
		}
	}
	if o.Action == trading.Sell {
		avail := b.heldLocked(c.Symbol).Sub(b.reservedSellLocked(c.Symbol, ""))
		if o.TotalQuantity.GreaterThan(avail) {
			return trading.OrderResult{}, nil, rejectErr("insufficient position: sell %s %s but only %s available (short selling is not supported)",
				o.TotalQuantity, c.Symbol, avail)
		}
	}
	b.pruneLocked()
	b.st.NextID++
	o.OrderID = fmt.Sprintf("sim-ord-%d", b.st.NextID)
	now := b.opts.Now()
	oo := &trading.OpenOrder{Contract: c, Order: o, Status: trading.StatusSubmitted, TPSL: tpsl, CreatedAt: now, UpdatedAt: now}
	b.st.Orders[o.OrderID] = oo
	b.st.OrderIDs = append(b.st.OrderIDs, o.OrderID)
	var fills []Fill
	if o.OrderType == trading.Market || o.OrderType == trading.MarketOnClose {
		f, err := b.fillLocked(oo, o.TotalQuantity, mark)
		if err != nil {
			oo.Status, oo.RejectReason = trading.StatusRejected, err.Error()
			return trading.OrderResult{}, nil, err
		}
		fills = append(fills, f...)
	} else {
		fills = b.matchLocked()
		if oo.Order.TIF == trading.IOC && oo.Status.Pending() {
			oo.Status, oo.RejectReason, oo.UpdatedAt = trading.StatusCancelled, "IOC: the unfilled rest was cancelled", now
		}
	}
	return resultOf(oo), fills, nil
}

// expired reports whether a DAY order placed at created has outlived its
// day: the simulated market trades around the clock, so its session is the
// UTC calendar day.
func expired(created, now time.Time) bool {
	y1, m1, d1 := created.UTC().Date()
	y2, m2, d2 := now.UTC().Date()
	return y1 != y2 || m1 != m2 || d1 != d2
}

func resultOf(o *trading.OpenOrder) trading.OrderResult {
	return trading.OrderResult{OrderID: o.Order.OrderID, Status: o.Status, FilledQty: o.FilledQty, FilledPrice: o.AvgFillPrice}
}

func (b *Broker) heldLocked(sym string) decimal.Decimal {
	if p, ok := b.st.Positions[strings.ToUpper(sym)]; ok {
		return p.Quantity
	}
	return decimal.Zero
}

// reservedSellLocked is the unfilled quantity of resting sells, so two
// limit sells cannot together exceed the position.
func (b *Broker) reservedSellLocked(sym, except string) decimal.Decimal {
	total := decimal.Zero
	for _, id := range b.st.OrderIDs {
		o := b.st.Orders[id]
		if id != except && o.Status.Pending() && o.Order.Action == trading.Sell && o.Contract.Symbol == sym {
			total = total.Add(o.Order.TotalQuantity.Sub(o.FilledQty))
		}
	}
	return total
}

// fillLocked executes qty of o at price, moving cash and the position.
func (b *Broker) fillLocked(o *trading.OpenOrder, qty, price decimal.Decimal) ([]Fill, error) {
	sym := o.Contract.Symbol
	remaining := o.Order.TotalQuantity.Sub(o.FilledQty)
	if !qty.IsPositive() || qty.GreaterThan(remaining) {
		return nil, rejectErr("fill quantity %s outside (0, %s]", qty, remaining)
	}
	if !price.IsPositive() {
		return nil, rejectErr("fill price must be > 0")
	}
	value := qty.Mul(price)
	p := b.st.Positions[sym]
	switch o.Order.Action {
	case trading.Buy:
		if b.margined() {
			if err := b.checkMarginLocked(value); err != nil {
				return nil, err
			}
		} else if value.GreaterThan(b.st.Cash) {
			return nil, rejectErr("insufficient cash: need %s, have %s", value.StringFixed(2), b.st.Cash.StringFixed(2))
		}
		b.st.Cash = b.st.Cash.Sub(value)
		if p == nil {
			p = &position{Contract: o.Contract}
			b.st.Positions[sym] = p
		}
		p.AvgCost = p.AvgCost.Mul(p.Quantity).Add(value).Div(p.Quantity.Add(qty))
		p.Quantity = p.Quantity.Add(qty)
	case trading.Sell:
		if p == nil || qty.GreaterThan(p.Quantity) {
			return nil, rejectErr("insufficient position in %s to sell %s", sym, qty)
		}
		b.st.Cash = b.st.Cash.Add(value)
		pnl := price.Sub(p.AvgCost).Mul(qty)
		b.st.RealizedPnL = b.st.RealizedPnL.Add(pnl)
		p.RealizedPnL = p.RealizedPnL.Add(pnl)
		p.Quantity = p.Quantity.Sub(qty)
		if p.Quantity.IsZero() {
			delete(b.st.Positions, sym)
		}
	}
	o.AvgFillPrice = o.AvgFillPrice.Mul(o.FilledQty).Add(value).Div(o.FilledQty.Add(qty))
	o.FilledQty = o.FilledQty.Add(qty)
	o.UpdatedAt = b.opts.Now()
	if o.FilledQty.Equal(o.Order.TotalQuantity) {
		o.Status = trading.StatusFilled
	}
	fills := []Fill{{OrderID: o.Order.OrderID, Symbol: sym, Action: o.Order.Action, Qty: qty, Price: price, Status: o.Status, Time: o.UpdatedAt}}
	if o.Status == trading.StatusFilled {
		b.afterFullFillLocked(o)
	}
	return fills, nil
}

// afterFullFillLocked cancels OCA siblings and spawns TP/SL children.
func (b *Broker) afterFullFillLocked(o *trading.OpenOrder) {
	if g := o.Order.OCAGroup; g != "" {
		for _, id := range b.st.OrderIDs {
			s := b.st.Orders[id]
			if id != o.Order.OrderID && s.Order.OCAGroup == g && s.Status.Pending() {
				s.Status, s.UpdatedAt = trading.StatusCancelled, b.opts.Now()
			}
		}
	}
	if o.TPSL == nil {
		return
	}
	side := trading.Sell
	if o.Order.Action == trading.Sell {
		side = trading.Buy
	}
	child := func(t trading.OrderType, lmt, aux decimal.Decimal) {
		b.st.NextID++
		id := fmt.Sprintf("sim-ord-%d", b.st.NextID)
		now := b.opts.Now()
		b.st.Orders[id] = &trading.OpenOrder{Contract: o.Contract, Status: trading.StatusSubmitted, CreatedAt: now, UpdatedAt: now,
			Order: trading.Order{OrderID: id, Action: side, OrderType: t, TotalQuantity: o.FilledQty, LmtPrice: lmt, AuxPrice: aux,
				TIF: trading.GTC, ParentID: o.Order.OrderID, OCAGroup: "oca-" + o.Order.OrderID}}
		b.st.OrderIDs = append(b.st.OrderIDs, id)
	}
	if tp := o.TPSL.TakeProfit; tp != nil && tp.Price.IsPositive() {
		child(trading.Limit, tp.Price, decimal.Zero)
	}
	if sl := o.TPSL.StopLoss; sl != nil && sl.Price.IsPositive() {
		if sl.LimitPrice.IsPositive() {
			child(trading.StopLimit, sl.LimitPrice, sl.Price)
		} else {
			child(trading.Stop, decimal.Zero, sl.Price)
		}
	}
}

// triggeredLocked decides whether a resting order executes at mark.
func (b *Broker) triggeredLocked(o *trading.OpenOrder, mark decimal.Decimal) bool {
	buy := o.Order.Action == trading.Buy
	limitOK := func() bool {
		if buy {
			return mark.LessThanOrEqual(o.Order.LmtPrice)
		}
		return mark.GreaterThanOrEqual(o.Order.LmtPrice)
	}
	stopHit := func() bool {
		if buy {
			return mark.GreaterThanOrEqual(o.Order.AuxPrice)
		}
		return mark.LessThanOrEqual(o.Order.AuxPrice)
	}
	switch o.Order.OrderType {
	case trading.Market, trading.MarketOnClose:
		return true
	case trading.Limit:
		return limitOK()
	case trading.Stop:
		return stopHit()
	case trading.StopLimit:
		if !b.st.Triggered[o.Order.OrderID] && stopHit() {
			b.st.Triggered[o.Order.OrderID] = true
		}
		return b.st.Triggered[o.Order.OrderID] && limitOK()
	}
	return false
}

// matchLocked fills every resting order whose trigger the mark has crossed.
// An order that can no longer be funded is rejected rather than retried.
func (b *Broker) matchLocked() []Fill {
	var fills []Fill
	now := b.opts.Now()
	for i := 0; i < len(b.st.OrderIDs); i++ { // children may be appended
		o := b.st.Orders[b.st.OrderIDs[i]]
		if !o.Status.Pending() {
			continue
		}
		if o.Order.TIF == trading.Day && expired(o.CreatedAt, now) {
			o.Status, o.RejectReason, o.UpdatedAt = trading.StatusCancelled, "DAY order expired at the end of its day (UTC)", now
			continue
		}
		mark, err := b.markLocked(o.Contract.Symbol)
		if err != nil || !b.triggeredLocked(o, mark) {
			continue
		}
		px := mark
		if t := o.Order.OrderType; t == trading.Market || t == trading.MarketOnClose {
			px, _ = b.marketPriceLocked(o.Contract.Symbol, o.Order.Action)
		}
		f, err := b.fillLocked(o, o.Order.TotalQuantity.Sub(o.FilledQty), px)
		if err != nil {
			o.Status, o.RejectReason, o.UpdatedAt = trading.StatusRejected, err.Error(), b.opts.Now()
			continue
		}
		fills = append(fills, f...)
	}
	return fills
}

// ModifyOrder changes a resting order in place.
func (b *Broker) ModifyOrder(_ context.Context, id string, ch trading.OrderChanges) (trading.OrderResult, error) {
	b.mu.Lock()
	res, fills, err := b.modifyLocked(id, ch)
	b.saveLocked()
	b.mu.Unlock()
	b.emit(fills)
	return res, err
}

func (b *Broker) modifyLocked(id string, ch trading.OrderChanges) (trading.OrderResult, []Fill, error) {
	o, ok := b.st.Orders[id]
	if !ok {
		return trading.OrderResult{}, nil, broker.Errorf(broker.CodeNotFound, "order %q not found", id)
	}
	if !o.Status.Pending() {
		return trading.OrderResult{}, nil, rejectErr("order %s is %s and can no longer be modified", id, o.Status)
	}
	next := ch.Apply(o.Order)
	if err := next.Validate(); err != nil {
		return trading.OrderResult{}, nil, rejectErr("invalid modification: %v", err)
	}
	if next.TotalQuantity.LessThanOrEqual(o.FilledQty) {
		return trading.OrderResult{}, nil, rejectErr("totalQuantity %s must exceed the filled %s", next.TotalQuantity, o.FilledQty)
	}
	if next.Action == trading.Sell {
		avail := b.heldLocked(o.Contract.Symbol).Sub(b.reservedSellLocked(o.Contract.Symbol, id))
		if next.TotalQuantity.Sub(o.FilledQty).GreaterThan(avail) {
			return trading.OrderResult{}, nil, rejectErr("insufficient position for modified sell")
		}
	}
	o.Order, o.UpdatedAt = next, b.opts.Now()
	fills := b.matchLocked()
	return resultOf(o), fills, nil
}

// CancelOrder cancels a resting order.
func (b *Broker) CancelOrder(_ context.Context, id string) (trading.OrderResult, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o, ok := b.st.Orders[id]
	if !ok {
		return trading.OrderResult{}, broker.Errorf(broker.CodeNotFound, "order %q not found", id)
	}
	if !o.Status.Pending() {
		return trading.OrderResult{}, rejectErr("order %s is already %s", id, o.Status)
	}
	o.Status, o.UpdatedAt = trading.StatusCancelled, b.opts.Now()
	b.saveLocked()
	return resultOf(o), nil
}

// ClosePosition sells qty (zero = all) at the mark.
func (b *Broker) ClosePosition(ctx context.Context, c trading.Contract, qty decimal.Decimal) (trading.OrderResult, error) {
	b.mu.Lock()
	held := b.heldLocked(c.Symbol)
	b.mu.Unlock()
	if held.IsZero() {
		return trading.OrderResult{}, rejectErr("no position in %s", c.Symbol)
	}
	if qty.IsZero() {
		qty = held
	}
	return b.PlaceOrder(ctx, c, trading.Order{Action: trading.Sell, OrderType: trading.Market, TotalQuantity: qty, TIF: trading.Day}, nil)
}
