// Package brokertest holds the broker contract suite (one table of
// behaviours every broker.Broker must show) and Venue, a tiny exchange the
// fake wire servers of the real brokers (Alpaca REST, Bybit v5, …) keep
// their state in, so those fakes behave like a market instead of replaying
// fixed answers.
package brokertest

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"
)

// Venue errors, which each fake server maps to its wire's error format.
var (
	ErrDuplicateClientID = errors.New("duplicate client order id")
	ErrUnknownSymbol     = errors.New("unknown symbol")
	ErrNotFound          = errors.New("order not found")
	ErrNotOpen           = errors.New("order is not open")
	ErrInsufficientFunds = errors.New("insufficient funds")
	ErrInvalid           = errors.New("invalid order")
)

// OrderState is a venue order's lifecycle state.
type OrderState string

const (
	StateNew       OrderState = "new"
	StatePartial   OrderState = "partially_filled"
	StateFilled    OrderState = "filled"
	StateCancelled OrderState = "canceled"
)

// Open reports whether the order can still fill.
func (s OrderState) Open() bool { return s == StateNew || s == StatePartial }

// VenueOrder is an order as the venue keeps it.
type VenueOrder struct {
	ID, ClientID, Symbol string
	Buy                  bool
	Type                 string // market, limit, stop, stop_limit
	Qty, Limit, Stop     decimal.Decimal
	Filled, AvgPrice     decimal.Decimal
	State                OrderState
	Triggered            bool
	Created, Updated     time.Time
}

// VenuePosition is a net position (negative quantity = short).
type VenuePosition struct {
	Symbol   string
	Qty      decimal.Decimal
	AvgPrice decimal.Decimal
	Realized decimal.Decimal
}

// Venue is a single-account exchange: a mid price per symbol with a fixed
// spread, market orders filling at the touch, resting limit and stop orders
// matched when the price moves, partial fills on demand, cash and
// positions. Safe for concurrent use.
type Venue struct {
	mu        sync.Mutex
	now       func() time.Time
	spread    decimal.Decimal // full spread as a fraction of mid
	mids      map[string]decimal.Decimal
	cash      decimal.Decimal
	positions map[string]*VenuePosition
	orders    map[string]*VenueOrder
	clientIDs map[string]string
	seq       int
	// Margin allows shorts and checks orders against cash × Leverage
	// (perpetuals) instead of cash and holdings (spot).
	Margin   bool
	Leverage decimal.Decimal
}

func (v *Venue) leverage() decimal.Decimal {
	if v.Leverage.IsPositive() {
		return v.Leverage
	}
	return decimal.NewFromInt(10)
}

// NewVenue opens a venue with cash and mid prices.
func NewVenue(cash decimal.Decimal, mids map[string]decimal.Decimal) *Venue {
	v := &Venue{now: time.Now, spread: decimal.RequireFromString("0.001"), mids: map[string]decimal.Decimal{},
		cash: cash, positions: map[string]*VenuePosition{}, orders: map[string]*VenueOrder{}, clientIDs: map[string]string{}}
	for s, p := range mids {
		v.mids[strings.ToUpper(s)] = p
	}
	return v
}

// Quote returns bid, ask and mid for a symbol.
func (v *Venue) Quote(symbol string) (bid, ask, mid decimal.Decimal, err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.quoteLocked(symbol)
}

func (v *Venue) quoteLocked(symbol string) (bid, ask, mid decimal.Decimal, err error) {
	mid, ok := v.mids[strings.ToUpper(symbol)]
	if !ok {
		return bid, ask, mid, fmt.Errorf("%w %q", ErrUnknownSymbol, symbol)
	}
	half := mid.Mul(v.spread).Div(decimal.NewFromInt(2)).Round(4)
	return mid.Sub(half), mid.Add(half), mid, nil
}

// Symbols lists the tradable symbols, sorted.
func (v *Venue) Symbols() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := make([]string, 0, len(v.mids))
	for s := range v.mids {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// Place accepts an order; market orders fill at once at the touch.
func (v *Venue) Place(o VenueOrder) (VenueOrder, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	o.Symbol = strings.ToUpper(o.Symbol)
	if _, ok := v.mids[o.Symbol]; !ok {
		return VenueOrder{}, fmt.Errorf("%w %q", ErrUnknownSymbol, o.Symbol)
	}
	if !o.Qty.IsPositive() {
		return VenueOrder{}, fmt.Errorf("%w: quantity must be positive", ErrInvalid)
	}
	switch o.Type {
	case "market":
	case "limit":
		if !o.Limit.IsPositive() {
			return VenueOrder{}, fmt.Errorf("%w: limit price required", ErrInvalid)
		}
	case "stop", "stop_limit":
		if !o.Stop.IsPositive() || (o.Type == "stop_limit" && !o.Limit.IsPositive()) {
			return VenueOrder{}, fmt.Errorf("%w: stop price required", ErrInvalid)
		}
	default:
		return VenueOrder{}, fmt.Errorf("%w: order type %q", ErrInvalid, o.Type)
	}
	if o.ClientID != "" {
		if _, dup := v.clientIDs[o.ClientID]; dup {
			return VenueOrder{}, fmt.Errorf("%w %q", ErrDuplicateClientID, o.ClientID)
		}
	}
	_, ask, _, _ := v.quoteLocked(o.Symbol)
	if o.Buy || v.Margin {
		px := ask
		if o.Limit.IsPositive() {
			px = o.Limit
		}
		need := px.Mul(o.Qty)
		if v.Margin {
			need = need.Div(v.leverage())
		}
		if need.GreaterThan(v.cash) {
			return VenueOrder{}, ErrInsufficientFunds
		}
	}
	if !o.Buy && !v.Margin {
		held := decimal.Zero
		if p := v.positions[o.Symbol]; p != nil {
			held = p.Qty
		}
		if o.Qty.GreaterThan(held) {
			return VenueOrder{}, fmt.Errorf("%w: selling %s but holding %s", ErrInsufficientFunds, o.Qty, held)
		}
	}
	v.seq++
	o.ID = fmt.Sprintf("v-%d", v.seq)
	o.State, o.Filled, o.AvgPrice = StateNew, decimal.Zero, decimal.Zero
	o.Created, o.Updated = v.now(), v.now()
	stored := o
	v.orders[o.ID] = &stored
	if o.ClientID != "" {
		v.clientIDs[o.ClientID] = o.ID
	}
	v.matchLocked()
	return *v.orders[o.ID], nil
}

// Get returns an order by venue id.
func (v *Venue) Get(id string) (VenueOrder, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	o, ok := v.orders[id]
	if !ok {
		return VenueOrder{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return *o, nil
}

// ByClientID returns an order by client order id.
func (v *Venue) ByClientID(cid string) (VenueOrder, error) {
	v.mu.Lock()
	id, ok := v.clientIDs[cid]
	v.mu.Unlock()
	if !ok {
		return VenueOrder{}, fmt.Errorf("%w: client id %s", ErrNotFound, cid)
	}
	return v.Get(id)
}

// Orders lists every order, oldest first.
func (v *Venue) Orders() []VenueOrder {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := make([]VenueOrder, 0, len(v.orders))
	for _, o := range v.orders {
		out = append(out, *o)
	}
	sort.Slice(out, func(i, j int) bool { return seqOf(out[i].ID) < seqOf(out[j].ID) })
	return out
}

func seqOf(id string) int {
	var n int
	fmt.Sscanf(id, "v-%d", &n)
	return n
}

// Cancel cancels an open order.
func (v *Venue) Cancel(id string) (VenueOrder, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	o, ok := v.orders[id]
	if !ok {
		return VenueOrder{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if !o.State.Open() {
		return *o, fmt.Errorf("%w: %s is %s", ErrNotOpen, id, o.State)
	}
	o.State, o.Updated = StateCancelled, v.now()
	return *o, nil
}

// Amend changes an open order's quantity and prices (zero = unchanged).
func (v *Venue) Amend(id string, qty, limit, stop decimal.Decimal) (VenueOrder, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	o, ok := v.orders[id]
	if !ok {
		return VenueOrder{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if !o.State.Open() {
		return *o, fmt.Errorf("%w: %s is %s", ErrNotOpen, id, o.State)
	}
	if qty.IsPositive() {
		if qty.LessThan(o.Filled) {
			return *o, fmt.Errorf("%w: quantity below filled %s", ErrInvalid, o.Filled)
		}
		o.Qty = qty
	}
	if limit.IsPositive() {
		o.Limit = limit
	}
	if stop.IsPositive() {
		o.Stop = stop
	}
	o.Updated = v.now()
	v.matchLocked()
	return *o, nil
}

// SetPrice moves a symbol's mid and matches resting orders.
func (v *Venue) SetPrice(symbol string, mid decimal.Decimal) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.mids[strings.ToUpper(symbol)] = mid
	v.matchLocked()
}

// FillPartially executes qty of an open order at its limit (or the touch).
func (v *Venue) FillPartially(id string, qty decimal.Decimal) (VenueOrder, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	o, ok := v.orders[id]
	if !ok {
		return VenueOrder{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if !o.State.Open() {
		return *o, fmt.Errorf("%w: %s is %s", ErrNotOpen, id, o.State)
	}
	bid, ask, _, _ := v.quoteLocked(o.Symbol)
	px := o.Limit
	if !px.IsPositive() {
		px = map[bool]decimal.Decimal{true: ask, false: bid}[o.Buy]
	}
	v.fillLocked(o, decimal.Min(qty, o.Qty.Sub(o.Filled)), px)
	return *o, nil
}

// Cash is the account's cash balance.
func (v *Venue) Cash() decimal.Decimal {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.cash
}

// Positions lists non-zero positions, sorted by symbol.
func (v *Venue) Positions() []VenuePosition {
	v.mu.Lock()
	defer v.mu.Unlock()
	var out []VenuePosition
	for _, p := range v.positions {
		if !p.Qty.IsZero() {
			out = append(out, *p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Symbol < out[j].Symbol })
	return out
}

// matchLocked triggers stops and fills every order the touch crosses.
func (v *Venue) matchLocked() {
	ids := make([]string, 0, len(v.orders))
	for id, o := range v.orders {
		if o.State.Open() {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return seqOf(ids[i]) < seqOf(ids[j]) })
	for _, id := range ids {
		o := v.orders[id]
		bid, ask, mid, _ := v.quoteLocked(o.Symbol)
		if (o.Type == "stop" || o.Type == "stop_limit") && !o.Triggered {
			if (o.Buy && mid.GreaterThanOrEqual(o.Stop)) || (!o.Buy && mid.LessThanOrEqual(o.Stop)) {
				o.Triggered = true
			} else {
				continue
			}
		}
		rest := o.Qty.Sub(o.Filled)
		switch {
		case o.Type == "market" || o.Type == "stop":
			v.fillLocked(o, rest, map[bool]decimal.Decimal{true: ask, false: bid}[o.Buy])
		case o.Buy && ask.LessThanOrEqual(o.Limit):
			v.fillLocked(o, rest, decimal.Min(ask, o.Limit))
		case !o.Buy && bid.GreaterThanOrEqual(o.Limit):
			v.fillLocked(o, rest, decimal.Max(bid, o.Limit))
		}
	}
}

func (v *Venue) fillLocked(o *VenueOrder, qty, px decimal.Decimal) {
	if !qty.IsPositive() {
		return
	}
	total := o.AvgPrice.Mul(o.Filled).Add(px.Mul(qty))
	o.Filled = o.Filled.Add(qty)
	o.AvgPrice = total.Div(o.Filled).Round(8)
	o.State, o.Updated = StatePartial, v.now()
	if o.Filled.Equal(o.Qty) {
		o.State = StateFilled
	}
	p := v.positions[o.Symbol]
	if p == nil {
		p = &VenuePosition{Symbol: o.Symbol}
		v.positions[o.Symbol] = p
	}
	signed := qty
	if !o.Buy {
		signed = qty.Neg()
	}
	switch {
	case p.Qty.IsZero() || p.Qty.Sign() == signed.Sign():
		p.AvgPrice = p.AvgPrice.Mul(p.Qty.Abs()).Add(px.Mul(qty)).Div(p.Qty.Abs().Add(qty)).Round(8)
	default:
		closed := decimal.Min(qty, p.Qty.Abs())
		pnl := px.Sub(p.AvgPrice).Mul(closed)
		if p.Qty.IsNegative() {
			pnl = pnl.Neg()
		}
		p.Realized = p.Realized.Add(pnl)
		if qty.GreaterThan(p.Qty.Abs()) {
			p.AvgPrice = px
		}
	}
	p.Qty = p.Qty.Add(signed)
	if o.Buy {
		v.cash = v.cash.Sub(px.Mul(qty))
	} else {
		v.cash = v.cash.Add(px.Mul(qty))
	}
}

// Realized is the realised P&L over every position, closed ones included.
func (v *Venue) Realized() decimal.Decimal {
	v.mu.Lock()
	defer v.mu.Unlock()
	sum := decimal.Zero
	for _, p := range v.positions {
		sum = sum.Add(p.Realized)
	}
	return sum
}
