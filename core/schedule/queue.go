package schedule

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
)

// The durable work queue. Every trigger (cron, heartbeat, webhook, run
// now, retry) becomes a Task through Submit:
//
//  1. the task is appended to schedule/tasks.jsonl (fsync'd) as queued,
//     agent.work.requested is recorded, the task is appended again with
//     that event's seq — only then is it acknowledged (webhook 201);
//  2. a lane (one per source, so one session never runs two turns at once)
//     takes it when a run slot is free (MaxRunning in all): the task is
//     persisted as running before agent.work.started is recorded and the
//     agent is called;
//  3. its outcome event (agent.work.done / .skip / .error / .abandoned) is
//     recorded, then the final state is persisted.
//
// Restart rule. Queued tasks are resumed (run) at the next start. A task
// that was running when the process died is NOT run again — its turn may
// already have acted (staged an order, notified someone) — but marked
// abandoned with an agent.work.abandoned event, unless its outcome event
// was already recorded, in which case that outcome is adopted. On a clean
// shutdown running tasks get a grace period to finish; whatever is still
// running then is cancelled and recorded as abandoned. Failed and
// abandoned tasks are retried only on request (workRetry, the Activity
// pane): a retry is a new task, caused by the old one's outcome.
//
// Idempotency. Every task has a key; a Submit with a key the queue still
// holds (open, or finished within taskRetention) is answered as a
// duplicate and not run. Webhooks may send one (Idempotency-Key header or
// payload.idempotencyKey); cron fires use job id + scheduled time,
// heartbeats their tick time; anything else gets a unique key.

// ErrQueueFull is returned by Submit when MaxQueued tasks already wait.
var ErrQueueFull = errors.New("work queue is full")

// QueueFullError says how full.
type QueueFullError struct{ Waiting, Limit int }

func (e QueueFullError) Error() string {
	return fmt.Sprintf("work queue is full: %d tasks are waiting (limit %d); retry later", e.Waiting, e.Limit)
}

// Is makes errors.Is(err, ErrQueueFull) true.
func (e QueueFullError) Is(target error) bool { return target == ErrQueueFull }

// Queue defaults.
const (
	DefaultMaxQueued  = 512
	DefaultMaxRunning = 2
	// DefaultShutdownGrace is how long Close lets running tasks finish
	// before cancelling them (App.Shutdown's whole budget is 5 s).
	DefaultShutdownGrace = 3 * time.Second
	maxKeyLen            = 200
)

// SubmitOptions tune one submission.
type SubmitOptions struct {
	// Key is the idempotency key ("" = a unique one).
	Key string
	// SkipIfBusy records the task as skipped ("busy") instead of queueing
	// it when its lane already has work (heartbeat and cron: overlapping
	// fires would otherwise pile up).
	SkipIfBusy bool
	// RetryOf names the failed task this one retries.
	RetryOf string
}

// lane is one FIFO of queued task ids; active while a goroutine drains
// it, running while one of its tasks runs.
type lane struct {
	ids     []string
	active  bool
	running bool
}

// laneOf is a task's lane: its source's session for the in-process
// Alice, else its workspace (and session), so a slow workspace run never
// holds up the heartbeat or another workspace. A one-shot in a new
// workspace gets a lane of its own.
func laneOf(t *Task) string {
	tg := t.Target
	switch {
	case !tg.InWorkspace():
		return string(t.Source)
	case tg.Kind == TargetOneShot && tg.Workspace == "":
		return "workspace:new:" + t.ID
	case tg.Kind == TargetSession:
		return "workspace:" + tg.Workspace + ":" + tg.Session
	default:
		return "workspace:" + tg.Workspace
	}
}

// ValidKey checks a caller-supplied idempotency key.
func ValidKey(k string) error {
	if len(k) > maxKeyLen {
		return fmt.Errorf("idempotency key is longer than %d characters", maxKeyLen)
	}
	for _, r := range k {
		if r < 0x20 || r == 0x7f {
			return errors.New("idempotency key has a control character")
		}
	}
	return nil
}

// Submit persists a task and queues it. dup is true (and nothing is
// queued) when the key is already known; the returned task is then the
// earlier one.
func (w *Worker) Submit(req Request, opt SubmitOptions) (task Task, dup bool, err error) {
	req.Prompt = strings.TrimSpace(req.Prompt)
	if !req.Source.Valid() {
		return Task{}, false, fmt.Errorf("unknown work source %q", req.Source)
	}
	if err := ValidKey(opt.Key); err != nil {
		return Task{}, false, err
	}
	if err := req.Target.Validate(); err != nil {
		return Task{}, false, err
	}
	req.Target = req.Target.normalized()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return Task{}, false, errors.New("alice is shutting down; the task was not accepted")
	}
	if opt.Key != "" {
		if id, ok := w.byKey[opt.Key]; ok {
			return *w.tasks[id], true, nil
		}
	}
	id := uuid.NewString()
	key := opt.Key
	if key == "" {
		key = string(req.Source) + ":" + id
	}
	t := &Task{ID: id, Key: key, Source: req.Source, Prompt: req.Prompt, Metadata: req.Metadata, Target: req.Target, State: TaskQueued,
		CausedBy: req.CausedBy, CreatedMs: w.now().UnixMilli(), RetryOf: opt.RetryOf}
	ln := w.lane(laneOf(t))
	busy := ln.running || len(ln.ids) > 0
	if !(opt.SkipIfBusy && busy) && w.queued >= w.opts.MaxQueued {
		return Task{}, false, QueueFullError{Waiting: w.queued, Limit: w.opts.MaxQueued}
	}
	if err := w.store.put(t); err != nil {
		return Task{}, false, fmt.Errorf("persisting the task: %w", err)
	}
	w.tasks[id], w.byKey[key] = t, id
	ev, err := w.events.AppendCaused("agent.work.requested", requestPayload{Source: t.Source, Prompt: t.Prompt,
		Metadata: t.Metadata, Queued: true, TaskID: id, Key: key, RetryOf: opt.RetryOf, Target: t.Target}, req.CausedBy)
	if err != nil {
		w.log.Error("Recording agent.work.requested failed", "task", id, "err", err)
	} else {
		t.RequestedSeq = ev.Seq
		if err := w.store.put(t); err != nil {
			w.log.Error("Persisting the task's request seq failed", "task", id, "err", err)
		}
	}
	if opt.SkipIfBusy && busy {
		w.finishLocked(t, TaskSkipped, map[string]any{"reason": "busy"}, nil)
		return *t, false, nil
	}
	w.enqueueLocked(t)
	return *t, false, nil
}

func (w *Worker) lane(name string) *lane {
	ln := w.lanes[name]
	if ln == nil {
		ln = &lane{}
		w.lanes[name] = ln
	}
	return ln
}

// enqueueLocked appends a queued task to its lane and starts the lane's
// goroutine if it is idle.
func (w *Worker) enqueueLocked(t *Task) {
	name := laneOf(t)
	ln := w.lane(name)
	ln.ids = append(ln.ids, t.ID)
	w.queued++
	if !ln.active && w.dispatchCtx.Err() == nil {
		ln.active = true
		w.wg.Add(1)
		go w.drain(name)
	}
}

// drain runs a lane's tasks one after another until it is empty or the
// worker closes (queued tasks then stay queued on disk for the next start).
func (w *Worker) drain(name string) {
	defer w.wg.Done()
	for {
		select {
		case w.slots <- struct{}{}:
		case <-w.dispatchCtx.Done():
			w.mu.Lock()
			w.lanes[name].active = false
			w.mu.Unlock()
			return
		}
		w.mu.Lock()
		ln := w.lanes[name]
		if len(ln.ids) == 0 || w.dispatchCtx.Err() != nil {
			ln.active = false
			if len(ln.ids) == 0 && !ln.running {
				delete(w.lanes, name) // lanes of one-off workspaces must not pile up
			}
			w.mu.Unlock()
			<-w.slots
			return
		}
		t := w.tasks[ln.ids[0]]
		ln.ids = ln.ids[1:]
		ln.running = true
		w.queued--
		t.State, t.StartedMs = TaskRunning, w.now().UnixMilli()
		perr := w.store.put(t)
		w.mu.Unlock()
		if perr != nil {
			// Without a durable "running" mark a crash could run it twice.
			w.finish(name, t, TaskFailed, map[string]any{"error": "persisting the running state: " + perr.Error()}, perr)
			w.deliverOutcome(t.ID, Outcome{Err: perr})
		} else {
			w.runTask(name, t)
		}
		<-w.slots
	}
}

// runTask records agent.work.started, runs the task and records its outcome.
func (w *Worker) runTask(name string, t *Task) {
	w.mu.Lock()
	snap := *t
	w.mu.Unlock()
	if _, err := w.events.AppendCaused("agent.work.started", map[string]any{"source": snap.Source, "taskId": snap.ID, "key": snap.Key, "metadata": snap.Metadata}, snap.RequestedSeq); err != nil {
		w.log.Error("Recording agent.work.started failed", "task", snap.ID, "err", err)
	}
	state, payload, out := w.execute(w.runCtx, snap.request())
	if out.Err != nil && w.runCtx.Err() != nil {
		state = TaskAbandoned
		payload = map[string]any{"reason": "alice shut down while the task ran; it is not re-run automatically (retry it with workRetry or from the Activity pane)", "error": out.Err.Error()}
	}
	w.finish(name, t, state, payload, out.Err)
	w.log.Info("Agent work finished", "task", snap.ID, "source", snap.Source, "outcome", out.String())
	w.deliverOutcome(snap.ID, out)
}

// finish records the outcome event, then persists the final state, and
// frees the task's lane in the same critical section (so whoever learns
// of the outcome never finds the lane still busy).
func (w *Worker) finish(laneName string, t *Task, state TaskState, payload map[string]any, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.finishLocked(t, state, payload, err)
	w.lanes[laneName].running = false
}

func (w *Worker) finishLocked(t *Task, state TaskState, payload map[string]any, err error) {
	if payload == nil {
		payload = map[string]any{}
	}
	payload["source"], payload["taskId"], payload["key"] = t.Source, t.ID, t.Key
	if t.Metadata != nil {
		payload["metadata"] = t.Metadata
	}
	if _, ok := payload["durationMs"]; !ok && t.StartedMs > 0 {
		payload["durationMs"] = w.now().UnixMilli() - t.StartedMs
	}
	ev, aerr := w.events.AppendCaused(state.outcomeEvent(), payload, t.RequestedSeq)
	if aerr != nil {
		w.log.Error("Recording the task outcome failed", "task", t.ID, "state", state, "err", aerr)
	}
	t.State, t.OutcomeSeq, t.EndedMs = state, ev.Seq, w.now().UnixMilli()
	if err != nil {
		t.Error = err.Error()
	}
	t.Reply, _ = payload["reply"].(string)
	t.Channel, _ = payload["channel"].(string)
	t.Delivered, _ = payload["delivered"].(bool)
	if r, ok := payload["reason"].(string); ok && state == TaskSkipped {
		t.Skip = r
	}
	if state == TaskAbandoned && t.Error == "" {
		t.Error, _ = payload["reason"].(string)
	}
	if perr := w.store.put(t); perr != nil {
		w.log.Error("Persisting the task outcome failed", "task", t.ID, "err", perr)
	}
	w.maybeCompactLocked()
}

// maybeCompactLocked rewrites the file (and forgets expired tasks) once it
// holds far more lines than tasks, so a long-running alice's queue file and
// memory stay bounded between restarts.
func (w *Worker) maybeCompactLocked() {
	if w.store.lines < 2*len(w.tasks)+w.store.slack {
		return
	}
	if err := w.store.compact(w.tasks, w.now()); err != nil {
		w.log.Warn("Compacting the work queue file failed", "err", err)
		return
	}
	clear(w.byKey)
	for id, t := range w.tasks {
		w.byKey[t.Key] = id
	}
}

// Wait blocks until the task has an outcome or ctx ends.
func (w *Worker) Wait(ctx context.Context, id string) (Outcome, error) {
	w.mu.Lock()
	t, ok := w.tasks[id]
	if !ok {
		w.mu.Unlock()
		return Outcome{}, fmt.Errorf("no task %q", id)
	}
	if t.State.Final() {
		out := outcomeOf(t)
		w.mu.Unlock()
		return out, nil
	}
	ch := make(chan Outcome, 1)
	w.waiters[id] = append(w.waiters[id], ch)
	w.mu.Unlock()
	select {
	case out := <-ch:
		return out, nil
	case <-ctx.Done():
		return Outcome{}, ctx.Err()
	}
}

func (w *Worker) deliverOutcome(id string, out Outcome) {
	w.mu.Lock()
	chs := w.waiters[id]
	delete(w.waiters, id)
	w.mu.Unlock()
	for _, ch := range chs {
		ch <- out
	}
}

// outcomeOf rebuilds an Outcome from a finished task (for late waiters).
func outcomeOf(t *Task) Outcome {
	switch t.State {
	case TaskSkipped:
		return Outcome{Skip: t.Skip, TaskID: t.ID}
	case TaskFailed, TaskAbandoned:
		return Outcome{Err: errors.New(t.Error), TaskID: t.ID}
	}
	out := Outcome{Delivered: t.Delivered, Channel: t.Channel, Text: t.Reply, TaskID: t.ID}
	if t.Error != "" {
		out.Err = errors.New(t.Error)
	}
	return out
}

// Tasks returns the kept tasks, newest first, optionally only those in
// one of states.
func (w *Worker) Tasks(states ...TaskState) []Task {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]Task, 0, len(w.tasks))
	for _, t := range w.tasks {
		if len(states) == 0 || containsState(states, t.State) {
			out = append(out, *t)
		}
	}
	sort.Slice(out, func(a, b int) bool { return taskBefore(&out[b], &out[a]) })
	return out
}

func containsState(states []TaskState, s TaskState) bool {
	for _, x := range states {
		if x == s {
			return true
		}
	}
	return false
}

// Retry queues a failed or abandoned task again as a new task (caused by
// the old one's outcome); a task is retried at most once — retry the
// retry if that fails too.
func (w *Worker) Retry(id string) (Task, error) {
	w.mu.Lock()
	t, ok := w.tasks[id]
	if !ok {
		w.mu.Unlock()
		return Task{}, toolError(fmt.Sprintf("no task %q (workList shows the ids)", id))
	}
	if !t.State.Retryable() {
		st := t.State
		w.mu.Unlock()
		return Task{}, toolError(fmt.Sprintf("task %s is %s; only failed or abandoned tasks can be retried", id, st))
	}
	if t.RetriedBy != "" {
		by := t.RetriedBy
		w.mu.Unlock()
		return Task{}, toolError(fmt.Sprintf("task %s was already retried as %s", id, by))
	}
	req := Request{Source: t.Source, Prompt: t.Prompt, Metadata: t.Metadata, CausedBy: t.OutcomeSeq, Target: t.Target}
	key := t.Key + "#retry"
	w.mu.Unlock()
	nt, dup, err := w.Submit(req, SubmitOptions{Key: key, RetryOf: id})
	if err != nil {
		return Task{}, err
	}
	if dup {
		return Task{}, toolError(fmt.Sprintf("task %s was already retried as %s", id, nt.ID))
	}
	w.mu.Lock()
	t.RetriedBy = nt.ID
	if err := w.store.put(t); err != nil {
		w.log.Error("Persisting retriedBy failed", "task", id, "err", err)
	}
	w.mu.Unlock()
	return nt, nil
}

// taskBefore orders tasks by submission: creation time, then request
// event (several tasks share a millisecond).
func taskBefore(a, b *Task) bool {
	if a.CreatedMs != b.CreatedMs {
		return a.CreatedMs < b.CreatedMs
	}
	return a.RequestedSeq < b.RequestedSeq
}
