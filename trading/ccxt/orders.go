//go:build ccxt

package ccxt

import (
	"context"
	"strings"
	"time"

	ccxtlib "github.com/ccxt/ccxt/go/v4"
	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

// f64 hands a decimal to CCXT, whose Go API takes float64 amounts and
// prices; CCXT then formats them with the market's precision
// (amountToPrecision / priceToPrecision) before they go on the wire. A
// value with more than ~15 significant digits is rounded here.
func f64(d decimal.Decimal) float64 { return d.InexactFloat64() }

// orderShape maps alice's order type to CCXT's (type, price, trigger).
// Stops are CCXT's unified trigger orders: a market or limit order with
// params.triggerPrice.
func orderShape(o trading.Order) (typ string, price, trigger decimal.Decimal, err error) {
	switch o.OrderType {
	case trading.Market:
		return "market", decimal.Zero, decimal.Zero, nil
	case trading.Limit:
		if !o.LmtPrice.IsPositive() {
			return "", price, trigger, broker.Errorf(broker.CodeExchange, "a limit order needs lmtPrice")
		}
		return "limit", o.LmtPrice, decimal.Zero, nil
	case trading.Stop:
		if !o.AuxPrice.IsPositive() {
			return "", price, trigger, broker.Errorf(broker.CodeExchange, "a stop order needs auxPrice (the trigger)")
		}
		return "market", decimal.Zero, o.AuxPrice, nil
	case trading.StopLimit:
		if !o.AuxPrice.IsPositive() || !o.LmtPrice.IsPositive() {
			return "", price, trigger, broker.Errorf(broker.CodeExchange, "a stop-limit order needs auxPrice and lmtPrice")
		}
		return "limit", o.LmtPrice, o.AuxPrice, nil
	}
	return "", price, trigger, broker.Errorf(broker.CodeExchange, "order type %s is not supported through CCXT (MKT, LMT, STP, STP LMT)", o.OrderType)
}

func tifParam(t trading.TIF) (string, error) {
	switch t {
	case "", trading.GTC, trading.Day: // a 24/7 market has no session end: DAY is GTC
		return "GTC", nil
	case trading.IOC, trading.FOK:
		return string(t), nil
	}
	return "", broker.Errorf(broker.CodeExchange, "time in force %s is not supported through CCXT (GTC, IOC, FOK; DAY is treated as GTC)", t)
}

// PlaceOrder sends a unified createOrder. TP/SL legs ride along as CCXT's
// unified takeProfit/stopLoss params where the exchange supports them.
func (b *Broker) PlaceOrder(ctx context.Context, c trading.Contract, o trading.Order, tpsl *trading.TPSL) (trading.OrderResult, error) {
	return b.place(ctx, c, o, tpsl, nil)
}

// place is PlaceOrder with extra CCXT params (reduceOnly for closes).
func (b *Broker) place(ctx context.Context, c trading.Contract, o trading.Order, tpsl *trading.TPSL, extra map[string]any) (trading.OrderResult, error) {
	typ, price, trigger, err := orderShape(o)
	if err != nil {
		return trading.OrderResult{}, err
	}
	tif, err := tifParam(o.TIF)
	if err != nil {
		return trading.OrderResult{}, err
	}
	if !o.TotalQuantity.IsPositive() {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "totalQuantity must be positive (CCXT orders are sized in base units)")
	}
	params := map[string]any{"timeInForce": tif}
	for k, v := range extra {
		params[k] = v
	}
	if o.ClientOrderID != "" {
		params["clientOrderId"] = o.ClientOrderID
	}
	if trigger.IsPositive() {
		params["triggerPrice"] = f64(trigger)
	}
	if tpsl != nil {
		for key, leg := range map[string]*trading.PriceLeg{"takeProfit": tpsl.TakeProfit, "stopLoss": tpsl.StopLoss} {
			if leg == nil {
				continue
			}
			p := map[string]any{"triggerPrice": f64(leg.Price)}
			if leg.LimitPrice.IsPositive() {
				p["price"] = f64(leg.LimitPrice)
			}
			params[key] = p
		}
	}
	var res trading.OrderResult
	err = b.call(ctx, func(ex exchange) error {
		mk, err := b.marketLocked(c.Symbol)
		if err != nil {
			return err
		}
		sym := str(mk.Symbol)
		opts := []ccxtlib.CreateOrderOptions{ccxtlib.WithCreateOrderParams(params)}
		if price.IsPositive() {
			opts = append(opts, ccxtlib.WithCreateOrderPrice(f64(price)))
		} else if typ == "market" && b.cfg.Exchange == "hyperliquid" {
			// Hyperliquid has no true market order: CCXT sends an IOC limit
			// at this reference price plus its slippage allowance, and
			// refuses a market order without one.
			t, err := ex.FetchTicker(sym)
			if err != nil {
				return wrap(err, "%s ticker %s (reference price for a market order)", b.cfg.Exchange, sym)
			}
			ref := dec(t.Last)
			if !ref.IsPositive() {
				return broker.Errorf(broker.CodeExchange, "%s has no last price for %s to size a market order's slippage", b.cfg.Exchange, sym)
			}
			opts = append(opts, ccxtlib.WithCreateOrderPrice(f64(ref)))
		}
		got, err := ex.CreateOrder(sym, typ, side(o.Action), f64(o.TotalQuantity), opts...)
		if err != nil {
			return wrap(err, "%s %s %s %s", b.cfg.Exchange, o.Action, o.TotalQuantity, sym)
		}
		id := str(got.Id)
		if id == "" {
			return broker.Errorf(broker.CodeUnknown, "%s accepted the order but returned no id", b.cfg.Exchange)
		}
		b.symbols[id] = sym
		if trigger.IsPositive() {
			b.triggers[id] = true
		}
		oo := b.openOrder(got, sym)
		res = trading.OrderResult{OrderID: id, Status: oo.Status, FilledQty: oo.FilledQty, FilledPrice: oo.AvgFillPrice}
		return nil
	})
	return res, err
}

func side(a trading.Action) string {
	if a == trading.Sell {
		return "sell"
	}
	return "buy"
}

// ModifyOrder uses CCXT's editOrder when the exchange has it (the id may
// change: some venues replace the order), else cancels and re-places.
func (b *Broker) ModifyOrder(ctx context.Context, id string, ch trading.OrderChanges) (trading.OrderResult, error) {
	cur, err := b.Order(ctx, id)
	if err != nil {
		return trading.OrderResult{}, err
	}
	if !cur.Status.Pending() {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "order %s is %s and cannot be modified", id, cur.Status)
	}
	next := cur.Order
	if ch.TotalQuantity.IsPositive() {
		next.TotalQuantity = ch.TotalQuantity
	}
	if ch.LmtPrice.IsPositive() {
		next.LmtPrice = ch.LmtPrice
	}
	if ch.AuxPrice.IsPositive() {
		next.AuxPrice = ch.AuxPrice
	}
	if ch.OrderType != "" && ch.OrderType != next.OrderType {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "changing the order type is not supported; cancel and place a new order")
	}
	typ, price, trigger, err := orderShape(next)
	if err != nil {
		return trading.OrderResult{}, err
	}
	var res trading.OrderResult
	err = b.call(ctx, func(ex exchange) error {
		sym := cur.Contract.Symbol
		if has(ex, "editOrder") {
			params := map[string]any{}
			if trigger.IsPositive() {
				params["triggerPrice"] = f64(trigger)
			}
			if b.triggers[id] {
				params["trigger"] = true
			}
			opts := []ccxtlib.EditOrderOptions{ccxtlib.WithEditOrderAmount(f64(next.TotalQuantity)), ccxtlib.WithEditOrderParams(params)}
			if price.IsPositive() {
				opts = append(opts, ccxtlib.WithEditOrderPrice(f64(price)))
			}
			got, err := ex.EditOrder(id, sym, typ, side(next.Action), opts...)
			if err != nil {
				return wrap(err, "%s modify %s", b.cfg.Exchange, id)
			}
			nid := str(got.Id)
			if nid == "" {
				nid = id
			}
			b.symbols[nid] = sym
			b.triggers[nid] = b.triggers[id]
			res = trading.OrderResult{OrderID: nid, Status: trading.StatusSubmitted}
			return nil
		}
		if _, err := ex.CancelOrder(id, ccxtlib.WithCancelOrderSymbol(sym), ccxtlib.WithCancelOrderParams(b.triggerParams(id))); err != nil {
			return wrap(err, "%s cancel %s (to replace it)", b.cfg.Exchange, id)
		}
		rest := next.TotalQuantity.Sub(cur.FilledQty)
		params := map[string]any{}
		if trigger.IsPositive() {
			params["triggerPrice"] = f64(trigger)
		}
		opts := []ccxtlib.CreateOrderOptions{ccxtlib.WithCreateOrderParams(params)}
		if price.IsPositive() {
			opts = append(opts, ccxtlib.WithCreateOrderPrice(f64(price)))
		}
		got, err := ex.CreateOrder(sym, typ, side(next.Action), f64(rest), opts...)
		if err != nil {
			return wrap(err, "%s replace %s (the original is cancelled)", b.cfg.Exchange, id)
		}
		b.symbols[str(got.Id)] = sym
		b.triggers[str(got.Id)] = trigger.IsPositive()
		res = trading.OrderResult{OrderID: str(got.Id), Status: trading.StatusSubmitted, Message: "replaced " + id}
		return nil
	})
	return res, err
}

// triggerParams marks a conditional order: exchanges such as OKX keep
// them apart (algo orders) and CCXT routes on params.trigger. Callers
// hold mu.
func (b *Broker) triggerParams(id string) map[string]any {
	if b.triggers[id] {
		return map[string]any{"trigger": true}
	}
	return map[string]any{}
}

func has(ex exchange, feature string) bool {
	v := ex.GetHas()[feature]
	b, ok := v.(bool)
	return ok && b
}

// CancelOrder cancels by id.
func (b *Broker) CancelOrder(ctx context.Context, id string) (trading.OrderResult, error) {
	sym, err := b.symbolOf(ctx, id)
	if err != nil {
		return trading.OrderResult{}, err
	}
	var res trading.OrderResult
	err = b.call(ctx, func(ex exchange) error {
		if _, err := ex.CancelOrder(id, ccxtlib.WithCancelOrderSymbol(sym), ccxtlib.WithCancelOrderParams(b.triggerParams(id))); err != nil {
			return wrap(err, "%s cancel %s", b.cfg.Exchange, id)
		}
		res = trading.OrderResult{OrderID: id, Status: trading.StatusCancelled}
		return nil
	})
	return res, err
}

// ClosePosition sells a long (or buys back a short) at market; zero qty
// closes all of it. Derivative closes are reduceOnly, so a close racing a
// fill can never flip the position.
func (b *Broker) ClosePosition(ctx context.Context, c trading.Contract, qty decimal.Decimal) (trading.OrderResult, error) {
	var bal ccxtlib.Balances
	if err := b.call(ctx, func(ex exchange) error {
		var err error
		bal, err = ex.FetchBalance()
		return wrap(err, "%s balance", b.cfg.Exchange)
	}); err != nil {
		return trading.OrderResult{}, err
	}
	ps, err := b.positionsFrom(ctx, bal)
	if err != nil {
		return trading.OrderResult{}, err
	}
	for _, p := range ps {
		if !strings.EqualFold(p.Contract.Symbol, c.Symbol) {
			continue
		}
		q := p.Quantity.Abs()
		if qty.GreaterThan(q) { // staging checked it; the position shrank since
			return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "closing %s %s is more than the %s held now; nothing was sent", qty, p.Contract.Symbol, q)
		}
		if qty.IsPositive() {
			q = qty
		}
		act := trading.Sell
		if p.Side == trading.Short {
			act = trading.Buy
		}
		var extra map[string]any
		if p.Multiplier != "spot" {
			extra = map[string]any{"reduceOnly": true}
		}
		return b.place(ctx, p.Contract, trading.Order{Action: act, OrderType: trading.Market, TotalQuantity: q, TIF: trading.GTC}, nil, extra)
	}
	return trading.OrderResult{}, broker.Errorf(broker.CodeNotFound, "no %s position to close", c.Symbol)
}

// symbolOf finds the market of an order: remembered from placement, else
// looked up among open orders. Many CCXT exchanges need it for
// fetchOrder and cancelOrder.
func (b *Broker) symbolOf(ctx context.Context, id string) (string, error) {
	b.mu.Lock()
	sym, ok := b.symbols[id]
	b.mu.Unlock()
	if ok {
		return sym, nil
	}
	if _, err := b.Orders(ctx, nil); err != nil { // remembers every open order's symbol
		return "", err
	}
	b.mu.Lock()
	sym, ok = b.symbols[id]
	b.mu.Unlock()
	if !ok {
		return "", broker.Errorf(broker.CodeNotFound, "%s order %s is not an open order of this account and was not placed in this session", b.cfg.Exchange, id)
	}
	return sym, nil
}

// Order fetches one order.
func (b *Broker) Order(ctx context.Context, id string) (*trading.OpenOrder, error) {
	sym, err := b.symbolOf(ctx, id)
	if err != nil {
		return nil, err
	}
	var out *trading.OpenOrder
	err = b.call(ctx, func(ex exchange) error {
		got, err := ex.FetchOrder(id, ccxtlib.WithFetchOrderSymbol(sym), ccxtlib.WithFetchOrderParams(b.triggerParams(id)))
		if err != nil {
			return wrap(err, "%s order %s", b.cfg.Exchange, id)
		}
		oo := b.openOrder(got, sym)
		out = &oo
		return nil
	})
	return out, err
}

// Orders returns the given orders, or the open orders when ids is empty.
func (b *Broker) Orders(ctx context.Context, ids []string) ([]trading.OpenOrder, error) {
	if len(ids) > 0 {
		out := make([]trading.OpenOrder, 0, len(ids))
		for _, id := range ids {
			o, err := b.Order(ctx, id)
			if err != nil {
				return nil, err
			}
			out = append(out, *o)
		}
		return out, nil
	}
	var out []trading.OpenOrder
	err := b.call(ctx, func(ex exchange) error {
		got, err := ex.FetchOpenOrders()
		if err != nil {
			return wrap(err, "%s open orders", b.cfg.Exchange)
		}
		for _, o := range got {
			sym := str(o.Symbol)
			if id := str(o.Id); id != "" && sym != "" {
				b.symbols[id] = sym
			}
			out = append(out, b.openOrder(o, sym))
		}
		return nil
	})
	return out, err
}

// openOrder converts CCXT's unified order. Callers hold mu.
func (b *Broker) openOrder(o ccxtlib.Order, sym string) trading.OpenOrder {
	c := trading.Contract{Symbol: sym, SecType: "CRYPTO", AssetClass: trading.Crypto, Exchange: strings.ToUpper(b.cfg.Exchange)}
	if mk, ok := b.markets[sym]; ok {
		c = b.contractOf(mk)
	}
	ord := trading.Order{OrderID: str(o.Id), ClientOrderID: str(o.ClientOrderId), Action: trading.Buy, TotalQuantity: dec(o.Amount), TIF: trading.GTC}
	if str(o.Side) == "sell" {
		ord.Action = trading.Sell
	}
	trig := dec(o.TriggerPrice)
	switch {
	case str(o.Type) == "limit" && trig.IsPositive():
		ord.OrderType, ord.LmtPrice, ord.AuxPrice = trading.StopLimit, dec(o.Price), trig
	case str(o.Type) == "limit":
		ord.OrderType, ord.LmtPrice = trading.Limit, dec(o.Price)
	case trig.IsPositive():
		ord.OrderType, ord.AuxPrice = trading.Stop, trig
	default:
		ord.OrderType = trading.Market
	}
	oo := trading.OpenOrder{Contract: c, Order: ord, FilledQty: dec(o.Filled), AvgFillPrice: dec(o.Average), UpdatedAt: b.now()}
	switch str(o.Status) {
	case "closed":
		oo.Status = trading.StatusFilled
	case "canceled", "cancelled", "expired":
		oo.Status = trading.StatusCancelled
	case "rejected":
		oo.Status = trading.StatusRejected
	default: // "open", or unknown while the exchange is still working it
		oo.Status = trading.StatusSubmitted
	}
	if o.Timestamp != nil && *o.Timestamp > 0 {
		oo.CreatedAt = time.UnixMilli(*o.Timestamp)
	}
	return oo
}
