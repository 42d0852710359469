package git

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Log returns up to limit commits newest first (limit ≤ 0 means 10),
// optionally only those touching symbol.
func (g *Git) Log(limit int, symbol string) []LogEntry {
	if limit <= 0 {
		limit = 10
	}
	symbol = strings.ToUpper(strings.TrimSpace(symbol))
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []LogEntry
	for i := len(g.f.Commits) - 1; i >= 0 && len(out) < limit; i-- {
		c := g.f.Commits[i]
		e := LogEntry{Hash: c.Hash, ParentHash: c.ParentHash, Message: c.Message, Timestamp: c.Timestamp, Operations: []LogOpRow{}}
		match := symbol == ""
		if c.isSync() {
			for _, r := range c.Results {
				e.Operations = append(e.Operations, LogOpRow{Symbol: r.Symbol, Action: SyncOrders, Change: change(Operation{Action: SyncOrders}, r), Status: r.Status})
				match = match || strings.EqualFold(r.Symbol, symbol)
			}
		} else {
			for j, op := range c.Operations {
				var r Result
				if j < len(c.Results) {
					r = c.Results[j]
				}
				e.Operations = append(e.Operations, LogOpRow{Symbol: op.Symbol(), Action: op.Action, Change: change(op, r), Status: r.Status})
				match = match || strings.EqualFold(op.Symbol(), symbol)
			}
		}
		if match {
			out = append(out, e)
		}
	}
	return out
}

func (c Commit) isSync() bool { return len(c.Operations) == 1 && c.Operations[0].Action == SyncOrders }

// Show returns the commit whose hash starts with hash (at least 4 chars).
func (g *Git) Show(hash string) (Commit, bool) {
	hash = strings.ToLower(strings.TrimSpace(hash))
	if len(hash) < 4 {
		return Commit{}, false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for i := len(g.f.Commits) - 1; i >= 0; i-- {
		if strings.HasPrefix(g.f.Commits[i].Hash, hash) {
			return g.f.Commits[i], true
		}
	}
	return Commit{}, false
}

// Status is "git status".
func (g *Git) Status() Status {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := Status{Staged: append([]Operation{}, g.f.Staged...), CommitCount: len(g.f.Commits)}
	if g.f.Pending != nil {
		s.PendingHash, s.PendingMessage, s.AwaitingApproval = g.f.Pending.Hash, g.f.Pending.Message, g.f.Pending.AwaitingApproval
	}
	if g.f.Head != nil {
		s.Head = *g.f.Head
	}
	return s
}

// Commits returns a copy of the history, oldest first.
func (g *Git) Commits() []Commit {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]Commit(nil), g.f.Commits...)
}

// PendingOrderIDs are orders whose latest recorded status is "submitted",
// scanning newest to oldest.
func (g *Git) PendingOrderIDs() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.pendingOrdersLocked()
}

func (g *Git) pendingOrdersLocked() []string {
	seen := map[string]bool{}
	var ids []string
	for i := len(g.f.Commits) - 1; i >= 0; i-- {
		rs := g.f.Commits[i].Results
		for j := len(rs) - 1; j >= 0; j-- {
			r := rs[j]
			if r.OrderID == "" || seen[r.OrderID] {
				continue
			}
			seen[r.OrderID] = true
			if r.Status == StatusSubmitted && r.Action != CancelOrder {
				ids = append(ids, r.OrderID)
			}
		}
	}
	return ids
}

// SyncUpdate is one order whose status changed since it was recorded.
type SyncUpdate struct {
	OrderID        string       `json:"orderId"`
	Symbol         string       `json:"symbol"`
	PreviousStatus ResultStatus `json:"previousStatus"`
	CurrentStatus  ResultStatus `json:"currentStatus"`
	FilledQty      string       `json:"filledQty,omitempty"`
	FilledPrice    string       `json:"filledPrice,omitempty"`
}

// SyncResult is "git pull".
type SyncResult struct {
	Hash         string       `json:"hash,omitempty"`
	UpdatedCount int          `json:"updatedCount"`
	Updates      []SyncUpdate `json:"updates"`
}

// Sync asks the broker about every pending order and records a
// "[sync] N order(s) updated" commit when any has finished.
func (g *Git) Sync(ctx context.Context, delay time.Duration) (SyncResult, error) {
	if g.deps.Order == nil {
		return SyncResult{}, fmt.Errorf("sync is not supported for this account")
	}
	if delay > 0 {
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return SyncResult{}, ctx.Err()
		case <-t.C:
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return SyncResult{}, ErrClosed
	}
	res := SyncResult{Updates: []SyncUpdate{}}
	var results []Result
	for _, id := range g.pendingOrdersLocked() {
		o, err := g.deps.Order(ctx, id)
		if err != nil || o == nil {
			g.deps.Logger.Warn("trading git: sync order", "orderId", id, "err", err)
			continue
		}
		if o.Status.Pending() {
			continue
		}
		cur := FromOrderStatus(o.Status)
		u := SyncUpdate{OrderID: id, Symbol: o.Contract.Symbol, PreviousStatus: StatusSubmitted, CurrentStatus: cur}
		if o.FilledQty.IsPositive() {
			u.FilledQty, u.FilledPrice = o.FilledQty.String(), o.AvgFillPrice.String()
		}
		res.Updates = append(res.Updates, u)
		results = append(results, Result{Action: SyncOrders, Success: true, OrderID: id, Status: cur,
			FilledQty: o.FilledQty, FilledPrice: o.AvgFillPrice, Symbol: o.Contract.Symbol, Error: o.RejectReason})
	}
	res.UpdatedCount = len(res.Updates)
	if len(results) == 0 {
		return res, nil
	}
	now := g.deps.Now().UTC()
	c := Commit{Message: fmt.Sprintf("[sync] %d order(s) updated", len(results)),
		Operations: []Operation{{Action: SyncOrders}}, Results: results, Timestamp: now}
	c.Hash = hashOf(struct {
		Updates    []SyncUpdate `json:"updates"`
		Timestamp  time.Time    `json:"timestamp"`
		ParentHash *string      `json:"parentHash"`
	}{res.Updates, now, g.f.Head})
	c = g.appendLocked(c)
	c.StateAfter = g.stateAfter(ctx)
	g.f.Commits[len(g.f.Commits)-1] = c
	res.Hash = c.Hash
	return res, g.saveHistory()
}
