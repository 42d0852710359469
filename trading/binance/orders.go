package binance

import (
	"context"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

func sideOf(a trading.Action) string {
	if a == trading.Sell {
		return "SELL"
	}
	return "BUY"
}

var tifs = map[trading.TIF]string{trading.GTC: "GTC", trading.IOC: "IOC", trading.FOK: "FOK"}

// orderParams builds a new order's parameters for this market.
func (b *Broker) orderParams(sym string, o trading.Order) (url.Values, error) {
	if o.TotalQuantity.IsZero() {
		return nil, broker.Errorf(broker.CodeExchange, "Binance orders need totalQuantity (cashQty is not supported)")
	}
	tif, ok := tifs[o.TIF]
	if !ok {
		if o.TIF != "" && o.TIF != trading.Day {
			return nil, broker.Errorf(broker.CodeExchange, "time in force %q is not supported by Binance (it accepts GTC, IOC, FOK)", o.TIF)
		}
		if o.TIF == trading.Day && o.OrderType != trading.Market && o.OrderType != trading.Stop {
			return nil, broker.Errorf(broker.CodeExchange, "time in force DAY is not supported by Binance (it accepts GTC, IOC, FOK)")
		}
		tif = "GTC"
	}
	q := url.Values{"symbol": {sym}, "side": {sideOf(o.Action)}, "quantity": {o.TotalQuantity.String()}}
	if o.ClientOrderID != "" {
		q.Set("newClientOrderId", o.ClientOrderID)
	}
	switch o.OrderType {
	case trading.Market:
		q.Set("type", "MARKET")
	case trading.Limit:
		q.Set("type", "LIMIT")
		q.Set("price", o.LmtPrice.String())
		q.Set("timeInForce", tif)
	case trading.Stop:
		q.Set("type", b.path("STOP_LOSS", "STOP_MARKET"))
		q.Set("stopPrice", o.AuxPrice.String())
	case trading.StopLimit:
		q.Set("type", b.path("STOP_LOSS_LIMIT", "STOP"))
		q.Set("stopPrice", o.AuxPrice.String())
		q.Set("price", o.LmtPrice.String())
		q.Set("timeInForce", tif)
	default:
		return nil, broker.Errorf(broker.CodeExchange, "order type %s is not supported by Binance", o.OrderType)
	}
	if !b.futures() {
		q.Set("newOrderRespType", "ACK")
	}
	return q, nil
}

// PlaceOrder posts a new order; the answer is an acknowledgement, so the
// result is Submitted and Order() reports the fill.
func (b *Broker) PlaceOrder(ctx context.Context, c trading.Contract, o trading.Order, tpsl *trading.TPSL) (trading.OrderResult, error) {
	if err := o.Validate(); err != nil {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "invalid order: %v", err)
	}
	if tpsl != nil && (tpsl.TakeProfit != nil || tpsl.StopLoss != nil) {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "Binance orders cannot carry take-profit/stop-loss legs here; place the exit orders separately")
	}
	s, err := b.symbol(ctx, c.Symbol)
	if err != nil {
		return trading.OrderResult{}, err
	}
	q, err := b.orderParams(s.Symbol, o)
	if err != nil {
		return trading.OrderResult{}, err
	}
	var ack wireOrder
	if err := b.c.call(ctx, http.MethodPost, b.path("/api/v3/order", "/fapi/v1/order"), q, true, &ack); err != nil {
		return trading.OrderResult{}, err
	}
	b.remember(string(ack.OrderID), s.Symbol)
	return trading.OrderResult{OrderID: string(ack.OrderID), Status: trading.StatusSubmitted, Message: "accepted by Binance"}, nil
}

// ModifyOrder amends a futures order in place (PUT /fapi/v1/order: limit
// orders, price and quantity); on spot it is cancel-replace
// (POST /api/v3/order/cancelReplace), so the order gets a new id.
func (b *Broker) ModifyOrder(ctx context.Context, id string, ch trading.OrderChanges) (trading.OrderResult, error) {
	if ch.OrderType != "" || ch.TIF != "" || ch.GoodTillDate != "" {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "Binance cannot change an order's type or time in force; cancel and place a new order")
	}
	w, err := b.wireOrder(ctx, id)
	if err != nil {
		return trading.OrderResult{}, err
	}
	if !status(w.Status).Pending() {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "order %s is %s and can no longer be modified", id, w.Status)
	}
	cur := b.openOrderOf(w).Order
	next := ch.Apply(cur)
	if b.futures() {
		if cur.OrderType != trading.Limit || !ch.AuxPrice.IsZero() {
			return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "Binance futures amends only limit orders' price and quantity; cancel and place a new order")
		}
		q := url.Values{"symbol": {w.Symbol}, "orderId": {id}, "side": {w.Side}, "quantity": {next.TotalQuantity.String()}, "price": {next.LmtPrice.String()}}
		var ack wireOrder
		if err := b.c.call(ctx, http.MethodPut, "/fapi/v1/order", q, true, &ack); err != nil {
			return trading.OrderResult{}, err
		}
		b.remember(string(ack.OrderID), w.Symbol)
		return trading.OrderResult{OrderID: string(ack.OrderID), Status: trading.StatusSubmitted, Message: "amended"}, nil
	}
	next.ClientOrderID, next.TIF = "", trading.TIF(w.TimeInForce)
	if next.OrderType == trading.Market || next.OrderType == trading.Stop {
		next.TIF = ""
	}
	q, err := b.orderParams(w.Symbol, next)
	if err != nil {
		return trading.OrderResult{}, err
	}
	q.Set("cancelReplaceMode", "STOP_ON_FAILURE")
	q.Set("cancelOrderId", id)
	var r struct {
		NewOrderResponse wireOrder `json:"newOrderResponse"`
	}
	if err := b.c.call(ctx, http.MethodPost, "/api/v3/order/cancelReplace", q, true, &r); err != nil {
		return trading.OrderResult{}, err
	}
	b.remember(string(r.NewOrderResponse.OrderID), w.Symbol)
	return trading.OrderResult{OrderID: string(r.NewOrderResponse.OrderID), Status: trading.StatusSubmitted, Message: "replaced (new order id)"}, nil
}

// CancelOrder deletes an open order.
func (b *Broker) CancelOrder(ctx context.Context, id string) (trading.OrderResult, error) {
	w, err := b.wireOrder(ctx, id)
	if err != nil {
		return trading.OrderResult{}, err
	}
	if !status(w.Status).Pending() {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "order %s is %s and can no longer be cancelled", id, w.Status)
	}
	q := url.Values{"symbol": {w.Symbol}, "orderId": {id}}
	if err := b.c.call(ctx, http.MethodDelete, b.path("/api/v3/order", "/fapi/v1/order"), q, true, nil); err != nil {
		return trading.OrderResult{}, err
	}
	return trading.OrderResult{OrderID: id, Status: trading.StatusCancelled}, nil
}

// ClosePosition sends a market order against the position: reduce-only on
// futures, a sell of the holding on spot; zero qty closes all.
func (b *Broker) ClosePosition(ctx context.Context, c trading.Contract, qty decimal.Decimal) (trading.OrderResult, error) {
	ps, err := b.Positions(ctx)
	if err != nil {
		return trading.OrderResult{}, err
	}
	sym := normalise(c.Symbol)
	for _, p := range ps {
		if p.Contract.Symbol != sym && p.Contract.Symbol != sym+b.c.cfg.Quote {
			continue
		}
		size := p.Quantity
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
		q := url.Values{"symbol": {p.Contract.Symbol}, "side": {sideOf(action)}, "type": {"MARKET"}, "quantity": {size.String()}}
		if b.futures() {
			q.Set("reduceOnly", "true")
		}
		var ack wireOrder
		if err := b.c.call(ctx, http.MethodPost, b.path("/api/v3/order", "/fapi/v1/order"), q, true, &ack); err != nil {
			return trading.OrderResult{}, err
		}
		b.remember(string(ack.OrderID), p.Contract.Symbol)
		return trading.OrderResult{OrderID: string(ack.OrderID), Status: trading.StatusSubmitted, Message: "closing"}, nil
	}
	return trading.OrderResult{}, broker.Errorf(broker.CodeNotFound, "no open position in %s", c.Symbol)
}

// wireOrder finds an order by id. Binance's order query needs the symbol:
// the one remembered from placing it, else the open orders are searched,
// then the catalogue symbol by symbol (an order placed before a restart
// that is no longer open).
func (b *Broker) wireOrder(ctx context.Context, id string) (wireOrder, error) {
	if sym := b.recall(id); sym != "" {
		var w wireOrder
		err := b.c.call(ctx, http.MethodGet, b.path("/api/v3/order", "/fapi/v1/order"), url.Values{"symbol": {sym}, "orderId": {id}}, true, &w)
		return w, err
	}
	var open []wireOrder
	if err := b.c.call(ctx, http.MethodGet, b.path("/api/v3/openOrders", "/fapi/v1/openOrders"), nil, true, &open); err != nil {
		return wireOrder{}, err
	}
	for _, w := range open {
		b.remember(string(w.OrderID), w.Symbol)
		if string(w.OrderID) == id {
			return w, nil
		}
	}
	m, err := b.catalog(ctx)
	if err != nil {
		return wireOrder{}, err
	}
	syms := make([]string, 0, len(m))
	for s := range m {
		syms = append(syms, s)
	}
	sort.Strings(syms)
	for _, s := range syms {
		var w wireOrder
		err := b.c.call(ctx, http.MethodGet, b.path("/api/v3/order", "/fapi/v1/order"), url.Values{"symbol": {s}, "orderId": {id}}, true, &w)
		if broker.CodeOf(err) == broker.CodeNotFound {
			continue
		}
		if err != nil {
			return wireOrder{}, err
		}
		b.remember(id, s)
		return w, nil
	}
	return wireOrder{}, broker.Errorf(broker.CodeNotFound, "order %q not found", id)
}

func (b *Broker) openOrderOf(w wireOrder) trading.OpenOrder {
	base := strings.TrimSuffix(w.Symbol, b.c.cfg.Quote)
	s := wireSymbol{Symbol: w.Symbol, BaseAsset: base, QuoteAsset: b.c.cfg.Quote}
	typ := orderType(w.Type)
	tif := trading.TIF(w.TimeInForce)
	if _, ok := tifs[tif]; !ok {
		tif = trading.GTC // GTX (post-only) and GTD show as GTC
	}
	o := trading.OpenOrder{Contract: b.contractOf(s),
		Order: trading.Order{OrderID: string(w.OrderID), ClientOrderID: w.ClientOrderID, Action: trading.Action(w.Side), OrderType: typ,
			TotalQuantity: w.OrigQty.dec(), AuxPrice: w.StopPrice.dec(), TIF: tif},
		Status: status(w.Status), FilledQty: w.ExecutedQty.dec(), AvgFillPrice: w.avgFill(),
		CreatedAt: msTime(w.Time), UpdatedAt: msTime(w.UpdateTime)}
	if o.CreatedAt.IsZero() {
		o.CreatedAt = msTime(w.TransactTime)
	}
	if typ == trading.Limit || typ == trading.StopLimit {
		o.Order.LmtPrice = w.Price.dec()
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

// Orders reads the given orders, or every open order.
func (b *Broker) Orders(ctx context.Context, ids []string) ([]trading.OpenOrder, error) {
	out := []trading.OpenOrder{}
	if len(ids) > 0 {
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
	var open []wireOrder
	if err := b.c.call(ctx, http.MethodGet, b.path("/api/v3/openOrders", "/fapi/v1/openOrders"), nil, true, &open); err != nil {
		return nil, err
	}
	for _, w := range open {
		out = append(out, b.openOrderOf(w))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt.After(out[j].CreatedAt) })
	return out, nil
}
