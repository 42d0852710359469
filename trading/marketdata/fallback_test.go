package marketdata

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/httpjson"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/simmarket"
)

// stubSource answers every call with err, or a fixed real-looking price.
type stubSource struct{ err error }

func (s stubSource) Name() string { return "yahoo" }
func (s stubSource) Bars(context.Context, string, trading.AssetClass, Interval, time.Time, time.Time) ([]Bar, error) {
	if s.err != nil {
		return nil, s.err
	}
	return []Bar{{Close: 190}}, nil
}
func (s stubSource) Quote(_ context.Context, sym string, c trading.AssetClass) (Quote, error) {
	if s.err != nil {
		return Quote{}, s.err
	}
	return Quote{Symbol: sym, AssetClass: c, Last: decimal.NewFromInt(190)}, nil
}
func (s stubSource) Search(context.Context, string, trading.AssetClass, int) ([]Instrument, error) {
	if s.err != nil {
		return nil, s.err
	}
	return []Instrument{{Symbol: "AAPL"}}, nil
}

// The auto backend answers from the real provider when it answers, from
// the simulated market (labelled) when it does not, and never invents a
// price for a symbol the provider says does not exist.
func TestFallbackLabelsWhereAnswersCameFrom(t *testing.T) {
	t.Parallel()
	sim := NewSimulated(simmarket.New(42), nil)
	down := &httpjson.TransportError{Source: "yahoo", Method: "GET", Path: "/v8/finance/chart/AAPL", Err: errors.New("dial tcp: connection refused")}
	cases := []struct {
		name      string
		err       error
		wantErr   error
		simulated bool
	}{
		{"provider answers", nil, nil, false},
		{"network down", down, nil, true},
		{"server error", &httpjson.StatusError{Source: "yahoo", Status: 503}, nil, true},
		{"rate limited", &httpjson.StatusError{Source: "yahoo", Status: 429}, nil, true},
		{"timeout", fmt.Errorf("yahoo: %w", context.DeadlineExceeded), nil, true},
		{"unknown symbol is an error", errors.Join(ErrNotFound, &httpjson.StatusError{Status: 404}), ErrNotFound, false},
		{"bad interval is an error", errors.New("yahoo does not offer 3h bars"), nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFallback(stubSource{err: tc.err}, sim, nil)
			require.Equal(t, "auto (yahoo, else simulated)", f.Name())
			q, err := f.Quote(context.Background(), "AAPL", trading.Equity)
			bars, from, berr := f.BarsFrom(context.Background(), "AAPL", trading.Equity, Interval{1, Day}, time.Now().Add(-72*time.Hour), time.Now())
			hits, serr := f.Search(context.Background(), "AAPL", "", 5)
			switch {
			case tc.err == nil:
				require.NoError(t, err)
				require.Equal(t, "yahoo", q.Source)
				require.False(t, q.Simulated)
				require.Equal(t, "yahoo", from)
				require.NoError(t, berr)
				require.Len(t, bars, 1)
				require.NoError(t, serr)
			case tc.simulated:
				require.NoError(t, err)
				require.True(t, q.Simulated, "a simulated price says so")
				require.Equal(t, "simulated", q.Source)
				require.True(t, q.Last.IsPositive())
				require.NoError(t, berr)
				require.Equal(t, "simulated", from)
				require.NotEmpty(t, bars)
				require.NoError(t, serr)
				require.True(t, hits[0].Simulated)
			default:
				require.Error(t, err)
				if tc.wantErr != nil {
					require.ErrorIs(t, err, tc.wantErr)
				}
				require.Error(t, berr)
				require.Error(t, serr)
			}
		})
	}
}

// Currency and commodity prices through the tools (the offline market
// here), each labelled with its source.
func TestQuoteAndHistoryToolsCoverEveryAssetClass(t *testing.T) {
	t.Parallel()
	tc := core.NewToolCenter(nil)
	RegisterTools(tc, NewSimulated(simmarket.New(42), nil))
	for _, c := range []struct{ sym, class string }{{"EURUSD", "currency"}, {"XAU", "commodity"}, {"BTC", "crypto"}, {"AAPL", ""}} {
		res, err := tc.Call(context.Background(), "marketGetQuote", []byte(`{"symbol":"`+c.sym+`","assetClass":"`+c.class+`"}`))
		require.NoError(t, err, c.sym)
		require.Contains(t, core.ResultText(res), `"simulated":true`, c.sym)
		res, err = tc.Call(context.Background(), "marketGetHistory", []byte(`{"symbol":"`+c.sym+`","assetClass":"`+c.class+`","interval":"1d","days":10}`))
		require.NoError(t, err, c.sym)
		require.Contains(t, core.ResultText(res), `"source":"simulated"`, c.sym)
	}
	for _, bad := range []string{`{"symbol":""}`, `{"symbol":"X","assetClass":"bonds"}`, `{"symbol":"X","days":0}`, `{"symbol":"AAPL","interval":"7y"}`} {
		_, err := tc.Call(context.Background(), "marketGetHistory", []byte(bad))
		require.Error(t, err, bad)
	}
}

// countingSource is a provider whose answer can change, counting calls.
type countingSource struct {
	stubSource
	calls *int
}

func (c countingSource) Bars(ctx context.Context, s string, cl trading.AssetClass, i Interval, from, to time.Time) ([]Bar, error) {
	*c.calls++
	return c.stubSource.Bars(ctx, s, cl, i, from, to)
}

func (c countingSource) Quote(ctx context.Context, s string, cl trading.AssetClass) (Quote, error) {
	*c.calls++
	return c.stubSource.Quote(ctx, s, cl)
}

// A provider that did not answer is left alone for FallbackRest: the
// simulated market answers at once meanwhile (no retries and timeouts per
// chart), and the first call after the rest asks the provider again.
func TestFallbackRestsAProviderThatDidNotAnswer(t *testing.T) {
	t.Parallel()
	sim := NewSimulated(simmarket.New(42), nil)
	calls := 0
	src := &countingSource{stubSource: stubSource{err: &httpjson.TransportError{Source: "yahoo", Err: errors.New("no such host")}}, calls: &calls}
	f := NewFallback(src, sim, nil)
	now := time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC)
	f.now = func() time.Time { return now }
	ctx := context.Background()
	to := now
	from := to.Add(-24 * time.Hour)
	hour, err := ParseInterval("1h")
	require.NoError(t, err)

	_, name, err := f.BarsFrom(ctx, "AAPL", trading.Equity, hour, from, to)
	require.NoError(t, err)
	require.Equal(t, sim.Name(), name)
	require.Equal(t, 1, calls)
	for i := 0; i < 5; i++ {
		_, name, err = f.BarsFrom(ctx, "AAPL", trading.Equity, hour, from, to)
		require.NoError(t, err)
		require.Equal(t, sim.Name(), name)
		q, err := f.Quote(ctx, "AAPL", trading.Equity)
		require.NoError(t, err)
		require.True(t, q.Simulated)
	}
	require.Equal(t, 1, calls, "the provider is rested, not asked again per call")

	// The rest ends; the provider is back: it is asked and answers.
	now = now.Add(FallbackRest + time.Second)
	src.err = nil
	_, name, err = f.BarsFrom(ctx, "AAPL", trading.Equity, hour, from, to)
	require.NoError(t, err)
	require.Equal(t, "yahoo", name)
	q, err := f.Quote(ctx, "AAPL", trading.Equity)
	require.NoError(t, err)
	require.False(t, q.Simulated)
	require.Equal(t, 3, calls)
}
