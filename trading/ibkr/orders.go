package ibkr

import (
	"context"
	"sort"
	"strconv"
	"time"

	"github.com/scmhub/ibapi"
	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

// orderRec is an order as the openOrder/orderStatus stream describes it.
type orderRec struct {
	id               int64
	contract         ibapi.Contract
	order            ibapi.Order
	status           string // IB's: PendingSubmit, PreSubmitted, Submitted, Filled, Cancelled, Inactive…
	filled, avgPrice decimal.Decimal
	err              *ibError
	version          int
	created, updated time.Time
}

// bumpLocked records a change and wakes waiters.
func (b *Broker) bumpLocked(o *orderRec) {
	o.version++
	o.updated = b.now()
	close(b.changed)
	b.changed = make(chan struct{})
}

func (b *Broker) recLocked(id int64) *orderRec {
	o, ok := b.orders[id]
	if !ok {
		o = &orderRec{id: id, created: b.now()}
		b.orders[id] = o
	}
	return o
}

func (b *Broker) onOpenOrder(id int64, c ibapi.Contract, o ibapi.Order, status string) {
	if (id == 0 || o.ClientID != b.cfg.ClientID) && o.PermID != 0 {
		id = -o.PermID // placed by hand in TWS or by another API client: their ids are not ours
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.recLocked(id)
	r.contract, r.order = c, o
	// orderStatus carries the fill quantities and is authoritative; the
	// state inside openOrder only fills in an order not yet acknowledged
	// (a "Filled" from it would show a fill without its quantity).
	if status != "" && status != "Filled" && (r.status == "" || r.status == "PendingSubmit") {
		r.status = status
	}
	if c.ConID != 0 {
		b.conIDs[c.Symbol] = c.ConID
	}
	b.bumpLocked(r)
}

// onCompletedOrder records a finished order of this client (reported by
// reqCompletedOrders). Only orders carrying our clientId and an order id
// are matched: IB order ids are per client.
func (b *Broker) onCompletedOrder(c ibapi.Contract, o ibapi.Order, status string) {
	if o.OrderID <= 0 || o.ClientID != b.cfg.ClientID {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.recLocked(o.OrderID)
	if statusOf(r.status).Pending() || r.status == "" {
		r.status = status
		if q := dec(o.FilledQuantity); q.IsPositive() {
			r.filled = q
		}
	}
	if r.order.Action == "" {
		r.contract, r.order = c, o
	}
	b.bumpLocked(r)
}

func (b *Broker) onOrderStatus(id, clientID, permID int64, status string, filled, avg decimal.Decimal) {
	if (id == 0 || clientID != b.cfg.ClientID) && permID != 0 {
		id = -permID
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.recLocked(id)
	r.status, r.filled, r.avgPrice = status, filled, avg
	b.bumpLocked(r)
}

// statusOf maps IB order states to alice's.
func statusOf(s string) trading.OrderStatus {
	switch s {
	case "Filled":
		return trading.StatusFilled
	case "Cancelled", "ApiCancelled":
		return trading.StatusCancelled
	case "Inactive", "Rejected":
		return trading.StatusRejected
	case "PreSubmitted", "PendingSubmit", "ApiPending", "":
		return trading.StatusPreSubmitted
	}
	return trading.StatusSubmitted // Submitted, PendingCancel
}

// waitOrder waits until pred holds for the order, it gets an error, or
// the timeout passes.
func (b *Broker) waitOrder(ctx context.Context, s *session, id int64, what string, pred func(*orderRec) bool) (orderRec, error) {
	t := time.NewTimer(b.cfg.Timeout)
	defer t.Stop()
	for {
		b.mu.Lock()
		o := b.orders[id]
		ch := b.changed
		var snap orderRec
		if o != nil {
			snap = *o
		}
		b.mu.Unlock()
		if o != nil && snap.err != nil {
			return snap, snap.err.typed(what)
		}
		if o != nil && pred(&snap) {
			return snap, nil
		}
		select {
		case <-ch:
		case <-s.dead:
			return snap, notConnected(what + ": connection lost before TWS confirmed; check the order after reconnecting")
		case <-t.C:
			return snap, &broker.Error{Code: broker.CodeNetwork, Msg: what + ": TWS did not confirm within " + b.cfg.Timeout.String()}
		case <-ctx.Done():
			return snap, &broker.Error{Code: broker.CodeNetwork, Msg: what, Err: ctx.Err()}
		}
	}
}

// toIBOrder maps an alice order to IB's, exactly: a price or cash
// amount a double cannot carry is refused (wireFloat), and so is an order
// without a time in force (staging always sets one; nothing defaults
// here).
func toIBOrder(o trading.Order, account string) (*ibapi.Order, error) {
	if o.TIF == "" {
		return nil, &broker.Error{Code: broker.CodeExchange, Msg: "the order has no time in force; alice sends none by default (staging sets the venue's)"}
	}
	io := ibapi.NewOrder()
	io.Action = string(o.Action)
	io.OrderType = string(o.OrderType)
	io.TotalQuantity = toIBDecimal(o.TotalQuantity)
	for _, f := range []struct {
		name string
		v    decimal.Decimal
		dst  *float64
	}{{"cashQty", o.CashQty, &io.CashQty}, {"lmtPrice", o.LmtPrice, &io.LmtPrice}, {"auxPrice", o.AuxPrice, &io.AuxPrice},
		{"trailStopPrice", o.TrailStopPrice, &io.TrailStopPrice}, {"trailingPercent", o.TrailingPercent, &io.TrailingPercent}} {
		if !f.v.IsPositive() {
			continue // zero is "not set"; IB's default (unset) stays
		}
		v, err := wireFloat(f.name, f.v)
		if err != nil {
			return nil, err
		}
		*f.dst = v
	}
	io.TIF = string(o.TIF)
	io.GoodTillDate = o.GoodTillDate
	io.OutsideRTH = o.OutsideRTH
	io.OCAGroup = o.OCAGroup
	io.OrderRef = o.ClientOrderID // IB's free-text reference carries the idempotency key
	io.Account = account
	io.Transmit = true
	return io, nil
}

// PlaceOrder places an order (and TP/SL children as an IB bracket) and
// waits until TWS acknowledges or rejects it. A repeated ClientOrderID
// returns the order that already carries it (IB's orderRef).
func (b *Broker) PlaceOrder(ctx context.Context, c trading.Contract, o trading.Order, tpsl *trading.TPSL) (trading.OrderResult, error) {
	if err := o.Validate(); err != nil {
		return trading.OrderResult{}, &broker.Error{Code: broker.CodeExchange, Msg: err.Error()}
	}
	io, err := toIBOrder(o, "")
	if err != nil {
		return trading.OrderResult{}, err
	}
	legs, err := bracketLegs(o, tpsl)
	if err != nil {
		return trading.OrderResult{}, err
	}
	s, err := b.ensure(ctx)
	if err != nil {
		return trading.OrderResult{}, err
	}
	ic := b.toIB(c)
	b.mu.Lock()
	if o.ClientOrderID != "" {
		for _, r := range b.orders {
			if r.order.OrderRef == o.ClientOrderID && r.err == nil {
				b.mu.Unlock()
				return resultOf(*r), nil
			}
		}
	}
	acct := b.account
	id := b.nextID
	b.nextID++
	if tpsl != nil {
		b.nextID += 2
	}
	r := b.recLocked(id)
	io.Account = acct
	for _, l := range legs {
		l.Account = acct
	}
	r.contract, r.order, r.status = *ic, *io, "PendingSubmit"
	b.mu.Unlock()

	sent := s.do(func(c *ibapi.EClient) {
		if tpsl == nil {
			c.PlaceOrder(id, ic, io)
		} else {
			b.placeBracket(c, id, ic, io, legs)
		}
	})
	if !sent {
		return trading.OrderResult{}, notConnected("connection closed")
	}
	got, err := b.waitOrder(ctx, s, id, "placeOrder "+strconv.FormatInt(id, 10), func(r *orderRec) bool { return r.status != "PendingSubmit" })
	if err != nil {
		return trading.OrderResult{}, err
	}
	return resultOf(got), nil
}

// bracketLegs builds the take-profit and stop-loss children of o (none
// without tpsl), checked like the parent.
func bracketLegs(o trading.Order, tpsl *trading.TPSL) ([]*ibapi.Order, error) {
	if tpsl == nil {
		return nil, nil
	}
	exit := trading.Sell
	if o.Action == trading.Sell {
		exit = trading.Buy
	}
	var kids []trading.Order
	if tp := tpsl.TakeProfit; tp != nil {
		kids = append(kids, trading.Order{Action: exit, OrderType: trading.Limit, TotalQuantity: o.TotalQuantity, LmtPrice: tp.Price, TIF: trading.GTC})
	}
	if sl := tpsl.StopLoss; sl != nil {
		t := trading.Stop
		if sl.LimitPrice.IsPositive() {
			t = trading.StopLimit
		}
		kids = append(kids, trading.Order{Action: exit, OrderType: t, TotalQuantity: o.TotalQuantity, AuxPrice: sl.Price, LmtPrice: sl.LimitPrice, TIF: trading.GTC})
	}
	legs := make([]*ibapi.Order, 0, len(kids))
	for _, k := range kids {
		l, err := toIBOrder(k, "")
		if err != nil {
			return nil, err
		}
		legs = append(legs, l)
	}
	return legs, nil
}

// placeBracket sends parent, take-profit and stop-loss with transmit set
// only on the last, so TWS activates them together.
func (b *Broker) placeBracket(c *ibapi.EClient, id int64, ic *ibapi.Contract, parent *ibapi.Order, legs []*ibapi.Order) {
	parent.Transmit = len(legs) == 0
	c.PlaceOrder(id, ic, parent)
	for i, leg := range legs {
		leg.ParentID = id
		leg.Transmit = i == len(legs)-1
		b.mu.Lock()
		r := b.recLocked(id + 1 + int64(i))
		r.contract, r.order, r.status = *ic, *leg, "PendingSubmit"
		b.mu.Unlock()
		c.PlaceOrder(id+1+int64(i), ic, leg)
	}
}

func resultOf(r orderRec) trading.OrderResult {
	return trading.OrderResult{OrderID: strconv.FormatInt(r.id, 10), Status: statusOf(r.status), FilledQty: r.filled, FilledPrice: r.avgPrice}
}

func parseID(id string) (int64, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return 0, broker.Errorf(broker.CodeNotFound, "no IB order %q (IB order ids are numbers)", id)
	}
	return n, nil
}

// ModifyOrder re-sends the order under its id with the changes, which is
// how IB amends a working order.
func (b *Broker) ModifyOrder(ctx context.Context, orderID string, ch trading.OrderChanges) (trading.OrderResult, error) {
	id, err := parseID(orderID)
	if err != nil {
		return trading.OrderResult{}, err
	}
	s, err := b.ensure(ctx)
	if err != nil {
		return trading.OrderResult{}, err
	}
	b.mu.Lock()
	r, ok := b.orders[id]
	if !ok {
		b.mu.Unlock()
		return trading.OrderResult{}, broker.Errorf(broker.CodeNotFound, "no IB order %d", id)
	}
	if !statusOf(r.status).Pending() {
		b.mu.Unlock()
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "order %d is %s and cannot be modified", id, r.status)
	}
	io, ic := r.order, r.contract
	for _, f := range []struct {
		name string
		v    decimal.Decimal
		dst  *float64
	}{{"lmtPrice", ch.LmtPrice, &io.LmtPrice}, {"auxPrice", ch.AuxPrice, &io.AuxPrice},
		{"trailStopPrice", ch.TrailStopPrice, &io.TrailStopPrice}, {"trailingPercent", ch.TrailingPercent, &io.TrailingPercent}} {
		if !f.v.IsPositive() {
			continue // unchanged
		}
		v, err := wireFloat(f.name, f.v)
		if err != nil {
			b.mu.Unlock()
			return trading.OrderResult{}, err
		}
		*f.dst = v
	}
	if ch.TotalQuantity.IsPositive() {
		io.TotalQuantity = toIBDecimal(ch.TotalQuantity)
	}
	if ch.OrderType != "" {
		io.OrderType = string(ch.OrderType)
	}
	if ch.TIF != "" {
		io.TIF = string(ch.TIF)
	}
	if ch.GoodTillDate != "" {
		io.GoodTillDate = ch.GoodTillDate
	}
	io.Transmit = true
	before := r.version
	r.err = nil
	b.mu.Unlock()
	if !s.do(func(c *ibapi.EClient) { c.PlaceOrder(id, &ic, &io) }) {
		return trading.OrderResult{}, notConnected("connection closed")
	}
	got, err := b.waitOrder(ctx, s, id, "modify order "+orderID, func(r *orderRec) bool {
		return r.version > before && r.order.LmtPrice == io.LmtPrice && r.order.AuxPrice == io.AuxPrice
	})
	if err != nil {
		return trading.OrderResult{}, err
	}
	return resultOf(got), nil
}

// CancelOrder cancels a working order and waits for TWS to confirm.
func (b *Broker) CancelOrder(ctx context.Context, orderID string) (trading.OrderResult, error) {
	id, err := parseID(orderID)
	if err != nil {
		return trading.OrderResult{}, err
	}
	s, err := b.ensure(ctx)
	if err != nil {
		return trading.OrderResult{}, err
	}
	b.mu.Lock()
	r := b.recLocked(id) // unknown ids are still asked: TWS answers 135/10147
	r.err = nil
	b.mu.Unlock()
	if !s.do(func(c *ibapi.EClient) { c.CancelOrder(id, ibapi.NewOrderCancel()) }) {
		return trading.OrderResult{}, notConnected("connection closed")
	}
	got, err := b.waitOrder(ctx, s, id, "cancel order "+orderID, func(r *orderRec) bool { return statusOf(r.status) == trading.StatusCancelled })
	if err != nil {
		if broker.CodeOf(err) == broker.CodeNotFound {
			b.mu.Lock()
			if o := b.orders[id]; o != nil && o.order.Action == "" {
				delete(b.orders, id) // never existed
			}
			b.mu.Unlock()
		}
		return trading.OrderResult{}, err
	}
	return resultOf(got), nil
}

func (b *Broker) openOrderOf(r orderRec) trading.OpenOrder {
	o := trading.Order{OrderID: strconv.FormatInt(r.id, 10), ClientOrderID: r.order.OrderRef, Action: trading.Action(r.order.Action),
		OrderType: trading.OrderType(r.order.OrderType), TotalQuantity: dec(r.order.TotalQuantity), LmtPrice: num(r.order.LmtPrice),
		AuxPrice: num(r.order.AuxPrice), TrailStopPrice: num(r.order.TrailStopPrice), TrailingPercent: num(r.order.TrailingPercent),
		TIF: trading.TIF(r.order.TIF), GoodTillDate: r.order.GoodTillDate, OutsideRTH: r.order.OutsideRTH, OCAGroup: r.order.OCAGroup}
	if r.order.ParentID != 0 {
		o.ParentID = strconv.FormatInt(r.order.ParentID, 10)
	}
	oo := trading.OpenOrder{Contract: b.contractOf(r.contract), Order: o, Status: statusOf(r.status), FilledQty: r.filled,
		AvgFillPrice: r.avgPrice, CreatedAt: r.created, UpdatedAt: r.updated}
	if r.err != nil {
		oo.RejectReason = r.err.Msg
	}
	return oo
}

// Orders lists the orders seen on this connection's stream (TWS replays
// the open ones at connect through reqAllOpenOrders).
func (b *Broker) Orders(ctx context.Context, ids []string) ([]trading.OpenOrder, error) {
	if _, err := b.ensure(ctx); err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	out := []trading.OpenOrder{}
	want := map[int64]bool{}
	for _, s := range ids {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			want[n] = true
		}
	}
	for id, r := range b.orders {
		if r.order.Action == "" || (len(ids) > 0 && !want[id]) {
			continue
		}
		out = append(out, b.openOrderOf(*r))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].CreatedAt.Before(out[j].CreatedAt) })
	return out, nil
}

// Order returns one order, NOT_FOUND when the stream never showed it.
func (b *Broker) Order(ctx context.Context, id string) (*trading.OpenOrder, error) {
	n, err := parseID(id)
	if err != nil {
		return nil, err
	}
	if _, err := b.ensure(ctx); err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r, ok := b.orders[n]
	if !ok || r.order.Action == "" {
		return nil, broker.Errorf(broker.CodeNotFound, "no IB order %d", n)
	}
	oo := b.openOrderOf(*r)
	return &oo, nil
}
