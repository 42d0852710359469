// Package guard is the pre-trade check pipeline a push runs every
// operation through. Guards are configured per account in accounts.json
// ({type, options}); the first guard that objects short-circuits the
// operation with "[guard:<type>] <reason>" and the broker is never called.
package guard

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"

	"github.com/shopspring/decimal"
)

// Context is what a guard sees for one operation. Positions and Account
// are fetched once per operation by the pipeline.
type Context struct {
	Op        git.Operation
	Positions []trading.Position
	Account   trading.AccountInfo
	Now       time.Time
	// Price estimates the execution price of a symbol (the mark); may be nil.
	Price func(ctx context.Context, c trading.Contract) (decimal.Decimal, error)
	// DayStartEquity is today's opening net liquidation when known (from
	// snapshots); zero lets the daily-loss guard use its own baseline.
	DayStartEquity decimal.Decimal
}

// Guard checks one operation; a non-empty string rejects it.
type Guard interface {
	Type() string
	Check(ctx context.Context, gc Context) string
}

// Factory builds a guard from its options.
type Factory func(opts map[string]any) (Guard, error)

// Registry maps guard types to factories. It is a value, not global state,
// so tests and extensions can add types.
type Registry map[string]Factory

// DefaultRegistry holds the built-in guards.
func DefaultRegistry() Registry {
	return Registry{
		"max-position-size": newMaxPositionSize,
		"cooldown":          newCooldown,
		"symbol-whitelist":  newSymbolWhitelist,
		"max-order-value":   newMaxOrderValue,
		"daily-loss":        newDailyLoss,
	}
}

// Types lists the registered guard types.
func (r Registry) Types() []string {
	out := make([]string, 0, len(r))
	for k := range r {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Pipeline runs guards in order.
type Pipeline struct {
	guards []Guard
}

// NewPipeline builds guards from config. An unknown type is skipped with a
// warning (as the reference does); invalid options are an error naming the
// guard index so the caller can report "[i].guards[j].options".
func NewPipeline(reg Registry, cfg []config.Guard, logger *slog.Logger) (*Pipeline, int, error) {
	if logger == nil {
		logger = slog.Default()
	}
	p := &Pipeline{}
	for i, gc := range cfg {
		f, ok := reg[gc.Type]
		if !ok {
			logger.Warn("trading: unknown guard type skipped", "type", gc.Type, "known", reg.Types())
			continue
		}
		g, err := f(gc.Options)
		if err != nil {
			return nil, i, fmt.Errorf("guard %s: %w", gc.Type, err)
		}
		p.guards = append(p.guards, g)
	}
	return p, -1, nil
}

// Has reports whether a guard of this type is active (so callers can skip
// gathering context only it needs).
func (p *Pipeline) Has(typ string) bool {
	for _, g := range p.guards {
		if g.Type() == typ {
			return true
		}
	}
	return false
}

// Len is the number of active guards.
func (p *Pipeline) Len() int { return len(p.guards) }

// Check returns "" or the first rejection, prefixed with the guard type.
func (p *Pipeline) Check(ctx context.Context, gc Context) string {
	for _, g := range p.guards {
		if reason := g.Check(ctx, gc); reason != "" {
			return fmt.Sprintf("[guard:%s] %s", g.Type(), reason)
		}
	}
	return ""
}

// options helpers: accounts.json may carry numbers or decimal strings.

func optDecimal(opts map[string]any, key string, def decimal.Decimal) (decimal.Decimal, error) {
	v, ok := opts[key]
	if !ok || v == nil {
		return def, nil
	}
	var d decimal.Decimal
	var err error
	switch x := v.(type) {
	case string:
		d, err = decimal.NewFromString(x)
	case float64:
		d = decimal.NewFromFloat(x)
	case int:
		d = decimal.NewFromInt(int64(x))
	case json.Number:
		d, err = decimal.NewFromString(x.String())
	default:
		err = fmt.Errorf("wrong type %T", v)
	}
	if err != nil {
		return def, fmt.Errorf("option %s: want a number or decimal string: %v", key, err)
	}
	if !d.IsPositive() {
		return def, fmt.Errorf("option %s: must be > 0, got %s", key, d)
	}
	return d, nil
}

func knownOptions(opts map[string]any, keys ...string) error {
	for k := range opts {
		found := false
		for _, want := range keys {
			found = found || k == want
		}
		if !found {
			return fmt.Errorf("unknown option %q (known: %v)", k, keys)
		}
	}
	return nil
}
