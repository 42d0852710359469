package sim

import (
	"strings"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"

	"github.com/shopspring/decimal"
)

// The god-view controls below act on the simulator from outside the
// account (tests, the UI's simulator panel, what-if tools). They are not
// part of broker.Broker.

// SetMarkPrice pins a symbol's mark and matches resting orders against it.
func (b *Broker) SetMarkPrice(symbol string, price decimal.Decimal) error {
	in, err := b.lookup(symbol)
	if err != nil {
		return err
	}
	if !price.IsPositive() {
		return broker.Errorf(broker.CodeExchange, "mark price must be > 0")
	}
	b.mu.Lock()
	b.st.Marks[in.Symbol] = price
	fills := b.matchLocked()
	b.saveLocked()
	b.mu.Unlock()
	b.emit(fills)
	return nil
}

// TickPrice moves a symbol's mark by pct percent (e.g. -5) and pins it.
func (b *Broker) TickPrice(symbol string, pct decimal.Decimal) (decimal.Decimal, error) {
	b.mu.Lock()
	mark, err := b.markLocked(symbol)
	b.mu.Unlock()
	if err != nil {
		return decimal.Zero, err
	}
	next := mark.Mul(decimal.NewFromInt(100).Add(pct)).Div(decimal.NewFromInt(100))
	return next, b.SetMarkPrice(symbol, next)
}

// ClearMarkPrice returns a symbol to market pricing.
func (b *Broker) ClearMarkPrice(symbol string) {
	b.mu.Lock()
	delete(b.st.Marks, strings.ToUpper(symbol))
	b.saveLocked()
	b.mu.Unlock()
}

// Mark is the current mark price for a symbol.
func (b *Broker) Mark(symbol string) (decimal.Decimal, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.markLocked(symbol)
}

// FillOrder executes qty (zero = the remainder) of a resting order at price
// (zero = the mark): the partial-fill lifecycle.
func (b *Broker) FillOrder(orderID string, qty, price decimal.Decimal) (trading.OpenOrder, error) {
	b.mu.Lock()
	o, ok := b.st.Orders[orderID]
	if !ok {
		b.mu.Unlock()
		return trading.OpenOrder{}, broker.Errorf(broker.CodeNotFound, "order %q not found", orderID)
	}
	if !o.Status.Pending() {
		b.mu.Unlock()
		return *o, broker.Errorf(broker.CodeExchange, "order %s is %s", orderID, o.Status)
	}
	if qty.IsZero() {
		qty = o.Order.TotalQuantity.Sub(o.FilledQty)
	}
	if price.IsZero() {
		m, err := b.markLocked(o.Contract.Symbol)
		if err != nil {
			b.mu.Unlock()
			return *o, err
		}
		price = m
	}
	fills, err := b.fillLocked(o, qty, price)
	b.saveLocked()
	out := *o
	b.mu.Unlock()
	b.emit(fills)
	return out, err
}

// Deposit adds (or, negative, withdraws) external cash.
func (b *Broker) Deposit(amount decimal.Decimal) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.st.Cash.Add(amount).IsNegative() {
		return broker.Errorf(broker.CodeExchange, "withdrawal exceeds cash")
	}
	b.st.Cash = b.st.Cash.Add(amount)
	b.saveLocked()
	return nil
}
