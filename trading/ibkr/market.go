package ibkr

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/scmhub/ibapi"
	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

// classOf maps IB security types to alice asset classes.
func classOf(secType string) trading.AssetClass {
	switch secType {
	case "STK", "OPT", "FUT", "FOP", "WAR", "IND", "FUND", "BOND":
		return trading.Equity
	case "CRYPTO":
		return trading.Crypto
	case "CASH":
		return trading.Currency
	case "CMDTY":
		return trading.Commodity
	}
	return trading.Unknown
}

// contractOf converts an IB contract; the native key is the conId (as in
// OpenAlice) when TWS gave one.
func (b *Broker) contractOf(c ibapi.Contract) trading.Contract {
	out := trading.Contract{Symbol: c.Symbol, SecType: c.SecType, AssetClass: classOf(c.SecType), Exchange: c.Exchange,
		Currency: c.Currency, Description: c.Description}
	if out.Exchange == "" {
		out.Exchange = c.PrimaryExchange
	}
	if c.ConID != 0 {
		out.AliceID = trading.AliceID(b.accountID, strconv.FormatInt(c.ConID, 10))
	}
	return out
}

// toIB builds the IB contract for an alice contract: by conId when the
// aliceId carries one, else symbol/secType routed through SMART.
func (b *Broker) toIB(c trading.Contract) *ibapi.Contract {
	ic := ibapi.NewContract()
	if id := b.conID(c); id != 0 {
		ic.ConID = id
		ic.Exchange = firstOf(c.Exchange, "SMART")
		return ic
	}
	ic.Symbol = strings.ToUpper(strings.TrimSpace(c.Symbol))
	ic.SecType = firstOf(c.SecType, "STK")
	ic.Exchange = firstOf(c.Exchange, "SMART")
	ic.Currency = firstOf(c.Currency, "USD")
	return ic
}

func (b *Broker) conID(c trading.Contract) int64 {
	if _, k, err := trading.SplitAliceID(c.AliceID); err == nil {
		if n, err := strconv.ParseInt(k, 10, 64); err == nil {
			return n
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.conIDs[strings.ToUpper(c.Symbol)]
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// SearchContracts asks TWS for matching symbols (reqMatchingSymbols).
func (b *Broker) SearchContracts(ctx context.Context, pattern string, class trading.AssetClass) ([]trading.Contract, error) {
	p, err := b.request(ctx, "reqMatchingSymbols", func(c *ibapi.EClient, id int64) { c.ReqMatchingSymbols(id, pattern) })
	if err != nil {
		return nil, err
	}
	out := []trading.Contract{}
	b.mu.Lock()
	for _, d := range p.symbols {
		if d.Contract.ConID != 0 {
			b.conIDs[strings.ToUpper(d.Contract.Symbol)] = d.Contract.ConID
		}
	}
	b.mu.Unlock()
	for _, d := range p.symbols {
		c := b.contractOf(d.Contract)
		if class == "" || c.AssetClass == class {
			out = append(out, c)
		}
	}
	return out, nil
}

// ContractDetails asks TWS for the full definition (reqContractDetails).
func (b *Broker) ContractDetails(ctx context.Context, q trading.Contract) (*trading.ContractDetails, error) {
	ic := b.toIB(q)
	p, err := b.request(ctx, "reqContractDetails "+q.Symbol, func(c *ibapi.EClient, id int64) { c.ReqContractDetails(id, ic) })
	if err != nil {
		return nil, err
	}
	if len(p.details) == 0 {
		return nil, broker.Errorf(broker.CodeNotFound, "IB has no contract for %s", q.Symbol)
	}
	d := p.details[0]
	b.mu.Lock()
	b.conIDs[strings.ToUpper(d.Contract.Symbol)] = d.Contract.ConID
	b.mu.Unlock()
	c := b.contractOf(d.Contract)
	if c.Description == "" {
		c.Description = d.LongName
	}
	var types []trading.OrderType
	offered := "," + d.OrderTypes + ","
	for _, t := range b.Capabilities().SupportedOrderTypes {
		if d.OrderTypes == "" || strings.Contains(offered, ","+string(t)+",") || strings.Contains(offered, ","+strings.ReplaceAll(string(t), " ", "")+",") {
			types = append(types, t)
		}
	}
	return detailsOf(d, c, types)
}

// Capabilities lists the order types mapped to IB's.
func (b *Broker) Capabilities() trading.Capabilities { return Declared() }

// Declared is what alice sends to TWS per asset class. Stocks take every
// mapped type and TIF, cash quantities, outside-RTH and brackets, in whole
// shares (the API's fractional trading needs an account permission alice
// cannot see); forex and commodities trade without cash amounts; IB's
// crypto (Paxos) takes MKT and LMT with IOC/GTC and cash-amount buys.
func Declared() trading.Capabilities {
	all := []trading.OrderType{trading.Market, trading.Limit, trading.Stop, trading.StopLimit, trading.Trail, trading.TrailLimit, trading.MarketOnClose}
	basic := []trading.OrderType{trading.Market, trading.Limit, trading.Stop, trading.StopLimit}
	return trading.Declare("IBKR",
		trading.ClassCaps{Class: trading.Equity, OrderTypes: all,
			TIFs: []trading.TIF{trading.Day, trading.GTC, trading.IOC, trading.FOK, trading.OPG, trading.GTD}, DefaultTIF: trading.Day,
			CashOrders: true, ExtendedHours: true, Brackets: true},
		trading.ClassCaps{Class: trading.Currency, OrderTypes: basic,
			TIFs: []trading.TIF{trading.Day, trading.GTC, trading.IOC}, DefaultTIF: trading.Day, Brackets: true},
		trading.ClassCaps{Class: trading.Commodity, OrderTypes: basic,
			TIFs: []trading.TIF{trading.Day, trading.GTC, trading.IOC}, DefaultTIF: trading.Day, Brackets: true},
		trading.ClassCaps{Class: trading.Crypto, OrderTypes: []trading.OrderType{trading.Market, trading.Limit},
			TIFs: []trading.TIF{trading.IOC, trading.GTC}, DefaultTIF: trading.IOC, Fractional: true, CashOrders: true})
}

// NativeKey is the conId (OpenAlice's choice), or the symbol until TWS
// told us the conId.
func (b *Broker) NativeKey(c trading.Contract) string {
	if id := b.conID(c); id != 0 {
		return strconv.FormatInt(id, 10)
	}
	return strings.ToUpper(c.Symbol)
}

// ResolveNativeKey looks a conId (or symbol) up at TWS.
func (b *Broker) ResolveNativeKey(ctx context.Context, key string) (trading.Contract, error) {
	q := trading.Contract{Symbol: key}
	if _, err := strconv.ParseInt(key, 10, 64); err == nil {
		q = trading.Contract{AliceID: trading.AliceID(b.accountID, key)}
	}
	d, err := b.ContractDetails(ctx, q)
	if err != nil {
		return trading.Contract{}, err
	}
	return d.Contract, nil
}

// IB tick types used by the snapshot.
const (
	tickBid, tickAsk, tickLast, tickHigh, tickLow, tickClose, tickVolume = 1, 2, 4, 6, 7, 9, 1008
	tickDelayedBid, tickDelayedAsk, tickDelayedLast                      = 66, 67, 68
)

// Quote takes a market data snapshot (reqMktData with snapshot=true).
func (b *Broker) Quote(ctx context.Context, c trading.Contract) (trading.Quote, error) {
	ic := b.toIB(c)
	p, err := b.request(ctx, "reqMktData "+c.Symbol, func(c *ibapi.EClient, id int64) { c.ReqMktData(id, ic, "", true, false, nil) })
	if err != nil {
		return trading.Quote{}, err
	}
	pick := func(ts ...int64) decimal.Decimal {
		for _, t := range ts {
			if x, ok := p.ticks[t]; ok && x.IsPositive() {
				return x
			}
		}
		return decimal.Zero
	}
	q := trading.Quote{Contract: c, Bid: pick(tickBid, tickDelayedBid), Ask: pick(tickAsk, tickDelayedAsk),
		Last: pick(tickLast, tickDelayedLast, tickClose), High: pick(tickHigh), Low: pick(tickLow),
		Volume: pick(tickVolume), Timestamp: b.now().UTC()}
	if q.Last.IsZero() && q.Bid.IsZero() && q.Ask.IsZero() {
		return q, broker.Errorf(broker.CodeExchange, "IB returned no prices for %s (market data subscription?)", c.Symbol)
	}
	return q, nil
}

// MarketClock uses TWS's clock (reqCurrentTime, which also proves the
// session alive) and NYSE regular hours, 09:30-16:00 New York time on
// weekdays; exchange holidays are not known to the socket API.
func (b *Broker) MarketClock(ctx context.Context) (trading.MarketClock, error) {
	s, err := b.ensure(ctx)
	if err != nil {
		return trading.MarketClock{}, err
	}
	now, err := s.ping(ctx, b.cfg.Timeout)
	if err != nil {
		return trading.MarketClock{}, err
	}
	return usEquityClock(now), nil
}

func usEquityClock(now time.Time) trading.MarketClock {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		loc = time.FixedZone("EST", -5*3600)
	}
	n := now.In(loc)
	day := func(t time.Time) (time.Time, time.Time) {
		y, m, d := t.Date()
		return time.Date(y, m, d, 9, 30, 0, 0, loc), time.Date(y, m, d, 16, 0, 0, 0, loc)
	}
	weekday := func(t time.Time) bool { return t.Weekday() != time.Saturday && t.Weekday() != time.Sunday }
	open, closeT := day(n)
	clock := trading.MarketClock{Timestamp: now}
	if weekday(n) && !n.Before(open) && n.Before(closeT) {
		clock.IsOpen = true
		c := closeT.UTC()
		clock.NextClose = &c
		return clock
	}
	next := open
	if !n.Before(open) || !weekday(n) {
		next = open.AddDate(0, 0, 1)
	}
	for !weekday(next) {
		next = next.AddDate(0, 0, 1)
	}
	nu := next.UTC()
	clock.NextOpen = &nu
	return clock
}
