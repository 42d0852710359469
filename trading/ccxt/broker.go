//go:build ccxt

package ccxt

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	ccxtlib "github.com/ccxt/ccxt/go/v4"
	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

// Broker is one account at one CCXT exchange. CCXT calls take no context
// and are bounded by the exchange's own timeout (Config.TimeoutMs); calls
// are serialised by mu, which also keeps CCXT's rate limiter honest.
type Broker struct {
	accountID string
	cfg       Config
	log       *slog.Logger
	now       func() time.Time
	open      func() (exchange, error)

	mu       sync.Mutex
	ex       exchange
	markets  map[string]ccxtlib.MarketInterface // unified symbol → market
	symbols  map[string]string                  // order id → unified symbol (CCXT often needs both)
	triggers map[string]bool                    // order ids placed as trigger (stop) orders
}

var _ broker.Broker = (*Broker)(nil)

// New builds the adapter; Init connects and loads the markets.
func New(accountID string, cfg Config, logger *slog.Logger) *Broker {
	return newBroker(accountID, cfg, logger, func() (exchange, error) { return newExchange(cfg, nil) })
}

func newBroker(accountID string, cfg Config, logger *slog.Logger, open func() (exchange, error)) *Broker {
	if logger == nil {
		logger = slog.Default()
	}
	return &Broker{accountID: accountID, cfg: cfg, log: logger, now: time.Now, open: open, symbols: map[string]string{}, triggers: map[string]bool{}}
}

func (b *Broker) String() string {
	return fmt.Sprintf("ccxt(%s %s paper=%v)", b.accountID, b.cfg.Exchange, b.cfg.Paper())
}

// Init builds the exchange, loads its markets and reads the balance once,
// so bad keys fail at start-up rather than at the first order.
func (b *Broker) Init(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ex == nil {
		ex, err := b.open()
		if err != nil {
			return err
		}
		b.ex = ex
	}
	if err := b.loadLocked(); err != nil {
		return err
	}
	_, err := b.ex.FetchBalance()
	return wrap(err, "%s balance", b.cfg.Exchange)
}

func (b *Broker) loadLocked() error {
	if _, err := b.ex.LoadMarkets(); err != nil {
		return wrap(err, "%s markets", b.cfg.Exchange)
	}
	m := map[string]ccxtlib.MarketInterface{}
	for _, mk := range b.ex.GetMarketsList() {
		if mk.Symbol == nil || (mk.Active != nil && !*mk.Active) {
			continue
		}
		typ := str(mk.Type)
		if b.cfg.MarketType != "" && typ != b.cfg.MarketType {
			continue
		}
		if typ != "spot" && typ != "swap" { // futures with expiries and options are out of scope
			continue
		}
		m[*mk.Symbol] = mk
	}
	b.markets = m
	return nil
}

// Close releases CCXT's connections.
func (b *Broker) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ex != nil {
		b.ex.Close()
	}
	return nil
}

// call runs f on the exchange under the lock, after checking ctx.
func (b *Broker) call(ctx context.Context, f func(ex exchange) error) error {
	if err := ctx.Err(); err != nil {
		return broker.Errorf(broker.CodeNetwork, "%s: %v", b.cfg.Exchange, err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ex == nil {
		return broker.Errorf(broker.CodeNetwork, "%s: not connected (Init failed or not run)", b.cfg.Exchange)
	}
	if b.markets == nil {
		if err := b.loadLocked(); err != nil {
			return err
		}
	}
	return f(b.ex)
}

func (b *Broker) contractOf(mk ccxtlib.MarketInterface) trading.Contract {
	sym := str(mk.Symbol)
	desc := str(mk.BaseCurrency) + "/" + str(mk.QuoteCurrency) + " " + str(mk.Type)
	if str(mk.Type) == "swap" {
		desc = str(mk.BaseCurrency) + "/" + str(mk.QuoteCurrency) + " perpetual, settled in " + str(mk.Settle)
	}
	return trading.Contract{AliceID: trading.AliceID(b.accountID, sym), Symbol: sym, SecType: "CRYPTO", AssetClass: trading.Crypto,
		Exchange: strings.ToUpper(b.cfg.Exchange), Currency: str(mk.QuoteCurrency), Description: desc}
}

// market resolves a symbol as the user may spell it: the unified symbol
// (BTC/USDT, BTC/USDT:USDT), the exchange's id (BTCUSDT, BTC-USDT) or a
// bare base (BTC → BTC/<quote>, spot first). Callers hold mu.
func (b *Broker) marketLocked(symbol string) (ccxtlib.MarketInterface, error) {
	s := strings.TrimSpace(symbol)
	if mk, ok := b.markets[s]; ok {
		return mk, nil
	}
	up := strings.ToUpper(s)
	for _, cand := range []string{up, up + "/" + b.cfg.Quote, up + "/" + b.cfg.Quote + ":" + b.cfg.Quote} {
		if mk, ok := b.markets[cand]; ok {
			return mk, nil
		}
	}
	for _, mk := range b.sortedLocked() {
		if strings.EqualFold(str(mk.Id), s) {
			return mk, nil
		}
	}
	return ccxtlib.MarketInterface{}, broker.Errorf(broker.CodeNotFound, "%s has no market %q", b.cfg.Exchange, symbol)
}

func (b *Broker) sortedLocked() []ccxtlib.MarketInterface {
	out := make([]ccxtlib.MarketInterface, 0, len(b.markets))
	for _, mk := range b.markets {
		out = append(out, mk)
	}
	sort.Slice(out, func(i, j int) bool { return str(out[i].Symbol) < str(out[j].Symbol) })
	return out
}

// SearchContracts matches pattern against unified symbol, exchange id
// and base currency, case-insensitively.
func (b *Broker) SearchContracts(ctx context.Context, pattern string, _ trading.AssetClass) ([]trading.Contract, error) {
	p := strings.ToUpper(strings.TrimSpace(pattern))
	var out []trading.Contract
	err := b.call(ctx, func(exchange) error {
		for _, mk := range b.sortedLocked() {
			if p == "" || strings.Contains(strings.ToUpper(str(mk.Symbol)), p) || strings.Contains(strings.ToUpper(str(mk.Id)), p) ||
				strings.EqualFold(str(mk.BaseCurrency), p) {
				out = append(out, b.contractOf(mk))
			}
			if len(out) >= 50 {
				break
			}
		}
		return nil
	})
	return out, err
}

// ContractDetails reports tick size and tradability from CCXT's market.
func (b *Broker) ContractDetails(ctx context.Context, q trading.Contract) (*trading.ContractDetails, error) {
	var d *trading.ContractDetails
	err := b.call(ctx, func(exchange) error {
		mk, err := b.marketLocked(q.Symbol)
		if err != nil {
			return err
		}
		d = &trading.ContractDetails{Contract: b.contractOf(mk), Tradable: mk.Active == nil || *mk.Active, Fractionable: true,
			OrderTypes: b.Capabilities().SupportedOrderTypes, Multiplier: "1"}
		d.MinTick = tickSize(mk)
		if mk.ContractSize != nil {
			d.Multiplier = dec(mk.ContractSize).String()
		}
		return nil
	})
	return d, err
}

// Quote reads CCXT's ticker.
func (b *Broker) Quote(ctx context.Context, c trading.Contract) (trading.Quote, error) {
	var q trading.Quote
	err := b.call(ctx, func(ex exchange) error {
		mk, err := b.marketLocked(c.Symbol)
		if err != nil {
			return err
		}
		t, err := ex.FetchTicker(str(mk.Symbol))
		if err != nil {
			return wrap(err, "%s ticker %s", b.cfg.Exchange, str(mk.Symbol))
		}
		q = trading.Quote{Contract: b.contractOf(mk), Last: dec(t.Last), Bid: dec(t.Bid), Ask: dec(t.Ask), Volume: dec(t.BaseVolume),
			High: dec(t.High), Low: dec(t.Low), Timestamp: b.now()}
		if q.Last.IsZero() {
			q.Last = dec(t.Close)
		}
		if t.Timestamp != nil && *t.Timestamp > 0 {
			q.Timestamp = time.UnixMilli(*t.Timestamp)
		}
		return nil
	})
	return q, err
}

// MarketClock: crypto venues trade around the clock.
func (b *Broker) MarketClock(context.Context) (trading.MarketClock, error) {
	return trading.MarketClock{IsOpen: true, Timestamp: b.now()}, nil
}

// Capabilities lists what the unified API expresses for every exchange;
// an exchange that lacks trigger orders refuses STP at placement.
func (b *Broker) Capabilities() trading.Capabilities { return Declared() }

// NativeKey is CCXT's unified symbol (BTC/USDT, BTC/USDT:USDT).
func (b *Broker) NativeKey(c trading.Contract) string { return c.Symbol }

// ResolveNativeKey turns a unified symbol back into a contract.
func (b *Broker) ResolveNativeKey(ctx context.Context, key string) (trading.Contract, error) {
	var c trading.Contract
	err := b.call(ctx, func(exchange) error {
		mk, err := b.marketLocked(key)
		if err == nil {
			c = b.contractOf(mk)
		}
		return err
	})
	return c, err
}

// dec converts one of CCXT's float64 fields to a decimal; nil is zero.
// NewFromFloat keeps the shortest decimal that round-trips, so a price
// the exchange sent as "0.1" comes back as 0.1, but CCXT has already
// parsed the wire's decimal string into a float64: values with more than
// ~15 significant digits lose their tail here.
func dec(f *float64) decimal.Decimal {
	if f == nil {
		return decimal.Zero
	}
	return decimal.NewFromFloat(*f)
}

// tickSize reads the market's price precision from CCXT's unified market
// dict (MarketInterface.Info is that dict). CCXT reports it as a tick
// size for the exchanges served here (TICK_SIZE precision mode).
func tickSize(mk ccxtlib.MarketInterface) decimal.Decimal {
	p, _ := mk.Info["precision"].(map[string]interface{})
	f, ok := p["price"].(float64)
	if !ok || f <= 0 {
		return decimal.Zero
	}
	return decimal.NewFromFloat(f)
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
