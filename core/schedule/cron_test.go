package schedule

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
)

func TestScheduleNext(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	from := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC) // Saturday
	cases := []struct {
		name string
		s    Schedule
		from time.Time
		want time.Time
	}{
		{"every", Schedule{Kind: KindEvery, Every: "1h30m"}, from, from.Add(90 * time.Minute)},
		{"at future", Schedule{Kind: KindAt, At: "2026-11-21T12:00:00Z"}, from, time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)},
		{"at past", Schedule{Kind: KindAt, At: "2026-11-21T09:00:00Z"}, from, time.Time{}},
		{"weekdays skip the weekend", Schedule{Kind: KindCron, Cron: "30 9 * * 1-5"}, from, time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)},
		{"step", Schedule{Kind: KindCron, Cron: "*/15 * * * *"}, from.Add(time.Minute), from.Add(15 * time.Minute)},
		{"in the from zone", Schedule{Kind: KindCron, Cron: "0 9 * * *"}, from.In(ny), time.Date(2026, 11, 21, 9, 0, 0, 0, ny)},                        // 05:00 in New York
		{"CRON_TZ prefix", Schedule{Kind: KindCron, Cron: "CRON_TZ=America/New_York 0 9 * * *"}, from, time.Date(2026, 11, 21, 14, 0, 0, 0, time.UTC)}, // 09:00 EST
		{"descriptor", Schedule{Kind: KindCron, Cron: "@daily"}, from, time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)},
	}
	for _, tc := range cases {
		require.NoError(t, tc.s.Validate(), tc.name)
		got := tc.s.Next(tc.from)
		require.True(t, tc.want.Equal(got), "%s: want %s got %s", tc.name, tc.want, got)
	}
}

func TestScheduleValidateErrors(t *testing.T) {
	cases := []struct {
		s   Schedule
		err string
	}{
		{Schedule{}, "schedule is required"},
		{Schedule{Kind: "weekly"}, "must be at, every, cron or market"},
		{Schedule{Kind: KindAt, At: "tomorrow"}, "ISO timestamp"},
		{Schedule{Kind: KindEvery, Every: "soon"}, "schedule.every"},
		{Schedule{Kind: KindEvery, Every: "0s"}, "positive"},
		{Schedule{Kind: KindCron, Cron: "61 * * * *"}, "5 fields"},
		{Schedule{Kind: KindCron, Cron: "* * * *"}, "5 fields"},
		{Schedule{Kind: KindCron, Cron: "CRON_TZ=Mars/Base 0 9 * * *"}, "schedule.cron"},
	}
	for _, tc := range cases {
		require.ErrorContains(t, tc.s.Validate(), tc.err, "%+v", tc.s)
	}
}

func TestOverdueJobsAreRescheduledNotCaughtUp(t *testing.T) {
	e := newEnv(t)
	start := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	now := start
	clock := func() time.Time { return now }
	eng, err := NewEngine(e.dir, e.worker, e.log, nil, clock, WithLocation(time.UTC))
	require.NoError(t, err)
	_, err = eng.Add("hourly", "ping", Schedule{Kind: KindEvery, Every: "1h"}, true)
	require.NoError(t, err)

	now = start.Add(10 * time.Hour) // the machine slept
	eng2, err := NewEngine(e.dir, e.worker, e.log, nil, clock, WithLocation(time.UTC))
	require.NoError(t, err)
	require.Equal(t, now.Add(time.Hour).UnixMilli(), *eng2.List()[0].State.NextRunAtMs)
	due, _ := eng2.due()
	require.Empty(t, due, "nothing fires at start-up")
	require.Zero(t, e.agent.count())

	b, err := os.ReadFile(filepath.Join(e.dir, "cron", "jobs.json"))
	require.NoError(t, err)
	require.Contains(t, string(b), `"nextRunAtMs": `+jsonNum(now.Add(time.Hour).UnixMilli()), "the rescheduled time is persisted")
}

func jsonNum(v int64) string { b, _ := json.Marshal(v); return string(b) }

func TestCorruptJobsFileIsReportedAndKept(t *testing.T) {
	e := newEnv(t)
	path := filepath.Join(e.dir, "cron", "jobs.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	require.NoError(t, os.WriteFile(path, []byte(`{"jobs":[{"id":`), 0o600))
	_, err := NewEngine(e.dir, e.worker, e.log, nil, nil)
	require.ErrorContains(t, err, "jobs.json")
	b, _ := os.ReadFile(path)
	require.Equal(t, `{"jobs":[{"id":`, string(b))
}

func TestAtJobInThePastIsRejected(t *testing.T) {
	e := newEnv(t)
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	eng, _ := NewEngine(e.dir, e.worker, e.log, nil, func() time.Time { return now })
	_, err := eng.Add("late", "x", Schedule{Kind: KindAt, At: "2026-11-20T08:00:00Z"}, true)
	require.ErrorContains(t, err, "in the past")
	require.Empty(t, eng.List())
}

func callTool(t *testing.T, tc *core.ToolCenter, name, args string) (map[string]any, error) {
	t.Helper()
	res, err := tc.Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(res)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	return out, nil
}

func TestCronTools(t *testing.T) {
	e := newEnv(t)
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	eng, err := NewEngine(e.dir, e.worker, e.log, nil, func() time.Time { return now }, WithLocation(time.UTC))
	require.NoError(t, err)
	tc := core.NewToolCenter(nil)
	RegisterTools(tc, eng)

	out, err := callTool(t, tc, "cronList", `{}`)
	require.NoError(t, err)
	require.Equal(t, []any{}, out["jobs"])

	for args, want := range map[string]string{
		`{"name":"x","payload":"y"}`:                                                                                             "schedule is required",
		`{"name":"x","payload":"y","schedule":{}}`:                                                                               "schedule is required",
		`{"name":"x","payload":"y","schedule":{"kind":"cron","cron":"nope"}}`:                                                    "5 fields",
		`{"name":"x","payload":"y","schedule":{"kind":"every","every":"10"}}`:                                                    "schedule.every",
		`{"name":"","payload":"y","schedule":{"kind":"every","every":"10m"}}`:                                                    "name and payload are required",
		`{"name":"x","payload":"y","schedule":{"kind":"every","every":"10m"},"colour":"red"}`:                                    "colour",
		`{"name":"x","payload":"y","schedule":{"kind":"every","every":"10m"},"target":{"kind":"oneshot","workspace":"../.."}}`:   "target.workspace",
		`{"name":"x","payload":"y","schedule":{"kind":"every","every":"10m"},"target":{"kind":"session","workspace":"Bad/Tag"}}`: "valid workspace tag",
		`{"name":"x","payload":"y","schedule":{"kind":"every","every":"99999999h"}}`:                                             "too large (at most 8760h",
		`{"name":"x","payload":"y","schedule":{"kind":"market","market":{"account":"a","event":"close","offsetMinutes":1e9}}}`:   "offsetMinutes must be within ±720",
		`{"name":"x","payload":"y","schedule":{"kind":"market","market":{"account":"a","event":"close","offsetMinutes":1e30}}}`:  "offsetMinutes must be within ±720",
		`{"name":"x","payload":"y","schedule":{"kind":"market","market":{"account":"a","event":"close","offsetMinutes":1.5}}}`:   "whole number",
	} {
		_, err := callTool(t, tc, "cronAdd", args)
		require.ErrorContains(t, err, want, args)
	}

	out, err = callTool(t, tc, "cronAdd", `{"name":"brief","payload":"Summarise","schedule":{"kind":"cron","cron":"0 9 * * 1-5"},"sessionTarget":"isolated"}`)
	require.NoError(t, err)
	id := out["id"].(string)
	require.Len(t, id, 8)
	require.EqualValues(t, time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC).UnixMilli(), out["nextRunAtMs"], "next weekday 09:00 (Friday's has passed)")

	out, err = callTool(t, tc, "cronUpdate", `{"id":"`+id+`","enabled":false}`)
	require.NoError(t, err)
	require.Equal(t, false, out["enabled"])
	require.Nil(t, out["state"].(map[string]any)["nextRunAtMs"], "a disabled job is not armed")
	_, err = callTool(t, tc, "cronUpdate", `{"id":"`+id+`","schedule":{"kind":"every","every":"x"}}`)
	require.ErrorContains(t, err, "schedule.every")
	_, err = callTool(t, tc, "cronUpdate", `{"id":"nope","name":"z"}`)
	require.ErrorContains(t, err, `no cron job "nope"`)

	e.agent.set(Result{Text: "Brief: flat market."}, nil)
	out, err = callTool(t, tc, "cronRunNow", `{"id":"`+id+`"}`)
	require.NoError(t, err)
	require.Equal(t, id, out["started"])
	require.Eventually(t, func() bool { return len(e.tui.texts()) == 1 }, 30*time.Second, 5*time.Millisecond, "a disabled job can still be run by hand")
	require.NoError(t, eng.Close())
	require.Equal(t, StatusOK, *eng.List()[0].State.LastStatus)
	_, err = callTool(t, tc, "cronRunNow", `{"id":"nope"}`)
	require.ErrorContains(t, err, "no cron job")

	out, err = callTool(t, tc, "cronList", `{}`)
	require.NoError(t, err)
	require.Len(t, out["jobs"], 1)
	_, err = callTool(t, tc, "cronRemove", `{"id":"`+id+`"}`)
	require.NoError(t, err)
	_, err = callTool(t, tc, "cronRemove", `{"id":"`+id+`"}`)
	require.ErrorContains(t, err, "no cron job")

	// Persisted as {jobs:[]} after the removal.
	b, err := os.ReadFile(filepath.Join(e.dir, "cron", "jobs.json"))
	require.NoError(t, err)
	require.JSONEq(t, `{"jobs":[]}`, string(b))
}

func TestHeartbeatSetEnabledAndRunNow(t *testing.T) {
	e := newEnv(t)
	hb := NewHeartbeat(e.store, e.worker, e.log, nil)
	hb.now = func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }
	require.False(t, hb.Enabled())
	require.Equal(t, "disabled", hb.Tick(context.Background()).Skip)
	require.Zero(t, e.agent.count())

	e.agent.set(notifyUser("Cash is idle"), nil)
	require.True(t, hb.RunNow(context.Background()).Delivered, "run now ignores the enabled flag")
	require.Equal(t, []string{"heartbeat: " + config.DefaultHeartbeatPrompt}, e.agent.calls)

	require.NoError(t, hb.SetEnabled(true))
	require.True(t, hb.Enabled())
	cfg, err := e.store.Heartbeat()
	require.NoError(t, err)
	require.True(t, cfg.Enabled)
	require.Equal(t, "30m", cfg.Every, "the rest of heartbeat.json is kept")

	// Quiet hours hold even for run now.
	cfg.ActiveHours = &config.ActiveHours{Start: "22:00", End: "06:00", Timezone: "Europe/Berlin"}
	require.NoError(t, config.Save(e.store, config.HeartbeatFile, cfg))
	require.Equal(t, "outside-active-hours", hb.RunNow(context.Background()).Skip)
	require.Equal(t, 1, e.agent.count())
}

func TestHeartbeatLoopStops(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, os.WriteFile(e.store.Path(config.HeartbeatFile), []byte(`{"enabled":true,"every":"1s","prompt":"check","activeHours":{"start":"00:00","end":"00:00","timezone":"UTC"}}`), 0o600))
	hb := NewHeartbeat(e.store, e.worker, e.log, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { hb.Run(ctx); close(done) }()
	require.Eventually(t, func() bool { return len(e.types()) >= 1 }, 30*time.Second, 10*time.Millisecond, "a tick happened")
	cancel()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("heartbeat loop did not stop")
	}
	require.Zero(t, e.agent.count(), "an empty window (start == end) never calls the agent")
}
