package bybit

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

// Broker is one Bybit unified trading account in one category.
type Broker struct {
	accountID string
	c         *client

	mu          sync.Mutex
	instruments map[string]wireInstrument // symbol → instrument (catalogue cache)
	loadedAt    time.Time
}

var _ broker.Broker = (*Broker)(nil)

// New builds the adapter; Init checks the keys.
func New(accountID string, cfg Config, logger *slog.Logger) *Broker {
	if logger == nil {
		logger = slog.Default()
	}
	return &Broker{accountID: accountID, c: newClient(cfg, logger)}
}

func (b *Broker) String() string {
	return fmt.Sprintf("bybit(%s %s %s)", b.accountID, b.c.cfg.Mode, b.c.cfg.Category)
}

// Init reads the wallet once so bad keys fail at start-up, not at the
// first order.
func (b *Broker) Init(ctx context.Context) error {
	_, err := b.wallet(ctx)
	return err
}

// Close has nothing to release (no sockets are kept).
func (b *Broker) Close() error { return nil }

func (b *Broker) category() string { return b.c.cfg.Category }

func (b *Broker) contractOf(in wireInstrument) trading.Contract {
	desc := in.BaseCoin + "/" + in.QuoteCoin + " spot"
	if b.category() == "linear" {
		desc = in.BaseCoin + "/" + in.SettleCoin + " linear perpetual"
	}
	return trading.Contract{AliceID: trading.AliceID(b.accountID, in.Symbol), Symbol: in.Symbol, SecType: "CRYPTO",
		AssetClass: trading.Crypto, Exchange: "BYBIT", Currency: in.QuoteCoin, Description: desc}
}

// catalog returns tradable instruments, cached for an hour.
func (b *Broker) catalog(ctx context.Context) (map[string]wireInstrument, error) {
	b.mu.Lock()
	if b.instruments != nil && time.Since(b.loadedAt) < time.Hour {
		m := b.instruments
		b.mu.Unlock()
		return m, nil
	}
	b.mu.Unlock()
	m := map[string]wireInstrument{}
	cursor := ""
	for page := 0; page < 20; page++ {
		q := url.Values{"category": {b.category()}, "limit": {"1000"}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		var l list[wireInstrument]
		if err := b.c.get(ctx, "/v5/market/instruments-info", q, &l); err != nil {
			return nil, err
		}
		for _, in := range l.List {
			if in.Status == "Trading" {
				m[in.Symbol] = in
			}
		}
		if cursor = l.NextPageCursor; cursor == "" {
			break
		}
	}
	b.mu.Lock()
	b.instruments, b.loadedAt = m, time.Now()
	b.mu.Unlock()
	return m, nil
}

func (b *Broker) instrument(ctx context.Context, symbol string) (wireInstrument, error) {
	m, err := b.catalog(ctx)
	if err != nil {
		return wireInstrument{}, err
	}
	sym := normalise(symbol)
	if in, ok := m[sym]; ok {
		return in, nil
	}
	if in, ok := m[sym+b.c.cfg.SettleCoin]; ok { // "BTC" → BTCUSDT
		return in, nil
	}
	return wireInstrument{}, broker.Errorf(broker.CodeNotFound, "Bybit %s has no instrument %q", b.category(), symbol)
}

// normalise accepts BTC/USDT, BTC-USDT, BTC/USDT:USDT (CCXT style) and btcusdt.
func normalise(s string) string {
	s = strings.ToUpper(strings.TrimSpace(s))
	if i := strings.Index(s, ":"); i >= 0 {
		s = s[:i]
	}
	return strings.NewReplacer("/", "", "-", "", "_", "").Replace(s)
}

// SearchContracts matches the pattern against symbols and base coins.
func (b *Broker) SearchContracts(ctx context.Context, pattern string, class trading.AssetClass) ([]trading.Contract, error) {
	if class != "" && class != trading.Crypto {
		return []trading.Contract{}, nil
	}
	m, err := b.catalog(ctx)
	if err != nil {
		return nil, err
	}
	p := normalise(pattern)
	var out []trading.Contract
	for _, in := range m {
		if strings.Contains(in.Symbol, p) || in.BaseCoin == p {
			out = append(out, b.contractOf(in))
		}
	}
	sort.Slice(out, func(i, j int) bool {
		// Exact matches and the settle-coin pair first, then alphabetical.
		ri, rj := rank(out[i].Symbol, p, b.c.cfg.SettleCoin), rank(out[j].Symbol, p, b.c.cfg.SettleCoin)
		if ri != rj {
			return ri < rj
		}
		return out[i].Symbol < out[j].Symbol
	})
	if len(out) > 50 {
		out = out[:50]
	}
	return out, nil
}

func rank(sym, p, settle string) int {
	switch sym {
	case p:
		return 0
	case p + settle:
		return 1
	}
	return 2
}

// ContractDetails reports lot and tick sizes: crypto is fractional.
func (b *Broker) ContractDetails(ctx context.Context, q trading.Contract) (*trading.ContractDetails, error) {
	in, err := b.instrument(ctx, q.Symbol)
	if err != nil {
		return nil, err
	}
	lot := in.LotSizeFilter.QtyStep.dec()
	if lot.IsZero() {
		lot = in.LotSizeFilter.BasePrecision.dec() // spot instruments
	}
	return &trading.ContractDetails{Contract: b.contractOf(in), MinTick: in.PriceFilter.TickSize.dec(), Multiplier: "1",
		LotSize: lot, MinQty: in.LotSizeFilter.MinOrderQty.dec(),
		Tradable: true, Fractionable: true, OrderTypes: b.Capabilities().SupportedOrderTypes}, nil
}

// Capabilities lists what the v5 order endpoint maps to.
func (b *Broker) Capabilities() trading.Capabilities { return Declared() }

// Declared is what alice sends to Bybit's v5 order endpoint: a 24/7
// market with no DAY time in force, orders sized in base units (no cash
// amounts), take-profit/stop-loss attached to the order.
func Declared() trading.Capabilities {
	return trading.Declare("Bybit", trading.ClassCaps{Class: trading.Crypto,
		OrderTypes: []trading.OrderType{trading.Market, trading.Limit, trading.Stop, trading.StopLimit},
		TIFs:       []trading.TIF{trading.GTC, trading.IOC, trading.FOK}, DefaultTIF: trading.GTC,
		Fractional: true, Brackets: true})
}

// NativeKey is the Bybit symbol (BTCUSDT).
func (b *Broker) NativeKey(c trading.Contract) string { return normalise(c.Symbol) }

// ResolveNativeKey turns a symbol back into a contract.
func (b *Broker) ResolveNativeKey(ctx context.Context, key string) (trading.Contract, error) {
	in, err := b.instrument(ctx, key)
	if err != nil {
		return trading.Contract{}, err
	}
	return b.contractOf(in), nil
}

// Quote reads the ticker.
func (b *Broker) Quote(ctx context.Context, c trading.Contract) (trading.Quote, error) {
	in, err := b.instrument(ctx, c.Symbol)
	if err != nil {
		return trading.Quote{}, err
	}
	var l list[wireTicker]
	if err := b.c.get(ctx, "/v5/market/tickers", url.Values{"category": {b.category()}, "symbol": {in.Symbol}}, &l); err != nil {
		return trading.Quote{}, err
	}
	if len(l.List) == 0 {
		return trading.Quote{}, broker.Errorf(broker.CodeNotFound, "no ticker for %s", in.Symbol)
	}
	t := l.List[0]
	return trading.Quote{Contract: b.contractOf(in), Last: t.LastPrice.dec(), Bid: t.Bid1Price.dec(), Ask: t.Ask1Price.dec(),
		Volume: t.Volume24h.dec(), High: t.HighPrice24h.dec(), Low: t.LowPrice24h.dec(), Timestamp: b.c.now().UTC()}, nil
}

// MarketClock: crypto trades around the clock; the server time is used
// so a skewed local clock shows.
func (b *Broker) MarketClock(ctx context.Context) (trading.MarketClock, error) {
	var r struct {
		TimeSecond num `json:"timeSecond"`
	}
	if err := b.c.get(ctx, "/v5/market/time", url.Values{}, &r); err != nil {
		return trading.MarketClock{}, err
	}
	return trading.MarketClock{IsOpen: true, Timestamp: time.Unix(r.TimeSecond.dec().IntPart(), 0).UTC()}, nil
}
