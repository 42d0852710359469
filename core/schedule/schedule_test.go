package schedule

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/connector"
	"github.com/alice-trading/alice/core/eventlog"
)

// fakeAgent counts calls; block (if set) holds each call until closed.
type fakeAgent struct {
	mu        sync.Mutex
	calls     []string
	preambles []string
	res       Result
	err       error
	block     chan struct{}
}

func (f *fakeAgent) AskWithSession(ctx context.Context, prompt, sessionID, preamble string) (Result, error) {
	f.mu.Lock()
	f.calls = append(f.calls, sessionID+": "+prompt)
	f.preambles = append(f.preambles, preamble)
	res, err, block := f.res, f.err, f.block
	f.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			return Result{}, ctx.Err()
		}
	}
	return res, err
}

func (f *fakeAgent) set(res Result, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.res, f.err = res, err
}

// notifyUser is what the agent returns after calling notify_user.
func notifyUser(text string) Result {
	in, _ := json.Marshal(map[string]string{"text": text, "urgency": "important"})
	return Result{Text: "done", ToolCalls: []ToolCall{{Name: "notify_user", Input: in}}}
}

func (f *fakeAgent) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

type recConn struct {
	ch   string
	mu   sync.Mutex
	got  []string
	fail bool
}

func (r *recConn) Channel() string                      { return r.ch }
func (r *recConn) Capabilities() connector.Capabilities { return connector.Capabilities{Push: true} }
func (r *recConn) Send(_ context.Context, n connector.Notification) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail {
		return errors.New("connector down")
	}
	r.got = append(r.got, n.Text)
	return nil
}

func (r *recConn) texts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

type env struct {
	dir    string
	store  *config.Store
	log    *eventlog.Log
	agent  *fakeAgent
	conns  *connector.Center
	tui    *recConn
	tg     *recConn
	worker *Worker
}

func newEnv(t *testing.T) *env {
	dir := t.TempDir()
	store := config.NewStore(filepath.Join(dir, "config"))
	require.NoError(t, os.MkdirAll(store.Dir(), 0o700))
	log, err := eventlog.Open(filepath.Join(dir, "events.jsonl"))
	require.NoError(t, err)
	t.Cleanup(func() { log.Close() })
	conns, _ := connector.New(dir)
	e := &env{dir: dir, store: store, log: log, agent: &fakeAgent{}, conns: conns, tui: &recConn{ch: "tui"}, tg: &recConn{ch: "telegram"}}
	conns.Register(e.tui)
	conns.Register(e.tg)
	w, err := NewWorker(e.agent, conns, log, nil, WorkerOptions{DataDir: dir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	e.worker = w
	return e
}

func (e *env) types() []string {
	var out []string
	for _, en := range e.log.Recent() {
		out = append(out, en.Type)
	}
	return out
}

func TestWithinActiveHours(t *testing.T) {
	ny := "America/New_York"
	cases := []struct {
		name       string
		start, end string
		tz         string
		at         string // UTC
		want       bool
	}{
		{"inside day window", "09:00", "17:00", "UTC", "2026-11-20T12:00:00Z", true},
		{"before start", "09:00", "17:00", "UTC", "2026-11-20T08:59:00Z", false},
		{"end is exclusive", "09:00", "17:00", "UTC", "2026-11-20T17:00:00Z", false},
		{"overnight late", "22:00", "06:00", "UTC", "2026-11-20T23:30:00Z", true},
		{"overnight early", "22:00", "06:00", "UTC", "2026-11-20T05:59:00Z", true},
		{"overnight midday", "22:00", "06:00", "UTC", "2026-11-20T12:00:00Z", false},
		{"timezone shifts window", "09:30", "16:00", ny, "2026-11-20T14:35:00Z", true},              // 09:35 in NY (EST)
		{"timezone outside", "09:30", "16:00", ny, "2026-11-20T21:30:00Z", false},                   // 16:30 in NY
		{"summer time", "09:30", "16:00", ny, "2026-07-20T13:35:00Z", true},                         // 09:35 EDT
		{"overnight in Tokyo", "22:00", "07:00", "Asia/Tokyo", "2026-11-20T14:30:00Z", true},        // 23:30 JST
		{"Tokyo morning is outside", "22:00", "07:00", "Asia/Tokyo", "2026-11-20T23:00:00Z", false}, // 08:00 JST
		{"start == end is empty", "09:00", "09:00", "UTC", "2026-11-20T09:00:00Z", false},
		{"start inclusive", "09:00", "17:00", "UTC", "2026-11-20T09:00:00Z", true},
		{"whole day but a minute", "00:00", "23:59", "UTC", "2026-11-20T23:59:30Z", false},
	}
	for _, tc := range cases {
		at, _ := time.Parse(time.RFC3339, tc.at)
		got := WithinActiveHours(&config.ActiveHours{Start: tc.start, End: tc.end, Timezone: tc.tz}, at)
		require.Equal(t, tc.want, got, tc.name)
	}
	require.True(t, WithinActiveHours(nil, time.Now()), "no window means always")
	// "local" reads the window in the host zone.
	at := time.Date(2026, 11, 20, 10, 15, 0, 0, time.Local)
	require.True(t, WithinActiveHours(&config.ActiveHours{Start: "10:00", End: "10:30", Timezone: "local"}, at))
	require.False(t, WithinActiveHours(&config.ActiveHours{Start: "10:30", End: "11:00", Timezone: ""}, at))
}

func TestHeartbeatOutsideActiveHoursNeverCallsTheAgent(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, os.WriteFile(e.store.Path(config.HeartbeatFile), []byte(`{"enabled":true,"every":"30m","prompt":"check","activeHours":{"start":"09:00","end":"17:00","timezone":"UTC"}}`), 0o600))
	hb := NewHeartbeat(e.store, e.worker, e.log, nil)
	hb.now = func() time.Time { return time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC) }
	out := hb.Tick(context.Background())
	require.Equal(t, "outside-active-hours", out.Skip)
	require.Zero(t, e.agent.count())
	require.Equal(t, []string{"agent.work.skip"}, e.types())

	hb.now = func() time.Time { return time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC) }
	e.agent.res = Result{Text: "all quiet"}
	out = hb.Tick(context.Background())
	require.Equal(t, "ack", out.Skip, "no notify_user call means nothing is pushed")
	require.Equal(t, 1, e.agent.count())
	require.Equal(t, []string{"heartbeat: check"}, e.agent.calls)
}

func TestHeartbeatOutputGate(t *testing.T) {
	e := newEnv(t)
	notify := func(text string) Result {
		return Result{ToolCalls: []ToolCall{{Name: "notify_user", Input: json.RawMessage(`{"text":"` + text + `","urgency":"important"}`)}}}
	}
	cases := []struct {
		res  Result
		skip string
	}{
		{Result{Text: "nothing to report"}, "ack"},
		{notify("  "), "empty"},
		{notify("BTC fell 8% in an hour"), ""},
		{notify("BTC fell 8% in an hour"), "duplicate"},
		{notify("ETH too"), ""},
	}
	for i, tc := range cases {
		e.agent.res = tc.res
		out := e.worker.Run(context.Background(), Request{Source: SourceHeartbeat, Prompt: "check"})
		require.Equal(t, tc.skip, out.Skip, "case %d", i)
		if tc.skip == "" {
			require.True(t, out.Delivered)
		}
	}
	require.Equal(t, []string{"BTC fell 8% in an hour", "ETH too"}, e.tui.got)
}

func TestCronJobFiresThroughTheAgentToTheLastUsedChannel(t *testing.T) {
	e := newEnv(t)
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	eng, err := NewEngine(e.dir, e.worker, e.log, nil, clock)
	require.NoError(t, err)
	job, err := eng.Add("morning brief", "Summarise my portfolio", Schedule{Kind: "every", Every: "1h"}, true)
	require.NoError(t, err)
	require.Equal(t, now.Add(time.Hour).UnixMilli(), *job.State.NextRunAtMs)

	e.conns.Touch("telegram", "42")
	e.agent.res = Result{Text: "Portfolio: 5 MSFT, up 2%."}
	now = now.Add(time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { eng.Run(ctx); close(done) }()
	require.Eventually(t, func() bool { // the job's state is saved after the task's outcome
		jobs := eng.List()
		return len(jobs) == 1 && jobs[0].State.LastStatus != nil
	}, 30*time.Second, 10*time.Millisecond)
	cancel()
	<-done
	require.Equal(t, "Portfolio: 5 MSFT, up 2%.", e.tg.got[0])
	require.Empty(t, e.tui.got)
	require.Equal(t, []string{"cron/default: Summarise my portfolio"}, e.agent.calls)
	require.Equal(t, []string{"cron.fire", "agent.work.requested", "agent.work.started", "agent.work.done"}, e.types())
	caused := e.log.Recent()
	require.Equal(t, caused[0].Seq, caused[1].CausedBy)

	// State persisted; a restart keeps the job and its next run.
	eng2, err := NewEngine(e.dir, e.worker, e.log, nil, clock)
	require.NoError(t, err)
	jobs := eng2.List()
	require.Len(t, jobs, 1)
	require.Equal(t, StatusOK, *jobs[0].State.LastStatus)
	require.Equal(t, now.Add(time.Hour).UnixMilli(), *jobs[0].State.NextRunAtMs)
}

func TestCronSchedulesAndBackoff(t *testing.T) {
	e := newEnv(t)
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.Local) // Saturday
	eng, _ := NewEngine(e.dir, e.worker, e.log, nil, func() time.Time { return now })
	for _, bad := range []Schedule{{Kind: "cron", Cron: "61 * * * *"}, {Kind: "every", Every: "soon"}, {Kind: "at", At: "tomorrow"}, {Kind: "weekly"}} {
		_, err := eng.Add("x", "y", bad, true)
		require.Error(t, err, bad)
	}
	j, err := eng.Add("weekday open", "check", Schedule{Kind: "cron", Cron: "30 9 * * 1-5"}, true)
	require.NoError(t, err)
	require.Equal(t, time.Date(2026, 11, 23, 9, 30, 0, 0, time.Local).UnixMilli(), *j.State.NextRunAtMs, "Monday 09:30")

	at, err := eng.Add("once", "ping", Schedule{Kind: "at", At: now.Add(time.Minute).UTC().Format(time.RFC3339)}, true)
	require.NoError(t, err)
	e.agent.err = context.DeadlineExceeded
	out, err := eng.RunNow(context.Background(), at.ID)
	require.NoError(t, err)
	require.Error(t, out.Err)
	for _, jj := range eng.List() {
		if jj.ID == at.ID {
			require.False(t, jj.Enabled, "at jobs disable after firing")
		}
	}
	ev, _ := eng.Add("every", "ping", Schedule{Kind: "every", Every: "10s"}, true)
	_, _ = eng.RunNow(context.Background(), ev.ID)
	for _, jj := range eng.List() {
		if jj.ID == ev.ID {
			require.Equal(t, 1, jj.State.ConsecutiveErrors)
			require.Equal(t, now.Add(30*time.Second).UnixMilli(), *jj.State.NextRunAtMs, "first error backs off 30s")
		}
	}
	require.NoError(t, eng.Remove(ev.ID))
	require.Error(t, eng.Remove(ev.ID))
}
