package simmarket

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
)

func TestPriceIsDeterministicPerSeed(t *testing.T) {
	at := time.Date(2026, 11, 20, 15, 30, 0, 0, time.UTC)
	a, b, c := New(42), New(42), New(7)
	pa, ok := a.Price("AAPL", at)
	require.True(t, ok)
	pb, _ := b.Price("aapl", at)
	pc, _ := c.Price("AAPL", at)
	require.True(t, pa.Equal(pb), "same seed, same price")
	require.False(t, pa.Equal(pc), "different seed, different path")
	_, ok = a.Price("NOPE", at)
	require.False(t, ok)
}

func TestPricesMoveAndStayNearBase(t *testing.T) {
	m := New(1)
	in, _ := m.Lookup("BTC")
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	for i := 0; i < 500; i++ {
		p, _ := m.PriceFloat("BTC", start.Add(time.Duration(i)*time.Hour))
		require.Greater(t, p, in.Base*0.3)
		require.Less(t, p, in.Base*3)
		seen[fmt.Sprintf("%.6f", p)] = true
	}
	require.Greater(t, len(seen), 400, "prices must actually move")
}

func TestBarsAreConsistent(t *testing.T) {
	m := New(3)
	from := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	bars := m.Bars("ETH", time.Hour, from, from.Add(48*time.Hour))
	require.Len(t, bars, 48)
	for i, b := range bars {
		require.True(t, b.High.GreaterThanOrEqual(b.Open) && b.High.GreaterThanOrEqual(b.Close), "bar %d high", i)
		require.True(t, b.Low.LessThanOrEqual(b.Open) && b.Low.LessThanOrEqual(b.Close), "bar %d low", i)
		if i > 0 {
			require.True(t, bars[i-1].Close.Equal(b.Open), "bars are contiguous")
			require.Equal(t, time.Hour, b.Time.Sub(bars[i-1].Time))
		}
	}
}

func TestQuoteSpreadAndSearch(t *testing.T) {
	m := New(42)
	q, ok := m.QuoteAt("MSFT", time.Date(2026, 5, 5, 12, 0, 0, 0, time.UTC))
	require.True(t, ok)
	require.True(t, q.Bid.LessThan(q.Last) && q.Ask.GreaterThan(q.Last))
	require.True(t, q.High.GreaterThanOrEqual(q.Last) && q.Low.LessThanOrEqual(q.Last))
	require.Equal(t, []string{"BTC"}, symbols(m.Search("bit", "")))
	require.Len(t, m.Search("", trading.Crypto), 3)
}

func symbols(in []Instrument) []string {
	var s []string
	for _, i := range in {
		s = append(s, i.Symbol)
	}
	return s
}

// The bar still open at to ends at to: its close is the price at to (what
// a quote at to says), its high and low cover only [open, to]; the bars
// before it are the same whatever to is.
func TestTheFormingBarClosesAtTheQuote(t *testing.T) {
	m := New(5)
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name     string
		symbol   string
		interval time.Duration
		to       time.Time
	}{
		{"daily, mid-day", "AAPL", 24 * time.Hour, day.Add(15*time.Hour + 7*time.Minute)},
		{"hourly, a second in", "BTC", time.Hour, day.Add(9*time.Hour + time.Second)},
		{"5m, mid-bar", "EURUSD", 5 * time.Minute, day.Add(9*time.Hour + 2*time.Minute + 30*time.Second)},
		{"1m, on a boundary: every bar closed", "MSFT", time.Minute, day.Add(10 * time.Hour)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bars := m.Bars(tc.symbol, tc.interval, tc.to.Add(-20*tc.interval), tc.to)
			require.NotEmpty(t, bars)
			last := bars[len(bars)-1]
			end := last.Time.Add(tc.interval)
			if end.After(tc.to) {
				end = tc.to
			}
			want, _ := m.Price(tc.symbol, end)
			require.True(t, want.Equal(last.Close), "last close %s, price at %s %s", last.Close, end, want)
			q, _ := m.QuoteAt(tc.symbol, tc.to)
			if end.Equal(tc.to) {
				require.True(t, q.Last.Equal(last.Close), "the chart ends at the quote: %s vs %s", last.Close, q.Last)
			}
			require.True(t, last.High.GreaterThanOrEqual(last.Close) && last.Low.LessThanOrEqual(last.Close))
			later := m.Bars(tc.symbol, tc.interval, tc.to.Add(-20*tc.interval), tc.to.Add(3*tc.interval))
			for i := range bars[:len(bars)-1] {
				require.Equal(t, later[i], bars[i], "closed bar %d does not change", i)
			}
		})
	}
}
