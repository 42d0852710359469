package marketdata

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/alice-trading/alice/core/httpjson"
	"github.com/alice-trading/alice/trading"
)

// Fallback is the "auto" backend: real prices from a keyless provider
// (Yahoo) when it answers, the simulated market when it does not. Every
// answer says where it came from (Quote.Source / Simulated, bars through
// BarsFrom), so a simulated price is never mistaken for a real one. A
// symbol the provider does not know is an error, never a made-up price.
//
// A provider that did not answer is rested for FallbackRest: calls go
// straight to the simulated market meanwhile, then the next call tries the
// provider again. Without the rest every chart, quote and search waited
// for the provider's retries (2.3 s per chart offline; three 20 s
// timeouts where it hangs) before showing the simulated answer.
type Fallback struct {
	primary Source
	sim     *Simulated
	log     *slog.Logger
	now     func() time.Time

	mu        sync.Mutex
	restUntil time.Time // the provider is not asked before this
}

// FallbackRest is how long a provider that did not answer is left alone.
const FallbackRest = 30 * time.Second

// NewFallback answers from primary, else from sim.
func NewFallback(primary Source, sim *Simulated, log *slog.Logger) *Fallback {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Fallback{primary: primary, sim: sim, log: log, now: time.Now}
}

// resting reports whether the provider is being left alone.
func (f *Fallback) resting() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now().Before(f.restUntil)
}

// answered notes that the provider answered: a rest, if any, is over.
func (f *Fallback) answered() {
	f.mu.Lock()
	was := !f.restUntil.IsZero()
	f.restUntil = time.Time{}
	f.mu.Unlock()
	if was {
		f.log.Info("market data: real provider answers again", "provider", f.primary.Name())
	}
}

// Name implements Source.
func (f *Fallback) Name() string { return "auto (" + f.primary.Name() + ", else simulated)" }

// Unavailable reports whether err means the provider did not answer
// (network, timeout, 5xx, rate limit, refused access) rather than
// answering "no such symbol" or "no such interval".
func Unavailable(err error) bool {
	var te *httpjson.TransportError
	return errors.As(err, &te) || errors.Is(err, httpjson.ErrServer) || errors.Is(err, httpjson.ErrRateLimited) ||
		errors.Is(err, httpjson.ErrUnauthorized) || errors.Is(err, httpjson.ErrForbidden) ||
		errors.Is(err, context.DeadlineExceeded)
}

// fellBack rests the provider after it did not answer.
func (f *Fallback) fellBack(what string, err error) {
	f.mu.Lock()
	f.restUntil = f.now().Add(FallbackRest)
	f.mu.Unlock()
	f.log.Warn("market data: real provider unavailable; answering from the simulated market", "provider", f.primary.Name(),
		"call", what, "err", err, "retryIn", FallbackRest)
}

// Quote implements Source.
func (f *Fallback) Quote(ctx context.Context, symbol string, class trading.AssetClass) (Quote, error) {
	if f.resting() {
		return f.sim.Quote(ctx, symbol, class)
	}
	q, err := f.primary.Quote(ctx, symbol, class)
	if err == nil {
		f.answered()
		if q.Source == "" {
			q.Source = f.primary.Name()
		}
		return q, nil
	}
	if !Unavailable(err) || ctx.Err() != nil {
		return q, err
	}
	f.fellBack("quote", err)
	return f.sim.Quote(ctx, symbol, class)
}

// BarsFrom is Bars plus the name of the backend that answered.
func (f *Fallback) BarsFrom(ctx context.Context, symbol string, class trading.AssetClass, interval Interval, from, to time.Time) ([]Bar, string, error) {
	if f.resting() {
		bars, err := f.sim.Bars(ctx, symbol, class, interval, from, to)
		return bars, f.sim.Name(), err
	}
	bars, err := f.primary.Bars(ctx, symbol, class, interval, from, to)
	if err == nil {
		f.answered()
		return bars, f.primary.Name(), nil
	}
	if !Unavailable(err) || ctx.Err() != nil {
		return nil, f.primary.Name(), err
	}
	f.fellBack("bars", err)
	bars, err = f.sim.Bars(ctx, symbol, class, interval, from, to)
	return bars, f.sim.Name(), err
}

// Bars implements Source.
func (f *Fallback) Bars(ctx context.Context, symbol string, class trading.AssetClass, interval Interval, from, to time.Time) ([]Bar, error) {
	bars, _, err := f.BarsFrom(ctx, symbol, class, interval, from, to)
	return bars, err
}

// Search implements Source.
func (f *Fallback) Search(ctx context.Context, query string, class trading.AssetClass, limit int) ([]Instrument, error) {
	if f.resting() {
		return f.sim.Search(ctx, query, class, limit)
	}
	out, err := f.primary.Search(ctx, query, class, limit)
	if err == nil {
		f.answered()
	}
	if err == nil || !Unavailable(err) || ctx.Err() != nil {
		return out, err
	}
	f.fellBack("search", err)
	return f.sim.Search(ctx, query, class, limit)
}

// Profile implements ProfileSource (the simulated profile is labelled
// simulated:true).
func (f *Fallback) Profile(ctx context.Context, symbol string) (Profile, error) {
	if ps, ok := f.primary.(ProfileSource); ok && !f.resting() {
		p, err := ps.Profile(ctx, symbol)
		if err == nil {
			f.answered()
		}
		if err == nil || !Unavailable(err) || ctx.Err() != nil {
			return p, err
		}
		f.fellBack("profile", err)
	}
	return f.sim.Profile(ctx, symbol)
}
