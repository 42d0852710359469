// Package guard is the pre-trade check pipeline a push runs every
// operation through. Guards are configured per account in accounts.json
// ({type, options}); the first guard that objects short-circuits the
// operation with "[guard:<type>] <reason>" and the broker is never called.
package guard

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
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
	// Order and Contract are what will execute: the staged order of a
	// placeOrder, the open order with a modifyOrder's changes applied, or
	// the market order a closePosition produces (its side and quantity
	// from the position). Nil for operations that place nothing (cancel).
	Order    *trading.Order
	Contract *trading.Contract
	// Resting are the account's other open orders that may still fill
	// (not the order a modifyOrder changes): max-position-size counts
	// them toward the position it judges.
	Resting []trading.OpenOrder
	// Quote reads the current quote; may be nil.
	Quote func(ctx context.Context, c trading.Contract) (trading.Quote, error)
	// DayStartEquity is today's opening net liquidation when known (from
	// snapshots); zero lets the daily-loss guard use its own baseline.
	DayStartEquity decimal.Decimal
	// DayStartAt is when DayStartEquity was taken (zero: unknown, and
	// DayStartEquity is trusted as the day's start).
	DayStartAt time.Time
}

// Executes returns the order and contract the operation will execute, or
// false when it places nothing.
func (gc Context) Executes() (trading.Order, trading.Contract, bool) {
	if gc.Order != nil && gc.Contract != nil {
		return *gc.Order, *gc.Contract, true
	}
	if gc.Op.Action == git.PlaceOrder && gc.Op.Order != nil && gc.Op.Contract != nil {
		return *gc.Op.Order, *gc.Op.Contract, true
	}
	return trading.Order{}, trading.Contract{}, false
}

// Notional values what will execute (trading.Order.Notional): a cash
// order's cash, else quantity × the price it can fill at, reading the
// quote when the order alone does not say. An order that cannot be valued
// is an error: a guard never passes what it cannot measure.
func (gc Context) Notional(ctx context.Context) (decimal.Decimal, error) {
	o, c, ok := gc.Executes()
	if !ok {
		return decimal.Zero, nil
	}
	var q trading.Quote
	var qerr error
	if gc.Quote != nil && o.CashQty.IsZero() {
		q, qerr = gc.Quote(ctx, c)
	}
	v := o.Notional(q)
	if !v.IsPositive() {
		if qerr == nil {
			qerr = fmt.Errorf("no price")
		}
		return decimal.Zero, fmt.Errorf("cannot value the %s order for %s: %v", o.OrderType, c.Symbol, qerr)
	}
	return v, nil
}

// Verdict is one guard's judgement of one operation, with its headroom,
// for the approval evidence. Assessing has no side effects.
type Verdict struct {
	Guard string `json:"guard"`
	// Applies is false when the operation is outside the guard's scope.
	Applies bool `json:"applies"`
	// Measure names what Value is ("position", "order value").
	Measure string `json:"measure,omitempty"`
	// From is Value before the operation, when the guard measures a
	// change ("position 10.0% → 16.0% of equity").
	From  *decimal.Decimal `json:"from,omitempty"`
	Value decimal.Decimal  `json:"value,omitzero"`
	Limit decimal.Decimal  `json:"limit,omitzero"`
	// Unit follows both numbers; words after its first one describe only
	// Value ("% of equity": "position 2.0% of equity, limit 25%").
	Unit   string `json:"unit,omitempty"`
	Reject string `json:"reject,omitempty"`
}

// String renders "max-position-size: position 0.0% → 2.0% of equity,
// limit 25% → ok" or "max-order-value: order value 18,720.00, limit
// 5,000.00 → would be rejected". Amounts without a unit are money.
func (v Verdict) String() string {
	s := v.Guard + ": "
	switch {
	case !v.Applies:
		return s + "does not apply"
	case !v.Limit.IsZero():
		first, _, _ := strings.Cut(v.Unit, " ")
		num := trading.FormatAmount
		switch first {
		case "%":
			num = func(d decimal.Decimal) string { return d.StringFixed(1) } // a share always shows its tenth
		case "":
			num = trading.FormatMoney
		}
		value := num(v.Value)
		if v.From != nil {
			from := num(*v.From)
			if first == "%" {
				from += "%"
			}
			value = from + " → " + value
		}
		limit := trading.FormatAmount(v.Limit)
		if first == "" {
			limit = trading.FormatMoney(v.Limit)
		}
		if v.Measure != "" {
			s += v.Measure + " "
		}
		s += fmt.Sprintf("%s%s, limit %s%s", value, unit(v.Unit), limit, unit(first))
	}
	if v.Reject != "" {
		if !v.Limit.IsZero() {
			return s + " → would be rejected"
		}
		return s + v.Reject + " → would be rejected"
	}
	if !v.Limit.IsZero() {
		return s + " → ok"
	}
	return s + "ok"
}

func unit(u string) string {
	if strings.HasPrefix(u, "%") {
		return u
	}
	if u != "" {
		return " " + u
	}
	return ""
}

// Guard checks one operation. Assess judges without side effects (for
// evidence); Check is what a push runs and may record state (cooldown).
type Guard interface {
	Type() string
	Assess(ctx context.Context, gc Context) Verdict
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

// UnknownTypeError is a guard type the registry does not know. A
// misspelt guard would protect nothing, so it is an error everywhere
// (alice check, start-up, Settings), never skipped.
type UnknownTypeError struct {
	Type  string
	Known []string
}

func (e *UnknownTypeError) Error() string { return config.Unknown("guard type", e.Type, e.Known) }

// NewPipeline builds guards from config. An unknown type or invalid
// options are an error naming the guard index so the caller can report
// "[i].guards[j].type" (an *UnknownTypeError) or "[i].guards[j].options".
func NewPipeline(reg Registry, cfg []config.Guard, logger *slog.Logger) (*Pipeline, int, error) {
	if logger == nil {
		logger = slog.Default()
	}
	p := &Pipeline{}
	for i, gc := range cfg {
		f, ok := reg[gc.Type]
		if !ok {
			return nil, i, &UnknownTypeError{Type: gc.Type, Known: reg.Types()}
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

// Assess is every guard's verdict on one operation, in order.
func (p *Pipeline) Assess(ctx context.Context, gc Context) []Verdict {
	out := make([]Verdict, 0, len(p.guards))
	for _, g := range p.guards {
		out = append(out, g.Assess(ctx, gc))
	}
	return out
}

// stateful guards remember things in a State.
type stateful interface{ attach(*State) }

// recorder guards learn from an operation that executed.
type recorder interface {
	executed(gc Context, at time.Time) error
}

// UseState gives the pipeline's guards the account's State (OpenState),
// replacing the memory-only one NewPipeline starts them with.
func (p *Pipeline) UseState(st *State) {
	for _, g := range p.guards {
		if s, ok := g.(stateful); ok {
			s.attach(st)
		}
	}
}

// Executed tells the guards that the operation gc judged executed at the
// broker at time at (submitted or filled; never call it for one a guard
// or the broker refused). It arms the cooldown. Each record is persisted
// before it is used; an error means it could not be written (the guard
// is still armed in memory).
func (p *Pipeline) Executed(gc Context, at time.Time) error {
	var errs []error
	for _, g := range p.guards {
		if r, ok := g.(recorder); ok {
			if err := r.executed(gc, at); err != nil {
				errs = append(errs, fmt.Errorf("guard %s: %w", g.Type(), err))
			}
		}
	}
	return errors.Join(errs...)
}

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
	if !ok {
		return def, nil
	}
	if v == nil { // JSON null: not a value (absent keeps the default)
		return def, fmt.Errorf("option %s: null is not a number; give a value or leave the key out", key)
	}
	var d decimal.Decimal
	var err error
	switch x := v.(type) {
	case string: // the order model's rules: plain notation, bounded length and digits
		if d, err = trading.ParsePositive("option "+key, x); err != nil {
			return def, err
		}
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
			return fmt.Errorf("%s", config.Unknown("option", k, keys))
		}
	}
	return nil
}
