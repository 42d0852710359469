package bybit

import (
	"context"
	"net/url"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

// PlaceOrder posts /v5/order/create. Stops become conditional orders
// (triggerPrice + triggerDirection); orders are acknowledged, not filled,
// so the result is Submitted and Order() reports the fill.
func (b *Broker) PlaceOrder(ctx context.Context, c trading.Contract, o trading.Order, tpsl *trading.TPSL) (trading.OrderResult, error) {
	if err := o.Validate(); err != nil {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "invalid order: %v", err)
	}
	in, err := b.instrument(ctx, c.Symbol)
	if err != nil {
		return trading.OrderResult{}, err
	}
	if o.TotalQuantity.IsZero() {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "Bybit orders need totalQuantity (cashQty is not supported)")
	}
	wtif, ok := tifToWire[o.TIF]
	// market and stop-market orders carry no time in force on the wire
	if !ok && (o.TIF != "" || (o.OrderType != trading.Market && o.OrderType != trading.Stop)) {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "time in force %q is not supported by Bybit (it accepts GTC, IOC, FOK)", o.TIF)
	}
	req := map[string]any{"category": b.category(), "symbol": in.Symbol, "side": sideToWire(o.Action), "qty": o.TotalQuantity.String()}
	switch o.OrderType {
	case trading.Market:
		req["orderType"] = "Market"
	case trading.Limit:
		req["orderType"], req["price"], req["timeInForce"] = "Limit", o.LmtPrice.String(), wtif
	case trading.Stop, trading.StopLimit:
		req["orderType"] = "Market"
		if o.OrderType == trading.StopLimit {
			req["orderType"], req["price"], req["timeInForce"] = "Limit", o.LmtPrice.String(), wtif
		}
		req["triggerPrice"] = o.AuxPrice.String()
		// A sell stop fires when the price falls to it (2), a buy stop
		// when it rises (1).
		req["triggerDirection"] = 1
		if o.Action == trading.Sell {
			req["triggerDirection"] = 2
		}
		if b.category() == "spot" {
			req["orderFilter"] = "StopOrder"
		}
	default:
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "order type %s is not supported by Bybit", o.OrderType)
	}
	if b.category() == "spot" && o.OrderType == trading.Market {
		req["marketUnit"] = "baseCoin" // qty in BTC, not USDT
	}
	if o.ClientOrderID != "" {
		req["orderLinkId"] = o.ClientOrderID
	}
	if tpsl != nil {
		// a leg with a limit price is a limit TP/SL order, which v5 takes
		// only in Partial mode (as CCXT sends it); without one it is a
		// market leg — never a limit silently dropped
		partial := false
		if l := tpsl.TakeProfit; l != nil {
			req["takeProfit"] = l.Price.String()
			if l.LimitPrice.IsPositive() {
				req["tpOrderType"], req["tpLimitPrice"], partial = "Limit", l.LimitPrice.String(), true
			}
		}
		if l := tpsl.StopLoss; l != nil {
			req["stopLoss"] = l.Price.String()
			if l.LimitPrice.IsPositive() {
				req["slOrderType"], req["slLimitPrice"], partial = "Limit", l.LimitPrice.String(), true
			}
		}
		if partial {
			req["tpslMode"] = "Partial"
		}
	}
	var ack wireOrderAck
	if err := b.c.post(ctx, "/v5/order/create", req, &ack); err != nil {
		return trading.OrderResult{}, err
	}
	return trading.OrderResult{OrderID: ack.OrderID, Status: trading.StatusSubmitted, Message: "accepted by Bybit"}, nil
}

// ModifyOrder posts /v5/order/amend; the order keeps its id.
func (b *Broker) ModifyOrder(ctx context.Context, id string, ch trading.OrderChanges) (trading.OrderResult, error) {
	if ch.OrderType != "" || ch.TIF != "" {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "Bybit cannot change an order's type or time in force; cancel and place a new order")
	}
	o, err := b.wireOrder(ctx, id)
	if err != nil {
		return trading.OrderResult{}, err
	}
	req := map[string]any{"category": b.category(), "symbol": o.Symbol, "orderId": id}
	for k, v := range map[string]decimal.Decimal{"qty": ch.TotalQuantity, "price": ch.LmtPrice, "triggerPrice": ch.AuxPrice} {
		if !v.IsZero() {
			req[k] = v.String()
		}
	}
	var ack wireOrderAck
	if err := b.c.post(ctx, "/v5/order/amend", req, &ack); err != nil {
		return trading.OrderResult{}, err
	}
	return trading.OrderResult{OrderID: ack.OrderID, Status: trading.StatusSubmitted, Message: "amended"}, nil
}

// CancelOrder posts /v5/order/cancel.
func (b *Broker) CancelOrder(ctx context.Context, id string) (trading.OrderResult, error) {
	o, err := b.wireOrder(ctx, id)
	if err != nil {
		return trading.OrderResult{}, err
	}
	req := map[string]any{"category": b.category(), "symbol": o.Symbol, "orderId": id}
	if b.category() == "spot" {
		// spot keeps untriggered stops apart: cancel names which book (as
		// CCXT does), or Bybit does not find a resting stop
		req["orderFilter"] = "Order"
		if !o.TriggerPrice.dec().IsZero() && o.OrderStatus == "Untriggered" {
			req["orderFilter"] = "StopOrder"
		}
	}
	var ack wireOrderAck
	if err := b.c.post(ctx, "/v5/order/cancel", req, &ack); err != nil {
		return trading.OrderResult{}, err
	}
	return trading.OrderResult{OrderID: id, Status: trading.StatusCancelled}, nil
}

// ClosePosition sends a reduce-only market order against the position
// (perpetuals) or sells the coin (spot); zero qty closes all.
func (b *Broker) ClosePosition(ctx context.Context, c trading.Contract, qty decimal.Decimal) (trading.OrderResult, error) {
	ps, err := b.Positions(ctx)
	if err != nil {
		return trading.OrderResult{}, err
	}
	sym := normalise(c.Symbol)
	for _, p := range ps {
		if p.Contract.Symbol != sym && p.Contract.Symbol != sym+b.c.cfg.SettleCoin {
			continue
		}
		size := p.Quantity.Abs()
		if qty.GreaterThan(size) { // staging checked it; the position shrank since
			return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "closing %s %s is more than the %s held now; nothing was sent", qty, p.Contract.Symbol, size)
		}
		if qty.IsPositive() {
			size = qty
		}
		action := trading.Sell
		if p.Side == trading.Short {
			action = trading.Buy
		}
		req := map[string]any{"category": b.category(), "symbol": p.Contract.Symbol, "side": sideToWire(action), "orderType": "Market", "qty": size.String()}
		if b.category() == "linear" {
			req["reduceOnly"] = true
		} else {
			req["marketUnit"] = "baseCoin"
		}
		var ack wireOrderAck
		if err := b.c.post(ctx, "/v5/order/create", req, &ack); err != nil {
			return trading.OrderResult{}, err
		}
		return trading.OrderResult{OrderID: ack.OrderID, Status: trading.StatusSubmitted, Message: "closing"}, nil
	}
	return trading.OrderResult{}, broker.Errorf(broker.CodeNotFound, "no open position in %s", c.Symbol)
}

// wireOrder finds an order among open/recent ones, then in history.
func (b *Broker) wireOrder(ctx context.Context, id string) (wireOrder, error) {
	for _, path := range []string{"/v5/order/realtime", "/v5/order/history"} {
		var l list[wireOrder]
		if err := b.c.get(ctx, path, url.Values{"category": {b.category()}, "orderId": {id}}, &l); err != nil {
			return wireOrder{}, err
		}
		for _, o := range l.List {
			if o.OrderID == id {
				return o, nil
			}
		}
	}
	return wireOrder{}, broker.Errorf(broker.CodeNotFound, "order %q not found", id)
}

func (b *Broker) openOrderOf(w wireOrder) trading.OpenOrder {
	in := wireInstrument{Symbol: w.Symbol, QuoteCoin: b.c.cfg.SettleCoin, SettleCoin: b.c.cfg.SettleCoin, BaseCoin: strings.TrimSuffix(w.Symbol, b.c.cfg.SettleCoin)}
	typ := trading.Market
	switch {
	case w.OrderType == "Limit" && !w.TriggerPrice.dec().IsZero():
		typ = trading.StopLimit
	case w.OrderType == "Limit":
		typ = trading.Limit
	case !w.TriggerPrice.dec().IsZero():
		typ = trading.Stop
	}
	o := trading.OpenOrder{Contract: b.contractOf(in),
		Order: trading.Order{OrderID: w.OrderID, ClientOrderID: w.OrderLinkID, Action: trading.Action(strings.ToUpper(w.Side)),
			OrderType: typ, TotalQuantity: w.Qty.dec(), AuxPrice: w.TriggerPrice.dec(), TIF: trading.TIF(strings.ToUpper(w.TimeInForce))},
		Status: statusFromWire(w.OrderStatus), FilledQty: w.CumExecQty.dec(), AvgFillPrice: w.AvgPrice.dec(),
		RejectReason: w.RejectReason, CreatedAt: w.CreatedTime.time(), UpdatedAt: w.UpdatedTime.time()}
	if typ == trading.Limit || typ == trading.StopLimit {
		o.Order.LmtPrice = w.Price.dec()
	}
	if o.RejectReason == "EC_NoError" {
		o.RejectReason = ""
	}
	if w.MarketUnit == "quoteCoin" {
		// a spot market buy sized in the quote coin (placed elsewhere, by
		// cost): its qty is money, not units (found replaying CCXT's
		// recordings; read as units it looked like 50 BTC)
		o.Order.CashQty, o.Order.TotalQuantity = o.Order.TotalQuantity, decimal.Zero
	}
	return o
}

// Order reads one order.
func (b *Broker) Order(ctx context.Context, id string) (*trading.OpenOrder, error) {
	w, err := b.wireOrder(ctx, id)
	if err != nil {
		return nil, err
	}
	o := b.openOrderOf(w)
	return &o, nil
}

// Orders reads the given orders, or the open ones plus recent history.
func (b *Broker) Orders(ctx context.Context, ids []string) ([]trading.OpenOrder, error) {
	if len(ids) > 0 {
		var out []trading.OpenOrder
		for _, id := range ids {
			o, err := b.Order(ctx, id)
			if broker.CodeOf(err) == broker.CodeNotFound {
				continue
			}
			if err != nil {
				return nil, err
			}
			out = append(out, *o)
		}
		return out, nil
	}
	seen := map[string]bool{}
	out := []trading.OpenOrder{}
	q := url.Values{"category": {b.category()}, "limit": {"50"}}
	if b.category() == "linear" {
		q.Set("settleCoin", b.c.cfg.SettleCoin)
	}
	for _, path := range []string{"/v5/order/realtime", "/v5/order/history"} {
		var l list[wireOrder]
		if err := b.c.get(ctx, path, q, &l); err != nil {
			return nil, err
		}
		for _, w := range l.List {
			if !seen[w.OrderID] {
				seen[w.OrderID] = true
				out = append(out, b.openOrderOf(w))
			}
		}
		q.Del("settleCoin")
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt.After(out[j].CreatedAt) })
	return out, nil
}
