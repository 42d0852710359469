package live

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/tui/activity"
	"github.com/alice-trading/alice/tui/market"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
)

func TestMarketAdapterAgainstARunningCore(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	ctx := context.Background()

	hits, err := c.SearchSymbols(ctx, "AAPL")
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	require.Equal(t, "AAPL", hits[0].Symbol)
	require.Equal(t, "equity", hits[0].Class)

	q, err := c.MarketQuote(ctx, "AAPL", "equity")
	require.NoError(t, err)
	require.True(t, q.Last.IsPositive())
	require.False(t, q.Change.IsZero() && q.ChangePct.IsZero(), "change against the previous daily close")

	for _, iv := range []string{"1m", "5m", "1h", "1d"} {
		cs, err := c.Candles(ctx, "AAPL", "equity", iv, 120)
		require.NoError(t, err, iv)
		require.Len(t, cs, 120, iv)
		for _, k := range cs {
			require.GreaterOrEqual(t, k.High, max(k.Open, k.Close), iv)
			require.LessOrEqual(t, k.Low, min(k.Open, k.Close), iv)
		}
	}
	_, err = c.Candles(ctx, "AAPL", "equity", "7x", 10)
	require.Error(t, err)

	// A rolling SMA over the chart: as of each candle's close it equals
	// the mean of the 20 closes up to that candle.
	daily, err := c.Candles(ctx, "AAPL", "equity", "1d", 60)
	require.NoError(t, err)
	var at []time.Time
	for i := 1; i < len(daily); i++ {
		at = append(at, daily[i].Time)
	}
	sma, err := c.Indicator(ctx, "equity", "SMA(CLOSE('AAPL','1d'),20)", at)
	require.NoError(t, err)
	require.Len(t, sma, len(at))
	for i := 30; i < len(at); i++ {
		sum := 0.0
		for _, k := range daily[i-19 : i+1] {
			sum += k.Close
		}
		require.InDelta(t, sum/20, sma[i], 1e-6, "as of %s", at[i])
	}
	now, err := c.Indicator(ctx, "equity", "SMA(CLOSE('AAPL','1d'),20)", nil)
	require.NoError(t, err)
	require.Len(t, now, 1)
	series, err := c.Indicator(ctx, "equity", "CLOSE('AAPL','1d')", nil)
	require.NoError(t, err)
	require.Greater(t, len(series), 100, "a series formula is returned as is")
	_, err = c.Indicator(ctx, "equity", "SMA(CLOSE('AAPL','1d'),", at)
	require.ErrorContains(t, err, "calculateIndicator")
	_, err = c.Indicator(ctx, "equity", "BBANDS(CLOSE('AAPL','1d'),20,2)", at)
	require.ErrorContains(t, err, "named values")

	news, err := c.SymbolNews(ctx, "AAPL", 5)
	require.NoError(t, err, "news is disabled in this home: no items, no error")
	require.Empty(t, news)

	// Stage from the UI: the same tools, and it waits for approval.
	res, err := c.StageOrder(ctx, market.OrderTicket{Account: "sim-paper", Symbol: "AAPL", Action: "BUY", Type: "LMT",
		Quantity: decimal.NewFromInt(3), Limit: decimal.RequireFromString("1.5")})
	require.NoError(t, err)
	require.Contains(t, res, "waiting for your approval")
	pend, err := c.Pending()
	require.NoError(t, err)
	require.Len(t, pend, 1)
	require.Contains(t, strings.Join(pend[0].Operations, "\n"), "AAPL")
	_, err = c.StageOrder(ctx, market.OrderTicket{Account: "ghost", Symbol: "AAPL", Action: "BUY", Type: "MKT", Quantity: decimal.NewFromInt(1)})
	require.Error(t, err)

	// Approve, then force the resting limit (far below the market) to fill.
	_, err = c.Approve(ctx, "sim-paper", pend[0].Hash)
	require.NoError(t, err)
	require.True(t, c.IsSimulator("sim-paper"))
	msg, err := c.SimFill(ctx, "sim-paper", "AAPL")
	require.NoError(t, err)
	require.Contains(t, msg, "filled 1")
	ps, err := c.Positions("sim-paper")
	require.NoError(t, err)
	require.Len(t, ps, 1)

	msg, err = c.SimPrice(ctx, "sim-paper", "AAPL", "@250")
	require.NoError(t, err)
	require.Contains(t, msg, "→ 250.00")
	msg, err = c.SimAdvance(ctx, "sim-paper", 3*time.Hour)
	require.NoError(t, err)
	require.Contains(t, msg, "clock advanced 3h0m0s")
	msg, err = c.SimCash(ctx, "sim-paper", decimal.NewFromInt(-100))
	require.NoError(t, err)
	require.Contains(t, msg, "withdrew 100.00")

	// Every control is in the event log the Activity pane reads.
	evs, err := c.RecentEvents(500)
	require.NoError(t, err)
	var types []string
	for _, e := range evs {
		types = append(types, e.Type)
	}
	for _, want := range []string{"trade.approval-requested", "simulator.force-fill", "simulator.mark-price", "simulator.cash", "simulator.clock"} {
		require.Contains(t, types, want)
	}
}

func TestActivityAdapterReadsTheLogs(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	events := c.Events(t.Context())

	_, err := a.Activity().Append("message.received", map[string]any{"text": "hi"})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		select {
		case ev := <-events:
			_, ok := ev.(activity.ActivityChangedEvent)
			return ok
		default:
			return false
		}
	}, 30*time.Second, 10*time.Millisecond, "event-log appends reach the UI bridge")

	// A torn last line is skipped.
	path := filepath.Join(a.Paths().Data, "tool-calls", "tool-calls.jsonl")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	require.NoError(t, os.WriteFile(path, []byte(
		`{"seq":1,"id":"t1","sessionId":"tui/default","name":"getQuote","input":{"aliceId":"sim-paper|AAPL"},"output":"{}","status":"ok","durationMs":7,"timestamp":"2026-11-20T14:30:00Z"}`+"\n"+
			`{"seq":2,"id":"t2","sessionId":"cron/default","name":"placeOrder","input":{},"output":"guard rejected","status":"error","durationMs":3,"timestamp":"2026-11-20T14:31:00Z"}`+"\n"+
			`{"seq":3,"id":"t3","sessi`), 0o600))
	calls, err := c.ToolCalls(100)
	require.NoError(t, err)
	require.Len(t, calls, 2)
	require.Equal(t, "getQuote", calls[0].Name)
	require.Equal(t, 7*time.Millisecond, calls[0].Duration)
	require.JSONEq(t, `{"aliceId":"sim-paper|AAPL"}`, calls[0].Input)
	require.True(t, calls[1].Error)
	require.Equal(t, "cron/default", calls[1].Session)

	_, err = a.Connectors().Notify(context.Background(), "AAPL crossed 200", "normal", "cron")
	require.NoError(t, err)
	notes, err := c.NotificationLog(10)
	require.NoError(t, err)
	require.Len(t, notes, 1)
	require.Equal(t, "tui", notes[0].Channel)
	require.True(t, notes[0].Delivered)
	require.Equal(t, "cron", notes[0].Source)

	eps := c.MCPEndpoints()
	require.True(t, strings.HasPrefix(eps.Main, "http://127.0.0.1:"))
	require.False(t, eps.HasToken)
}
