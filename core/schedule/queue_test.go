package schedule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/eventlog"
)

// reopen builds a second worker on the same data dir and event log, as a
// restarted process would.
func (e *env) reopen(t *testing.T, opts WorkerOptions) *Worker {
	t.Helper()
	opts.DataDir = e.dir
	w, err := NewWorker(e.agent, e.conns, e.log, nil, opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	return w
}

// outcomes maps each task id to its outcome event types.
func outcomes(t *testing.T, log *eventlog.Log) map[string][]string {
	t.Helper()
	all, err := log.Read(eventlog.ReadOptions{})
	require.NoError(t, err)
	out := map[string][]string{}
	for _, en := range all {
		if stateOfOutcome(en.Type) == "" {
			continue
		}
		var p struct {
			TaskID string `json:"taskId"`
		}
		require.NoError(t, json.Unmarshal(en.Payload, &p))
		out[p.TaskID] = append(out[p.TaskID], en.Type)
	}
	return out
}

func webhookToken(t *testing.T, e *env) {
	require.NoError(t, os.WriteFile(e.store.Path(config.WebhookFile), []byte(`{"tokens":[{"id":"a","token":"secret-token","createdAt":1}]}`), 0o600))
}

func TestWebhookTaskRunsOnceAndARepeatedKeyIsADuplicate(t *testing.T) {
	e := newEnv(t)
	webhookToken(t, e)
	e.agent.set(Result{Text: "Rebalanced."}, nil)
	h := NewWebhook(e.store, e.worker)
	hdr := map[string]string{"Authorization": "Bearer secret-token", "Idempotency-Key": "rebalance-2026-11-20"}
	body := `{"type":"task.requested","payload":{"prompt":"rebalance"}}`

	rec := post(h, http.MethodPost, hdr, body)
	require.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())
	var first map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &first))
	require.Equal(t, true, first["queued"])
	id := first["taskId"].(string)
	out, err := e.worker.Wait(context.Background(), id)
	require.NoError(t, err)
	require.True(t, out.Delivered)

	rec = post(h, http.MethodPost, hdr, body)
	require.Equal(t, http.StatusOK, rec.Code)
	var dup map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &dup))
	require.Equal(t, map[string]any{"queued": false, "duplicate": true, "taskId": id, "key": "webhook:rebalance-2026-11-20",
		"state": "done", "seq": first["seq"], "type": "agent.work.requested"}, dup)

	// The key survives a restart: the new process answers it as a duplicate too.
	require.NoError(t, e.worker.Close())
	w2 := e.reopen(t, WorkerOptions{})
	w2.Start(context.Background())
	rec = post(NewWebhook(e.store, w2), http.MethodPost, hdr, body)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	require.Contains(t, rec.Body.String(), `"duplicate":true`)
	require.Equal(t, 1, e.agent.count(), "the duplicate never ran")
	require.Equal(t, map[string][]string{id: {"agent.work.done"}}, outcomes(t, e.log))
}

func TestFullQueueAnswers429(t *testing.T) {
	e := newEnv(t)
	webhookToken(t, e)
	e.agent.block = make(chan struct{})
	e.agent.set(Result{Text: "ok"}, nil)
	w := e.reopen(t, WorkerOptions{MaxQueued: 2})
	h := NewWebhook(e.store, w)
	hdr := map[string]string{"Authorization": "Bearer secret-token"}
	body := `{"type":"task.requested","payload":{"prompt":"x"}}`
	require.Equal(t, http.StatusCreated, post(h, http.MethodPost, hdr, body).Code)
	require.Eventually(t, func() bool { return e.agent.count() == 1 }, 30*time.Second, 5*time.Millisecond, "the first runs")
	require.Equal(t, http.StatusCreated, post(h, http.MethodPost, hdr, body).Code)
	require.Equal(t, http.StatusCreated, post(h, http.MethodPost, hdr, body).Code)
	rec := post(h, http.MethodPost, hdr, body)
	require.Equal(t, http.StatusTooManyRequests, rec.Code)
	require.Equal(t, "5", rec.Header().Get("Retry-After"))
	require.JSONEq(t, `{"error":"work queue is full: 2 tasks are waiting (limit 2); retry later","waiting":2,"limit":2,"retryAfterSeconds":5}`, rec.Body.String())
	close(e.agent.block)
	require.Eventually(t, func() bool { return len(w.Tasks(TaskDone)) == 3 }, 30*time.Second, 5*time.Millisecond)
	require.Len(t, w.Tasks(), 3, "the refused request left no task")
}

// TestRestartRule writes what a killed process leaves (a task persisted as
// running with and without its outcome event, a queued task, a queued task
// whose request event was never written) and checks the next start.
func TestRestartRule(t *testing.T) {
	e := newEnv(t)
	e.agent.set(Result{Text: "ok"}, nil)
	req := func(id string) int64 {
		ev, err := e.log.Append("agent.work.requested", requestPayload{Source: SourceTask, Prompt: id, Queued: true, TaskID: id, Key: "k-" + id})
		require.NoError(t, err)
		return ev.Seq
	}
	ranSeq, doneSeq, queuedSeq := req("ran"), req("finished"), req("waiting")
	doneEv, err := e.log.AppendCaused("agent.work.done", map[string]any{"taskId": "finished", "source": "task"}, doneSeq)
	require.NoError(t, err)
	tasks := []Task{
		{ID: "ran", Key: "k-ran", Source: SourceTask, Prompt: "ran", State: TaskRunning, RequestedSeq: ranSeq, CreatedMs: 1, StartedMs: 2},
		{ID: "finished", Key: "k-finished", Source: SourceTask, Prompt: "finished", State: TaskRunning, RequestedSeq: doneSeq, CreatedMs: 2, StartedMs: 3},
		{ID: "waiting", Key: "k-waiting", Source: SourceTask, Prompt: "waiting", State: TaskQueued, RequestedSeq: queuedSeq, CreatedMs: 3},
		{ID: "unrecorded", Key: "k-unrecorded", Source: SourceManual, Prompt: "unrecorded", State: TaskQueued, CreatedMs: 4},
	}
	var lines []byte
	for _, tk := range tasks {
		b, _ := json.Marshal(tk)
		lines = append(append(lines, b...), '\n')
	}
	lines = append(lines, `{"id":"torn","sta`...) // the write the kill cut
	path := filepath.Join(e.dir, tasksFile)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	require.NoError(t, os.WriteFile(path, lines, 0o600))

	w := e.reopen(t, WorkerOptions{})
	require.Zero(t, e.agent.count(), "nothing runs before Start")
	byID := func() map[string]Task {
		m := map[string]Task{}
		for _, tk := range w.Tasks() {
			m[tk.ID] = tk
		}
		return m
	}
	got := byID()
	require.Equal(t, TaskAbandoned, got["ran"].State, "a task running at the crash is not re-run")
	require.Contains(t, got["ran"].Error, "not re-run automatically")
	require.Equal(t, TaskDone, got["finished"].State, "its recorded outcome is adopted")
	require.Equal(t, doneEv.Seq, got["finished"].OutcomeSeq)
	require.NotZero(t, got["unrecorded"].RequestedSeq, "the missing request event is recorded at start")

	w.Start(context.Background())
	require.Eventually(t, func() bool {
		g := byID()
		return g["waiting"].State == TaskDone && g["unrecorded"].State == TaskDone
	}, 30*time.Second, 5*time.Millisecond)
	require.ElementsMatch(t, []string{"task/default: waiting", "task/default: unrecorded"}, e.agent.calls)
	require.Equal(t, map[string][]string{"ran": {"agent.work.abandoned"}, "finished": {"agent.work.done"},
		"waiting": {"agent.work.done"}, "unrecorded": {"agent.work.done"}}, outcomes(t, e.log), "exactly one outcome each")

	// Compacted: one line per task, the torn fragment kept aside.
	n := 0
	require.NoError(t, w.store.file.Forward(func([]byte) bool { n++; return true }))
	require.GreaterOrEqual(t, n, 4)
	_, err = os.Stat(path + ".torn")
	require.NoError(t, err)
}

func TestShutdownLeavesQueuedTasksForTheNextStartAndAbandonsStuckOnes(t *testing.T) {
	e := newEnv(t)
	e.agent.block = make(chan struct{}) // the agent never answers; only cancellation ends it
	e.agent.set(Result{Text: "ok"}, nil)
	w := e.reopen(t, WorkerOptions{ShutdownGrace: 50 * time.Millisecond})
	w.Start(context.Background())
	var ids []string
	for _, p := range []string{"one", "two", "three"} {
		tk, _, err := w.Submit(Request{Source: SourceTask, Prompt: p}, SubmitOptions{})
		require.NoError(t, err)
		ids = append(ids, tk.ID)
	}
	require.Eventually(t, func() bool { return e.agent.count() == 1 }, 30*time.Second, 5*time.Millisecond)
	require.NoError(t, w.Close())
	_, _, err := w.Submit(Request{Source: SourceTask, Prompt: "late"}, SubmitOptions{})
	require.ErrorContains(t, err, "shutting down")
	require.Equal(t, map[string][]string{ids[0]: {"agent.work.abandoned"}}, outcomes(t, e.log))

	e.agent.set(Result{Text: "ok"}, nil)
	e.agent.mu.Lock()
	e.agent.block = nil
	e.agent.mu.Unlock()
	w2 := e.reopen(t, WorkerOptions{})
	w2.Start(context.Background())
	require.Eventually(t, func() bool { return len(w2.Tasks(TaskDone)) == 2 }, 30*time.Second, 5*time.Millisecond)
	require.Equal(t, map[string][]string{ids[0]: {"agent.work.abandoned"}, ids[1]: {"agent.work.done"}, ids[2]: {"agent.work.done"}}, outcomes(t, e.log))
	require.Equal(t, []string{"task/default: one", "task/default: two", "task/default: three"}, e.agent.calls, "queued tasks resume in order")
}

func TestRetryOverMCP(t *testing.T) {
	e := newEnv(t)
	e.agent.set(Result{}, errors.New("provider down"))
	tc := core.NewToolCenter(nil)
	RegisterWorkTools(tc, e.worker)
	out := e.worker.Run(context.Background(), Request{Source: SourceTask, Prompt: "report"})
	require.ErrorContains(t, out.Err, "provider down")
	failedID := out.TaskID

	listed, err := callTool(t, tc, "workList", `{"state":"failed"}`)
	require.NoError(t, err)
	require.EqualValues(t, 1, listed["total"])

	_, err = callTool(t, tc, "workList", `{"state":"lost"}`)
	require.ErrorContains(t, err, "state must be")
	_, err = callTool(t, tc, "workRetry", `{}`)
	require.ErrorContains(t, err, "taskId is required")
	_, err = callTool(t, tc, "workRetry", `{"taskId":"nope"}`)
	require.ErrorContains(t, err, `no task "nope"`)

	e.agent.set(Result{Text: "Report ready."}, nil)
	res, err := callTool(t, tc, "workRetry", `{"taskId":"`+failedID+`"}`)
	require.NoError(t, err)
	retry := res["task"].(map[string]any)
	require.Equal(t, failedID, retry["retryOf"])
	newID := retry["id"].(string)
	o, err := e.worker.Wait(context.Background(), newID)
	require.NoError(t, err)
	require.True(t, o.Delivered)

	_, err = callTool(t, tc, "workRetry", `{"taskId":"`+failedID+`"}`)
	require.ErrorContains(t, err, "already retried as "+newID)
	_, err = callTool(t, tc, "workRetry", `{"taskId":"`+newID+`"}`)
	require.ErrorContains(t, err, "is done; only failed or abandoned")

	// The retry's request is caused by the failed task's outcome.
	var failedOutcome int64
	for _, tk := range e.worker.Tasks() {
		if tk.ID == failedID {
			failedOutcome = tk.OutcomeSeq
		}
	}
	for _, tk := range e.worker.Tasks() {
		if tk.ID == newID {
			require.Equal(t, failedOutcome, tk.CausedBy)
		}
	}
}

func TestHeartbeatDedupeSurvivesRestart(t *testing.T) {
	e := newEnv(t)
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	w := e.reopen(t, WorkerOptions{Now: clock})
	e.agent.set(notifyUser("Margin call risk on paper-1"), nil)
	require.True(t, w.Run(context.Background(), Request{Source: SourceHeartbeat, Prompt: "check"}).Delivered)
	e.agent.set(notifyUser("AAPL halted"), nil)
	require.True(t, w.Run(context.Background(), Request{Source: SourceHeartbeat, Prompt: "check"}).Delivered)
	require.NoError(t, w.Close())

	now = now.Add(23 * time.Hour)
	w2 := e.reopen(t, WorkerOptions{Now: clock})
	e.agent.set(notifyUser("Margin call risk on paper-1"), nil)
	require.Equal(t, "duplicate", w2.Run(context.Background(), Request{Source: SourceHeartbeat, Prompt: "check"}).Skip, "not the last text, and after a restart")
	now = now.Add(time.Hour + time.Second)
	require.True(t, w2.Run(context.Background(), Request{Source: SourceHeartbeat, Prompt: "check"}).Delivered, "after 24 h it may be said again")

	b, err := os.ReadFile(filepath.Join(e.dir, sentFile))
	require.NoError(t, err)
	require.NotContains(t, string(b), "Margin", "only hashes are stored")
}

func TestStaleTempFilesAreRemovedAtStart(t *testing.T) {
	e := newEnv(t)
	cronDir := filepath.Join(e.dir, "cron")
	require.NoError(t, os.MkdirAll(cronDir, 0o700))
	stale := filepath.Join(cronDir, ".jobs.json.tmp-123456")
	other := filepath.Join(cronDir, "notes.txt")
	require.NoError(t, os.WriteFile(stale, []byte(`{"jobs":[`), 0o600))
	require.NoError(t, os.WriteFile(other, []byte("keep"), 0o600))
	sentTmp := filepath.Join(e.dir, "schedule", ".heartbeat-sent.json.tmp-9")
	require.NoError(t, os.MkdirAll(filepath.Dir(sentTmp), 0o700))
	require.NoError(t, os.WriteFile(sentTmp, nil, 0o600))

	_, err := NewEngine(e.dir, e.worker, e.log, nil, nil)
	require.NoError(t, err)
	e.reopen(t, WorkerOptions{})
	for _, p := range []string{stale, sentTmp} {
		_, err := os.Stat(p)
		require.ErrorIs(t, err, os.ErrNotExist, p)
	}
	_, err = os.Stat(other)
	require.NoError(t, err, "other files are left alone")
}

// fixedSessions is a MarketCalendar with one session a day, 09:30–16:00
// UTC, on weekdays.
type fixedSessions struct{}

func (fixedSessions) Sessions(account string, from time.Time, n int) ([]MarketSession, error) {
	if account != "paper" {
		return nil, errors.New("unknown account")
	}
	var out []MarketSession
	d := time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, time.UTC)
	for len(out) < n {
		if wd := d.Weekday(); wd != time.Saturday && wd != time.Sunday {
			out = append(out, MarketSession{Open: d.Add(9*time.Hour + 30*time.Minute), Close: d.Add(16 * time.Hour)})
		}
		d = d.AddDate(0, 0, 1)
	}
	return out, nil
}

func TestHeartbeatMarketActiveHours(t *testing.T) {
	e := newEnv(t)
	h := NewHeartbeat(e.store, e.worker, e.log, nil)
	h.SetMarketCalendar(fixedSessions{})
	cases := []struct {
		name   string
		market string
		at     time.Time
		ok     bool
		reason string
	}{
		{"open", "paper", time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC), true, ""},
		{"before the open", "paper", time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC), false, "market-closed"},
		{"at the close", "paper", time.Date(2026, 11, 25, 16, 0, 0, 0, time.UTC), false, "market-closed"},
		{"saturday", "paper", time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC), false, "market-closed"},
		{"unknown account", "ghost", time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC), false, "market-unknown"},
	}
	for _, tc := range cases {
		ok, reason := h.active(&config.ActiveHours{Market: tc.market}, tc.at)
		require.Equal(t, tc.ok, ok, tc.name)
		require.Equal(t, tc.reason, reason, tc.name)
	}
	// Through the tick: outside the market the agent is never called.
	require.NoError(t, os.WriteFile(e.store.Path(config.HeartbeatFile), []byte(`{"enabled":true,"every":"30m","prompt":"check","activeHours":{"market":"paper"}}`), 0o600))
	h.now = func() time.Time { return time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC) }
	require.Equal(t, "market-closed", h.Tick(context.Background()).Skip)
	require.Zero(t, e.agent.count())
	e.agent.set(Result{Text: "fine"}, nil)
	h.now = func() time.Time { return time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC) }
	require.Equal(t, "ack", h.Tick(context.Background()).Skip)
	require.Equal(t, 1, e.agent.count())
}

func TestQueueFileIsCompactedWhileRunning(t *testing.T) {
	e := newEnv(t)
	e.agent.set(Result{Text: "ok"}, nil)
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	w := e.reopen(t, WorkerOptions{Now: func() time.Time { return now }})
	w.store.slack = 5
	first := w.Run(context.Background(), Request{Source: SourceTask, Prompt: "old"})
	require.NoError(t, first.Err)
	now = now.Add(8 * 24 * time.Hour) // the first task is past the retention
	for i := range 6 {
		require.NoError(t, w.Run(context.Background(), Request{Source: SourceTask, Prompt: fmt.Sprint("new ", i)}).Err)
	}
	lines := 0
	require.NoError(t, w.store.file.Forward(func([]byte) bool { lines++; return true }))
	require.Less(t, lines, 4*7, "the file was rewritten")
	for _, tk := range w.Tasks() {
		require.NotEqual(t, first.TaskID, tk.ID, "the expired task is forgotten")
	}
	require.Len(t, w.Tasks(TaskDone), 6)
	w.mu.Lock()
	require.Len(t, w.byKey, len(w.tasks))
	w.mu.Unlock()
}
