package uta

import (
	"context"
	"time"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"
)

// Order polling: alice learns about fills and about orders placed outside
// it (on the venue's own app) by asking the brokers. Two lanes share one
// loop: pending orders are synced every syncEvery while there are any,
// and every observeEvery each account's open orders are compared with its
// history so unknown ones are recorded ("[observed]" commits) and then
// followed like alice's own. With nothing pending the loop wakes only for
// the slow lane.

// Default poll intervals.
const (
	DefaultSyncEvery    = 15 * time.Second
	DefaultObserveEvery = 5 * time.Minute
)

// WithOrderPoll sets the poll intervals; zero keeps a default, negative
// turns that lane off.
func WithOrderPoll(syncEvery, observeEvery time.Duration) Option {
	return func(m *Manager) {
		if syncEvery != 0 {
			m.syncEvery = syncEvery
		}
		if observeEvery != 0 {
			m.observeEvery = observeEvery
		}
	}
}

// ObserveExternalOrders records the broker's open orders this account's
// history does not know. ok is false when there were none.
func (u *UTA) ObserveExternalOrders(ctx context.Context) (git.Commit, bool, error) {
	orders, err := u.broker.Orders(ctx, nil)
	u.observe(err)
	if err != nil {
		return git.Commit{}, false, err
	}
	var open []git.ObservedOrder
	for _, o := range orders {
		if !o.Status.Pending() || o.Order.OrderID == "" {
			continue
		}
		c := o.Contract
		c.AliceID = trading.AliceID(u.cfg.ID, u.broker.NativeKey(c))
		open = append(open, git.ObservedOrder{Contract: c, Order: o.Order, OrderID: o.Order.OrderID})
	}
	if len(open) == 0 {
		return git.Commit{}, false, nil
	}
	return u.git.RecordObserved(ctx, open)
}

// AccountObserved is one account's newly observed external orders.
type AccountObserved struct {
	AccountID string `json:"accountId"`
	Hash      string `json:"hash"`
	Message   string `json:"message"`
	// Orders are the observed orders (contract, order, id).
	Orders []git.Operation `json:"orders"`
}

// ObserveExternal checks the matching accounts for orders placed outside
// alice, records them and announces each account's find with a
// trade.external event.
func (m *Manager) ObserveExternal(ctx context.Context, source string) ([]AccountObserved, error) {
	utas, err := m.Resolve(source)
	if err != nil {
		return nil, err
	}
	out := []AccountObserved{}
	var firstErr error
	for _, u := range utas {
		c, ok, err := u.ObserveExternalOrders(ctx)
		if err != nil {
			m.logger.Warn("trading: observe external orders", "account", u.ID(), "err", err)
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if !ok {
			continue
		}
		ao := AccountObserved{AccountID: u.ID(), Hash: c.Hash, Message: c.Message, Orders: c.Operations}
		out = append(out, ao)
		m.logger.Info("trading: recorded external orders", "account", u.ID(), "count", len(c.Operations), "hash", c.Hash)
		m.publish(trading.Event{Type: trading.EventExternalOrders, AccountID: u.ID(), Hash: c.Hash, Time: m.now(), Data: ao}, true)
	}
	if len(out) == 0 && firstErr != nil {
		return out, firstErr
	}
	return out, nil
}

// pollable are the running accounts a background poll may ask: not
// offline (a poll must not hammer a broker that is down).
func (m *Manager) pollable() []*UTA {
	utas, err := m.Resolve("")
	if err != nil {
		return nil
	}
	out := utas[:0]
	for _, u := range utas {
		if h, _ := u.Health(); h != Offline {
			out = append(out, u)
		}
	}
	return out
}

// pollLoop runs both lanes until ctx ends. Deadlines are absolute, so
// events that wake the loop early (a push that leaves an order pending)
// never postpone a lane; with nothing pending and observation off it
// sleeps until such an event.
func (m *Manager) pollLoop(ctx context.Context) {
	events := m.bus.Subscribe(ctx)
	var nextObserve, nextSync time.Time
	if m.observeEvery > 0 {
		nextObserve = time.Now().Add(m.observeEvery)
	}
	for {
		if m.syncEvery > 0 && nextSync.IsZero() && m.anyPending() {
			nextSync = time.Now().Add(m.syncEvery)
		}
		var due time.Time
		for _, d := range []time.Time{nextObserve, nextSync} {
			if !d.IsZero() && (due.IsZero() || d.Before(due)) {
				due = d
			}
		}
		var fire <-chan time.Time
		var t *time.Timer
		if !due.IsZero() {
			t = time.NewTimer(max(time.Until(due), 0))
			fire = t.C
		}
		select {
		case <-ctx.Done():
			if t != nil {
				t.Stop()
			}
			return
		case _, ok := <-events:
			if t != nil {
				t.Stop()
			}
			if !ok {
				return
			}
			continue
		case <-fire:
		}
		now := time.Now()
		if !nextObserve.IsZero() && !now.Before(nextObserve) {
			for _, u := range m.pollable() {
				_, _ = m.ObserveExternal(ctx, u.ID())
			}
			nextObserve = time.Now().Add(m.observeEvery)
		}
		if !nextSync.IsZero() && !now.Before(nextSync) {
			nextSync = time.Time{}
			for _, u := range m.pollable() {
				if len(u.git.PendingOrderIDs()) == 0 {
					continue
				}
				if _, err := m.Sync(ctx, u.ID(), 0); err != nil {
					m.logger.Warn("trading: order sync", "account", u.ID(), "err", err)
				}
			}
		}
	}
}

// anyPending reports whether any running account has orders to follow.
func (m *Manager) anyPending() bool {
	for _, u := range m.pollable() {
		if len(u.git.PendingOrderIDs()) > 0 {
			return true
		}
	}
	return false
}
