package git

import (
	"sort"
	"strings"
	"time"

	"github.com/alice-trading/alice/trading"

	"github.com/shopspring/decimal"
)

// The history views are OpenAlice's exchange-frontend projections of the
// commit log: Order History collapses every order's lifecycle into one
// row, Trade History lists fills only. Every surface (tools, Portfolio
// pane) reads these, so they say the same thing.

// OrderSource says who placed an order.
type OrderSource string

const (
	SourceAlice    OrderSource = "alice"
	SourceExternal OrderSource = "external"
)

// TradeSource says where a fill came from: an order alice placed or one
// observed at the broker.
type TradeSource string

const (
	TradeFromOrder    TradeSource = "order"
	TradeFromExternal TradeSource = "external"
)

// OrderHistoryEntry is one order with its lifecycle collapsed.
type OrderHistoryEntry struct {
	OrderID      string            `json:"orderId,omitempty"`
	Timestamp    time.Time         `json:"timestamp"`
	ResolvedAt   *time.Time        `json:"resolvedAt,omitempty"`
	Contract     trading.Contract  `json:"contract"`
	Side         trading.Action    `json:"side"`
	OrderType    trading.OrderType `json:"orderType,omitempty"`
	Quantity     decimal.Decimal   `json:"quantity,omitzero"`
	LimitPrice   decimal.Decimal   `json:"limitPrice,omitzero"`
	StopPrice    decimal.Decimal   `json:"stopPrice,omitzero"`
	Status       ResultStatus      `json:"status"`
	FilledQty    decimal.Decimal   `json:"filledQty,omitzero"`
	AvgFillPrice decimal.Decimal   `json:"avgFillPrice,omitzero"`
	Source       OrderSource       `json:"source"`
	CommitHash   string            `json:"commitHash"`
	Message      string            `json:"message"`
	Error        string            `json:"error,omitempty"`
	StagedBy     *Provenance       `json:"stagedBy,omitempty"`
}

// TradeHistoryEntry is one fill.
type TradeHistoryEntry struct {
	Timestamp  time.Time        `json:"timestamp"`
	OrderID    string           `json:"orderId,omitempty"`
	Contract   trading.Contract `json:"contract"`
	Side       trading.Action   `json:"side"`
	Quantity   decimal.Decimal  `json:"quantity"`
	Price      decimal.Decimal  `json:"price"`
	Value      decimal.Decimal  `json:"value"`
	Source     TradeSource      `json:"source"`
	CommitHash string           `json:"commitHash"`
	StagedBy   *Provenance      `json:"stagedBy,omitempty"`
}

// OrderHistory is the order view of the history, newest first (limit ≤ 0
// means all). With a limit it reads only the tail of the history that
// holds those rows (ordersWindow), so its cost follows the limit, not the
// history's length.
func (g *Git) OrderHistory(limit int) []OrderHistoryEntry {
	tail, before := g.tail(limit, ordersWindow)
	return projectOrders(tail, before, limit)
}

// TradeHistory is the fill view of the history, newest first (limit ≤ 0
// means all), read from the tail like OrderHistory.
func (g *Git) TradeHistory(limit int) []TradeHistoryEntry {
	tail, before := g.tail(limit, tradesWindow)
	return projectTrades(tail, before, limit)
}

// tail copies the commits from window's start on, and the state recorded
// before them.
func (g *Git) tail(limit int, window func([]Commit, int) int) ([]Commit, *State) {
	g.mu.Lock()
	defer g.mu.Unlock()
	k := 0
	if limit > 0 {
		k = window(g.f.Commits, limit)
	}
	return append([]Commit(nil), g.f.Commits[k:]...), stateBefore(g.f.Commits, k)
}

// introduces reports whether op creates an order row.
func introduces(op Operation) bool {
	return op.Action == PlaceOrder || op.Action == ClosePosition || op.Action == ObserveExternalOrder
}

// closeSide is the side of a closePosition: a buy when the position the
// previous state recorded was short, else a sell.
func closeSide(before *State, c *trading.Contract) trading.Action {
	if before != nil && c != nil {
		for _, p := range before.Positions {
			if strings.EqualFold(p.Contract.Symbol, c.Symbol) && p.Side == trading.Short {
				return trading.Buy
			}
		}
	}
	return trading.Sell
}

// external reports whether op records an order placed outside alice: an
// observed order, unless its commit records the legs of alice's own
// bracket (RecordObserved).
func external(c Commit, op Operation) bool {
	return op.Action == ObserveExternalOrder && !strings.HasPrefix(c.Message, BracketMessagePrefix)
}

// parentOf is the id of the order op's order is a leg of ("" if none).
func parentOf(op Operation) string {
	if op.Order == nil {
		return ""
	}
	return op.Order.ParentID
}

// orderRow builds the row an introducing operation starts.
func orderRow(c Commit, op Operation, r Result, before *State) OrderHistoryEntry {
	e := OrderHistoryEntry{OrderID: r.OrderID, Timestamp: c.Timestamp, Status: r.Status, FilledQty: r.FilledQty,
		AvgFillPrice: r.FilledPrice, Source: SourceAlice, CommitHash: c.Hash, Message: c.Message, Error: r.Error, StagedBy: op.StagedBy}
	if e.Status == "" {
		e.Status = StatusRejected
	}
	if op.Contract != nil {
		e.Contract = *op.Contract
	}
	if external(c, op) {
		e.Source = SourceExternal
	}
	if op.Action == ClosePosition {
		e.Side, e.OrderType, e.Quantity = closeSide(before, op.Contract), trading.Market, op.Quantity
		return e
	}
	if o := op.Order; o != nil {
		e.Side, e.OrderType, e.Quantity, e.LimitPrice, e.StopPrice = o.Action, o.OrderType, o.TotalQuantity, o.LmtPrice, o.AuxPrice
	}
	return e
}

// ProjectOrders collapses commits (oldest first) into one row per order,
// newest first. Orders are introduced by placeOrder, closePosition and
// observeExternalOrder; a modifyOrder updates the row (and moves it to a
// new id when the broker replaced the order), a successful cancelOrder
// and sync results resolve it.
func ProjectOrders(commits []Commit, limit int) []OrderHistoryEntry {
	k := 0
	if limit > 0 {
		k = ordersWindow(commits, limit)
	}
	return projectOrders(commits[k:], stateBefore(commits, k), limit)
}

// projectOrders is ProjectOrders over commits, before being the state
// recorded before the first of them.
func projectOrders(commits []Commit, before *State, limit int) []OrderHistoryEntry {
	byID := map[string]*OrderHistoryEntry{}
	var rows []*OrderHistoryEntry
	for _, c := range commits {
		if c.isSync() {
			for _, r := range c.Results {
				e := byID[r.OrderID]
				if r.OrderID == "" || !r.Success || e == nil {
					continue
				}
				at := c.Timestamp
				e.Status, e.ResolvedAt = r.Status, &at
				if r.FilledQty.IsPositive() {
					e.FilledQty, e.AvgFillPrice = r.FilledQty, r.FilledPrice
				}
				if r.Error != "" {
					e.Error = r.Error
				}
			}
		} else {
			for i, op := range c.Operations {
				var r Result
				if i < len(c.Results) {
					r = c.Results[i]
				}
				switch {
				case introduces(op):
					e := orderRow(c, op, r, before)
					rows = append(rows, &e)
					if r.OrderID != "" {
						byID[r.OrderID] = &e
					}
				case op.Action == CancelOrder && r.Success:
					if e := byID[op.OrderID]; e != nil {
						at := c.Timestamp
						e.Status, e.ResolvedAt = StatusCancelled, &at
					}
				case op.Action == ModifyOrder && r.Success && op.Changes != nil:
					modify(byID, &rows, c, op, r)
				}
			}
		}
		if c.StateAfter != nil {
			before = c.StateAfter
		}
	}
	out := make([]OrderHistoryEntry, 0, len(rows))
	for _, e := range rows {
		out = append(out, *e)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Timestamp.After(out[j].Timestamp) })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

// modify applies a successful modifyOrder to the order's row. A broker
// that replaces orders (Alpaca) answers with a new id: the old row ends
// cancelled and a new row carries the changed order.
func modify(byID map[string]*OrderHistoryEntry, rows *[]*OrderHistoryEntry, c Commit, op Operation, r Result) {
	e := byID[op.OrderID]
	if e == nil {
		return
	}
	target := e
	if r.OrderID != "" && r.OrderID != op.OrderID {
		at := c.Timestamp
		n := *e
		e.Status, e.ResolvedAt = StatusCancelled, &at
		n.OrderID, n.Timestamp, n.CommitHash, n.Message, n.ResolvedAt = r.OrderID, c.Timestamp, c.Hash, c.Message, nil
		n.Status = r.Status
		*rows = append(*rows, &n)
		byID[r.OrderID] = &n
		target = &n
	}
	ch := op.Changes
	for _, f := range []struct {
		dst *decimal.Decimal
		v   decimal.Decimal
	}{{&target.Quantity, ch.TotalQuantity}, {&target.LimitPrice, ch.LmtPrice}, {&target.StopPrice, ch.AuxPrice}} {
		if !f.v.IsZero() {
			*f.dst = f.v
		}
	}
	if ch.OrderType != "" {
		target.OrderType = ch.OrderType
	}
}

// ProjectTrades lists fills, newest first: immediate fills recorded by a
// push, and fills a later sync found (including the filled part of an
// order that was then cancelled). Each order's fill is counted once.
func ProjectTrades(commits []Commit, limit int) []TradeHistoryEntry {
	k := 0
	if limit > 0 {
		k = tradesWindow(commits, limit)
	}
	return projectTrades(commits[k:], stateBefore(commits, k), limit)
}

// projectTrades is ProjectTrades over commits, before being the state
// recorded before the first of them.
func projectTrades(commits []Commit, before *State, limit int) []TradeHistoryEntry {
	type meta struct {
		contract trading.Contract
		side     trading.Action
		source   TradeSource
		staged   *Provenance
	}
	orders := map[string]meta{}
	counted := map[string]bool{}
	var out []TradeHistoryEntry
	add := func(c Commit, id string, m meta, qty, price decimal.Decimal) {
		out = append(out, TradeHistoryEntry{Timestamp: c.Timestamp, OrderID: id, Contract: m.contract, Side: m.side,
			Quantity: qty, Price: price, Value: qty.Mul(price), Source: m.source, CommitHash: c.Hash, StagedBy: m.staged})
		if id != "" {
			counted[id] = true
		}
	}
	for _, c := range commits {
		if c.isSync() {
			for _, r := range c.Results {
				m, ok := orders[r.OrderID]
				if !ok || counted[r.OrderID] || !r.FilledQty.IsPositive() || !r.FilledPrice.IsPositive() {
					continue
				}
				add(c, r.OrderID, m, r.FilledQty, r.FilledPrice)
			}
		} else {
			for i, op := range c.Operations {
				if i >= len(c.Results) {
					continue
				}
				r := c.Results[i]
				if m, ok := orders[op.OrderID]; ok && op.Action == ModifyOrder && r.Success && r.OrderID != "" {
					orders[r.OrderID] = m // a replacing broker's new id fills for the same order
				}
				if !introduces(op) {
					continue
				}
				row := orderRow(c, op, r, before)
				m := meta{contract: row.Contract, side: row.Side, source: TradeFromOrder, staged: op.StagedBy}
				if external(c, op) {
					m.source = TradeFromExternal
				}
				if pm, ok := orders[parentOf(op)]; ok && op.StagedBy == nil {
					m.staged = pm.staged // a bracket leg fills for its order's session
				}
				if r.OrderID != "" {
					orders[r.OrderID] = m
				}
				if r.Success && r.Status == StatusFilled && r.FilledQty.IsPositive() && r.FilledPrice.IsPositive() && !counted[r.OrderID] {
					add(c, r.OrderID, m, r.FilledQty, r.FilledPrice)
				}
			}
		}
		if c.StateAfter != nil {
			before = c.StateAfter
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Timestamp.After(out[j].Timestamp) })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	if out == nil {
		out = []TradeHistoryEntry{}
	}
	return out
}
