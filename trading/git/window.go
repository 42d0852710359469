package git

// The history views need only the tail of the history that holds their
// newest rows. A window starts at commit k when, from k on, at least
// limit rows begin, and every row those commits touch also begins there
// (a replacement's original order, an order a sync fills). Rows that
// begin before k are then all older than every row in the window, so the
// newest limit rows of the whole history are the newest limit rows of the
// window. The window also never starts inside a run of commits with the
// same timestamp (the views sort by time, ties keep history order).

// ordersWindow is where the order view of commits' newest limit rows
// starts: rows begin with placeOrder, closePosition and
// observeExternalOrder, and with a modifyOrder the broker answered with a
// new order id (whose row copies the original's).
func ordersWindow(commits []Commit, limit int) int {
	need := map[string]bool{} // order ids whose row must begin in the window
	rows := 0
	for i := len(commits) - 1; i >= 0; i-- {
		c := commits[i]
		if !c.isSync() {
			for j, op := range c.Operations {
				r := resultAt(c, j)
				switch {
				case introduces(op):
					rows++
					delete(need, r.OrderID)
				case op.Action == ModifyOrder && r.Success && op.Changes != nil && r.OrderID != "" && r.OrderID != op.OrderID:
					rows++
					delete(need, r.OrderID)
					need[op.OrderID] = true
				}
			}
		}
		if rows >= limit && len(need) == 0 && windowEdge(commits, i) {
			return i
		}
	}
	return 0
}

// tradesWindow is where the fill view of commits' newest limit rows
// starts: one row per order that filled, at its first recorded fill; the
// window holds the start of every order with a fill in it, so the first
// fill is known.
func tradesWindow(commits []Commit, limit int) int {
	need := map[string]bool{}
	filled := map[string]bool{}
	rows := 0
	for i := len(commits) - 1; i >= 0; i-- {
		c := commits[i]
		if c.isSync() {
			for _, r := range c.Results {
				if r.OrderID != "" && r.FilledQty.IsPositive() && r.FilledPrice.IsPositive() {
					if !filled[r.OrderID] {
						filled[r.OrderID] = true
						rows++
					}
					need[r.OrderID] = true
				}
			}
		} else {
			for j := len(c.Operations) - 1; j >= 0; j-- {
				op, r := c.Operations[j], resultAt(c, j)
				if op.Action == ModifyOrder && r.Success && r.OrderID != "" && need[r.OrderID] {
					delete(need, r.OrderID) // its fills belong to the order it replaced
					need[op.OrderID] = true
				}
				if !introduces(op) {
					continue
				}
				if r.Success && r.Status == StatusFilled && r.FilledQty.IsPositive() && r.FilledPrice.IsPositive() {
					if r.OrderID == "" || !filled[r.OrderID] {
						rows++
					}
					if r.OrderID != "" {
						filled[r.OrderID] = true
					}
				}
				delete(need, r.OrderID)
			}
		}
		if rows >= limit && len(need) == 0 && windowEdge(commits, i) {
			return i
		}
	}
	return 0
}

// windowEdge: a window may start at commit i (not in the middle of a run
// of equal timestamps).
func windowEdge(commits []Commit, i int) bool {
	return i == 0 || !commits[i-1].Timestamp.Equal(commits[i].Timestamp)
}

// resultAt is operation j's result (zero when the commit has none).
func resultAt(c Commit, j int) Result {
	if j < len(c.Results) {
		return c.Results[j]
	}
	return Result{}
}

// stateBefore is the newest state recorded before commit k, when a
// close in the window needs it (its side comes from the position it
// closed) before the window records a state of its own; nil otherwise.
func stateBefore(commits []Commit, k int) *State {
	needed := false
	for _, c := range commits[k:] {
		for _, op := range c.Operations {
			needed = needed || op.Action == ClosePosition
		}
		if needed || c.StateAfter != nil {
			break
		}
	}
	if !needed {
		return nil
	}
	for i := k - 1; i >= 0; i-- {
		if commits[i].StateAfter != nil {
			return commits[i].StateAfter
		}
	}
	return nil
}
