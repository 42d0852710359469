//go:build ccxt

package ccxt

import (
	"errors"
	"strings"
	"sync"

	ccxtlib "github.com/ccxt/ccxt/go/v4"
	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading/broker/brokertest"
)

// fakeExchange answers CCXT's unified API from a brokertest.Venue: a spot
// exchange with one quote currency (USDT), whose errors are CCXT's error
// classes, so the broker's conversions and error mapping are exercised
// exactly as a CCXT exchange would drive them.
type fakeExchange struct {
	v     *brokertest.Venue
	quote string

	// positions, when set, makes the fake a derivatives exchange too:
	// fetchPositions answers them and markets with ":" are swaps.
	positions []ccxtlib.Position

	mu    sync.Mutex
	fault brokertest.Fault
	calls map[string]int
	// lastParams are the params of the last createOrder.
	lastParams map[string]interface{}
	lastPrice  *float64
	closed     bool
}

func newFakeExchange(v *brokertest.Venue) *fakeExchange {
	return &fakeExchange{v: v, quote: "USDT", calls: map[string]int{}}
}

func (f *fakeExchange) enter(name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[name]++
	switch f.fault {
	case brokertest.FaultAuth:
		return ccxtlib.AuthenticationError("fake: invalid api key")
	case brokertest.FaultNetwork:
		return ccxtlib.NetworkError("fake: connection refused")
	case brokertest.FaultRateLimit:
		return ccxtlib.RateLimitExceeded("fake: too many requests")
	}
	return nil
}

func (f *fakeExchange) setFault(x brokertest.Fault) {
	f.mu.Lock()
	f.fault = x
	f.mu.Unlock()
}

func ptr[T any](v T) *T { return &v }

func fl(d decimal.Decimal) *float64 { return ptr(d.InexactFloat64()) }

func (f *fakeExchange) LoadMarkets(...interface{}) (map[string]ccxtlib.MarketInterface, error) {
	if err := f.enter("loadMarkets"); err != nil {
		return nil, err
	}
	out := map[string]ccxtlib.MarketInterface{}
	for _, m := range f.GetMarketsList() {
		out[*m.Symbol] = m
	}
	return out, nil
}

func (f *fakeExchange) GetMarketsList() []ccxtlib.MarketInterface {
	var out []ccxtlib.MarketInterface
	for _, s := range f.v.Symbols() {
		base, quote, _ := strings.Cut(s, "/")
		quote, settle, swap := strings.Cut(quote, ":")
		typ := map[bool]string{true: "swap", false: "spot"}[swap]
		out = append(out, ccxtlib.MarketInterface{Symbol: ptr(s), Id: ptr(base + quote), BaseCurrency: ptr(base), QuoteCurrency: ptr(quote),
			Settle: ptr(settle), Type: ptr(typ), Spot: ptr(!swap), Active: ptr(true),
			Info: map[string]interface{}{"precision": map[string]interface{}{"price": 0.01, "amount": 0.0001}}})
	}
	return out
}

func (f *fakeExchange) GetHas() map[string]interface{} {
	return map[string]interface{}{"editOrder": true, "fetchPositions": f.positions != nil}
}

func (f *fakeExchange) FetchBalance(...interface{}) (ccxtlib.Balances, error) {
	if err := f.enter("fetchBalance"); err != nil {
		return ccxtlib.Balances{}, err
	}
	b := ccxtlib.Balances{Total: map[string]*float64{f.quote: fl(f.v.Cash())}, Free: map[string]*float64{f.quote: fl(f.v.Cash())}}
	for _, p := range f.v.Positions() {
		base, _, _ := strings.Cut(p.Symbol, "/")
		b.Total[base], b.Free[base] = fl(p.Qty), fl(p.Qty)
	}
	return b, nil
}

func (f *fakeExchange) FetchTicker(symbol string, _ ...ccxtlib.FetchTickerOptions) (ccxtlib.Ticker, error) {
	if err := f.enter("fetchTicker"); err != nil {
		return ccxtlib.Ticker{}, err
	}
	bid, ask, mid, err := f.v.Quote(symbol)
	if err != nil {
		return ccxtlib.Ticker{}, ccxtlib.BadSymbol(err.Error())
	}
	return ccxtlib.Ticker{Symbol: ptr(symbol), Bid: fl(bid), Ask: fl(ask), Last: fl(mid), Close: fl(mid), BaseVolume: ptr(12.5)}, nil
}

// venueErr maps the venue's errors to the CCXT classes a real exchange's
// error codes are mapped to.
func venueErr(err error) error {
	switch {
	case errors.Is(err, brokertest.ErrInsufficientFunds):
		return ccxtlib.InsufficientFunds(err.Error())
	case errors.Is(err, brokertest.ErrDuplicateClientID):
		return ccxtlib.DuplicateOrderId(err.Error())
	case errors.Is(err, brokertest.ErrUnknownSymbol):
		return ccxtlib.BadSymbol(err.Error())
	case errors.Is(err, brokertest.ErrNotFound), errors.Is(err, brokertest.ErrNotOpen):
		return ccxtlib.OrderNotFound(err.Error())
	default:
		return ccxtlib.InvalidOrder(err.Error())
	}
}

func paramDec(params map[string]interface{}, key string) decimal.Decimal {
	if v, ok := params[key].(float64); ok {
		return decimal.NewFromFloat(v)
	}
	return decimal.Zero
}

func (f *fakeExchange) CreateOrder(symbol, typ, side string, amount float64, options ...ccxtlib.CreateOrderOptions) (ccxtlib.Order, error) {
	if err := f.enter("createOrder"); err != nil {
		return ccxtlib.Order{}, err
	}
	var o ccxtlib.CreateOrderOptionsStruct
	for _, opt := range options {
		opt(&o)
	}
	params := map[string]interface{}{}
	if o.Params != nil {
		params = *o.Params
	}
	f.mu.Lock()
	f.lastParams, f.lastPrice = params, o.Price
	f.mu.Unlock()
	vo := brokertest.VenueOrder{Symbol: symbol, Buy: side == "buy", Type: typ, Qty: decimal.NewFromFloat(amount), Stop: paramDec(params, "triggerPrice")}
	if cid, ok := params["clientOrderId"].(string); ok {
		vo.ClientID = cid
	}
	if o.Price != nil {
		vo.Limit = decimal.NewFromFloat(*o.Price)
	}
	if vo.Stop.IsPositive() {
		vo.Type = map[string]string{"market": "stop", "limit": "stop_limit"}[typ]
	}
	got, err := f.v.Place(vo)
	if err != nil {
		return ccxtlib.Order{}, venueErr(err)
	}
	return f.order(got), nil
}

func (f *fakeExchange) EditOrder(id, symbol, typ, side string, options ...ccxtlib.EditOrderOptions) (ccxtlib.Order, error) {
	if err := f.enter("editOrder"); err != nil {
		return ccxtlib.Order{}, err
	}
	var o ccxtlib.EditOrderOptionsStruct
	for _, opt := range options {
		opt(&o)
	}
	qty, px, trig := decimal.Zero, decimal.Zero, decimal.Zero
	if o.Amount != nil {
		qty = decimal.NewFromFloat(*o.Amount)
	}
	if o.Price != nil {
		px = decimal.NewFromFloat(*o.Price)
	}
	if o.Params != nil {
		trig = paramDec(*o.Params, "triggerPrice")
	}
	got, err := f.v.Amend(id, qty, px, trig)
	if err != nil {
		return ccxtlib.Order{}, venueErr(err)
	}
	return f.order(got), nil
}

func (f *fakeExchange) CancelOrder(id string, _ ...ccxtlib.CancelOrderOptions) (ccxtlib.Order, error) {
	if err := f.enter("cancelOrder"); err != nil {
		return ccxtlib.Order{}, err
	}
	got, err := f.v.Cancel(id)
	if err != nil {
		return ccxtlib.Order{}, venueErr(err)
	}
	return f.order(got), nil
}

func (f *fakeExchange) FetchOrder(id string, _ ...ccxtlib.FetchOrderOptions) (ccxtlib.Order, error) {
	if err := f.enter("fetchOrder"); err != nil {
		return ccxtlib.Order{}, err
	}
	got, err := f.v.Get(id)
	if err != nil {
		return ccxtlib.Order{}, venueErr(err)
	}
	return f.order(got), nil
}

func (f *fakeExchange) FetchOpenOrders(...ccxtlib.FetchOpenOrdersOptions) ([]ccxtlib.Order, error) {
	if err := f.enter("fetchOpenOrders"); err != nil {
		return nil, err
	}
	var out []ccxtlib.Order
	for _, o := range f.v.Orders() {
		if o.State.Open() {
			out = append(out, f.order(o))
		}
	}
	return out, nil
}

func (f *fakeExchange) FetchPositions(...ccxtlib.FetchPositionsOptions) ([]ccxtlib.Position, error) {
	if err := f.enter("fetchPositions"); err != nil {
		return nil, err
	}
	if f.positions == nil {
		return nil, ccxtlib.NotSupported("fake: spot exchange has no positions")
	}
	return f.positions, nil
}

func (f *fakeExchange) Close() []error {
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	return nil
}

// order renders a venue order the way CCXT's parseOrder does.
func (f *fakeExchange) order(o brokertest.VenueOrder) ccxtlib.Order {
	typ := map[string]string{"market": "market", "limit": "limit", "stop": "market", "stop_limit": "limit"}[o.Type]
	status := map[brokertest.OrderState]string{brokertest.StateNew: "open", brokertest.StatePartial: "open",
		brokertest.StateFilled: "closed", brokertest.StateCancelled: "canceled"}[o.State]
	side := "sell"
	if o.Buy {
		side = "buy"
	}
	out := ccxtlib.Order{Id: ptr(o.ID), Symbol: ptr(o.Symbol), Type: ptr(typ), Side: ptr(side), Status: ptr(status),
		Amount: fl(o.Qty), Filled: fl(o.Filled), Remaining: fl(o.Qty.Sub(o.Filled)), Timestamp: ptr(o.Created.UnixMilli())}
	if o.ClientID != "" {
		out.ClientOrderId = ptr(o.ClientID)
	}
	if o.Limit.IsPositive() {
		out.Price = fl(o.Limit)
	}
	if o.Stop.IsPositive() {
		out.TriggerPrice = fl(o.Stop)
	}
	if o.Filled.IsPositive() {
		out.Average = fl(o.AvgPrice)
	}
	return out
}
