package alpaca

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"

	"github.com/shopspring/decimal"
)

// Broker is an Alpaca account. It implements broker.Broker.
type Broker struct {
	accountID string
	c         *client

	mu     sync.Mutex
	assets []wireAsset // catalogue cache for search, loaded on first use
}

var _ broker.Broker = (*Broker)(nil)

// New builds an adapter for accountID (used in aliceIds).
func New(accountID string, cfg Config, logger *slog.Logger) *Broker {
	return &Broker{accountID: accountID, c: newClient(cfg, logger)}
}

// Init verifies the credentials by reading the account.
func (b *Broker) Init(ctx context.Context) error {
	var a wireAccount
	if err := b.c.do(ctx, http.MethodGet, b.c.cfg.BaseURL, "/v2/account", nil, nil, &a); err != nil {
		return err
	}
	if a.TradingBlocked {
		return broker.Errorf(broker.CodeConfig, "Alpaca account %s has trading blocked", b.accountID)
	}
	return nil
}

// Close releases idle connections.
func (b *Broker) Close() error {
	b.c.http.CloseIdleConnections()
	return nil
}

func (b *Broker) catalog(ctx context.Context) ([]wireAsset, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.assets != nil {
		return b.assets, nil
	}
	var assets []wireAsset
	if err := b.c.do(ctx, http.MethodGet, b.c.cfg.BaseURL, "/v2/assets", url.Values{"status": {"active"}}, nil, &assets); err != nil {
		return nil, err
	}
	sort.Slice(assets, func(i, j int) bool { return assets[i].Symbol < assets[j].Symbol })
	b.assets = assets
	return assets, nil
}

// SearchContracts matches tradable assets by symbol prefix or (for
// patterns of 3+ characters) name. For
// crypto, "BTCUSD" and "BTC" both find "BTC/USD".
func (b *Broker) SearchContracts(ctx context.Context, pattern string, class trading.AssetClass) ([]trading.Contract, error) {
	assets, err := b.catalog(ctx)
	if err != nil {
		return nil, err
	}
	p := strings.ToUpper(strings.TrimSpace(pattern))
	compact := strings.ReplaceAll(p, "/", "")
	var out []trading.Contract
	for _, a := range assets {
		_, ac := secTypeOf(a.Class)
		if !a.Tradable || (class != "" && class != trading.Unknown && class != ac) {
			continue
		}
		sym := strings.ToUpper(a.Symbol)
		if p == "" || strings.HasPrefix(sym, p) || strings.HasPrefix(strings.ReplaceAll(sym, "/", ""), compact) ||
			(len(p) >= 3 && strings.Contains(strings.ToUpper(a.Name), p)) {
			out = append(out, b.contractOf(a.Symbol, a.Class, a.Exchange, a.Name))
		}
		if len(out) >= 50 {
			break
		}
	}
	return out, nil
}

func (b *Broker) asset(ctx context.Context, symbol string) (wireAsset, error) {
	var a wireAsset
	err := b.c.do(ctx, http.MethodGet, b.c.cfg.BaseURL, "/v2/assets/"+url.PathEscape(symbol), nil, nil, &a)
	return a, err
}

// ContractDetails reads /v2/assets/{symbol}.
func (b *Broker) ContractDetails(ctx context.Context, q trading.Contract) (*trading.ContractDetails, error) {
	sym := q.Symbol
	if sym == "" && q.AliceID != "" {
		_, k, err := trading.SplitAliceID(q.AliceID)
		if err != nil {
			return nil, err
		}
		sym = k
	}
	a, err := b.asset(ctx, sym)
	if err != nil {
		return nil, err
	}
	d := &trading.ContractDetails{Contract: b.contractOf(a.Symbol, a.Class, a.Exchange, a.Name), Multiplier: "1",
		Tradable: a.Tradable, Fractionable: a.Fractionable, OrderTypes: b.Capabilities().SupportedOrderTypes}
	if a.Fractionable {
		d.LotSize = decimal.New(1, -9) // Alpaca takes fractional quantities to 9 decimals
	}
	if a.MinTradeIncrement.IsPositive() {
		d.LotSize = a.MinTradeIncrement
	}
	if a.MinOrderSize.IsPositive() {
		d.MinQty = a.MinOrderSize
	}
	if a.PriceIncrement.IsPositive() {
		d.MinTick = a.PriceIncrement
	}
	return d, nil
}

// Capabilities lists what the adapter maps.
func (b *Broker) Capabilities() trading.Capabilities { return Declared() }

// Declared is what Alpaca accepts per asset class (its orders API):
// equities take every mapped type, DAY/GTC/IOC/FOK/OPG, notional (cash)
// orders, extended hours and brackets; crypto takes MKT, LMT and STP LMT
// with GTC or IOC only.
func Declared() trading.Capabilities {
	return trading.Declare("Alpaca",
		trading.ClassCaps{Class: trading.Equity,
			OrderTypes: []trading.OrderType{trading.Market, trading.Limit, trading.Stop, trading.StopLimit, trading.Trail},
			TIFs:       []trading.TIF{trading.Day, trading.GTC, trading.IOC, trading.FOK, trading.OPG}, DefaultTIF: trading.Day,
			Fractional: true, CashOrders: true, ExtendedHours: true, Brackets: true},
		trading.ClassCaps{Class: trading.Crypto,
			OrderTypes: []trading.OrderType{trading.Market, trading.Limit, trading.StopLimit},
			TIFs:       []trading.TIF{trading.GTC, trading.IOC}, DefaultTIF: trading.GTC,
			Fractional: true, CashOrders: true})
}

// NativeKey is the Alpaca symbol.
func (b *Broker) NativeKey(c trading.Contract) string { return c.Symbol }

// ResolveNativeKey looks the symbol up.
func (b *Broker) ResolveNativeKey(ctx context.Context, key string) (trading.Contract, error) {
	a, err := b.asset(ctx, key)
	if err != nil {
		return trading.Contract{}, err
	}
	return b.contractOf(a.Symbol, a.Class, a.Exchange, a.Name), nil
}

// PlaceOrder posts /v2/orders. TP/SL legs become a bracket order.
func (b *Broker) PlaceOrder(ctx context.Context, c trading.Contract, o trading.Order, tpsl *trading.TPSL) (trading.OrderResult, error) {
	typ, ok := orderTypeToWire[o.OrderType]
	if !ok {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "order type %s is not supported by Alpaca", o.OrderType)
	}
	if o.TIF == "" {
		o.TIF = trading.Day
	}
	tif, ok := tifToWire[o.TIF]
	if !ok {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "time in force %s is not supported by Alpaca", o.TIF)
	}
	req := wireOrderRequest{Symbol: c.Symbol, Qty: str(o.TotalQuantity), Notional: str(o.CashQty), Side: strings.ToLower(string(o.Action)),
		Type: typ, TimeInForce: tif, LimitPrice: str(o.LmtPrice), StopPrice: str(o.AuxPrice), TrailPrice: str(o.TrailStopPrice),
		TrailPercent: str(o.TrailingPercent), ExtendedHours: o.OutsideRTH, ClientOrderID: o.ClientOrderID}
	if req.Qty != "" {
		req.Notional = ""
	}
	if tpsl != nil && (tpsl.TakeProfit != nil || tpsl.StopLoss != nil) {
		req.OrderClass = "bracket"
		if tpsl.TakeProfit != nil {
			req.TakeProfit = &wireTakeProfit{LimitPrice: tpsl.TakeProfit.Price.String()}
		}
		if tpsl.StopLoss != nil {
			req.StopLoss = &wireStopLoss{StopPrice: tpsl.StopLoss.Price.String(), LimitPrice: str(tpsl.StopLoss.LimitPrice)}
		}
		if req.TakeProfit == nil || req.StopLoss == nil {
			req.OrderClass = "oto"
		}
	}
	var w wireOrder
	if err := b.c.do(ctx, http.MethodPost, b.c.cfg.BaseURL, "/v2/orders", nil, req, &w); err != nil {
		return trading.OrderResult{}, err
	}
	return resultOf(w), nil
}

// ModifyOrder patches /v2/orders/{id}; Alpaca replaces the order, so the
// result carries the new order id.
func (b *Broker) ModifyOrder(ctx context.Context, id string, ch trading.OrderChanges) (trading.OrderResult, error) {
	body := map[string]string{}
	for k, v := range map[string]decimal.Decimal{"qty": ch.TotalQuantity, "limit_price": ch.LmtPrice, "stop_price": ch.AuxPrice, "trail": ch.TrailStopPrice} {
		if !v.IsZero() {
			body[k] = v.String()
		}
	}
	if ch.TIF != "" {
		tif, ok := tifToWire[ch.TIF]
		if !ok {
			return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "time in force %s is not supported by Alpaca", ch.TIF)
		}
		body["time_in_force"] = tif
	}
	if ch.OrderType != "" {
		return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "Alpaca cannot change an order's type; cancel and place a new order")
	}
	var w wireOrder
	if err := b.c.do(ctx, http.MethodPatch, b.c.cfg.BaseURL, "/v2/orders/"+url.PathEscape(id), nil, body, &w); err != nil {
		return trading.OrderResult{}, err
	}
	return resultOf(w), nil
}

// CancelOrder deletes /v2/orders/{id}.
func (b *Broker) CancelOrder(ctx context.Context, id string) (trading.OrderResult, error) {
	if err := b.c.do(ctx, http.MethodDelete, b.c.cfg.BaseURL, "/v2/orders/"+url.PathEscape(id), nil, nil, nil); err != nil {
		return trading.OrderResult{}, err
	}
	return trading.OrderResult{OrderID: id, Status: trading.StatusCancelled}, nil
}

// ClosePosition deletes /v2/positions/{symbol}, optionally with qty.
func (b *Broker) ClosePosition(ctx context.Context, c trading.Contract, qty decimal.Decimal) (trading.OrderResult, error) {
	q := url.Values{}
	if qty.IsPositive() {
		q.Set("qty", qty.String())
	}
	var w wireOrder
	if err := b.c.do(ctx, http.MethodDelete, b.c.cfg.BaseURL, "/v2/positions/"+url.PathEscape(c.Symbol), q, nil, &w); err != nil {
		return trading.OrderResult{}, err
	}
	return resultOf(w), nil
}

// Account reads /v2/account; unrealized P&L is summed from positions.
func (b *Broker) Account(ctx context.Context) (trading.AccountInfo, error) {
	var a wireAccount
	if err := b.c.do(ctx, http.MethodGet, b.c.cfg.BaseURL, "/v2/account", nil, nil, &a); err != nil {
		return trading.AccountInfo{}, err
	}
	pos, err := b.Positions(ctx)
	if err != nil {
		return trading.AccountInfo{}, err
	}
	info := trading.AccountInfo{BaseCurrency: strings.ToUpper(firstNonEmpty(a.Currency, "USD")), NetLiquidation: a.Equity,
		TotalCashValue: a.Cash, BuyingPower: a.BuyingPower}
	for _, p := range pos {
		info.UnrealizedPnL = info.UnrealizedPnL.Add(p.UnrealizedPnL)
	}
	return info, nil
}

// Positions reads /v2/positions.
func (b *Broker) Positions(ctx context.Context) ([]trading.Position, error) {
	var ws []wirePosition
	if err := b.c.do(ctx, http.MethodGet, b.c.cfg.BaseURL, "/v2/positions", nil, nil, &ws); err != nil {
		return nil, err
	}
	out := make([]trading.Position, 0, len(ws))
	for _, w := range ws {
		side := trading.Long
		if w.Side == "short" {
			side = trading.Short
		}
		out = append(out, trading.Position{Contract: b.contractOf(w.Symbol, w.AssetClass, w.Exchange, ""), Currency: "USD",
			Side: side, Quantity: w.Qty.Abs(), AvgCost: w.AvgEntryPrice, MarketPrice: w.CurrentPrice, MarketValue: w.MarketValue,
			UnrealizedPnL: w.UnrealizedPL, Multiplier: "1"})
	}
	return out, nil
}

// Orders reads the given orders, or the 100 most recent when ids is empty.
func (b *Broker) Orders(ctx context.Context, ids []string) ([]trading.OpenOrder, error) {
	if len(ids) == 0 {
		var ws []wireOrder
		q := url.Values{"status": {"all"}, "limit": {"100"}, "direction": {"desc"}}
		if err := b.c.do(ctx, http.MethodGet, b.c.cfg.BaseURL, "/v2/orders", q, nil, &ws); err != nil {
			return nil, err
		}
		out := make([]trading.OpenOrder, 0, len(ws))
		for _, w := range ws {
			out = append(out, b.openOrderOf(w))
		}
		return out, nil
	}
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

// Order reads /v2/orders/{id}.
func (b *Broker) Order(ctx context.Context, id string) (*trading.OpenOrder, error) {
	var w wireOrder
	if err := b.c.do(ctx, http.MethodGet, b.c.cfg.BaseURL, "/v2/orders/"+url.PathEscape(id), nil, nil, &w); err != nil {
		return nil, err
	}
	o := b.openOrderOf(w)
	return &o, nil
}

// Quote reads the latest quote and trade from the data API.
func (b *Broker) Quote(ctx context.Context, c trading.Contract) (trading.Quote, error) {
	var q wireQuote
	var t wireTrade
	if strings.Contains(c.Symbol, "/") || c.AssetClass == trading.Crypto {
		sym := c.Symbol
		var qs struct {
			Quotes map[string]wireQuote `json:"quotes"`
		}
		var ts struct {
			Trades map[string]wireTrade `json:"trades"`
		}
		v := url.Values{"symbols": {sym}}
		if err := b.c.do(ctx, http.MethodGet, b.c.cfg.DataURL, "/v1beta3/crypto/us/latest/quotes", v, nil, &qs); err != nil {
			return trading.Quote{}, err
		}
		if err := b.c.do(ctx, http.MethodGet, b.c.cfg.DataURL, "/v1beta3/crypto/us/latest/trades", v, nil, &ts); err != nil {
			return trading.Quote{}, err
		}
		q, t = qs.Quotes[sym], ts.Trades[sym]
	} else {
		var qr struct {
			Quote wireQuote `json:"quote"`
		}
		var tr struct {
			Trade wireTrade `json:"trade"`
		}
		path := "/v2/stocks/" + url.PathEscape(c.Symbol)
		if err := b.c.do(ctx, http.MethodGet, b.c.cfg.DataURL, path+"/quotes/latest", nil, nil, &qr); err != nil {
			return trading.Quote{}, err
		}
		if err := b.c.do(ctx, http.MethodGet, b.c.cfg.DataURL, path+"/trades/latest", nil, nil, &tr); err != nil {
			return trading.Quote{}, err
		}
		q, t = qr.Quote, tr.Trade
	}
	if q.AskPrice.IsZero() && t.Price.IsZero() {
		return trading.Quote{}, broker.Errorf(broker.CodeNotFound, "no quote for %s", c.Symbol)
	}
	ts := t.T
	if q.T.After(ts) {
		ts = q.T
	}
	return trading.Quote{Contract: b.contractOf(c.Symbol, string(c.AssetClass), "", ""), Last: t.Price, Bid: q.BidPrice,
		Ask: q.AskPrice, Volume: t.Size, Timestamp: ts}, nil
}

// MarketClock reads /v2/clock.
func (b *Broker) MarketClock(ctx context.Context) (trading.MarketClock, error) {
	var w wireClock
	if err := b.c.do(ctx, http.MethodGet, b.c.cfg.BaseURL, "/v2/clock", nil, nil, &w); err != nil {
		return trading.MarketClock{}, err
	}
	mc := trading.MarketClock{IsOpen: w.IsOpen, Timestamp: w.Timestamp}
	if !w.NextOpen.IsZero() {
		mc.NextOpen = &w.NextOpen
	}
	if !w.NextClose.IsZero() {
		mc.NextClose = &w.NextClose
	}
	return mc, nil
}

// String identifies the adapter in logs.
func (b *Broker) String() string { return fmt.Sprintf("alpaca(%s @ %s)", b.accountID, b.c.cfg.BaseURL) }
