package marketdata

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/simmarket"
)

// Simulated serves the offline simmarket. It must be given the same
// *simmarket.Market the simulated broker trades on, so research prices and
// fills agree.
type Simulated struct {
	market *simmarket.Market
	now    func() time.Time
}

// NewSimulated wraps market; now may be nil (time.Now).
func NewSimulated(market *simmarket.Market, now func() time.Time) *Simulated {
	if now == nil {
		now = time.Now
	}
	return &Simulated{market: market, now: now}
}

// Name implements Source.
func (s *Simulated) Name() string { return "simulated" }

func (s *Simulated) lookup(symbol string, class trading.AssetClass) (simmarket.Instrument, error) {
	in, ok := s.market.Lookup(symbol)
	if !ok {
		return in, fmt.Errorf("%w: %q is not in the simulated market (try marketSearchForResearch)", ErrNotFound, symbol)
	}
	if class != "" && class != trading.Unknown && string(in.AssetClass) != string(class) {
		return in, fmt.Errorf("%w: %s is %s, not %s", ErrNotFound, in.Symbol, in.AssetClass, class)
	}
	return in, nil
}

// Bars implements Source. Bars that have not closed yet (open time after
// now) are not returned.
func (s *Simulated) Bars(ctx context.Context, symbol string, class trading.AssetClass, interval Interval, from, to time.Time) ([]Bar, error) {
	if err := checkRange(interval, from, to); err != nil {
		return nil, err
	}
	in, err := s.lookup(symbol, class)
	if err != nil {
		return nil, err
	}
	if now := s.now(); to.After(now) {
		to = now
	}
	var out []Bar
	for _, b := range s.market.Bars(in.Symbol, interval.Duration(), from, to) {
		out = append(out, Bar{
			Time: b.Time, Open: b.Open.InexactFloat64(), High: b.High.InexactFloat64(),
			Low: b.Low.InexactFloat64(), Close: b.Close.InexactFloat64(), Volume: b.Volume.InexactFloat64(),
		})
	}
	return out, ctx.Err()
}

// Quote implements Source.
func (s *Simulated) Quote(ctx context.Context, symbol string, class trading.AssetClass) (Quote, error) {
	in, err := s.lookup(symbol, class)
	if err != nil {
		return Quote{}, err
	}
	q, _ := s.market.QuoteAt(in.Symbol, s.now())
	return Quote{
		Symbol: q.Symbol, AssetClass: in.AssetClass, Last: q.Last, Bid: q.Bid, Ask: q.Ask,
		High: q.High, Low: q.Low, Volume: q.Volume, Currency: "USD", Time: q.Timestamp,
		Source: s.Name(), Simulated: true,
	}, ctx.Err()
}

// Search implements Source over the simulated catalogue.
func (s *Simulated) Search(ctx context.Context, query string, class trading.AssetClass, limit int) ([]Instrument, error) {
	if class == trading.Unknown {
		class = ""
	}
	var out []Instrument
	for _, in := range s.market.Search(query, class) {
		if limit > 0 && len(out) >= limit {
			break
		}
		out = append(out, Instrument{Symbol: in.Symbol, Name: in.Name, AssetClass: in.AssetClass, Exchange: "SIM", Simulated: true})
	}
	return out, ctx.Err()
}

// Profile implements ProfileSource with a synthetic, clearly labelled
// profile: the offline market has names and prices but no filings.
func (s *Simulated) Profile(ctx context.Context, symbol string) (Profile, error) {
	in, err := s.lookup(symbol, "")
	if err != nil {
		return Profile{}, err
	}
	now := s.now()
	p := Profile{
		Symbol: in.Symbol, Name: in.Name, AssetClass: in.AssetClass, Exchange: "SIM", Currency: "USD",
		Description: fmt.Sprintf("Simulated instrument %q from Alice's offline market (seed %d). Prices are synthetic; there are no fundamentals.",
			strings.TrimSpace(in.Name), s.market.Seed()),
		Simulated: true, Source: s.Name(),
	}
	if q, ok := s.market.QuoteAt(in.Symbol, now); ok {
		p.Price = q.Last
	}
	bars := s.market.Bars(in.Symbol, 24*time.Hour, now.AddDate(-1, 0, 0), now)
	for i, b := range bars {
		if i == 0 || b.High.GreaterThan(p.High52w) {
			p.High52w = b.High
		}
		if i == 0 || b.Low.LessThan(p.Low52w) {
			p.Low52w = b.Low
		}
	}
	return p, ctx.Err()
}
