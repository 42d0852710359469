package analysis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/marketdata"
)

// BarSource is the slice of marketdata.Source the evaluator needs.
type BarSource interface {
	Bars(ctx context.Context, symbol string, class trading.AssetClass, interval marketdata.Interval, from, to time.Time) ([]marketdata.Bar, error)
}

// maxBars caps how many bars one data function loads, so "1m" formulas
// stay cheap; the window is the most recent bars.
const maxBars = 5000

// Series is a price or volume series, oldest first.
type Series struct {
	Symbol string
	Values []float64
}

// Record is a named-number result such as BBANDS or MACD, in a fixed key
// order.
type Record struct {
	Keys   []string
	Values []float64
}

// DataRange describes the bars a formula used for one symbol.
type DataRange struct {
	Symbol string    `json:"symbol"`
	From   time.Time `json:"from"`
	To     time.Time `json:"to"`
	Bars   int       `json:"bars"`
}

// Result is an evaluated formula: Value is a float64, a Series or a Record.
type Result struct {
	Value     any
	DataRange map[string]DataRange
}

// Evaluator runs formulas against a bar source.
type Evaluator struct {
	src BarSource
	now func() time.Time
}

// NewEvaluator builds an evaluator; now may be nil (time.Now).
func NewEvaluator(src BarSource, now func() time.Time) *Evaluator {
	if now == nil {
		now = time.Now
	}
	return &Evaluator{src: src, now: now}
}

type barKey struct {
	symbol   string
	interval marketdata.Interval
}

// run is one evaluation's state: bars fetched so far and where they came
// from.
type run struct {
	ctx    context.Context
	ev     *Evaluator
	asset  trading.AssetClass
	now    time.Time
	bars   map[barKey][]marketdata.Bar
	ranges map[string]DataRange
}

// Evaluate parses and evaluates formula for the given asset class.
func (e *Evaluator) Evaluate(ctx context.Context, formula string, asset trading.AssetClass) (Result, error) {
	ast, err := Parse(formula)
	if err != nil {
		return Result{}, err
	}
	r := &run{ctx: ctx, ev: e, asset: asset, now: e.now(), bars: map[barKey][]marketdata.Bar{}, ranges: map[string]DataRange{}}
	v, err := r.eval(ast)
	if err != nil {
		return Result{}, err
	}
	switch x := v.(type) {
	case string:
		return Result{}, errAt(ast.pos(), "formula evaluates to the string %q, not a number (did you forget a function?)", x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return Result{}, errAt(ast.pos(), "formula evaluates to %v", x)
		}
	}
	return Result{Value: v, DataRange: r.ranges}, nil
}

func (r *run) eval(n Node) (any, error) {
	switch n := n.(type) {
	case *Number:
		return n.Value, nil
	case *String:
		return n.Value, nil
	case *Neg:
		x, err := r.eval(n.X)
		if err != nil {
			return nil, err
		}
		f, ok := x.(float64)
		if !ok {
			return nil, errAt(n.Pos, "cannot negate %s", kindOf(x))
		}
		return -f, nil
	case *Binary:
		return r.binary(n)
	case *Index:
		return r.index(n)
	case *Call:
		return r.call(n)
	}
	return nil, fmt.Errorf("internal: unknown node %T", n)
}

func kindOf(v any) string {
	switch v.(type) {
	case float64:
		return "a number"
	case string:
		return "a string"
	case Series:
		return "an array (pick one value with [i] or reduce it with a function)"
	case Record:
		return "a record"
	}
	return fmt.Sprintf("%T", v)
}

func (r *run) binary(n *Binary) (any, error) {
	l, err := r.eval(n.L)
	if err != nil {
		return nil, err
	}
	rv, err := r.eval(n.R)
	if err != nil {
		return nil, err
	}
	a, ok1 := l.(float64)
	b, ok2 := rv.(float64)
	if !ok1 || !ok2 {
		bad := l
		if ok1 {
			bad = rv
		}
		return nil, errAt(n.Pos, "operator '%c' needs numbers, got %s", n.Op, kindOf(bad))
	}
	switch n.Op {
	case '+':
		return a + b, nil
	case '-':
		return a - b, nil
	case '*':
		return a * b, nil
	default:
		if b == 0 {
			return nil, errAt(n.Pos, "division by zero")
		}
		return a / b, nil
	}
}

func (r *run) index(n *Index) (any, error) {
	x, err := r.eval(n.X)
	if err != nil {
		return nil, err
	}
	s, ok := x.(Series)
	if !ok {
		return nil, errAt(n.Pos, "only arrays can be indexed, got %s", kindOf(x))
	}
	iv, err := r.eval(n.I)
	if err != nil {
		return nil, err
	}
	f, ok := iv.(float64)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1e9 {
		return nil, errAt(n.I.pos(), "index must be a whole number, got %v", iv)
	}
	i := int(f)
	if i < 0 {
		i += len(s.Values)
	}
	if i < 0 || i >= len(s.Values) {
		return nil, errAt(n.Pos, "index %d out of range for array of length %d", int(f), len(s.Values))
	}
	return s.Values[i], nil
}

// window is how much history a data function loads for an interval:
// n×730 days for d, n×1825 for w, n×90 for h, n×30 for m, capped at
// maxBars bars.
func window(iv marketdata.Interval) time.Duration {
	day := 24 * time.Hour
	var w time.Duration
	switch iv.Unit {
	case marketdata.Day:
		w = time.Duration(iv.N) * 730 * day
	case marketdata.Week:
		w = time.Duration(iv.N) * 1825 * day
	case marketdata.Hour:
		w = time.Duration(iv.N) * 90 * day
	case marketdata.Minute:
		w = time.Duration(iv.N) * 30 * day
	default:
		w = 365 * day
	}
	return min(w, maxBars*iv.Duration())
}

func (r *run) data(n *Call) (any, error) {
	if len(n.Args) < 1 || len(n.Args) > 2 {
		return nil, errAt(n.Pos, "%s takes (symbol, interval), e.g. %s('AAPL', '1d')", n.Name, n.Name)
	}
	args, err := r.evalArgs(n)
	if err != nil {
		return nil, err
	}
	sym, ok := args[0].(string)
	if !ok || strings.TrimSpace(sym) == "" {
		return nil, errAt(n.Args[0].pos(), "%s: symbol must be a quoted string like 'AAPL', got %s", n.Name, kindOf(args[0]))
	}
	sym = strings.ToUpper(strings.TrimSpace(sym))
	ivText := "1d"
	if len(args) == 2 {
		s, ok := args[1].(string)
		if !ok {
			return nil, errAt(n.Args[1].pos(), "%s: interval must be a quoted string like '1d', got %s", n.Name, kindOf(args[1]))
		}
		ivText = s
	}
	iv, err := marketdata.ParseInterval(ivText)
	if err != nil {
		return nil, errAt(n.Args[len(n.Args)-1].pos(), "%s: %v", n.Name, err)
	}
	key := barKey{sym, iv}
	bars, ok := r.bars[key]
	if !ok {
		bars, err = r.ev.src.Bars(r.ctx, sym, r.asset, iv, r.now.Add(-window(iv)), r.now)
		if err != nil {
			return nil, errAt(n.Pos, "%s(%s, %s): %v", n.Name, sym, iv, err)
		}
		r.bars[key] = bars
	}
	if len(bars) == 0 {
		return nil, errAt(n.Pos, "%s(%s, %s): no bars available", n.Name, sym, iv)
	}
	r.ranges[sym] = DataRange{Symbol: sym, From: bars[0].Time, To: bars[len(bars)-1].Time, Bars: len(bars)}
	vals := make([]float64, len(bars))
	for i, b := range bars {
		switch n.Name {
		case "CLOSE":
			vals[i] = b.Close
		case "OPEN":
			vals[i] = b.Open
		case "HIGH":
			vals[i] = b.High
		case "LOW":
			vals[i] = b.Low
		case "VOLUME":
			vals[i] = b.Volume
		}
	}
	return Series{Symbol: sym, Values: vals}, nil
}

func (r *run) evalArgs(n *Call) ([]any, error) {
	out := make([]any, len(n.Args))
	for i, a := range n.Args {
		v, err := r.eval(a)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	if err := r.ctx.Err(); err != nil {
		return nil, errAt(n.Pos, "%v", err)
	}
	return out, nil
}

var errNoData = errors.New("no values")
