// Package schedule decides when an AI call fires without a person asking:
// cron jobs, the heartbeat and webhook ingest. Each becomes an
// agent.work.requested event; the Worker runs it through the agent on the
// source's own session (heartbeat, cron/default, task/default), applies
// the source's output gate and routes the result through the connectors.
// Producers that need the outcome (cron state, RunNow) call Worker.Run;
// producers that only record the event mark it queued and the Worker's
// listener (Start) runs it. Every step is recorded in the event log.
package schedule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/alice-trading/alice/core/eventlog"
)

// ToolCall is one tool the agent called during a run.
type ToolCall struct {
	Name  string
	Input json.RawMessage
}

// Result is what the agent produced.
type Result struct {
	Text      string
	ToolCalls []ToolCall
}

// Agent runs one prompt on a session (core/agent adapted by app).
type Agent interface {
	AskWithSession(ctx context.Context, prompt, sessionID, preamble string) (Result, error)
}

// Notifier delivers to the user's last-used channel (connector.Center).
type Notifier interface {
	Notify(ctx context.Context, text, urgency, source string) (string, error)
}

// EventLog is the subset of eventlog.Log the scheduler uses.
type EventLog interface {
	Append(typ string, payload any) (eventlog.Entry, error)
	AppendCaused(typ string, payload any, causedBy int64) (eventlog.Entry, error)
	// Read finds outcome events at recovery (see Worker.recover).
	Read(opts eventlog.ReadOptions) ([]eventlog.Entry, error)
}

// Source identifies what requested work.
type Source string

const (
	SourceHeartbeat Source = "heartbeat"
	SourceCron      Source = "cron"
	SourceTask      Source = "task"
	SourceManual    Source = "manual"
)

// Valid reports whether s is a known source.
func (s Source) Valid() bool {
	switch s {
	case SourceHeartbeat, SourceCron, SourceTask, SourceManual:
		return true
	}
	return false
}

// Request is one unit of agent work.
type Request struct {
	Source   Source
	Prompt   string
	Metadata map[string]any
	// CausedBy is the event that led to this request (cron.fire, …).
	CausedBy int64
	// Target is where it runs (nil: the in-process Alice).
	Target *Target
}

// requestPayload is agent.work.requested's payload. Every request is a
// queued task now; Queued stays for readers of older logs.
type requestPayload struct {
	Source   Source         `json:"source"`
	Prompt   string         `json:"prompt"`
	Metadata map[string]any `json:"metadata,omitempty"`
	Queued   bool           `json:"queued,omitempty"`
	TaskID   string         `json:"taskId,omitempty"`
	Key      string         `json:"key,omitempty"`
	RetryOf  string         `json:"retryOf,omitempty"`
	Target   *Target        `json:"target,omitempty"`
}

// WorkerOptions configure the queue.
type WorkerOptions struct {
	// DataDir holds schedule/tasks.jsonl and the heartbeat's sent record.
	DataDir string
	// MaxQueued bounds waiting tasks (DefaultMaxQueued when 0); Submit
	// answers QueueFullError beyond it.
	MaxQueued int
	// MaxRunning bounds tasks running at once (DefaultMaxRunning when 0).
	MaxRunning int
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// ShutdownGrace is how long Close lets running tasks finish before
	// cancelling them (DefaultShutdownGrace when 0).
	ShutdownGrace time.Duration
	// Runner runs tasks whose target is a workspace (nil: such tasks fail
	// with a clear error).
	Runner Runner
}

// Worker is the durable work queue and the agent runs it makes (see
// queue.go for the life of a task and the restart rule). Each source has
// its own lane, so a session never runs two turns at once; lanes share
// MaxRunning run slots.
type Worker struct {
	agent  Agent
	notify Notifier
	events EventLog
	log    *slog.Logger
	now    func() time.Time
	opts   WorkerOptions
	store  *taskStore
	sent   *sentStore

	mu        sync.Mutex
	tasks     map[string]*Task
	byKey     map[string]string
	lanes     map[string]*lane
	queued    int
	waiters   map[string][]chan Outcome
	resumable []*Task
	closed    bool

	slots        chan struct{}
	dispatchCtx  context.Context // ends when Close stops taking tasks
	stopDispatch context.CancelFunc
	runCtx       context.Context // ends when Close gives up on running tasks
	cancelRuns   context.CancelFunc
	startOnce    sync.Once
	wg           sync.WaitGroup
}

// NewWorker opens the queue under opts.DataDir and applies the restart
// rule to what the last process left: running tasks are settled (their
// recorded outcome adopted, else abandoned), queued ones wait for Start.
func NewWorker(agent Agent, notify Notifier, events EventLog, log *slog.Logger, opts WorkerOptions) (*Worker, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.MaxQueued <= 0 {
		opts.MaxQueued = DefaultMaxQueued
	}
	if opts.MaxRunning <= 0 {
		opts.MaxRunning = DefaultMaxRunning
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.ShutdownGrace <= 0 {
		opts.ShutdownGrace = DefaultShutdownGrace
	}
	if opts.DataDir == "" {
		return nil, errors.New("schedule: WorkerOptions.DataDir is required")
	}
	store, tasks, err := openTaskStore(opts.DataDir)
	if err != nil {
		return nil, err
	}
	sent, err := openSentStore(opts.DataDir)
	if err != nil {
		return nil, err
	}
	w := &Worker{agent: agent, notify: notify, events: events, log: log, now: opts.Now, opts: opts, store: store, sent: sent,
		tasks: tasks, byKey: map[string]string{}, lanes: map[string]*lane{}, waiters: map[string][]chan Outcome{},
		slots: make(chan struct{}, opts.MaxRunning)}
	w.dispatchCtx, w.stopDispatch = context.WithCancel(context.Background())
	w.runCtx, w.cancelRuns = context.WithCancel(context.Background())
	if err := w.recover(); err != nil {
		return nil, err
	}
	return w, nil
}

// Start resumes the tasks that were queued when the last process stopped,
// oldest first. ctx ending closes the worker as Close does.
func (w *Worker) Start(ctx context.Context) {
	w.startOnce.Do(func() {
		w.mu.Lock()
		for _, t := range w.resumable {
			if t.State == TaskQueued {
				w.enqueueLocked(t)
			}
		}
		n := len(w.resumable)
		w.resumable = nil
		w.mu.Unlock()
		if n > 0 {
			w.log.Info("Resumed queued agent work", "tasks", n)
		}
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			select {
			case <-ctx.Done():
				w.stopDispatch()
			case <-w.dispatchCtx.Done():
			}
		}()
	})
}

// Close stops taking queued tasks (they stay queued on disk), gives
// running ones ShutdownGrace to finish, cancels the rest (recorded as
// abandoned) and waits for every goroutine.
func (w *Worker) Close() error {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.stopDispatch()
	done := make(chan struct{})
	go func() { w.wg.Wait(); close(done) }()
	t := time.NewTimer(w.opts.ShutdownGrace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		w.cancelRuns()
		<-done
	}
	w.cancelRuns()
	return nil
}

// sessionFor picks the session and history preamble for a source; each
// source keeps its own conversation so a cron job never sees the chat.
func sessionFor(req Request) (session, preamble string) {
	switch req.Source {
	case SourceHeartbeat:
		return "heartbeat", "You are operating in the heartbeat monitoring context (session: heartbeat). The following is the recent heartbeat conversation history."
	case SourceCron:
		job := ""
		if name, ok := req.Metadata["jobName"].(string); ok && name != "" {
			job = ", job: " + name
		}
		return "cron/default", "You are operating in the cron job context (session: cron/default" + job + "). This is an automated cron job execution."
	default:
		return "task/default", "You are handling an externally-triggered task (session: task/default). Follow the prompt and reply with what the caller needs."
	}
}

// Outcome is what a run ended with, for callers and tests.
type Outcome struct {
	Delivered bool
	Skip      string // ack | empty | duplicate | busy | outside-active-hours | already-submitted
	Channel   string
	Text      string
	Err       error
	TaskID    string
}

// Run submits a request and waits for its outcome. Heartbeat and cron
// requests are skipped ("busy") while their lane has work.
func (w *Worker) Run(ctx context.Context, req Request) Outcome {
	return w.RunKeyed(ctx, req, "")
}

// RunKeyed is Run with an idempotency key: a key already submitted is
// answered Skip "already-submitted" and not run again.
func (w *Worker) RunKeyed(ctx context.Context, req Request, key string) Outcome {
	t, dup, err := w.Submit(req, SubmitOptions{Key: key, SkipIfBusy: req.Source == SourceHeartbeat || req.Source == SourceCron})
	if err != nil {
		return Outcome{Err: err}
	}
	if dup {
		return Outcome{Skip: "already-submitted", TaskID: t.ID}
	}
	out, err := w.Wait(ctx, t.ID)
	if err != nil {
		return Outcome{Err: err, TaskID: t.ID}
	}
	out.TaskID = t.ID
	return out
}

// execute runs one request through the agent, the output gate and the
// connectors, and says which outcome to record.
func (w *Worker) execute(ctx context.Context, req Request) (TaskState, map[string]any, Outcome) {
	if req.Target.InWorkspace() {
		return w.executeInWorkspace(ctx, req)
	}
	start := w.now()
	session, preamble := sessionFor(req)
	res, err := w.agent.AskWithSession(ctx, req.Prompt, session, preamble)
	if err != nil {
		return TaskFailed, map[string]any{"error": err.Error(), "durationMs": w.now().Sub(start).Milliseconds()}, Outcome{Err: err}
	}
	text, urgency, skip := w.gate(req.Source, res)
	if skip != "" {
		return TaskSkipped, map[string]any{"reason": skip}, Outcome{Skip: skip, Text: res.Text}
	}
	ch, err := w.notify.Notify(ctx, text, urgency, string(req.Source))
	delivered := err == nil
	if delivered {
		w.delivered(req.Source, text)
	} else {
		w.log.Warn("Notification not delivered", "source", req.Source, "err", err)
	}
	return TaskDone, map[string]any{"reply": text, "durationMs": w.now().Sub(start).Milliseconds(), "delivered": delivered, "channel": ch},
		Outcome{Delivered: delivered, Channel: ch, Text: text, Err: err}
}

// notifyCall is the last notify_user call's input, if any.
func notifyCall(res Result) (text, urgency string, ok bool) {
	var call *ToolCall
	for i := range res.ToolCalls {
		if res.ToolCalls[i].Name == "notify_user" {
			call = &res.ToolCalls[i]
		}
	}
	if call == nil {
		return "", "", false
	}
	var in struct {
		Text    string `json:"text"`
		Urgency string `json:"urgency"`
	}
	_ = json.Unmarshal(call.Input, &in) // malformed input reads as empty text
	if in.Urgency == "" {
		in.Urgency = "info"
	}
	return strings.TrimSpace(in.Text), in.Urgency, true
}

// gate decides what reaches the user. The heartbeat speaks only through
// notify_user (no call = "ack"), never repeats a text it delivered within
// 24 h (sentStore: on disk, so across restarts too), and
// never sends empty text. Cron and tasks deliver the agent's reply, or,
// when it ended silently, what it passed to notify_user.
func (w *Worker) gate(src Source, res Result) (text, urgency, skip string) {
	nText, nUrgency, called := notifyCall(res)
	if src != SourceHeartbeat {
		if reply := strings.TrimSpace(res.Text); reply != "" {
			return reply, "info", ""
		}
		if called && nText != "" {
			return nText, nUrgency, ""
		}
		return "", "", "empty"
	}
	if !called {
		return "", "", "ack"
	}
	in := struct{ Text, Urgency string }{nText, nUrgency}
	if in.Text == "" {
		return "", "", "empty"
	}
	if w.sent.seen(in.Text, w.now()) {
		return "", "", "duplicate"
	}
	return in.Text, in.Urgency, ""
}

// delivered remembers a heartbeat text the user received, on disk, for
// the duplicate gate; a failed delivery is not remembered, so it is
// retried.
func (w *Worker) delivered(src Source, text string) {
	if src != SourceHeartbeat {
		return
	}
	if err := w.sent.record(text, w.now()); err != nil {
		w.log.Warn("Recording the heartbeat's sent text failed; it may be repeated after a restart", "err", err)
	}
}

// String helps logs.
func (o Outcome) String() string {
	switch {
	case o.Err != nil:
		return "error: " + o.Err.Error()
	case o.Skip != "":
		return "skipped: " + o.Skip
	default:
		return fmt.Sprintf("delivered to %s", o.Channel)
	}
}

// executeInWorkspace hands the task to the Runner and delivers its
// summary like a cron reply.
func (w *Worker) executeInWorkspace(ctx context.Context, req Request) (TaskState, map[string]any, Outcome) {
	start := w.now()
	if w.opts.Runner == nil {
		err := errors.New("this alice has no workspace runner; the task's target needs workspaces")
		return TaskFailed, map[string]any{"error": err.Error(), "target": req.Target}, Outcome{Err: err}
	}
	res, err := w.opts.Runner.RunTarget(ctx, *req.Target, req.Prompt, req.Metadata)
	payload := map[string]any{"target": req.Target, "durationMs": w.now().Sub(start).Milliseconds()}
	for k, v := range res.Detail {
		payload[k] = v
	}
	if err != nil {
		payload["error"] = err.Error()
		return TaskFailed, payload, Outcome{Err: err}
	}
	text := strings.TrimSpace(res.Summary)
	if text == "" {
		return TaskSkipped, map[string]any{"reason": "empty", "target": req.Target}, Outcome{Skip: "empty"}
	}
	ch, nerr := w.notify.Notify(ctx, text, "info", string(req.Source))
	payload["reply"], payload["delivered"], payload["channel"] = text, nerr == nil, ch
	if nerr != nil {
		w.log.Warn("Notification not delivered", "source", req.Source, "err", nerr)
	}
	return TaskDone, payload, Outcome{Delivered: nerr == nil, Channel: ch, Text: text, Err: nerr}
}
