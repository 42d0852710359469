// Package sim is the embedded paper broker: cash, positions and orders in
// decimals, priced by the deterministic simulated market so a portfolio is
// alive with no network. Market orders fill at the mark; limit and stop
// orders fill when the mark crosses their price, checked whenever the
// broker is queried and on every Tick (Start runs ticks periodically).
// God-view controls (SetMarkPrice, TickPrice, FillOrder) let tests and
// what-if tools move prices and fill orders partially.
package sim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
	"github.com/alice-trading/alice/trading/simmarket"

	"github.com/shopspring/decimal"
)

// Options configures a simulated broker.
type Options struct {
	AccountID string
	Market    *simmarket.Market
	// Cash is the opening balance when no saved state exists.
	Cash decimal.Decimal
	// Leverage above 1 makes a cross-margin account (margin.go); 0 or 1
	// is a cash account.
	Leverage decimal.Decimal
	// StatePath persists cash, positions and orders ("" keeps them in memory).
	StatePath string
	// Now is the broker clock (time.Now when nil); marks are market prices at Now.
	Now    func() time.Time
	Logger *slog.Logger
	// OnFill is called (outside the broker lock) after any fill.
	OnFill func(Fill)
}

// Fill reports one execution.
type Fill struct {
	OrderID string              `json:"orderId"`
	Symbol  string              `json:"symbol"`
	Action  trading.Action      `json:"action"`
	Qty     decimal.Decimal     `json:"qty"`
	Price   decimal.Decimal     `json:"price"`
	Status  trading.OrderStatus `json:"status"`
	Time    time.Time           `json:"time"`
}

type position struct {
	Contract    trading.Contract `json:"contract"`
	Quantity    decimal.Decimal  `json:"quantity"`
	AvgCost     decimal.Decimal  `json:"avgCost"`
	RealizedPnL decimal.Decimal  `json:"realizedPnL"`
}

// state is everything persisted in sim-state.json.
type state struct {
	Cash        decimal.Decimal               `json:"cash"`
	RealizedPnL decimal.Decimal               `json:"realizedPnL"`
	Positions   map[string]*position          `json:"positions"`
	Orders      map[string]*trading.OpenOrder `json:"orders"`
	OrderIDs    []string                      `json:"orderIds"` // creation order
	Triggered   map[string]bool               `json:"triggered,omitempty"`
	Marks       map[string]decimal.Decimal    `json:"marks,omitempty"`
	NextID      int                           `json:"nextId"`
}

// Broker is the simulated paper broker. It implements broker.Broker.
type Broker struct {
	mu     sync.Mutex
	opts   Options
	st     state
	closed bool
	// changed is nudged (capacity 1) whenever the order book may have
	// changed: Start's matching clock runs only while an order rests.
	changed chan struct{}
}

var _ broker.Broker = (*Broker)(nil)

// New builds a broker, restoring saved state from StatePath if present.
func New(opts Options) (*Broker, error) {
	if opts.Market == nil {
		return nil, errors.New("sim: market is required")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Cash.IsZero() {
		opts.Cash = defaultCash
	}
	b := &Broker{opts: opts, st: state{Cash: opts.Cash}, changed: make(chan struct{}, 1)}
	if opts.StatePath != "" {
		data, err := os.ReadFile(opts.StatePath)
		switch {
		case err == nil:
			if err := json.Unmarshal(data, &b.st); err != nil {
				return nil, fmt.Errorf("sim: corrupt state %s: %w", opts.StatePath, err)
			}
		case !errors.Is(err, os.ErrNotExist):
			return nil, fmt.Errorf("sim: read state: %w", err)
		}
	}
	if b.st.Positions == nil {
		b.st.Positions = map[string]*position{}
	}
	if b.st.Orders == nil {
		b.st.Orders = map[string]*trading.OpenOrder{}
	}
	if b.st.Triggered == nil {
		b.st.Triggered = map[string]bool{}
	}
	if b.st.Marks == nil {
		b.st.Marks = map[string]decimal.Decimal{}
	}
	return b, nil
}

// Init is a no-op: the simulator is always reachable.
func (b *Broker) Init(context.Context) error { return nil }

// Close stops persistence; later calls still work in memory.
func (b *Broker) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return nil
}

// Start runs Tick every interval until ctx ends, so resting orders fill as
// the simulated market moves even when nobody queries the broker. With no
// order resting there is nothing to match: the clock stops, and an idle
// alice is not woken every second for nothing, until an order is placed
// (or state with resting orders is restored).
func (b *Broker) Start(ctx context.Context, every time.Duration) {
	if every <= 0 {
		every = time.Second
	}
	t := time.NewTimer(every)
	defer t.Stop()
	for {
		if !b.resting() {
			t.Stop()
			select {
			case <-ctx.Done():
				return
			case <-b.changed:
				continue
			}
		}
		t.Reset(every)
		for ticked := false; !ticked; {
			select {
			case <-ctx.Done():
				return
			case <-b.changed: // more orders: the clock runs on
			case <-t.C:
				b.Tick()
				ticked = true
			}
		}
	}
}

// resting reports whether an order waits to be matched.
func (b *Broker) resting() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, id := range b.st.OrderIDs {
		if o := b.st.Orders[id]; o != nil && o.Status.Pending() {
			return true
		}
	}
	return false
}

// nudge tells Start the order book may have changed.
func (b *Broker) nudge() {
	select {
	case b.changed <- struct{}{}:
	default:
	}
}

// Tick matches resting orders against the current marks.
func (b *Broker) Tick() {
	b.mu.Lock()
	fills := b.matchLocked()
	b.saveIfLocked(len(fills) > 0)
	b.mu.Unlock()
	b.emit(fills)
}

func (b *Broker) emit(fills []Fill) {
	if b.opts.OnFill == nil {
		return
	}
	for _, f := range fills {
		b.opts.OnFill(f)
	}
}

// saveIfLocked persists only when a read path changed state (a fill), so
// queries do not rewrite the file.
func (b *Broker) saveIfLocked(changed bool) {
	if changed {
		b.saveLocked()
	}
}

// maxKeptOrders bounds the order book kept in memory and on disk; the
// oldest finished orders are dropped first (the git history keeps them).
const maxKeptOrders = 250

func (b *Broker) pruneLocked() {
	excess := len(b.st.OrderIDs) - maxKeptOrders
	if excess <= 0 {
		return
	}
	kept := b.st.OrderIDs[:0]
	for _, id := range b.st.OrderIDs {
		if excess > 0 && !b.st.Orders[id].Status.Pending() {
			delete(b.st.Orders, id)
			delete(b.st.Triggered, id)
			excess--
			continue
		}
		kept = append(kept, id)
	}
	b.st.OrderIDs = kept
}

func (b *Broker) saveLocked() {
	b.nudge() // every change to the order book is saved
	if b.opts.StatePath == "" || b.closed {
		return
	}
	data, err := json.Marshal(&b.st)
	if err == nil {
		if err = os.MkdirAll(filepath.Dir(b.opts.StatePath), 0o700); err == nil {
			err = config.WriteFileAtomic(b.opts.StatePath, data, 0o600)
		}
	}
	if err != nil {
		b.opts.Logger.Error("sim: save state", "account", b.opts.AccountID, "err", err)
	}
}

func secType(c trading.AssetClass) string {
	switch c {
	case trading.Crypto:
		return "CRYPTO"
	case trading.Currency:
		return "CASH"
	case trading.Commodity:
		return "CMDTY"
	}
	return "STK"
}

func (b *Broker) contractFor(in simmarket.Instrument) trading.Contract {
	return trading.Contract{
		AliceID:     trading.AliceID(b.opts.AccountID, in.Symbol),
		Symbol:      in.Symbol,
		SecType:     secType(in.AssetClass),
		AssetClass:  in.AssetClass,
		Exchange:    "SIM",
		Currency:    "USD",
		Description: in.Name,
	}
}

func (b *Broker) lookup(symbol string) (simmarket.Instrument, error) {
	in, ok := b.opts.Market.Lookup(symbol)
	if !ok {
		return in, &broker.Error{Code: broker.CodeNotFound, Msg: fmt.Sprintf("unknown symbol %q", symbol),
			Hint: "use searchContracts to find a tradable symbol"}
	}
	return in, nil
}

// markLocked is the override if set, else the market price at Now.
func (b *Broker) markLocked(symbol string) (decimal.Decimal, error) {
	symbol = strings.ToUpper(symbol)
	if m, ok := b.st.Marks[symbol]; ok {
		return m, nil
	}
	p, ok := b.opts.Market.Price(symbol, b.opts.Now())
	if !ok {
		return decimal.Zero, broker.Errorf(broker.CodeNotFound, "no price for %q", symbol)
	}
	return p, nil
}

// SearchContracts matches symbols and names in the simulated catalogue.
func (b *Broker) SearchContracts(_ context.Context, pattern string, class trading.AssetClass) ([]trading.Contract, error) {
	if class == trading.Unknown {
		class = ""
	}
	var out []trading.Contract
	for _, in := range b.opts.Market.Search(pattern, class) {
		out = append(out, b.contractFor(in))
	}
	return out, nil
}

// ContractDetails describes one instrument.
func (b *Broker) ContractDetails(_ context.Context, q trading.Contract) (*trading.ContractDetails, error) {
	sym := q.Symbol
	if sym == "" && q.AliceID != "" {
		_, k, err := trading.SplitAliceID(q.AliceID)
		if err != nil {
			return nil, err
		}
		sym = k
	}
	in, err := b.lookup(sym)
	if err != nil {
		return nil, err
	}
	return detailsOf(b.contractFor(in), in), nil
}

// detailsOf is an instrument's specification with lot sizes like real
// venues': fractional equities in 0.0001 shares (IBKR's grain), crypto in
// 0.000001 units, currencies in whole units, commodities in 0.01; the
// tick is the price precision.
func detailsOf(c trading.Contract, in simmarket.Instrument) *trading.ContractDetails {
	lot := decimal.New(1, -4)
	switch in.AssetClass {
	case trading.Crypto:
		lot = decimal.New(1, -6)
	case trading.Currency:
		lot = decimal.NewFromInt(1)
	case trading.Commodity:
		lot = decimal.New(1, -2)
	}
	return &trading.ContractDetails{Contract: c, MinTick: decimal.New(1, -in.Decimals), LotSize: lot, MinQty: lot,
		Multiplier: "1", Tradable: true, Fractionable: lot.LessThan(decimal.NewFromInt(1)), OrderTypes: Declared().SupportedOrderTypes}
}

// Capabilities lists what the simulator executes.
func (b *Broker) Capabilities() trading.Capabilities { return Declared() }

// Declared is what the simulator executes, per asset class. Its market
// trades around the clock: a DAY order expires at the end of its UTC day,
// IOC cancels whatever does not fill at once; it has no session hours.
func Declared() trading.Capabilities {
	class := func(c trading.AssetClass) trading.ClassCaps {
		return trading.ClassCaps{Class: c,
			OrderTypes: []trading.OrderType{trading.Market, trading.Limit, trading.Stop, trading.StopLimit, trading.MarketOnClose},
			TIFs:       []trading.TIF{trading.Day, trading.GTC, trading.IOC}, DefaultTIF: trading.Day, Fractional: true, CashOrders: true, Brackets: true}
	}
	return trading.Declare("the simulator", class(trading.Equity), class(trading.Crypto), class(trading.Currency), class(trading.Commodity))
}

// NativeKey is the symbol.
func (b *Broker) NativeKey(c trading.Contract) string { return strings.ToUpper(c.Symbol) }

// ResolveNativeKey turns a symbol into a contract.
func (b *Broker) ResolveNativeKey(_ context.Context, key string) (trading.Contract, error) {
	in, err := b.lookup(key)
	if err != nil {
		return trading.Contract{}, err
	}
	return b.contractFor(in), nil
}
