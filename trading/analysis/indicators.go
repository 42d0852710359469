package analysis

import (
	"fmt"
	"math"
)

// The indicator functions are pure and work on float64 series (oldest
// first). They return an error instead of a NaN when the series is too
// short, so formulas fail loudly rather than produce garbage.

func needLen(name string, xs []float64, n int) error {
	if len(xs) < n {
		return fmt.Errorf("%s needs at least %d data points, got %d", name, n, len(xs))
	}
	return nil
}

func checkPeriod(name string, p int) error {
	if p < 1 {
		return fmt.Errorf("%s period must be at least 1, got %d", name, p)
	}
	return nil
}

// Sum adds the values.
func Sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}

// Mean is the arithmetic average; it is 0 for an empty series.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return Sum(xs) / float64(len(xs))
}

// StdDev is the population standard deviation.
func StdDev(xs []float64) float64 {
	m := Mean(xs)
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	if len(xs) == 0 {
		return 0
	}
	return math.Sqrt(v / float64(len(xs)))
}

// SMA is the mean of the last p values.
func SMA(xs []float64, p int) (float64, error) {
	if err := checkPeriod("SMA", p); err != nil {
		return 0, err
	}
	if err := needLen("SMA", xs, p); err != nil {
		return 0, err
	}
	return Mean(xs[len(xs)-p:]), nil
}

// EMASeries returns the EMA at every index from p-1 on (len(xs)-p+1
// values). The seed is the SMA of the first p values and k = 2/(p+1).
func EMASeries(xs []float64, p int) ([]float64, error) {
	if err := checkPeriod("EMA", p); err != nil {
		return nil, err
	}
	if err := needLen("EMA", xs, p); err != nil {
		return nil, err
	}
	k := 2 / float64(p+1)
	e := Mean(xs[:p])
	out := make([]float64, 0, len(xs)-p+1)
	out = append(out, e)
	for _, x := range xs[p:] {
		e = x*k + e*(1-k)
		out = append(out, e)
	}
	return out, nil
}

// EMA is the last value of EMASeries.
func EMA(xs []float64, p int) (float64, error) {
	s, err := EMASeries(xs, p)
	if err != nil {
		return 0, err
	}
	return s[len(s)-1], nil
}

// RSI is Wilder's relative strength index over p periods: the first
// average gain/loss is the simple mean of the first p changes, later ones
// are smoothed as avg = (avg*(p-1) + x)/p. It needs p+1 points and is 100
// when there were no losses.
func RSI(xs []float64, p int) (float64, error) {
	if err := checkPeriod("RSI", p); err != nil {
		return 0, err
	}
	if err := needLen("RSI", xs, p+1); err != nil {
		return 0, err
	}
	var gain, loss float64
	for i := 1; i <= p; i++ {
		d := xs[i] - xs[i-1]
		if d > 0 {
			gain += d
		} else {
			loss -= d
		}
	}
	gain, loss = gain/float64(p), loss/float64(p)
	for i := p + 1; i < len(xs); i++ {
		d := xs[i] - xs[i-1]
		g, l := math.Max(d, 0), math.Max(-d, 0)
		gain = (gain*float64(p-1) + g) / float64(p)
		loss = (loss*float64(p-1) + l) / float64(p)
	}
	if loss == 0 {
		return 100, nil
	}
	return 100 - 100/(1+gain/loss), nil
}

// Bands is a Bollinger band triple.
type Bands struct{ Upper, Middle, Lower float64 }

// BBands are Bollinger bands: SMA of the last p values ± k population
// standard deviations of the same window.
func BBands(xs []float64, p int, k float64) (Bands, error) {
	mid, err := SMA(xs, p)
	if err != nil {
		return Bands{}, fmt.Errorf("BBANDS: %w", err)
	}
	sd := StdDev(xs[len(xs)-p:])
	return Bands{Upper: mid + k*sd, Middle: mid, Lower: mid - k*sd}, nil
}

// MACDResult is the MACD line, its signal line and their difference.
type MACDResult struct{ MACD, Signal, Histogram float64 }

// MACD computes EMA(fast) - EMA(slow) at each index from slow-1 on, and
// the signal as the EMA(signal) of that history. It needs slow+signal-1
// points.
func MACD(xs []float64, fast, slow, signal int) (MACDResult, error) {
	if fast < 1 || slow < 1 || signal < 1 {
		return MACDResult{}, fmt.Errorf("MACD periods must be at least 1")
	}
	if fast >= slow {
		return MACDResult{}, fmt.Errorf("MACD fast period (%d) must be shorter than slow period (%d)", fast, slow)
	}
	if err := needLen("MACD", xs, slow+signal-1); err != nil {
		return MACDResult{}, err
	}
	f, _ := EMASeries(xs, fast)
	s, _ := EMASeries(xs, slow)
	// f[i] is the EMA at index fast-1+i; align both on index slow-1+j.
	hist := make([]float64, len(s))
	for j := range s {
		hist[j] = f[j+slow-fast] - s[j]
	}
	sig, err := EMA(hist, signal)
	if err != nil {
		return MACDResult{}, err
	}
	m := hist[len(hist)-1]
	return MACDResult{MACD: m, Signal: sig, Histogram: m - sig}, nil
}

// ATR is Wilder's average true range over p periods. True range at i>0 is
// max(h-l, |h-prevClose|, |l-prevClose|); the first ATR is the mean of the
// first p true ranges, later ones are Wilder-smoothed. It needs p+1 bars.
func ATR(highs, lows, closes []float64, p int) (float64, error) {
	if err := checkPeriod("ATR", p); err != nil {
		return 0, err
	}
	if len(highs) != len(lows) || len(lows) != len(closes) {
		return 0, fmt.Errorf("ATR needs highs, lows and closes of equal length, got %d, %d, %d", len(highs), len(lows), len(closes))
	}
	if err := needLen("ATR", closes, p+1); err != nil {
		return 0, err
	}
	tr := func(i int) float64 {
		h, l, pc := highs[i], lows[i], closes[i-1]
		return math.Max(h-l, math.Max(math.Abs(h-pc), math.Abs(l-pc)))
	}
	var atr float64
	for i := 1; i <= p; i++ {
		atr += tr(i)
	}
	atr /= float64(p)
	for i := p + 1; i < len(closes); i++ {
		atr = (atr*float64(p-1) + tr(i)) / float64(p)
	}
	return atr, nil
}
