// Package simmarket is Alice's offline market: every instrument's price is
// a pure function of (seed, symbol, time), so the simulated broker, the
// market data tools and the portfolio all agree on prices without shared
// mutable state, and a given seed always replays the same tape.
//
// The log-price is a sum of a few sinusoids with symbol-specific periods and
// phases (trends and cycles) plus hashed per-minute noise. It is cheap to
// evaluate at any instant, which keeps bars and quotes O(1) per sample.
package simmarket

import (
	"hash/fnv"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
)

// Instrument is one tradable symbol of the simulated market.
type Instrument struct {
	Symbol     string
	Name       string
	AssetClass trading.AssetClass
	Base       float64 // anchor price; the path oscillates around it
	Vol        float64 // rough daily volatility (fraction)
	Decimals   int32   // price precision
}

// DefaultInstruments is the catalogue a fresh install trades.
func DefaultInstruments() []Instrument {
	return []Instrument{
		{"AAPL", "Apple Inc.", trading.Equity, 190, 0.015, 2},
		{"MSFT", "Microsoft Corporation", trading.Equity, 420, 0.014, 2},
		{"NVDA", "NVIDIA Corporation", trading.Equity, 130, 0.03, 2},
		{"TSLA", "Tesla, Inc.", trading.Equity, 250, 0.035, 2},
		{"AMZN", "Amazon.com, Inc.", trading.Equity, 185, 0.018, 2},
		{"GOOGL", "Alphabet Inc. Class A", trading.Equity, 170, 0.017, 2},
		{"META", "Meta Platforms, Inc.", trading.Equity, 500, 0.022, 2},
		{"SPY", "SPDR S&P 500 ETF Trust", trading.Equity, 560, 0.009, 2},
		{"QQQ", "Invesco QQQ Trust", trading.Equity, 480, 0.012, 2},
		{"BTC", "Bitcoin", trading.Crypto, 65000, 0.03, 2},
		{"ETH", "Ethereum", trading.Crypto, 3200, 0.04, 2},
		{"SOL", "Solana", trading.Crypto, 150, 0.05, 3},
		{"EURUSD", "Euro / US Dollar", trading.Currency, 1.08, 0.004, 5},
		{"GBPUSD", "British Pound / US Dollar", trading.Currency, 1.27, 0.005, 5},
		{"USDJPY", "US Dollar / Japanese Yen", trading.Currency, 150, 0.005, 3},
		{"XAU", "Gold spot", trading.Commodity, 2350, 0.009, 2},
		{"WTI", "WTI crude oil", trading.Commodity, 78, 0.02, 2},
	}
}

// Market evaluates prices for a fixed seed and catalogue. It is immutable
// after New and safe for concurrent use.
type Market struct {
	seed  int64
	byKey map[string]Instrument
	list  []Instrument
}

// New builds a market over the given instruments (DefaultInstruments when
// none are passed).
func New(seed int64, instruments ...Instrument) *Market {
	if len(instruments) == 0 {
		instruments = DefaultInstruments()
	}
	m := &Market{seed: seed, byKey: map[string]Instrument{}}
	for _, in := range instruments {
		in.Symbol = strings.ToUpper(in.Symbol)
		m.byKey[in.Symbol] = in
		m.list = append(m.list, in)
	}
	sort.Slice(m.list, func(i, j int) bool { return m.list[i].Symbol < m.list[j].Symbol })
	return m
}

// Seed returns the market's seed.
func (m *Market) Seed() int64 { return m.seed }

// Instruments lists the catalogue sorted by symbol.
func (m *Market) Instruments() []Instrument { return append([]Instrument(nil), m.list...) }

// Lookup finds an instrument by symbol (case-insensitive).
func (m *Market) Lookup(symbol string) (Instrument, bool) {
	in, ok := m.byKey[strings.ToUpper(strings.TrimSpace(symbol))]
	return in, ok
}

// Search matches symbol prefixes and name substrings, case-insensitively.
func (m *Market) Search(pattern string, class trading.AssetClass) []Instrument {
	p := strings.ToUpper(strings.TrimSpace(pattern))
	var out []Instrument
	for _, in := range m.list {
		if class != "" && in.AssetClass != class {
			continue
		}
		if p == "" || strings.HasPrefix(in.Symbol, p) || strings.Contains(strings.ToUpper(in.Name), p) {
			out = append(out, in)
		}
	}
	return out
}

func (m *Market) hash(symbol string, salt uint64) uint64 {
	h := fnv.New64a()
	var b [16]byte
	for i := 0; i < 8; i++ {
		b[i] = byte(uint64(m.seed) >> (8 * i))
		b[8+i] = byte(salt >> (8 * i))
	}
	h.Write(b[:])
	h.Write([]byte(symbol))
	return h.Sum64()
}

func (m *Market) unit(symbol string, salt uint64) float64 {
	return float64(m.hash(symbol, salt)>>11) / float64(1<<53)
}

// logOffset is the log-price deviation from Base at time t.
func (m *Market) logOffset(in Instrument, t time.Time) float64 {
	days := float64(t.UnixNano()) / float64(24*time.Hour)
	// Cycles from intraday to quarterly; amplitudes scale with volatility.
	periods := [...]float64{0.35, 3.1, 17, 61, 190}
	amps := [...]float64{0.6, 1.4, 2.6, 4.0, 5.5}
	var x float64
	for i, p := range periods {
		period := p * (0.8 + 0.4*m.unit(in.Symbol, uint64(10+i)))
		phase := 2 * math.Pi * m.unit(in.Symbol, uint64(20+i))
		x += amps[i] * in.Vol * math.Sin(2*math.Pi*days/period+phase)
	}
	// Per-minute noise, interpolated so the path is continuous.
	minute := t.Unix() / 60
	frac := float64(t.Unix()%60) / 60
	n0 := m.unit(in.Symbol, uint64(minute)) - 0.5
	n1 := m.unit(in.Symbol, uint64(minute+1)) - 0.5
	x += in.Vol * 0.15 * (n0*(1-frac) + n1*frac)
	return x
}

// PriceFloat is the instrument's price at t as a float, for charting and
// bar construction.
func (m *Market) PriceFloat(symbol string, t time.Time) (float64, bool) {
	in, ok := m.Lookup(symbol)
	if !ok {
		return 0, false
	}
	return in.Base * math.Exp(m.logOffset(in, t)), true
}

// Price is the instrument's price at t, rounded to its precision.
func (m *Market) Price(symbol string, t time.Time) (decimal.Decimal, bool) {
	f, ok := m.PriceFloat(symbol, t)
	if !ok {
		return decimal.Zero, false
	}
	in, _ := m.Lookup(symbol)
	return decimal.NewFromFloat(f).Round(in.Decimals), true
}

// Quote is a top-of-book snapshot.
type Quote struct {
	Symbol    string
	Last      decimal.Decimal
	Bid       decimal.Decimal
	Ask       decimal.Decimal
	High      decimal.Decimal // session (24h) high
	Low       decimal.Decimal // session (24h) low
	Volume    decimal.Decimal // 24h volume
	Timestamp time.Time
}

// QuoteAt builds a quote at t with a spread of about one basis point.
func (m *Market) QuoteAt(symbol string, t time.Time) (Quote, bool) {
	in, ok := m.Lookup(symbol)
	if !ok {
		return Quote{}, false
	}
	last, _ := m.Price(symbol, t)
	half := last.Mul(decimal.NewFromFloat(0.00005)).Round(in.Decimals)
	if half.IsZero() {
		half = decimal.New(1, -in.Decimals)
	}
	day := m.Bars(symbol, time.Hour, t.Add(-24*time.Hour), t)
	q := Quote{Symbol: in.Symbol, Last: last, Bid: last.Sub(half), Ask: last.Add(half), Timestamp: t, High: last, Low: last, Volume: decimal.Zero}
	for _, b := range day {
		if b.High.GreaterThan(q.High) {
			q.High = b.High
		}
		if b.Low.LessThan(q.Low) {
			q.Low = b.Low
		}
		q.Volume = q.Volume.Add(b.Volume)
	}
	return q, true
}

// Bar is one OHLCV candle.
type Bar struct {
	Time   time.Time // bar open time
	Open   decimal.Decimal
	High   decimal.Decimal
	Low    decimal.Decimal
	Close  decimal.Decimal
	Volume decimal.Decimal
}

// Bars returns candles of the given interval whose open time lies in
// [from, to), aligned to interval boundaries. Equity bars include weekends:
// the simulated market never closes, which keeps tests calendar-free.
// A bar still open at to (the current one, when to is now) ends at to: it
// closes at the price at to, as the quote does, and its high and low know
// nothing of the prices after it.
func (m *Market) Bars(symbol string, interval time.Duration, from, to time.Time) []Bar {
	in, ok := m.Lookup(symbol)
	if !ok || interval <= 0 || !to.After(from) {
		return nil
	}
	start := from.Truncate(interval)
	if start.Before(from) {
		start = start.Add(interval)
	}
	const maxBars = 20000
	var out []Bar
	for t := start; t.Before(to) && len(out) < maxBars; t = t.Add(interval) {
		const samples = 8
		span := interval
		if end := t.Add(interval); end.After(to) {
			span = to.Sub(t)
		}
		o := in.Base * math.Exp(m.logOffset(in, t))
		c := in.Base * math.Exp(m.logOffset(in, t.Add(span)))
		hi, lo := math.Max(o, c), math.Min(o, c)
		for k := 1; k < samples; k++ {
			p := in.Base * math.Exp(m.logOffset(in, t.Add(span*time.Duration(k)/samples)))
			hi, lo = math.Max(hi, p), math.Min(lo, p)
		}
		vol := (0.5 + m.unit(in.Symbol, uint64(t.Unix())^0xabcdef)) * 1e6 * interval.Hours() / 24
		out = append(out, Bar{
			Time:   t,
			Open:   decimal.NewFromFloat(o).Round(in.Decimals),
			High:   decimal.NewFromFloat(hi).Round(in.Decimals),
			Low:    decimal.NewFromFloat(lo).Round(in.Decimals),
			Close:  decimal.NewFromFloat(c).Round(in.Decimals),
			Volume: decimal.NewFromFloat(vol).Round(0),
		})
	}
	return out
}
