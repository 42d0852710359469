package git

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/alice-trading/alice/trading"
)

// ObservedMessagePrefix starts the message of every commit that records
// orders placed outside alice.
const ObservedMessagePrefix = "[observed]"

// BracketMessagePrefix starts the message of a commit that records the
// take-profit and stop-loss legs a broker opened for an order alice
// placed (their ParentID is that order's id): alice's own, not external.
const BracketMessagePrefix = "[bracket]"

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
// reconciliation. The legs a broker opened for a bracket alice placed
// (ParentID is an order the history knows) are recorded too, in a
// "[bracket]" commit of their own, so Sync follows them and getOrders
// lists them; they were reported as external orders. It returns the
// "[observed]" commit, or ok=false when no external order was new.
func (g *Git) RecordObserved(ctx context.Context, open []ObservedOrder) (Commit, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return Commit{}, false, ErrClosed
	}
	known := g.knownLocked()
	var ops, legs []Operation
	var results, legResults []Result
	var parents []string
	for _, o := range open {
		if o.OrderID == "" || known[o.OrderID] || strings.HasPrefix(o.Order.ClientOrderID, "alice-") {
			continue
		}
		known[o.OrderID] = true // an order listed twice is recorded once
		c, ord := o.Contract, o.Order
		ord.OrderID = o.OrderID
		op := Operation{Action: ObserveExternalOrder, Contract: &c, Order: &ord, OrderID: o.OrderID}
		res := Result{Action: ObserveExternalOrder, Success: true, OrderID: o.OrderID, Status: StatusSubmitted, Symbol: c.Symbol}
		if p := o.Order.ParentID; p != "" && known[p] {
			legs, legResults = append(legs, op), append(legResults, res)
			if !slices.Contains(parents, p) {
				parents = append(parents, p)
			}
			continue
		}
		ops, results = append(ops, op), append(results, res)
	}
	if len(legs) > 0 {
		msg := fmt.Sprintf("%s %d take-profit/stop-loss leg(s) of %s", BracketMessagePrefix, len(legs), strings.Join(parents, ", "))
		if _, err := g.recordLocked(ctx, msg, legs, legResults); err != nil {
			return Commit{}, false, err
		}
	}
	if len(ops) == 0 {
		return Commit{}, false, nil
	}
	msg := fmt.Sprintf("%s %d external order(s) not placed through alice", ObservedMessagePrefix, len(ops))
	c, err := g.recordLocked(ctx, msg, ops, results)
	if err != nil {
		return Commit{}, false, err
	}
	return c, true, nil
}

// recordLocked appends a commit of orders already at the broker (never
// staged) and saves the history; on a failed save the history is as it
// was.
func (g *Git) recordLocked(ctx context.Context, msg string, ops []Operation, results []Result) (Commit, error) {
	now := g.deps.Now().UTC()
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
		return Commit{}, err
	}
	return c, nil
}
