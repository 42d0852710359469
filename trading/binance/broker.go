package binance

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

// Broker is one Binance account in one market (spot or USDⓈ-M futures).
type Broker struct {
	accountID string
	c         *client

	mu       sync.Mutex
	symbols  map[string]wireSymbol // catalogue cache
	loadedAt time.Time
	// orderSymbol remembers each order's symbol (Binance looks orders up
	// by symbol + id); after a restart unknown ids are searched for.
	orderSymbol map[string]string
}

func (b *Broker) remember(id, symbol string) {
	if id == "" || symbol == "" {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.orderSymbol == nil {
		b.orderSymbol = map[string]string{}
	}
	b.orderSymbol[id] = symbol
}

func (b *Broker) recall(id string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.orderSymbol[id]
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
	return fmt.Sprintf("binance(%s %s %s)", b.accountID, b.c.cfg.Mode, b.c.cfg.Market)
}

func (b *Broker) futures() bool { return b.c.cfg.Market == "futures" }

// path picks the market's prefix: /api/v3 (spot) or /fapi/v1 (futures).
func (b *Broker) path(spot, futures string) string {
	if b.futures() {
		return futures
	}
	return spot
}

// Init reads the account once so bad keys fail at start-up.
func (b *Broker) Init(ctx context.Context) error {
	_, err := b.Account(ctx)
	return err
}

// Close has nothing to release.
func (b *Broker) Close() error { return nil }

func (b *Broker) contractOf(s wireSymbol) trading.Contract {
	desc := s.BaseAsset + "/" + s.QuoteAsset + " spot"
	if b.futures() {
		desc = s.BaseAsset + "/" + s.QuoteAsset + " USDⓈ-M perpetual"
	}
	return trading.Contract{AliceID: trading.AliceID(b.accountID, s.Symbol), Symbol: s.Symbol, SecType: "CRYPTO",
		AssetClass: trading.Crypto, Exchange: "BINANCE", Currency: s.QuoteAsset, Description: desc}
}

// catalog returns tradable symbols (perpetuals only on futures), cached
// for an hour.
func (b *Broker) catalog(ctx context.Context) (map[string]wireSymbol, error) {
	b.mu.Lock()
	if b.symbols != nil && time.Since(b.loadedAt) < time.Hour {
		m := b.symbols
		b.mu.Unlock()
		return m, nil
	}
	b.mu.Unlock()
	var info struct {
		Symbols []wireSymbol `json:"symbols"`
	}
	if err := b.c.call(ctx, http.MethodGet, b.path("/api/v3/exchangeInfo", "/fapi/v1/exchangeInfo"), nil, false, &info); err != nil {
		return nil, err
	}
	m := map[string]wireSymbol{}
	for _, s := range info.Symbols {
		if s.Status != "TRADING" || (b.futures() && s.ContractType != "PERPETUAL") {
			continue
		}
		m[s.Symbol] = s
	}
	b.mu.Lock()
	b.symbols, b.loadedAt = m, time.Now()
	b.mu.Unlock()
	return m, nil
}

// normalise accepts BTC/USDT, BTC-USDT, BTC/USDT:USDT (CCXT) and btcusdt.
func normalise(s string) string {
	s = strings.ToUpper(strings.TrimSpace(s))
	if i := strings.Index(s, ":"); i >= 0 {
		s = s[:i]
	}
	return strings.NewReplacer("/", "", "-", "", "_", "").Replace(s)
}

func (b *Broker) symbol(ctx context.Context, sym string) (wireSymbol, error) {
	m, err := b.catalog(ctx)
	if err != nil {
		return wireSymbol{}, err
	}
	n := normalise(sym)
	if s, ok := m[n]; ok {
		return s, nil
	}
	if s, ok := m[n+b.c.cfg.Quote]; ok { // "BTC" → BTCUSDT
		return s, nil
	}
	return wireSymbol{}, broker.Errorf(broker.CodeNotFound, "Binance %s has no symbol %q", b.c.cfg.Market, sym)
}

// SearchContracts matches symbols and base assets.
func (b *Broker) SearchContracts(ctx context.Context, pattern string, class trading.AssetClass) ([]trading.Contract, error) {
	if class != "" && class != trading.Crypto {
		return []trading.Contract{}, nil
	}
	m, err := b.catalog(ctx)
	if err != nil {
		return nil, err
	}
	p := normalise(pattern)
	out := []trading.Contract{}
	for _, s := range m {
		if strings.Contains(s.Symbol, p) || s.BaseAsset == p {
			out = append(out, b.contractOf(s))
		}
	}
	rank := func(sym string) int {
		switch sym {
		case p:
			return 0
		case p + b.c.cfg.Quote:
			return 1
		}
		return 2
	}
	sort.Slice(out, func(i, j int) bool {
		if ri, rj := rank(out[i].Symbol), rank(out[j].Symbol); ri != rj {
			return ri < rj
		}
		return out[i].Symbol < out[j].Symbol
	})
	if len(out) > 50 {
		out = out[:50]
	}
	return out, nil
}

// ContractDetails reports tick size; crypto is fractional.
func (b *Broker) ContractDetails(ctx context.Context, q trading.Contract) (*trading.ContractDetails, error) {
	s, err := b.symbol(ctx, q.Symbol)
	if err != nil {
		return nil, err
	}
	return &trading.ContractDetails{Contract: b.contractOf(s), MinTick: s.filter("PRICE_FILTER").TickSize.dec(), Multiplier: "1",
		Tradable: true, Fractionable: true, OrderTypes: b.Capabilities().SupportedOrderTypes}, nil
}

// Capabilities is what this adapter sends to Binance.
func (b *Broker) Capabilities() trading.Capabilities { return Declared() }

// Declared: a 24/7 market with no DAY time in force, orders sized in base
// units, stops as STOP_LOSS(_LIMIT) on spot and STOP_MARKET/STOP on
// futures; no attached take-profit/stop-loss legs.
func Declared() trading.Capabilities {
	return trading.Declare("Binance", trading.ClassCaps{Class: trading.Crypto,
		OrderTypes: []trading.OrderType{trading.Market, trading.Limit, trading.Stop, trading.StopLimit},
		TIFs:       []trading.TIF{trading.GTC, trading.IOC, trading.FOK}, DefaultTIF: trading.GTC,
		Fractional: true})
}

// NativeKey is the Binance symbol (BTCUSDT).
func (b *Broker) NativeKey(c trading.Contract) string { return normalise(c.Symbol) }

// ResolveNativeKey turns a symbol back into a contract.
func (b *Broker) ResolveNativeKey(ctx context.Context, key string) (trading.Contract, error) {
	s, err := b.symbol(ctx, key)
	if err != nil {
		return trading.Contract{}, err
	}
	return b.contractOf(s), nil
}

// Quote reads the 24h ticker (futures: plus the book ticker for bid/ask).
func (b *Broker) Quote(ctx context.Context, c trading.Contract) (trading.Quote, error) {
	s, err := b.symbol(ctx, c.Symbol)
	if err != nil {
		return trading.Quote{}, err
	}
	var t wireTicker
	q := url.Values{"symbol": {s.Symbol}}
	if err := b.c.call(ctx, http.MethodGet, b.path("/api/v3/ticker/24hr", "/fapi/v1/ticker/24hr"), q, false, &t); err != nil {
		return trading.Quote{}, err
	}
	bid, ask := t.BidPrice.dec(), t.AskPrice.dec()
	if b.futures() {
		var bk wireBook
		if err := b.c.call(ctx, http.MethodGet, "/fapi/v1/ticker/bookTicker", q, false, &bk); err != nil {
			return trading.Quote{}, err
		}
		bid, ask = bk.BidPrice.dec(), bk.AskPrice.dec()
	}
	return trading.Quote{Contract: b.contractOf(s), Last: t.LastPrice.dec(), Bid: bid, Ask: ask, Volume: t.Volume.dec(),
		High: t.HighPrice.dec(), Low: t.LowPrice.dec(), Timestamp: b.c.now().UTC()}, nil
}

// MarketClock: crypto trades around the clock; the server time shows a
// skewed local clock.
func (b *Broker) MarketClock(ctx context.Context) (trading.MarketClock, error) {
	var r struct {
		ServerTime ms `json:"serverTime"`
	}
	if err := b.c.call(ctx, http.MethodGet, b.path("/api/v3/time", "/fapi/v1/time"), nil, false, &r); err != nil {
		return trading.MarketClock{}, err
	}
	return trading.MarketClock{IsOpen: true, Timestamp: msTime(r.ServerTime)}, nil
}

// Account: spot equity is the quote balance plus every other balance at
// its last price; futures report wallet, margin balance and unrealised
// profit directly.
func (b *Broker) Account(ctx context.Context) (trading.AccountInfo, error) {
	quote := b.c.cfg.Quote
	if b.futures() {
		var a wireFuturesAccount
		if err := b.c.call(ctx, http.MethodGet, "/fapi/v2/account", nil, true, &a); err != nil {
			return trading.AccountInfo{}, err
		}
		return trading.AccountInfo{BaseCurrency: quote, NetLiquidation: a.TotalMarginBalance.dec(), TotalCashValue: a.TotalWalletBalance.dec(),
			UnrealizedPnL: a.TotalUnrealizedProfit.dec(), BuyingPower: a.AvailableBalance.dec()}, nil
	}
	acct, err := b.spotAccount(ctx)
	if err != nil {
		return trading.AccountInfo{}, err
	}
	info := trading.AccountInfo{BaseCurrency: quote}
	for _, bal := range acct.Balances {
		if bal.Asset == quote {
			info.TotalCashValue = bal.Free.dec().Add(bal.Locked.dec())
			info.BuyingPower = bal.Free.dec()
		}
	}
	pos, err := b.spotPositions(ctx, acct)
	if err != nil {
		return trading.AccountInfo{}, err
	}
	info.NetLiquidation = info.TotalCashValue
	for _, p := range pos {
		info.NetLiquidation = info.NetLiquidation.Add(p.MarketValue)
	}
	return info, nil
}

func (b *Broker) spotAccount(ctx context.Context) (wireSpotAccount, error) {
	var a wireSpotAccount
	err := b.c.call(ctx, http.MethodGet, "/api/v3/account", url.Values{"omitZeroBalances": {"true"}}, true, &a)
	return a, err
}

// Positions: futures positions from positionRisk (with leverage,
// liquidation price and margin mode); spot holdings are every non-quote
// balance with a <asset><quote> market, valued at the last price (Binance
// keeps no cost basis for spot).
func (b *Broker) Positions(ctx context.Context) ([]trading.Position, error) {
	if !b.futures() {
		acct, err := b.spotAccount(ctx)
		if err != nil {
			return nil, err
		}
		return b.spotPositions(ctx, acct)
	}
	var ws []wirePosition
	if err := b.c.call(ctx, http.MethodGet, "/fapi/v2/positionRisk", nil, true, &ws); err != nil {
		return nil, err
	}
	out := []trading.Position{}
	for _, w := range ws {
		if p, ok := b.futuresPosition(ctx, w); ok {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Contract.Symbol < out[j].Contract.Symbol })
	return out, nil
}

// futuresPosition converts one positionRisk row; flat rows are skipped.
func (b *Broker) futuresPosition(ctx context.Context, w wirePosition) (trading.Position, bool) {
	amt := w.PositionAmt.dec()
	if amt.IsZero() {
		return trading.Position{}, false
	}
	s, err := b.symbol(ctx, w.Symbol)
	if err != nil {
		s = wireSymbol{Symbol: w.Symbol, BaseAsset: strings.TrimSuffix(w.Symbol, b.c.cfg.Quote), QuoteAsset: b.c.cfg.Quote}
	}
	side := trading.Long
	if amt.IsNegative() {
		side = trading.Short
	}
	mark := w.MarkPrice.dec()
	mode := w.marginMode()
	return trading.Position{Contract: b.contractOf(s), Currency: s.QuoteAsset, Side: side, Quantity: amt.Abs(),
		AvgCost: w.EntryPrice.dec(), MarketPrice: mark, MarketValue: mark.Mul(amt.Abs()), UnrealizedPnL: w.UnRealizedProfit.dec(),
		Multiplier: "1", Risk: trading.NewPositionRisk(w.Leverage.dec(), w.LiquidationPrice.dec(), mode)}, true
}

func (b *Broker) spotPositions(ctx context.Context, acct wireSpotAccount) ([]trading.Position, error) {
	m, err := b.catalog(ctx)
	if err != nil {
		return nil, err
	}
	out := []trading.Position{}
	for _, bal := range acct.Balances {
		qty := bal.Free.dec().Add(bal.Locked.dec())
		s, ok := m[bal.Asset+b.c.cfg.Quote]
		if bal.Asset == b.c.cfg.Quote || !qty.IsPositive() || !ok {
			continue // the quote asset is cash; dust without a quote market is skipped
		}
		q, err := b.Quote(ctx, b.contractOf(s))
		if err != nil {
			return nil, err
		}
		out = append(out, trading.Position{Contract: b.contractOf(s), Currency: b.c.cfg.Quote, Side: trading.Long, Quantity: qty,
			MarketPrice: q.Last, MarketValue: qty.Mul(q.Last), AvgCost: decimal.Zero, Multiplier: "1"})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Contract.Symbol < out[j].Contract.Symbol })
	return out, nil
}
