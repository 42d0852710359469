package marketdata

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/simmarket"
)

var simNow = time.Date(2025, 3, 10, 15, 0, 0, 0, time.UTC)

func TestSimulatedAgreesWithMarket(t *testing.T) {
	m := simmarket.New(42)
	s := NewSimulated(m, func() time.Time { return simNow })
	ctx := context.Background()

	q, err := s.Quote(ctx, "aapl", trading.Equity)
	require.NoError(t, err)
	want, _ := m.QuoteAt("AAPL", simNow)
	require.True(t, want.Last.Equal(q.Last))
	require.True(t, q.Bid.LessThan(q.Ask))

	from := simNow.AddDate(0, 0, -10)
	bars, err := s.Bars(ctx, "AAPL", "", Interval{1, Day}, from, simNow.AddDate(0, 0, 5))
	require.NoError(t, err)
	require.Len(t, bars, 10, "future bars are not served")
	raw := m.Bars("AAPL", 24*time.Hour, from, simNow)
	require.InDelta(t, raw[9].Close.InexactFloat64(), bars[9].Close, 1e-9)

	_, err = s.Quote(ctx, "NOPE", "")
	require.ErrorIs(t, err, ErrNotFound)
	_, err = s.Bars(ctx, "BTC", trading.Equity, Interval{1, Day}, from, simNow)
	require.ErrorIs(t, err, ErrNotFound, "asset class mismatch")
}

func TestParseInterval(t *testing.T) {
	cases := []struct {
		in   string
		want Interval
		err  bool
	}{
		{"1d", Interval{1, Day}, false}, {"5m", Interval{5, Minute}, false}, {"4H", Interval{4, Hour}, false},
		{"w", Interval{1, Week}, false}, {"", Interval{}, true}, {"1y", Interval{}, true}, {"0d", Interval{}, true},
		{"-1d", Interval{}, true}, {"x1d", Interval{}, true},
	}
	for _, c := range cases {
		got, err := ParseInterval(c.in)
		if c.err {
			require.Error(t, err, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		require.Equal(t, c.want, got)
	}
	require.Equal(t, 4*time.Hour, Interval{4, Hour}.Duration())
}

type fakeReg struct{ tools map[string]core.Tool }

func (f *fakeReg) Register(ts ...core.Tool) {
	for _, t := range ts {
		f.tools[t.Name] = t
	}
}

func call(t *testing.T, reg *fakeReg, name, args string) (any, error) {
	t.Helper()
	tool, ok := reg.tools[name]
	require.True(t, ok, "tool %s registered", name)
	return tool.Invoke(context.Background(), json.RawMessage(args))
}

func TestToolsOverSimulated(t *testing.T) {
	reg := &fakeReg{tools: map[string]core.Tool{}}
	RegisterTools(reg, NewSimulated(simmarket.New(7), func() time.Time { return simNow }))

	res, err := call(t, reg, "marketSearchForResearch", `{"query":"dollar"}`)
	require.NoError(t, err)
	sr := res.(SearchResult)
	require.Equal(t, "simulated", sr.Source)
	for _, h := range sr.Results {
		require.Equal(t, trading.Currency, h.AssetClass, h.Symbol)
	}
	require.Equal(t, sr.Count, len(sr.Results))
	require.GreaterOrEqual(t, sr.Count, 3)

	res, err = call(t, reg, "marketSearchForResearch", `{"query":"a","limit":1}`)
	require.NoError(t, err)
	perClass := map[trading.AssetClass]int{}
	for _, h := range res.(SearchResult).Results {
		perClass[h.AssetClass]++
	}
	for c, n := range perClass {
		require.Equal(t, 1, n, c)
	}

	for _, bad := range []string{`{}`, `{"query":"  "}`, `{"query":"a","limit":0}`, `{"query":1}`, `{"query":"a","x":1}`} {
		_, err := call(t, reg, "marketSearchForResearch", bad)
		require.Error(t, err, bad)
	}

	res, err = call(t, reg, "equityGetProfile", `{"symbol":"msft"}`)
	require.NoError(t, err)
	p := res.(Profile)
	require.True(t, p.Simulated)
	require.Equal(t, "Microsoft Corporation", p.Name)
	require.True(t, p.Low52w.LessThanOrEqual(p.Price) && p.Price.LessThanOrEqual(p.High52w))
	_, err = call(t, reg, "equityGetProfile", `{"symbol":"ZZZ"}`)
	require.ErrorIs(t, err, ErrNotFound)
}

func TestProfileToolOnlyWhenSupported(t *testing.T) {
	reg := &fakeReg{tools: map[string]core.Tool{}}
	a, err := NewAlpaca("http://127.0.0.1:1", "k", "s", nil)
	require.NoError(t, err)
	RegisterTools(reg, a)
	_, ok := reg.tools["equityGetProfile"]
	require.False(t, ok)
	_, err = call(t, reg, "marketSearchForResearch", `{"query":"apple"}`)
	require.ErrorIs(t, err, ErrUnsupported)
}
