package uta

import (
	"context"
	"log/slog"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
	"github.com/alice-trading/alice/trading/sim"
)

// PriceFeed gives real last prices (the market-data backend); an error
// means no real price now (offline, unknown symbol, simulated backend).
type PriceFeed interface {
	RealPrice(ctx context.Context, symbol string, class trading.AssetClass) (decimal.Decimal, error)
}

// WithPriceFeed lets simulator accounts with presetConfig prices: "real"
// mark their positions and fill their orders at real prices.
func WithPriceFeed(f PriceFeed) Option { return func(m *Manager) { m.prices = f } }

// realPriced is a simulator account on real prices: before a quote, an
// order, a close or a valuation it sets the simulator's mark for the
// symbols concerned from the feed (outside the simulator's lock). When the
// feed has no price the simulator keeps its current mark — the last real
// one, or the simulated market's before any real price arrived.
type realPriced struct {
	broker.Broker
	sim  *sim.Broker
	feed PriceFeed
	log  *slog.Logger
}

func (r *realPriced) refresh(ctx context.Context, c trading.Contract) {
	p, err := r.feed.RealPrice(ctx, c.Symbol, c.AssetClass)
	if err != nil || !p.IsPositive() {
		r.log.Debug("simulator: no real price; keeping the current mark", "symbol", c.Symbol, "err", err)
		return
	}
	if err := r.sim.SetMarkPrice(c.Symbol, p); err != nil {
		r.log.Debug("simulator: real price not applied", "symbol", c.Symbol, "err", err)
	}
}

func (r *realPriced) refreshHeld(ctx context.Context) {
	ps, err := r.sim.Positions(ctx)
	if err != nil {
		return
	}
	for _, p := range ps {
		r.refresh(ctx, p.Contract)
	}
}

// Quote marks the symbol at its real price first.
func (r *realPriced) Quote(ctx context.Context, c trading.Contract) (trading.Quote, error) {
	r.refresh(ctx, c)
	return r.Broker.Quote(ctx, c)
}

// PlaceOrder fills against the real price.
func (r *realPriced) PlaceOrder(ctx context.Context, c trading.Contract, o trading.Order, tpsl *trading.TPSL) (trading.OrderResult, error) {
	r.refresh(ctx, c)
	return r.Broker.PlaceOrder(ctx, c, o, tpsl)
}

// ClosePosition closes at the real price.
func (r *realPriced) ClosePosition(ctx context.Context, c trading.Contract, qty decimal.Decimal) (trading.OrderResult, error) {
	r.refresh(ctx, c)
	return r.Broker.ClosePosition(ctx, c, qty)
}

// Positions values holdings at real prices.
func (r *realPriced) Positions(ctx context.Context) ([]trading.Position, error) {
	r.refreshHeld(ctx)
	return r.Broker.Positions(ctx)
}

// Account values holdings at real prices.
func (r *realPriced) Account(ctx context.Context) (trading.AccountInfo, error) {
	r.refreshHeld(ctx)
	return r.Broker.Account(ctx)
}

// OrderByClientID keeps crash reconciliation working (clientOrderFinder).
func (r *realPriced) OrderByClientID(ctx context.Context, clientID string) (*trading.OpenOrder, error) {
	return r.sim.OrderByClientID(ctx, clientID)
}
