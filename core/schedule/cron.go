package schedule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/alice-trading/alice/config"
)

// Engine owns the jobs and fires them, one at a time: a job whose time
// comes while another runs waits for it, and a cron run that overlaps a
// still-running one (cronRunNow during a fire) is skipped by the Worker.
type Engine struct {
	path   string
	worker *Worker
	events EventLog
	log    *slog.Logger
	now    func() time.Time
	loc    *time.Location

	mu     sync.Mutex
	jobs   []Job
	wake   chan struct{}
	cancel context.CancelFunc
	wg     sync.WaitGroup
	runCtx context.Context
	cal    MarketCalendar
}

// EngineOption customises an Engine.
type EngineOption func(*Engine)

// WithMarketCalendar gives market schedules their venues' sessions.
func WithMarketCalendar(cal MarketCalendar) EngineOption {
	return func(e *Engine) { e.cal = cal }
}

// WithLocation sets the zone cron expressions are read in (default: the
// host's local time).
func WithLocation(loc *time.Location) EngineOption {
	return func(e *Engine) {
		if loc != nil {
			e.loc = loc
		}
	}
}

// NewEngine loads <data>/cron/jobs.json (removing temp files a crash left
// next to it). A file that does not parse is an
// error (it is never overwritten). Overdue jobs are rescheduled from now
// rather than caught up: a laptop waking from sleep should not fire a
// burst of stale jobs. now may be nil (time.Now).
func NewEngine(dataDir string, worker *Worker, events EventLog, log *slog.Logger, now func() time.Time, opts ...EngineOption) (*Engine, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	e := &Engine{path: filepath.Join(dataDir, "cron", "jobs.json"), worker: worker, events: events, log: log,
		now: now, loc: time.Local, wake: make(chan struct{}, 1), runCtx: context.Background()}
	for _, o := range opts {
		o(e)
	}
	// A crash between an atomic write's temp file and its rename leaves
	// ".jobs.json.tmp-*" behind; this process owns the data dir, so no
	// write is in flight.
	removeStaleTemps(e.path)
	b, err := os.ReadFile(e.path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err == nil {
		var f struct {
			Jobs []Job `json:"jobs"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, fmt.Errorf("%s: %w (fix or remove the file; it was left untouched)", e.path, err)
		}
		e.jobs = f.Jobs
	}
	changed := false
	for i := range e.jobs {
		j := &e.jobs[i]
		if j.Enabled && j.State.NextRunAtMs != nil && *j.State.NextRunAtMs < e.clock().UnixMilli() {
			e.arm(j, e.clock())
			changed = true
		}
	}
	if changed {
		e.mu.Lock()
		err := e.saveLocked()
		e.mu.Unlock()
		if err != nil {
			return nil, err
		}
	}
	return e, nil
}

// clock is now in the engine's location.
func (e *Engine) clock() time.Time { return e.now().In(e.loc) }

// next is a schedule's first fire time after from (zero when none).
func (e *Engine) next(s Schedule, from time.Time) time.Time {
	if s.Kind != KindMarket {
		return s.Next(from)
	}
	t, err := nextMarket(e.cal, s.Market, from)
	if err != nil {
		e.log.Warn("Market schedule has no next run", "account", s.Market.Account, "err", err)
		return time.Time{}
	}
	return t
}

func (e *Engine) arm(j *Job, from time.Time) {
	next := e.next(j.Schedule, from)
	if next.IsZero() || !j.Enabled {
		j.State.NextRunAtMs = nil
		return
	}
	ms := next.UnixMilli()
	j.State.NextRunAtMs = &ms
}

func (e *Engine) saveLocked() error {
	if err := os.MkdirAll(filepath.Dir(e.path), 0o700); err != nil {
		return err
	}
	jobs := e.jobs
	if jobs == nil {
		jobs = []Job{}
	}
	b, err := json.MarshalIndent(map[string]any{"jobs": jobs}, "", "  ")
	if err != nil {
		return err
	}
	return config.WriteFileAtomic(e.path, append(b, '\n'), 0o600)
}

func (e *Engine) poke() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// List returns the jobs.
func (e *Engine) List() []Job {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Job(nil), e.jobs...)
}

// maxJobName bounds a job name.
const maxJobName = 200

func (e *Engine) checkFuture(s Schedule) error {
	if s.Kind == KindAt && s.Next(e.clock()).IsZero() {
		return fmt.Errorf("schedule.at %s is in the past", s.At)
	}
	if s.Kind == KindMarket {
		if _, err := nextMarket(e.cal, s.Market, e.clock()); err != nil {
			return fmt.Errorf("schedule.market: %w", err)
		}
	}
	return nil
}

// Add creates a job that runs in the in-process Alice.
func (e *Engine) Add(name, payload string, s Schedule, enabled bool) (Job, error) {
	return e.AddTargeted(name, payload, s, enabled, nil)
}

// AddTargeted creates a job with an execution target (nil: Alice).
func (e *Engine) AddTargeted(name, payload string, s Schedule, enabled bool, target *Target) (Job, error) {
	if err := target.Validate(); err != nil {
		return Job{}, err
	}
	name = strings.TrimSpace(name)
	if name == "" || strings.TrimSpace(payload) == "" {
		return Job{}, errors.New("name and payload are required")
	}
	if len(name) > maxJobName {
		return Job{}, fmt.Errorf("name is longer than %d characters", maxJobName)
	}
	if err := s.Validate(); err != nil {
		return Job{}, err
	}
	if err := e.checkFuture(s); err != nil {
		return Job{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	j := Job{ID: uuid.NewString()[:8], Name: name, Enabled: enabled, Schedule: s, Payload: payload, Target: target.normalized(), CreatedAt: e.now().UnixMilli()}
	e.arm(&j, e.clock())
	e.jobs = append(e.jobs, j)
	if err := e.saveLocked(); err != nil {
		e.jobs = e.jobs[:len(e.jobs)-1]
		return Job{}, err
	}
	e.poke()
	return j, nil
}

// JobPatch changes some fields of a job.
type JobPatch struct {
	Name     *string   `json:"name"`
	Payload  *string   `json:"payload"`
	Schedule *Schedule `json:"schedule"`
	Enabled  *bool     `json:"enabled"`
	// Target replaces the job's target ({"kind":"alice"} moves it back
	// into the in-process Alice).
	Target *Target `json:"target"`
}

// Update patches a job and re-arms it from now.
func (e *Engine) Update(id string, p JobPatch) (Job, error) {
	if p.Schedule != nil {
		if err := p.Schedule.Validate(); err != nil {
			return Job{}, err
		}
		if err := e.checkFuture(*p.Schedule); err != nil {
			return Job{}, err
		}
	}
	if p.Name != nil && (strings.TrimSpace(*p.Name) == "" || len(*p.Name) > maxJobName) {
		return Job{}, fmt.Errorf("name must be 1..%d characters", maxJobName)
	}
	if p.Payload != nil && strings.TrimSpace(*p.Payload) == "" {
		return Job{}, errors.New("payload must not be empty")
	}
	if err := p.Target.Validate(); err != nil {
		return Job{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	j := e.findLocked(id)
	if j == nil {
		return Job{}, errNoJob(id)
	}
	before := *j
	if p.Name != nil {
		j.Name = strings.TrimSpace(*p.Name)
	}
	if p.Payload != nil {
		j.Payload = *p.Payload
	}
	if p.Schedule != nil {
		j.Schedule = *p.Schedule
	}
	if p.Enabled != nil {
		j.Enabled = *p.Enabled
	}
	if p.Target != nil {
		j.Target = p.Target.normalized()
	}
	e.arm(j, e.clock())
	if err := e.saveLocked(); err != nil {
		*j = before
		return Job{}, err
	}
	e.poke()
	return *j, nil
}

// Remove deletes a job.
func (e *Engine) Remove(id string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, j := range e.jobs {
		if j.ID == id {
			e.jobs = append(e.jobs[:i:i], e.jobs[i+1:]...)
			if err := e.saveLocked(); err != nil {
				return err
			}
			e.poke()
			return nil
		}
	}
	return errNoJob(id)
}

func errNoJob(id string) error {
	return toolError(fmt.Sprintf("no cron job %q (cronList shows the ids)", id))
}

func (e *Engine) findLocked(id string) *Job {
	for i := range e.jobs {
		if e.jobs[i].ID == id {
			return &e.jobs[i]
		}
	}
	return nil
}

// find returns a copy of a job.
func (e *Engine) find(id string) (Job, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if j := e.findLocked(id); j != nil {
		return *j, nil
	}
	return Job{}, errNoJob(id)
}

// RunNow fires a job immediately (synchronously), enabled or not.
func (e *Engine) RunNow(ctx context.Context, id string) (Outcome, error) {
	job, err := e.find(id)
	if err != nil {
		return Outcome{}, err
	}
	return e.fire(ctx, job, ""), nil
}

// RunDetachedKeyed fires the job named by id or name in the background
// with an idempotency key (a Telegram /run: the message), returning the
// job; a key already used is not run again.
func (e *Engine) RunDetachedKeyed(idOrName, key string) (Job, error) {
	job, err := e.find(idOrName)
	if err != nil {
		e.mu.Lock()
		for _, j := range e.jobs {
			if strings.EqualFold(j.Name, idOrName) {
				job, err = j, nil
				break
			}
		}
		e.mu.Unlock()
	}
	if err != nil {
		return Job{}, err
	}
	e.mu.Lock()
	ctx := e.runCtx
	e.mu.Unlock()
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		out := e.fire(ctx, job, key)
		e.log.Info("Cron job run on request", "job", job.Name, "outcome", out.String())
	}()
	return job, nil
}

// runDetached fires a job in the background, tracked so Close waits for
// it. A tool call from inside an agent turn must not wait on another turn.
func (e *Engine) runDetached(id string) error {
	job, err := e.find(id)
	if err != nil {
		return err
	}
	e.mu.Lock()
	ctx := e.runCtx
	e.mu.Unlock()
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		out := e.fire(ctx, job, "")
		e.log.Info("Cron job run on request", "job", job.Name, "outcome", out.String())
	}()
	return nil
}

// fire runs one job and records its state: cron.fire, then the Worker's
// task (agent.work.requested caused by it, started, outcome). A scheduled
// fire's idempotency key is the job id and its scheduled time, so one
// slot never runs twice; a run on request gets a unique key ("") unless
// its trigger has one.
func (e *Engine) fire(ctx context.Context, j Job, key string) Outcome {
	meta := map[string]any{"jobId": j.ID, "jobName": j.Name}
	ev, err := e.events.Append("cron.fire", map[string]any{"jobId": j.ID, "jobName": j.Name, "payload": j.Payload})
	if err != nil {
		e.log.Error("Recording cron.fire failed", "job", j.Name, "err", err)
	}
	out := e.worker.RunKeyed(ctx, Request{Source: SourceCron, Prompt: j.Payload, Metadata: meta, CausedBy: ev.Seq, Target: j.Target}, key)
	e.mu.Lock()
	defer e.mu.Unlock()
	cur := e.findLocked(j.ID)
	if cur == nil {
		return out // removed while running
	}
	if ctx.Err() != nil && out.Err != nil {
		return out // shutting down: the task's own outcome is recorded by the queue
	}
	now := e.clock()
	ms := now.UnixMilli()
	status := StatusOK
	switch {
	case out.Err != nil:
		status = StatusError
		cur.State.ConsecutiveErrors++
	case out.Skip == "busy":
		status = StatusSkipped
	default:
		cur.State.ConsecutiveErrors = 0
	}
	cur.State.LastRunAtMs, cur.State.LastStatus = &ms, &status
	switch {
	case status == StatusSkipped && cur.Schedule.Kind == KindAt:
		retry := now.Add(backoff[0]).UnixMilli() // a one-shot must not be lost to an overlap
		cur.State.NextRunAtMs = &retry
	case cur.Schedule.Kind == KindAt:
		cur.Enabled = false
		cur.State.NextRunAtMs = nil
	case cur.State.ConsecutiveErrors > 0:
		next := now.Add(backoff[min(cur.State.ConsecutiveErrors, len(backoff))-1])
		if n := e.next(cur.Schedule, now); n.After(next) {
			next = n
		}
		nm := next.UnixMilli()
		cur.State.NextRunAtMs = &nm
	default:
		e.arm(cur, now)
	}
	if err := e.saveLocked(); err != nil {
		e.log.Error("Saving cron jobs failed", "err", err)
	}
	return out
}

// due returns jobs whose time has come and the wait until the next one
// (clamped to a minute so clock jumps are noticed).
func (e *Engine) due() ([]Job, time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.now().UnixMilli()
	var due []Job
	wait := time.Minute
	e.rearmMarketLocked()
	for _, j := range e.jobs {
		if !j.Enabled || j.State.NextRunAtMs == nil {
			continue
		}
		if *j.State.NextRunAtMs <= now {
			due = append(due, j)
		} else if d := time.Duration(*j.State.NextRunAtMs-now) * time.Millisecond; d < wait {
			wait = d
		}
	}
	sort.Slice(due, func(a, b int) bool { return *due[a].State.NextRunAtMs < *due[b].State.NextRunAtMs })
	return due, wait
}

// rearmMarketLocked arms enabled market jobs left without a next run
// because their account's calendar was not available yet (accounts start
// after the engine is built, or an account was down); checked on every
// pass of the loop, which wakes at least once a minute.
func (e *Engine) rearmMarketLocked() {
	changed := false
	for i := range e.jobs {
		j := &e.jobs[i]
		if j.Enabled && j.Schedule.Kind == KindMarket && j.State.NextRunAtMs == nil {
			if e.arm(j, e.clock()); j.State.NextRunAtMs != nil {
				changed = true
			}
		}
	}
	if changed {
		if err := e.saveLocked(); err != nil {
			e.log.Error("Saving cron jobs failed", "err", err)
		}
	}
}

// Run fires due jobs until ctx ends.
func (e *Engine) Run(ctx context.Context) {
	e.mu.Lock()
	e.runCtx = ctx
	e.mu.Unlock()
	for ctx.Err() == nil {
		due, wait := e.due()
		for _, j := range due {
			if ctx.Err() != nil {
				return
			}
			key := ""
			if j.State.NextRunAtMs != nil {
				key = fmt.Sprintf("cron:%s:%d", j.ID, *j.State.NextRunAtMs)
			}
			out := e.fire(ctx, j, key)
			e.log.Info("Cron job fired", "job", j.Name, "outcome", out.String())
		}
		if len(due) > 0 {
			continue
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-e.wake:
			t.Stop()
		case <-t.C:
		}
	}
}

// Start runs the scheduler loop in the background until ctx ends or Close.
func (e *Engine) Start(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	e.mu.Lock()
	e.cancel = cancel
	e.mu.Unlock()
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		e.Run(ctx)
	}()
}

// Close stops the loop started by Start and waits for it and for jobs
// started by cronRunNow.
func (e *Engine) Close() error {
	e.mu.Lock()
	cancel := e.cancel
	e.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	e.wg.Wait()
	return nil
}
