package app_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/core/eventlog"
	"github.com/alice-trading/alice/core/schedule"
)

type countingAgent struct {
	mu    sync.Mutex
	calls int
}

func (c *countingAgent) AskWithSession(context.Context, string, string, string) (schedule.Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	return schedule.Result{Text: "checked"}, nil
}

type quietNotifier struct{}

func (quietNotifier) Notify(context.Context, string, string, string) (string, error) {
	return "tui", nil
}

// TestMarketScheduleAcrossAWeekendAndAHoliday drives a cron engine on a
// simulated clock with the sim account's calendar (NYSE): "15 minutes
// before the close" and "5 minutes after the open" fire on trading days
// only — Thanksgiving 2026 (Thursday) is skipped, the Friday after closes
// early at 13:00, the weekend is skipped.
func TestMarketScheduleAcrossAWeekendAndAHoliday(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	ny, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	at := func(d, h, m int) time.Time { return time.Date(2026, 11, d, h, m, 0, 0, ny) }

	dir := t.TempDir()
	events, err := eventlog.Open(filepath.Join(dir, "events.jsonl"))
	require.NoError(t, err)
	t.Cleanup(func() { events.Close() })
	agent := &countingAgent{}
	w, err := schedule.NewWorker(agent, quietNotifier{}, events, nil, schedule.WorkerOptions{DataDir: dir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })

	var mu sync.Mutex
	now := at(25, 12, 0) // Wednesday noon, the day before Thanksgiving
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	eng, err := schedule.NewEngine(dir, w, events, nil, clock, schedule.WithMarketCalendar(app.MarketCalendar(a)))
	require.NoError(t, err)

	close15, err := eng.Add("pre-close check", "check positions",
		schedule.Schedule{Kind: schedule.KindMarket, Market: &schedule.MarketSpec{Account: "sim-paper", Event: "close", OffsetMinutes: -15}}, true)
	require.NoError(t, err)
	open5, err := eng.Add("post-open scan", "scan movers",
		schedule.Schedule{Kind: schedule.KindMarket, Market: &schedule.MarketSpec{Account: "sim-paper", Event: "open", OffsetMinutes: 5}}, true)
	require.NoError(t, err)

	// Each step: the clock reaches the job's next run, the job runs, and
	// its next run is armed from there.
	walk := func(id string, want []time.Time) {
		for i, w := range want {
			var job schedule.Job
			for _, j := range eng.List() {
				if j.ID == id {
					job = j
				}
			}
			require.NotNil(t, job.State.NextRunAtMs)
			got := time.UnixMilli(*job.State.NextRunAtMs).In(ny)
			require.True(t, w.Equal(got), "run %d of %s: want %s, got %s", i, job.Name, w.Format(time.RFC1123), got.Format(time.RFC1123))
			mu.Lock()
			now = got
			mu.Unlock()
			out, err := eng.RunNow(context.Background(), id)
			require.NoError(t, err)
			require.NoError(t, out.Err)
		}
	}
	walk(close15.ID, []time.Time{
		at(25, 15, 45), // Wednesday
		at(27, 12, 45), // Friday: Thursday is Thanksgiving, Friday closes at 13:00
		at(30, 15, 45), // Monday: the weekend is skipped
		time.Date(2026, 12, 1, 15, 45, 0, 0, ny),
	})
	mu.Lock()
	now = at(25, 12, 0)
	mu.Unlock()
	_, err = eng.Update(open5.ID, schedule.JobPatch{}) // re-arm from Wednesday noon
	require.NoError(t, err)
	walk(open5.ID, []time.Time{
		at(27, 9, 35), // Wednesday's open has passed; Thursday is a holiday
		at(30, 9, 35),
	})

	// A venue without sessions is refused up front.
	_, err = eng.Add("bad", "x", schedule.Schedule{Kind: schedule.KindMarket, Market: &schedule.MarketSpec{Account: "nope", Event: "open"}}, true)
	require.ErrorContains(t, err, `unknown or disabled account "nope"`)
	_, err = eng.Add("bad", "x", schedule.Schedule{Kind: schedule.KindMarket, Market: &schedule.MarketSpec{Account: "sim-paper", Event: "noon"}}, true)
	require.ErrorContains(t, err, "event must be open or close")
}
