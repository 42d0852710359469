package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading"
)

// ToolOutput is calculateIndicator's reply.
type ToolOutput struct {
	// Value is a number, an array of numbers, or an object of numbers
	// (BBANDS, MACD), rounded to the requested precision.
	Value     any                  `json:"value"`
	DataRange map[string]DataRange `json:"dataRange"`
}

// Round rounds v to precision decimals; Series and Record values are
// rounded element-wise and rendered as a slice and a map.
func Round(v any, precision int) any {
	f := math.Pow(10, float64(precision))
	r := func(x float64) float64 { return math.Round(x*f) / f }
	switch x := v.(type) {
	case float64:
		return r(x)
	case Series:
		out := make([]float64, len(x.Values))
		for i, y := range x.Values {
			out[i] = r(y)
		}
		return out
	case Record:
		out := make(map[string]float64, len(x.Keys))
		for i, k := range x.Keys {
			out[k] = r(x.Values[i])
		}
		return out
	}
	return v
}

const toolDescription = `Evaluate a technical-analysis formula over market data.
Data: CLOSE|HIGH|LOW|OPEN|VOLUME('SYMBOL', 'interval') return arrays (oldest first); interval like 1d, 1w, 4h, 15m.
Index arrays with [i]; [-1] is the latest value. Arithmetic: + - * / and parentheses.
Statistics: SMA(data,p), EMA(data,p), STDEV(data), MAX, MIN, SUM, AVERAGE.
Technical: RSI(data,14), BBANDS(data,20,2) -> {upper,middle,lower}, MACD(data,12,26,9) -> {macd,signal,histogram}, ATR(highs,lows,closes,14).
Example: (CLOSE('AAPL','1d')[-1] - SMA(CLOSE('AAPL','1d'),50)) / SMA(CLOSE('AAPL','1d'),50) * 100
Errors name the 0-based character position ("at 12: expected ')'").`

// RegisterTools publishes calculateIndicator over src.
func RegisterTools(reg core.ToolRegistry, ev *Evaluator) {
	reg.Register(core.Tool{
		Name:        "calculateIndicator",
		Group:       "analysis",
		Description: toolDescription,
		InputSchema: core.Schema(`{"type":"object","properties":{
			"asset":{"type":"string","enum":["equity","crypto","currency","commodity"],"description":"asset class of the symbols in the formula"},
			"formula":{"type":"string","description":"e.g. RSI(CLOSE('AAPL','1d'),14)"},
			"precision":{"type":"integer","minimum":0,"maximum":10,"description":"decimal places (default 4)"}},
			"required":["asset","formula"]}`),
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			var a struct {
				Asset     string `json:"asset"`
				Formula   string `json:"formula"`
				Precision *int   `json:"precision"`
			}
			if err := core.DecodeArgs(args, &a); err != nil {
				return nil, err
			}
			return ev.Calculate(ctx, a.Asset, a.Formula, a.Precision)
		},
	})
}

// Calculate validates tool-level arguments, evaluates and rounds.
func (e *Evaluator) Calculate(ctx context.Context, asset, formula string, precision *int) (ToolOutput, error) {
	class := trading.AssetClass(strings.ToLower(strings.TrimSpace(asset)))
	switch class {
	case trading.Equity, trading.Crypto, trading.Currency, trading.Commodity:
	default:
		return ToolOutput{}, fmt.Errorf("asset must be equity, crypto, currency or commodity, got %q", asset)
	}
	p := 4
	if precision != nil {
		if *precision < 0 || *precision > 10 {
			return ToolOutput{}, fmt.Errorf("precision must be 0..10, got %d", *precision)
		}
		p = *precision
	}
	if strings.TrimSpace(formula) == "" {
		return ToolOutput{}, errors.New("formula is required")
	}
	res, err := e.Evaluate(ctx, formula, class)
	if err != nil {
		return ToolOutput{}, fmt.Errorf("formula error %w", err)
	}
	return ToolOutput{Value: Round(res.Value, p), DataRange: res.DataRange}, nil
}
