package guard

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pipeline builds a pipeline on the state file at path, read afresh (what
// a new process does).
func pipeline(t *testing.T, path string, cfg ...config.Guard) *Pipeline {
	t.Helper()
	p, _, err := NewPipeline(DefaultRegistry(), cfg, nil)
	require.NoError(t, err)
	st, err := loadState(path)
	require.NoError(t, err)
	p.UseState(st)
	return p
}

var cooldown30s = config.Guard{Type: "cooldown", Options: map[string]any{"minIntervalMs": 30000.0}}

// The tester's run: BUY 1 SOL executes, then the guard restarts (kill -9,
// SIGTERM, a reload: a new pipeline from the same data dir); a repeat
// inside the 30 s is still refused, one after it passes. A torn last
// line (a crash mid-write) does not lose what was before it.
func TestCooldownSurvivesRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), StateFile)
	ctx := context.Background()
	at := func(d time.Duration) Context {
		gc := ctxWith(place("SOL", trading.Buy, "1", "", ""), "100000")
		gc.Now = t0.Add(d)
		return gc
	}
	p := pipeline(t, path, cooldown30s)
	require.Empty(t, p.Check(ctx, at(0)))
	require.NoError(t, p.Executed(at(0), t0))
	assert.Contains(t, p.Check(ctx, at(time.Second)), "Cooldown active for SOL: 29s remaining")

	for _, step := range []struct {
		name   string
		at     time.Duration
		tear   bool
		reject string
	}{
		{"restart at 2s", 2 * time.Second, false, "28s remaining"},
		{"crash left a torn line; restart at 3s", 3 * time.Second, true, "27s remaining"},
		{"restart at 29s", 29 * time.Second, false, "1s remaining"},
		{"restart after the interval", 31 * time.Second, false, ""},
	} {
		if step.tear {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.WriteString(`{"guard":"cooldown","key":"SOL","ti`)
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}
		got := pipeline(t, path, cooldown30s).Check(ctx, at(step.at))
		if step.reject == "" {
			assert.Empty(t, got, step.name)
		} else {
			assert.Contains(t, got, "[guard:cooldown] Cooldown active for SOL: "+step.reject, step.name)
		}
	}
	// Other symbols are not held back.
	gc := at(time.Second)
	gc.Op = place("BTC", trading.Buy, "1", "", "")
	assert.Empty(t, pipeline(t, path, cooldown30s).Check(ctx, gc))
}

// An order a guard listed after cooldown refuses never executes, so it
// must not arm the cooldown: the next valid order passes. (The UTA calls
// Executed only for an order the broker accepted.)
func TestRefusedOrderDoesNotArmCooldown(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), StateFile)
	ctx := context.Background()
	p := pipeline(t, path, cooldown30s, config.Guard{Type: "max-order-value", Options: map[string]any{"maxValue": "500"}})
	big := ctxWith(place("AAPL", trading.Buy, "10", "", ""), "100000") // 1,000 at 100
	assert.Contains(t, p.Check(ctx, big), "[guard:max-order-value]")
	small := ctxWith(place("AAPL", trading.Buy, "1", "", ""), "100000")
	small.Now = t0.Add(time.Second)
	assert.Empty(t, p.Check(ctx, small), "the refused order did not start a cooldown")
	assert.Empty(t, p.Check(ctx, small), "a Check alone (no execution) arms nothing")
	require.NoError(t, p.Executed(small, small.Now))
	small.Now = small.Now.Add(time.Second)
	assert.Contains(t, p.Check(ctx, small), "[guard:cooldown]")
	// Only placed orders arm it.
	cancel := ctxWith(git.Operation{Action: git.CancelOrder, OrderID: "9"}, "100000")
	require.NoError(t, p.Executed(cancel, t0))
	st, err := loadState(path)
	require.NoError(t, err)
	assert.Len(t, st.recs, 1)
}

// JSON null is not a value: a required option given as null is refused
// naming the key (as missing or 0 are), and so is null for an optional
// one (leaving the key out is how to ask for the default).
func TestNullGuardOptionsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		typ  string
		opts map[string]any
		err  string
	}{
		{"max-order-value", map[string]any{"maxValue": nil}, "option maxValue is required"},
		{"max-order-value", map[string]any{}, "option maxValue is required"},
		{"max-order-value", map[string]any{"maxValue": 0.0}, "option maxValue: must be > 0"},
		{"symbol-whitelist", map[string]any{"symbols": nil}, "option symbols: a non-empty list"},
		{"max-position-size", map[string]any{"maxPercentOfEquity": nil}, "option maxPercentOfEquity: null"},
		{"cooldown", map[string]any{"minIntervalMs": nil}, "option minIntervalMs: null"},
		{"daily-loss", map[string]any{"maxLoss": nil}, "option maxLoss: null"},
		{"daily-loss", map[string]any{"maxLoss": nil, "maxLossPercent": 5.0}, "option maxLoss: null"},
		{"daily-loss", map[string]any{"maxLoss": 100.0, "maxLossPercent": nil}, "option maxLossPercent: null"},
	} {
		_, _, err := NewPipeline(DefaultRegistry(), []config.Guard{{Type: tc.typ, Options: tc.opts}}, nil)
		require.Error(t, err, "%s %v", tc.typ, tc.opts)
		assert.Contains(t, err.Error(), tc.err, "%s %v", tc.typ, tc.opts)
	}
}

// The tester's daily-loss run: equity 100,000 before the day's first
// trade; BUY 500 AAPL then SELL 500 lose 10.02 to the spread. The day's
// first snapshot was taken after the buy (99,994.97), so counting from it
// saw only 5.03. The guard's own pre-trade equity is earlier and wins.
func TestDailyLossCountsFromBeforeTheFirstTrade(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name, maxLoss, reject string
	}{
		{"limit 7", "7", "Daily loss 10.02 reached the limit 7"},
		{"limit 4", "4", "Daily loss 10.02 reached the limit 4"},
		{"limit 11", "11", ""},
	} {
		path := filepath.Join(t.TempDir(), StateFile)
		dl := config.Guard{Type: "daily-loss", Options: map[string]any{"maxLoss": tc.maxLoss}}
		p := pipeline(t, path, dl)
		buy := ctxWith(place("AAPL", trading.Buy, "500", "", ""), "100000")
		require.Empty(t, p.Check(ctx, buy), tc.name)
		sell := ctxWith(place("AAPL", trading.Sell, "500", "", ""), "99994.97")
		sell.Now = t0.Add(time.Minute)
		sell.DayStartEquity, sell.DayStartAt = d("99994.97"), t0.Add(time.Second)
		require.Empty(t, p.Check(ctx, sell), tc.name)
		// after a restart, too: the pre-trade equity is persisted
		next := ctxWith(place("MSFT", trading.Buy, "1", "", ""), "99989.98")
		next.Now = t0.Add(2 * time.Minute)
		next.DayStartEquity, next.DayStartAt = d("99994.97"), t0.Add(time.Second)
		got := pipeline(t, path, dl).Check(ctx, next)
		if tc.reject == "" {
			assert.Empty(t, got, tc.name)
		} else {
			assert.Contains(t, got, tc.reject, tc.name)
		}
	}
	// A snapshot taken before the guard's first check (e.g. at midnight)
	// stays the baseline.
	p := pipeline(t, filepath.Join(t.TempDir(), StateFile), config.Guard{Type: "daily-loss", Options: map[string]any{"maxLoss": "7"}})
	gc := ctxWith(place("AAPL", trading.Buy, "1", "", ""), "99995")
	gc.DayStartEquity, gc.DayStartAt = d("100005"), t0.Add(-time.Hour)
	assert.Contains(t, p.Check(ctx, gc), "Daily loss 10.00 reached the limit 7")
}
