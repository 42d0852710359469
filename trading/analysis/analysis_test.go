package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/marketdata"
)

var fixedNow = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// fixtureSource serves the reference fixture for symbol "TEST": 50 daily
// bars with close 100..149, high = close+2, low = close-1, open = close-0.5,
// volume 1000+10i. Other symbols are unknown.
type fixtureSource struct{ calls int }

func (f *fixtureSource) Bars(_ context.Context, symbol string, _ trading.AssetClass, iv marketdata.Interval, from, to time.Time) ([]marketdata.Bar, error) {
	f.calls++
	if symbol != "TEST" {
		return nil, fmt.Errorf("%w: %s", marketdata.ErrNotFound, symbol)
	}
	if !to.After(from) || iv.Duration() <= 0 {
		return nil, errors.New("bad range")
	}
	var out []marketdata.Bar
	for i := range 50 {
		c := float64(100 + i)
		out = append(out, marketdata.Bar{
			Time: fixedNow.AddDate(0, 0, i-50), Open: c - 0.5, High: c + 2, Low: c - 1, Close: c, Volume: float64(1000 + 10*i),
		})
	}
	return out, nil
}

func closes() []float64 {
	xs := make([]float64, 50)
	for i := range xs {
		xs[i] = float64(100 + i)
	}
	return xs
}

func eval(t *testing.T, formula string) (any, error) {
	t.Helper()
	ev := NewEvaluator(&fixtureSource{}, func() time.Time { return fixedNow })
	res, err := ev.Evaluate(context.Background(), formula, trading.Equity)
	if err != nil {
		return nil, err
	}
	return res.Value, nil
}

func TestFormulaValuesOnReferenceFixture(t *testing.T) {
	// Expected values are derived by hand from the fixture's closed form:
	// closes are 100..149 (linear, step 1).
	// - SMA of the last p closes = 149 - (p-1)/2.
	// - An SMA-seeded EMA of a unit-step line sits exactly at its
	//   steady-state lag (p-1)/2 from the first value on, so EMA = 149-(p-1)/2.
	// - MACD(12,26,9) = (149-5.5) - (149-12.5) = 7 at every index, so the
	//   signal is 7 and the histogram 0.
	// - RSI: only gains, so 100.
	// - 20 consecutive integers have population variance (20²-1)/12 = 33.25.
	// - True range: max(h-l=3, |h-prevC|=3, |l-prevC|=0) = 3, so ATR = 3.
	// - STDEV of 50 consecutive integers = sqrt((50²-1)/12).
	sd20 := math.Sqrt(33.25)
	cases := []struct {
		formula string
		want    any
	}{
		{"SMA(CLOSE('TEST', '1d'), 10)", 144.5},
		{"EMA(CLOSE('TEST','1d'),10)", 144.5},
		{"EMA(CLOSE('TEST','1d'),12)", 143.5},
		{"RSI(CLOSE('TEST','1d'),14)", 100.0},
		{"RSI(CLOSE('TEST','1d'))", 100.0},
		{"BBANDS(CLOSE('TEST','1d'),20,2)", map[string]float64{"upper": 139.5 + 2*sd20, "middle": 139.5, "lower": 139.5 - 2*sd20}},
		{"MACD(CLOSE('TEST','1d'),12,26,9)", map[string]float64{"macd": 7, "signal": 7, "histogram": 0}},
		{"ATR(HIGH('TEST','1d'),LOW('TEST','1d'),CLOSE('TEST','1d'),14)", 3.0},
		{"STDEV(CLOSE('TEST','1d'))", math.Sqrt((2500.0 - 1) / 12)},
		{"MAX(HIGH('TEST','1d'))", 151.0},
		{"MIN(LOW('TEST','1d'))", 99.0},
		{"SUM(VOLUME('TEST','1d'))", 50*1000.0 + 10*(49*50/2)},
		{"AVERAGE(CLOSE('TEST','1d'))", 124.5},
		{"MAX(1, 5, -3)", 5.0},
		{"OPEN('TEST','1d')[0]", 99.5},
		{"CLOSE('TEST','1d')[-1]", 149.0},
		{"CLOSE('TEST','1d')[-50]", 100.0},
		{"CLOSE('TEST','1d')[2*3]", 106.0},
		{"VOLUME('TEST','1d')[-1]", 1490.0},
		{"CLOSE('test','1d')[-1] - CLOSE('TEST','1d')[-2]", 1.0},
		{"(CLOSE('TEST','1d')[-1] - SMA(CLOSE('TEST','1d'),50)) / SMA(CLOSE('TEST','1d'),50) * 100", (149 - 124.5) / 124.5 * 100},
		{"1 + 2 * 3", 7.0},
		{"(1 + 2) * 3", 9.0},
		{"10 - 4 - 3", 3.0},
		{"12 / 4 / 3", 1.0},
		{"-2 * -3", 6.0},
		{"-(1 + 2)", -3.0},
		{"2 - -2", 4.0},
		{"1.5e2 + .5", 150.5},
	}
	for _, c := range cases {
		t.Run(c.formula, func(t *testing.T) {
			got, err := eval(t, c.formula)
			require.NoError(t, err)
			switch w := c.want.(type) {
			case float64:
				require.InDelta(t, w, got.(float64), 1e-9)
			case map[string]float64:
				r := got.(Record)
				require.Len(t, r.Keys, len(w))
				for i, k := range r.Keys {
					require.InDelta(t, w[k], r.Values[i], 1e-9, k)
				}
			}
		})
	}
}

func TestRSIMatchesWilderReference(t *testing.T) {
	// Wilder's RSI worked example as published by StockCharts
	// ("Relative Strength Index (RSI)", ChartSchool). Their spreadsheet
	// rounds intermediate averages, so agreement is to ~0.1.
	c := []float64{44.34, 44.09, 44.15, 43.61, 44.33, 44.83, 45.10, 45.42, 45.84, 46.08, 45.89, 46.03, 45.61, 46.28, 46.28,
		46.00, 46.03, 46.41, 46.22, 45.64, 46.21, 46.25, 45.71, 46.45, 45.78, 45.35, 44.03, 44.18, 44.22, 44.57, 43.42, 42.66, 43.13}
	published := []float64{70.53, 66.32, 66.55, 69.41, 66.36, 57.97, 62.93, 63.26, 56.06, 62.38, 54.71, 50.42, 39.99, 41.46,
		41.87, 45.46, 37.30, 33.08, 37.77}
	for i, want := range published {
		got, err := RSI(c[:15+i], 14)
		require.NoError(t, err)
		require.InDelta(t, want, got, 0.1, "RSI after %d closes", 15+i)
	}
	_, err := RSI(c[:14], 14)
	require.ErrorContains(t, err, "needs at least 15")
}

func TestIndicatorsHandWorked(t *testing.T) {
	// EMA([1..5],3): seed mean(1,2,3)=2, k=0.5 → 3 → 4.
	e, err := EMA([]float64{1, 2, 3, 4, 5}, 3)
	require.NoError(t, err)
	require.InDelta(t, 4.0, e, 1e-12)
	// EMA([2,4,6,8,12],2): seed 3, k=2/3 → 5 → 7 → 10⅓.
	e, err = EMA([]float64{2, 4, 6, 8, 12}, 2)
	require.NoError(t, err)
	require.InDelta(t, 31.0/3, e, 1e-12)

	// ATR(p=2): TR = 2, 3 → 2.5; next TR 4 → (2.5+4)/2 = 3.25.
	h, l, c := []float64{10, 11, 12, 15}, []float64{8, 9, 9, 13}, []float64{9, 10, 11, 14}
	a, err := ATR(h[:3], l[:3], c[:3], 2)
	require.NoError(t, err)
	require.InDelta(t, 2.5, a, 1e-12)
	a, err = ATR(h, l, c, 2)
	require.NoError(t, err)
	require.InDelta(t, 3.25, a, 1e-12)
	_, err = ATR(h, l[:2], c, 2)
	require.ErrorContains(t, err, "equal length")

	b, err := BBands([]float64{1, 2, 3, 4}, 4, 1)
	require.NoError(t, err)
	require.InDelta(t, 2.5+math.Sqrt(1.25), b.Upper, 1e-12)
	require.Equal(t, 4.0, StdDev([]float64{2, 4, 4, 4, 5, 5, 7, 9})*2)
}

// naiveEMA recomputes the EMA of a prefix from scratch, the way the
// reference describes MACD's history ("EMA of each prefix ≥ slow").
func naiveEMA(xs []float64, p int) float64 {
	k := 2 / float64(p+1)
	e := 0.0
	for _, x := range xs[:p] {
		e += x / float64(p)
	}
	for _, x := range xs[p:] {
		e = x*k + e*(1-k)
	}
	return e
}

func TestMACDMatchesPrefixDefinition(t *testing.T) {
	xs := make([]float64, 80)
	for i := range xs {
		xs[i] = 100 + 10*math.Sin(float64(i)/5) + float64(i%7)
	}
	var hist []float64
	for n := 26; n <= len(xs); n++ {
		hist = append(hist, naiveEMA(xs[:n], 12)-naiveEMA(xs[:n], 26))
	}
	wantSignal := naiveEMA(hist, 9)
	got, err := MACD(xs, 12, 26, 9)
	require.NoError(t, err)
	require.InDelta(t, hist[len(hist)-1], got.MACD, 1e-9)
	require.InDelta(t, wantSignal, got.Signal, 1e-9)
	require.InDelta(t, got.MACD-wantSignal, got.Histogram, 1e-9)

	_, err = MACD(xs[:33], 12, 26, 9)
	require.ErrorContains(t, err, "needs at least 34")
	_, err = MACD(xs, 26, 12, 9)
	require.ErrorContains(t, err, "shorter")
}

func TestFormulaErrorsHavePositions(t *testing.T) {
	cases := []struct {
		formula string
		pos     int
		msg     string
	}{
		{"", 0, "empty"},
		{"SMA(CLOSE('TEST','1d'), 10", 26, "expected ',' or ')'"},
		{"(1 + 2", 6, "expected ')'"},
		{"1 +", 3, "expected a number"},
		{"1 2", 2, "unexpected '2'"},
		{"CLOSE('TEST','1d')[1", 20, "expected ']'"},
		{"'abc", 0, "unterminated string"},
		{"1 # 2", 2, "unexpected character '#'"},
		{"FOO(1)", 0, "unknown function FOO"},
		{"close", 0, "unknown name"},
		{"1.2.3", 0, "invalid number"},
		{"10 / (5 - 5)", 3, "division by zero"},
		{"'AAPL'", 0, "string"},
		{"CLOSE('TEST','1d') + 1", 19, "needs numbers"},
		{"CLOSE('TEST','1d')[50]", 18, "out of range"},
		{"CLOSE('TEST','1d')[1.5]", 19, "whole number"},
		{"5[0]", 1, "only arrays"},
		{"SMA(CLOSE('TEST','1d'), 0)", 24, "period"},
		{"SMA(CLOSE('TEST','1d'), 51)", 0, "needs at least 51"},
		{"SMA(5, 2)", 4, "must be an array"},
		{"SMA(CLOSE('TEST','1d'))", 0, "SMA takes 2..2 arguments"},
		{"CLOSE(AAPL)", 6, "unknown name"},
		{"CLOSE(1, '1d')", 6, "symbol must be a quoted string"},
		{"CLOSE('TEST', '1y')", 14, "invalid interval"},
		{"CLOSE('NOPE', '1d')[-1]", 0, "symbol not found"},
		{"BBANDS(CLOSE('TEST','1d'))[0]", 26, "only arrays"},
		{"-'x'", 0, "cannot negate"},
	}
	for _, c := range cases {
		t.Run(c.formula, func(t *testing.T) {
			_, err := eval(t, c.formula)
			var fe *Error
			require.True(t, errors.As(err, &fe), "want *Error, got %v", err)
			require.Equal(t, c.pos, fe.Pos, err.Error())
			require.ErrorContains(t, err, c.msg)
			require.Contains(t, err.Error(), fmt.Sprintf("at %d: ", c.pos))
		})
	}
}

func TestDataIsFetchedOncePerSymbolAndInterval(t *testing.T) {
	src := &fixtureSource{}
	ev := NewEvaluator(src, func() time.Time { return fixedNow })
	res, err := ev.Evaluate(context.Background(), "CLOSE('TEST','1d')[-1] + HIGH('TEST','1d')[-1] + LOW('TEST','1d')[-1]", trading.Equity)
	require.NoError(t, err)
	require.Equal(t, 1, src.calls)
	require.InDelta(t, 149.0+151+148, res.Value, 1e-9)
	dr := res.DataRange["TEST"]
	require.Equal(t, 50, dr.Bars)
	require.Equal(t, fixedNow.AddDate(0, 0, -50), dr.From)
	require.Equal(t, fixedNow.AddDate(0, 0, -1), dr.To)
}

func TestWindowByInterval(t *testing.T) {
	day := 24 * time.Hour
	require.Equal(t, 730*day, window(marketdata.Interval{N: 1, Unit: marketdata.Day}))
	require.Equal(t, 1825*day, window(marketdata.Interval{N: 1, Unit: marketdata.Week}))
	require.Equal(t, 90*day, window(marketdata.Interval{N: 1, Unit: marketdata.Hour}))
	require.Equal(t, 5000*time.Minute, window(marketdata.Interval{N: 1, Unit: marketdata.Minute}), "capped at maxBars")
}

type reg struct{ tools map[string]core.Tool }

func (r *reg) Register(ts ...core.Tool) {
	for _, t := range ts {
		r.tools[t.Name] = t
	}
}

func TestCalculateIndicatorTool(t *testing.T) {
	r := &reg{tools: map[string]core.Tool{}}
	RegisterTools(r, NewEvaluator(&fixtureSource{}, func() time.Time { return fixedNow }))
	tool := r.tools["calculateIndicator"]
	call := func(args string) (any, error) { return tool.Invoke(context.Background(), json.RawMessage(args)) }

	out, err := call(`{"asset":"equity","formula":"BBANDS(CLOSE('TEST','1d'),20,2)","precision":2}`)
	require.NoError(t, err)
	b, err := json.Marshal(out)
	require.NoError(t, err)
	require.JSONEq(t, `{"value":{"upper":151.03,"middle":139.5,"lower":127.97},
		"dataRange":{"TEST":{"symbol":"TEST","from":"2024-11-12T00:00:00Z","to":"2024-12-31T00:00:00Z","bars":50}}}`, string(b))

	out, err = call(`{"asset":"equity","formula":"10/3"}`)
	require.NoError(t, err)
	require.Equal(t, 3.3333, out.(ToolOutput).Value)

	out, err = call(`{"asset":"equity","formula":"10/3","precision":0}`)
	require.NoError(t, err)
	require.Equal(t, 3.0, out.(ToolOutput).Value)

	for args, msg := range map[string]string{
		`{"asset":"bonds","formula":"1"}`:                 "asset must be",
		`{"asset":"equity","formula":"1","precision":11}`: "precision must be 0..10",
		`{"asset":"equity","formula":" "}`:                "formula is required",
		`{"asset":"equity"}`:                              "formula is required",
		`{"asset":"equity","formula":"(1"}`:               "formula error at 2: expected ')'",
		`{"asset":"equity","formula":1}`:                  "must be string",
		`{"asset":"equity","formula":"1","x":1}`:          "unknown parameter",
	} {
		_, err := call(args)
		require.ErrorContains(t, err, msg, args)
	}
}
