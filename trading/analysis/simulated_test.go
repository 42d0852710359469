package analysis

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/marketdata"
	"github.com/alice-trading/alice/trading/simmarket"
)

// marketdata.Source must satisfy BarSource so the lead can pass it as is.
var _ BarSource = marketdata.Source(nil)

func TestEvaluateOverSimulatedMarket(t *testing.T) {
	m := simmarket.New(42)
	now := time.Date(2025, 3, 10, 15, 0, 0, 0, time.UTC)
	ev := NewEvaluator(marketdata.NewSimulated(m, func() time.Time { return now }), func() time.Time { return now })
	ctx := context.Background()

	res, err := ev.Evaluate(ctx, "RSI(CLOSE('AAPL','1d'),14)", trading.Equity)
	require.NoError(t, err)
	rsi := res.Value.(float64)
	require.True(t, rsi > 0 && rsi < 100, "RSI %v", rsi)
	dr := res.DataRange["AAPL"]
	require.Equal(t, 730, dr.Bars, "1d loads 730 days (the simulated market trades every day)")

	// The last close agrees with the market's own bars.
	res, err = ev.Evaluate(ctx, "CLOSE('AAPL','1d')[-1]", trading.Equity)
	require.NoError(t, err)
	bars := m.Bars("AAPL", 24*time.Hour, now.AddDate(0, 0, -3), now)
	require.InDelta(t, bars[len(bars)-1].Close.InexactFloat64(), res.Value.(float64), 1e-9)

	out, err := ev.Calculate(ctx, "crypto", "SMA(CLOSE('BTC','4h'),6)", nil)
	require.NoError(t, err)
	require.Greater(t, out.Value.(float64), 0.0)

	_, err = ev.Calculate(ctx, "equity", "CLOSE('BTC','1d')[-1]", nil)
	require.ErrorContains(t, err, "BTC is crypto, not equity")
}
