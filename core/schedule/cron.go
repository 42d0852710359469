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
	"github.com/robfig/cron/v3"

	"alice/config"
)

// Schedule says when a job fires: once (at), on an interval (every) or on
// a 5-field cron expression in the host's local time.
type Schedule struct {
	Kind  string `json:"kind"` // at | every | cron
	At    string `json:"at,omitempty"`
	Every string `json:"every,omitempty"`
	Cron  string `json:"cron,omitempty"`
}

// JobState is a job's bookkeeping.
type JobState struct {
	NextRunAtMs       *int64  `json:"nextRunAtMs"`
	LastRunAtMs       *int64  `json:"lastRunAtMs"`
	LastStatus        *string `json:"lastStatus"`
	ConsecutiveErrors int     `json:"consecutiveErrors"`
}

// Job is one entry of cron/jobs.json.
type Job struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Enabled   bool     `json:"enabled"`
	Schedule  Schedule `json:"schedule"`
	Payload   string   `json:"payload"`
	State     JobState `json:"state"`
	CreatedAt int64    `json:"createdAt"`
}

var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// backoff is the delay after consecutive errors.
var backoff = []time.Duration{30 * time.Second, time.Minute, 5 * time.Minute, 15 * time.Minute, time.Hour}

// Validate checks a schedule and returns a clear error.
func (s Schedule) Validate() error {
	switch s.Kind {
	case "at":
		if _, err := time.Parse(time.RFC3339, s.At); err != nil {
			return fmt.Errorf("schedule.at must be an ISO timestamp like 2026-12-01T09:30:00Z, got %q", s.At)
		}
	case "every":
		if _, err := config.ParseEvery(s.Every); err != nil {
			return fmt.Errorf("schedule.every: %w", err)
		}
	case "cron":
		if _, err := cronParser.Parse(s.Cron); err != nil {
			return fmt.Errorf("schedule.cron %q: %v (want 5 fields: min hour dom month dow)", s.Cron, err)
		}
	default:
		return fmt.Errorf("schedule.kind must be at, every or cron, got %q", s.Kind)
	}
	return nil
}

// Next is the first fire time strictly after from (zero when none).
func (s Schedule) Next(from time.Time) time.Time {
	switch s.Kind {
	case "at":
		t, _ := time.Parse(time.RFC3339, s.At)
		if t.After(from) {
			return t
		}
	case "every":
		d, err := config.ParseEvery(s.Every)
		if err == nil {
			return from.Add(d)
		}
	case "cron":
		if sch, err := cronParser.Parse(s.Cron); err == nil {
			return sch.Next(from)
		}
	}
	return time.Time{}
}

// Engine owns the jobs and fires them.
type Engine struct {
	path   string
	worker *Worker
	events EventLog
	log    *slog.Logger
	now    func() time.Time

	mu    sync.Mutex
	jobs  []Job
	wake  chan struct{}
	fired chan string
}

// NewEngine loads <data>/cron/jobs.json. Overdue jobs are rescheduled from
// now rather than caught up: a laptop waking from sleep should not fire a
// burst of stale jobs.
func NewEngine(dataDir string, worker *Worker, events EventLog, log *slog.Logger, now func() time.Time) (*Engine, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	e := &Engine{path: filepath.Join(dataDir, "cron", "jobs.json"), worker: worker, events: events, log: log, now: now, wake: make(chan struct{}, 1)}
	b, err := os.ReadFile(e.path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err == nil {
		var f struct {
			Jobs []Job `json:"jobs"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, fmt.Errorf("%s: %w", e.path, err)
		}
		e.jobs = f.Jobs
	}
	for i := range e.jobs {
		j := &e.jobs[i]
		if j.State.NextRunAtMs != nil && *j.State.NextRunAtMs < now().UnixMilli() {
			e.arm(j, now())
		}
	}
	return e, nil
}

func (e *Engine) arm(j *Job, from time.Time) {
	next := j.Schedule.Next(from)
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
	b, _ := json.MarshalIndent(map[string]any{"jobs": e.jobs}, "", "  ")
	return config.WriteFileAtomic(e.path, b, 0o600)
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

// Add creates a job.
func (e *Engine) Add(name, payload string, s Schedule, enabled bool) (Job, error) {
	if strings.TrimSpace(name) == "" || strings.TrimSpace(payload) == "" {
		return Job{}, errors.New("name and payload are required")
	}
	if err := s.Validate(); err != nil {
		return Job{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	j := Job{ID: uuid.NewString()[:8], Name: name, Enabled: enabled, Schedule: s, Payload: payload, CreatedAt: e.now().UnixMilli()}
	e.arm(&j, e.now())
	e.jobs = append(e.jobs, j)
	if err := e.saveLocked(); err != nil {
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
}

// Update patches a job.
func (e *Engine) Update(id string, p JobPatch) (Job, error) {
	if p.Schedule != nil {
		if err := p.Schedule.Validate(); err != nil {
			return Job{}, err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	j := e.findLocked(id)
	if j == nil {
		return Job{}, fmt.Errorf("no cron job %q", id)
	}
	if p.Name != nil {
		j.Name = *p.Name
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
	e.arm(j, e.now())
	if err := e.saveLocked(); err != nil {
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
			e.jobs = append(e.jobs[:i], e.jobs[i+1:]...)
			return e.saveLocked()
		}
	}
	return fmt.Errorf("no cron job %q", id)
}

func (e *Engine) findLocked(id string) *Job {
	for i := range e.jobs {
		if e.jobs[i].ID == id {
			return &e.jobs[i]
		}
	}
	return nil
}

// RunNow fires a job immediately (synchronously).
func (e *Engine) RunNow(ctx context.Context, id string) (Outcome, error) {
	e.mu.Lock()
	j := e.findLocked(id)
	if j == nil {
		e.mu.Unlock()
		return Outcome{}, fmt.Errorf("no cron job %q", id)
	}
	job := *j
	e.mu.Unlock()
	return e.fire(ctx, job), nil
}

// fire runs one job and records its state.
func (e *Engine) fire(ctx context.Context, j Job) Outcome {
	ev, _ := e.events.Append("cron.fire", map[string]any{"jobId": j.ID, "jobName": j.Name, "payload": j.Payload})
	out := e.worker.Run(ctx, Request{Source: SourceCron, Prompt: j.Payload, Metadata: map[string]any{"jobId": j.ID, "jobName": j.Name}, CausedBy: ev.Seq})
	e.mu.Lock()
	defer e.mu.Unlock()
	cur := e.findLocked(j.ID)
	if cur == nil {
		return out
	}
	now := e.now()
	ms := now.UnixMilli()
	status := "ok"
	if out.Err != nil {
		status = "error"
		cur.State.ConsecutiveErrors++
	} else {
		cur.State.ConsecutiveErrors = 0
	}
	cur.State.LastRunAtMs, cur.State.LastStatus = &ms, &status
	if cur.Schedule.Kind == "at" {
		cur.Enabled = false
		cur.State.NextRunAtMs = nil
	} else if cur.State.ConsecutiveErrors > 0 {
		d := backoff[min(cur.State.ConsecutiveErrors, len(backoff))-1]
		next := now.Add(d)
		if n := cur.Schedule.Next(now); n.After(next) {
			next = n
		}
		nm := next.UnixMilli()
		cur.State.NextRunAtMs = &nm
	} else {
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

// Run fires due jobs until ctx ends.
func (e *Engine) Run(ctx context.Context) {
	for {
		due, wait := e.due()
		for _, j := range due {
			out := e.fire(ctx, j)
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
