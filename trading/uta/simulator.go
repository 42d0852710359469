package uta

import (
	"context"
	"fmt"
	"strings"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/sim"

	"github.com/shopspring/decimal"
)

// Simulator control events: what a person did to a simulator account from
// outside it (the UI's god-view). Each is published on the trading bus
// and so recorded in the event log, next to the fills it causes.
const (
	EventSimMarkPrice trading.EventType = "simulator.mark-price"
	EventSimCash      trading.EventType = "simulator.cash"
	EventSimForceFill trading.EventType = "simulator.force-fill"
)

// ErrNotSimulator is returned when a god-view control targets a real
// broker.
var ErrNotSimulator = fmt.Errorf("simulator controls work on simulator accounts only")

// simulator returns the god-view of a simulator account.
func (m *Manager) simulator(id string) (*sim.Broker, error) {
	u, err := m.Get(id)
	if err != nil {
		return nil, err
	}
	if u.Sim() == nil {
		return nil, fmt.Errorf("account %s: %w", id, ErrNotSimulator)
	}
	return u.Sim(), nil
}

// IsSimulator reports whether id is a running simulator account.
func (m *Manager) IsSimulator(id string) bool {
	_, err := m.simulator(id)
	return err == nil
}

// ParsePriceChange reads simulatePriceChange's syntax against the current
// mark: "@150" sets the price, "+10%" / "-5%" moves it.
func ParsePriceChange(change string, mark decimal.Decimal) (decimal.Decimal, error) {
	c := strings.TrimSpace(change)
	bad := fmt.Errorf("price change must be \"@<price>\", \"+<pct>%%\" or \"-<pct>%%\", got %q", change)
	switch {
	case strings.HasPrefix(c, "@"):
		p, err := decimal.NewFromString(c[1:])
		if err != nil || !p.IsPositive() {
			return decimal.Zero, bad
		}
		return p, nil
	case len(c) > 2 && (c[0] == '+' || c[0] == '-') && strings.HasSuffix(c, "%"):
		pct, err := decimal.NewFromString(c[1 : len(c)-1])
		if err != nil || pct.IsNegative() {
			return decimal.Zero, bad
		}
		if c[0] == '-' {
			pct = pct.Neg()
		}
		next := mark.Mul(decimal.NewFromInt(100).Add(pct)).Div(decimal.NewFromInt(100))
		if !next.IsPositive() {
			return decimal.Zero, fmt.Errorf("%s would take the price to %s", change, next)
		}
		return next, nil
	}
	return decimal.Zero, bad
}

// SimSetPrice pins symbol's mark on a simulator account (resting orders
// match against it) and returns the old and new marks.
func (m *Manager) SimSetPrice(id, symbol, change string) (old, next decimal.Decimal, err error) {
	b, err := m.simulator(id)
	if err != nil {
		return
	}
	if old, err = b.Mark(symbol); err != nil {
		return
	}
	if next, err = ParsePriceChange(change, old); err != nil {
		return
	}
	if err = b.SetMarkPrice(symbol, next); err != nil {
		return
	}
	m.publish(trading.Event{Type: EventSimMarkPrice, AccountID: id, Time: m.now(),
		Data: map[string]any{"symbol": strings.ToUpper(symbol), "change": change, "from": old.String(), "to": next.String()}}, false)
	return old, next, nil
}

// SimCash deposits (amount > 0) or withdraws (amount < 0) external cash.
func (m *Manager) SimCash(id string, amount decimal.Decimal) error {
	b, err := m.simulator(id)
	if err != nil {
		return err
	}
	if amount.IsZero() {
		return fmt.Errorf("amount must not be zero")
	}
	if err := b.Deposit(amount); err != nil {
		return err
	}
	m.publish(trading.Event{Type: EventSimCash, AccountID: id, Time: m.now(), Data: map[string]any{"amount": amount.String()}}, false)
	return nil
}

// SimForceFill fills every resting order in symbol ("" = all symbols) at
// the current mark and returns the orders it filled.
func (m *Manager) SimForceFill(ctx context.Context, id, symbol string) ([]trading.OpenOrder, error) {
	b, err := m.simulator(id)
	if err != nil {
		return nil, err
	}
	orders, err := b.Orders(ctx, nil)
	if err != nil {
		return nil, err
	}
	var filled []trading.OpenOrder
	var errs []string
	for _, o := range orders {
		if !o.Status.Pending() || (symbol != "" && !strings.EqualFold(o.Contract.Symbol, symbol)) {
			continue
		}
		out, err := b.FillOrder(o.Order.OrderID, decimal.Zero, decimal.Zero)
		if err != nil {
			errs = append(errs, o.Order.OrderID+": "+err.Error())
			continue
		}
		filled = append(filled, out)
	}
	ids := make([]string, len(filled))
	for i, o := range filled {
		ids[i] = o.Order.OrderID
	}
	m.publish(trading.Event{Type: EventSimForceFill, AccountID: id, Time: m.now(),
		Data: map[string]any{"symbol": strings.ToUpper(symbol), "filled": ids, "errors": errs}}, false)
	if len(errs) > 0 {
		return filled, fmt.Errorf("some orders did not fill: %s", strings.Join(errs, "; "))
	}
	return filled, nil
}

// SimMark is symbol's current mark on a simulator account (what its
// positions are valued at and resting orders match against).
func (m *Manager) SimMark(id, symbol string) (decimal.Decimal, error) {
	b, err := m.simulator(id)
	if err != nil {
		return decimal.Zero, err
	}
	return b.Mark(symbol)
}
