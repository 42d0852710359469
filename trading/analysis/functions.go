package analysis

import (
	"math"
	"sort"
	"strings"
)

// maxPeriod bounds indicator periods; longer ones are almost certainly
// typos and would only produce "not enough data" anyway.
const maxPeriod = 10000

// signature documents each function for error messages.
var signatures = map[string]string{
	"SMA": "SMA(data, period)", "EMA": "EMA(data, period)", "STDEV": "STDEV(data)",
	"MAX": "MAX(data or numbers…)", "MIN": "MIN(data or numbers…)", "SUM": "SUM(data or numbers…)",
	"AVERAGE": "AVERAGE(data or numbers…)", "RSI": "RSI(data, period=14)", "BBANDS": "BBANDS(data, period=20, stdDevs=2)",
	"MACD": "MACD(data, fast=12, slow=26, signal=9)", "ATR": "ATR(highs, lows, closes, period=14)",
	"CLOSE": "CLOSE(symbol, interval)", "HIGH": "HIGH(symbol, interval)", "LOW": "LOW(symbol, interval)",
	"OPEN": "OPEN(symbol, interval)", "VOLUME": "VOLUME(symbol, interval)",
}

// Functions lists the supported function names, sorted.
func Functions() []string {
	out := make([]string, 0, len(signatures))
	for k := range signatures {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (r *run) call(n *Call) (any, error) {
	sig, ok := signatures[n.Name]
	if !ok {
		return nil, errAt(n.Pos, "unknown function %s (known: %s)", n.Name, strings.Join(Functions(), ", "))
	}
	switch n.Name {
	case "CLOSE", "HIGH", "LOW", "OPEN", "VOLUME":
		return r.data(n)
	}
	args, err := r.evalArgs(n)
	if err != nil {
		return nil, err
	}
	a := argReader{n: n, args: args, sig: sig}
	switch n.Name {
	case "MAX", "MIN", "SUM", "AVERAGE":
		xs, err := a.flatten()
		if err != nil {
			return nil, err
		}
		switch n.Name {
		case "MAX":
			m := xs[0]
			for _, x := range xs {
				m = math.Max(m, x)
			}
			return m, nil
		case "MIN":
			m := xs[0]
			for _, x := range xs {
				m = math.Min(m, x)
			}
			return m, nil
		case "SUM":
			return Sum(xs), nil
		}
		return Mean(xs), nil
	case "STDEV":
		xs, err := a.flatten()
		if err != nil {
			return nil, err
		}
		return StdDev(xs), nil
	}

	var v any
	switch n.Name {
	case "SMA", "EMA":
		if err := a.arity(2, 2); err != nil {
			return nil, err
		}
		s, err := a.series(0)
		if err != nil {
			return nil, err
		}
		p, err := a.period(1, 0)
		if err != nil {
			return nil, err
		}
		if n.Name == "SMA" {
			v, err = SMA(s, p)
		} else {
			v, err = EMA(s, p)
		}
		if err != nil {
			return nil, errAt(n.Pos, "%v", err)
		}
	case "RSI":
		if err := a.arity(1, 2); err != nil {
			return nil, err
		}
		s, err := a.series(0)
		if err != nil {
			return nil, err
		}
		p, err := a.period(1, 14)
		if err != nil {
			return nil, err
		}
		if v, err = RSI(s, p); err != nil {
			return nil, errAt(n.Pos, "%v", err)
		}
	case "BBANDS":
		if err := a.arity(1, 3); err != nil {
			return nil, err
		}
		s, err := a.series(0)
		if err != nil {
			return nil, err
		}
		p, err := a.period(1, 20)
		if err != nil {
			return nil, err
		}
		k, err := a.number(2, 2)
		if err != nil {
			return nil, err
		}
		b, err := BBands(s, p, k)
		if err != nil {
			return nil, errAt(n.Pos, "%v", err)
		}
		v = Record{Keys: []string{"upper", "middle", "lower"}, Values: []float64{b.Upper, b.Middle, b.Lower}}
	case "MACD":
		if err := a.arity(1, 4); err != nil {
			return nil, err
		}
		s, err := a.series(0)
		if err != nil {
			return nil, err
		}
		var ps [3]int
		for i, def := range []int{12, 26, 9} {
			if ps[i], err = a.period(i+1, def); err != nil {
				return nil, err
			}
		}
		m, err := MACD(s, ps[0], ps[1], ps[2])
		if err != nil {
			return nil, errAt(n.Pos, "%v", err)
		}
		v = Record{Keys: []string{"macd", "signal", "histogram"}, Values: []float64{m.MACD, m.Signal, m.Histogram}}
	case "ATR":
		if err := a.arity(3, 4); err != nil {
			return nil, err
		}
		var hlc [3][]float64
		for i := range hlc {
			if hlc[i], err = a.series(i); err != nil {
				return nil, err
			}
		}
		p, err := a.period(3, 14)
		if err != nil {
			return nil, err
		}
		if v, err = ATR(hlc[0], hlc[1], hlc[2], p); err != nil {
			return nil, errAt(n.Pos, "%v", err)
		}
	}
	return v, nil
}

// argReader checks and converts call arguments with positioned errors.
type argReader struct {
	n    *Call
	args []any
	sig  string
}

func (a argReader) pos(i int) int {
	if i < len(a.n.Args) {
		return a.n.Args[i].pos()
	}
	return a.n.Pos
}

func (a argReader) arity(lo, hi int) error {
	if len(a.args) < lo || len(a.args) > hi {
		return errAt(a.n.Pos, "%s takes %d..%d arguments, got %d: %s", a.n.Name, lo, hi, len(a.args), a.sig)
	}
	return nil
}

func (a argReader) series(i int) ([]float64, error) {
	s, ok := a.args[i].(Series)
	if !ok {
		return nil, errAt(a.pos(i), "%s: argument %d must be an array such as CLOSE('AAPL', '1d'), got %s", a.n.Name, i+1, kindOf(a.args[i]))
	}
	return s.Values, nil
}

func (a argReader) number(i int, def float64) (float64, error) {
	if i >= len(a.args) {
		return def, nil
	}
	f, ok := a.args[i].(float64)
	if !ok {
		return 0, errAt(a.pos(i), "%s: argument %d must be a number, got %s", a.n.Name, i+1, kindOf(a.args[i]))
	}
	return f, nil
}

func (a argReader) period(i int, def int) (int, error) {
	if i >= len(a.args) {
		if def == 0 {
			return 0, errAt(a.n.Pos, "%s: missing period: %s", a.n.Name, a.sig)
		}
		return def, nil
	}
	f, err := a.number(i, 0)
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) || f < 1 || f > maxPeriod {
		return 0, errAt(a.pos(i), "%s: period must be a whole number 1..%d, got %v", a.n.Name, maxPeriod, f)
	}
	return int(f), nil
}

// flatten accepts any mix of arrays and numbers (MAX(a, b), SUM(CLOSE…)).
func (a argReader) flatten() ([]float64, error) {
	var xs []float64
	for i, v := range a.args {
		switch x := v.(type) {
		case float64:
			xs = append(xs, x)
		case Series:
			xs = append(xs, x.Values...)
		default:
			return nil, errAt(a.pos(i), "%s: argument %d must be an array or a number, got %s", a.n.Name, i+1, kindOf(v))
		}
	}
	if len(xs) == 0 {
		return nil, errAt(a.n.Pos, "%s: %v: %s", a.n.Name, errNoData, a.sig)
	}
	return xs, nil
}
