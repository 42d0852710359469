package sim

import (
	"github.com/alice-trading/alice/trading/calendar"

	"context"
	"sort"
	"strings"
	"time"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
	"github.com/alice-trading/alice/trading/simmarket"

	"github.com/shopspring/decimal"
)

// Read paths match resting orders first, so every query sees fills the
// market has caused since the last one.

// Account values cash plus positions at the marks.
func (b *Broker) Account(context.Context) (trading.AccountInfo, error) {
	b.mu.Lock()
	fills := b.matchLocked()
	info, err := b.accountLocked()
	b.saveIfLocked(len(fills) > 0)
	b.mu.Unlock()
	b.emit(fills)
	return info, err
}

func (b *Broker) accountLocked() (trading.AccountInfo, error) {
	pos, err := b.positionsLocked()
	if err != nil {
		return trading.AccountInfo{}, err
	}
	info := trading.AccountInfo{BaseCurrency: "USD", TotalCashValue: b.st.Cash, RealizedPnL: b.st.RealizedPnL, BuyingPower: b.buyingPower(b.st.Cash, pos)}
	info.NetLiquidation = b.st.Cash
	for _, p := range pos {
		info.NetLiquidation = info.NetLiquidation.Add(p.MarketValue)
		info.UnrealizedPnL = info.UnrealizedPnL.Add(p.UnrealizedPnL)
	}
	return info, nil
}

// Positions lists holdings sorted by symbol.
func (b *Broker) Positions(context.Context) ([]trading.Position, error) {
	b.mu.Lock()
	fills := b.matchLocked()
	pos, err := b.positionsLocked()
	b.saveIfLocked(len(fills) > 0)
	b.mu.Unlock()
	b.emit(fills)
	return pos, err
}

func (b *Broker) positionsLocked() ([]trading.Position, error) {
	out := make([]trading.Position, 0, len(b.st.Positions))
	for sym, p := range b.st.Positions {
		mark, err := b.markLocked(sym)
		if err != nil {
			return nil, err
		}
		mv := p.Quantity.Mul(mark)
		out = append(out, trading.Position{
			Contract: p.Contract, Currency: "USD", Side: trading.Long, Quantity: p.Quantity,
			AvgCost: p.AvgCost, MarketPrice: mark, MarketValue: mv,
			UnrealizedPnL: mark.Sub(p.AvgCost).Mul(p.Quantity), RealizedPnL: p.RealizedPnL, Multiplier: "1",
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Contract.Symbol < out[j].Contract.Symbol })
	b.addRisk(b.st.Cash, out)
	return out, nil
}

// Orders returns the requested orders (all when ids is empty), oldest first.
func (b *Broker) Orders(_ context.Context, ids []string) ([]trading.OpenOrder, error) {
	b.mu.Lock()
	fills := b.matchLocked()
	b.saveIfLocked(len(fills) > 0)
	var out []trading.OpenOrder
	if len(ids) == 0 {
		for _, id := range b.st.OrderIDs {
			out = append(out, *b.st.Orders[id])
		}
	} else {
		for _, id := range ids {
			if o, ok := b.st.Orders[id]; ok {
				out = append(out, *o)
			}
		}
	}
	b.mu.Unlock()
	b.emit(fills)
	return out, nil
}

// Order returns one order, or a NOT_FOUND error.
func (b *Broker) Order(ctx context.Context, id string) (*trading.OpenOrder, error) {
	os, err := b.Orders(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	if len(os) == 0 {
		return nil, broker.Errorf(broker.CodeNotFound, "order %q not found", id)
	}
	return &os[0], nil
}

// Quote is the market quote at Now, recentred on an overridden mark.
func (b *Broker) Quote(_ context.Context, c trading.Contract) (trading.Quote, error) {
	in, err := b.lookup(c.Symbol)
	if err != nil {
		return trading.Quote{}, err
	}
	now := b.opts.Now()
	b.mu.Lock()
	q := b.quoteLocked(in.Symbol, now)
	b.mu.Unlock()
	return trading.Quote{Contract: b.contractFor(in), Last: q.Last, Bid: q.Bid, Ask: q.Ask,
		Volume: q.Volume, High: q.High, Low: q.Low, Timestamp: now}, nil
}

// quoteLocked is the market quote at now, recentred on an overridden mark.
func (b *Broker) quoteLocked(symbol string, now time.Time) simmarket.Quote {
	q, _ := b.opts.Market.QuoteAt(symbol, now)
	if mark, ok := b.st.Marks[symbol]; ok {
		spread := q.Ask.Sub(q.Last)
		q.Last, q.Bid, q.Ask = mark, mark.Sub(spread), mark.Add(spread)
	}
	return q
}

// marketPriceLocked is where a market order executes: a buy pays the ask,
// a sell receives the bid — never the last trade.
func (b *Broker) marketPriceLocked(symbol string, action trading.Action) (decimal.Decimal, error) {
	symbol = strings.ToUpper(symbol)
	if _, err := b.markLocked(symbol); err != nil {
		return decimal.Zero, err
	}
	q := b.quoteLocked(symbol, b.opts.Now())
	if action == trading.Sell {
		return q.Bid, nil
	}
	return q.Ask, nil
}

// OrderByClientID finds the order submitted with a client order id, for
// reconciling a push that a crash interrupted.
func (b *Broker) OrderByClientID(_ context.Context, clientID string) (*trading.OpenOrder, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, id := range b.st.OrderIDs {
		if o := b.st.Orders[id]; clientID != "" && o.Order.ClientOrderID == clientID {
			c := *o
			return &c, nil
		}
	}
	return nil, broker.Errorf(broker.CodeNotFound, "no order with client order id %q", clientID)
}

// MarketClock: the simulated market never closes.
func (b *Broker) MarketClock(context.Context) (trading.MarketClock, error) {
	return trading.MarketClock{IsOpen: true, Timestamp: b.opts.Now()}, nil
}

// Calendar is the simulated venue's session calendar: NYSE's (regular
// hours, holidays and early closes for 2026–2027), for schedules that
// follow the market. MarketClock still reports the simulator as always
// open, so paper trading works at any hour.
func (b *Broker) Calendar() calendar.Calendar { return calendar.NYSE() }
