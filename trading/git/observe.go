package git

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/alice-trading/alice/trading"
)

// ObservedMessagePrefix starts the message of every commit that records
// orders placed outside alice.
const ObservedMessagePrefix = "[observed]"

// ObservedOrder is an open order found at the broker.
type ObservedOrder struct {
	Contract trading.Contract `json:"contract"`
	Order    trading.Order    `json:"order"`
	OrderID  string           `json:"orderId"`
}

// KnownOrderIDs is every order id the history has recorded a result for.
func (g *Git) KnownOrderIDs() map[string]bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.knownLocked()
}

func (g *Git) knownLocked() map[string]bool {
	known := map[string]bool{}
	for _, c := range g.f.Commits {
		for _, r := range c.Results {
			if r.OrderID != "" {
				known[r.OrderID] = true
			}
		}
		for _, op := range c.Operations {
			if op.OrderID != "" {
				known[op.OrderID] = true
			}
		}
	}
	if g.pushing != nil {
		for _, r := range g.pushing.Results {
			if r.OrderID != "" {
				known[r.OrderID] = true
			}
		}
	}
	return known
}

// RecordObserved records the orders among open that the history does not
// know as one "[observed]" commit (OpenAlice's observeExternalOrder), each
// as submitted, so Sync then follows them to their fill or cancel like
// any order alice placed. Orders carrying a client order id alice minted
// ("alice-…") are alice's own (a push a crash interrupted) and are left to
// reconciliation. It returns the commit, or ok=false when nothing was new.
func (g *Git) RecordObserved(ctx context.Context, open []ObservedOrder) (Commit, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return Commit{}, false, ErrClosed
	}
	known := g.knownLocked()
	var ops []Operation
	var results []Result
	for _, o := range open {
		if o.OrderID == "" || known[o.OrderID] || strings.HasPrefix(o.Order.ClientOrderID, "alice-") {
			continue
		}
		known[o.OrderID] = true
		c, ord := o.Contract, o.Order
		ord.OrderID = o.OrderID
		ops = append(ops, Operation{Action: ObserveExternalOrder, Contract: &c, Order: &ord, OrderID: o.OrderID})
		results = append(results, Result{Action: ObserveExternalOrder, Success: true, OrderID: o.OrderID,
			Status: StatusSubmitted, Symbol: c.Symbol})
	}
	if len(ops) == 0 {
		return Commit{}, false, nil
	}
	now := g.deps.Now().UTC()
	msg := fmt.Sprintf("%s %d external order(s) not placed through alice", ObservedMessagePrefix, len(ops))
	c := Commit{Message: msg, Operations: ops, Results: results, Timestamp: now}
	c.Hash = hashOf(struct {
		Message    string      `json:"message"`
		Operations []Operation `json:"operations"`
		Timestamp  time.Time   `json:"timestamp"`
		ParentHash *string     `json:"parentHash"`
	}{msg, ops, now, g.f.Head})
	prev := g.f
	prev.Commits = append([]Commit(nil), g.f.Commits...)
	c = g.appendLocked(c)
	c.StateAfter = g.stateAfter(ctx)
	g.f.Commits[len(g.f.Commits)-1] = c
	if err := g.saveHistory(); err != nil {
		g.f = prev
		return Commit{}, false, err
	}
	return c, true, nil
}
