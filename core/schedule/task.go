package schedule

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/alice-trading/alice/core/jsonl"
)

// TaskState is where a task is in its life.
type TaskState string

// Task states. Queued and running are open; the rest are outcomes, each
// recorded by exactly one outcome event (agent.work.done, .skip, .error,
// .abandoned).
const (
	TaskQueued    TaskState = "queued"
	TaskRunning   TaskState = "running"
	TaskDone      TaskState = "done"
	TaskSkipped   TaskState = "skipped"
	TaskFailed    TaskState = "failed"
	TaskAbandoned TaskState = "abandoned"
)

// Final reports whether the state is an outcome.
func (s TaskState) Final() bool {
	switch s {
	case TaskDone, TaskSkipped, TaskFailed, TaskAbandoned:
		return true
	}
	return false
}

// Retryable reports whether a person or an agent may run the task again.
func (s TaskState) Retryable() bool { return s == TaskFailed || s == TaskAbandoned }

// outcomeEvent is the event type that records a final state.
func (s TaskState) outcomeEvent() string {
	switch s {
	case TaskDone:
		return "agent.work.done"
	case TaskSkipped:
		return "agent.work.skip"
	case TaskAbandoned:
		return "agent.work.abandoned"
	default:
		return "agent.work.error"
	}
}

// stateOfOutcome is the inverse of outcomeEvent ("" for other types).
func stateOfOutcome(typ string) TaskState {
	switch typ {
	case "agent.work.done":
		return TaskDone
	case "agent.work.skip":
		return TaskSkipped
	case "agent.work.abandoned":
		return TaskAbandoned
	case "agent.work.error":
		return TaskFailed
	}
	return ""
}

// Task is one unit of agent work as the queue keeps it: a line of
// <data>/schedule/tasks.jsonl holds a task's whole state, and the last line
// for an id wins.
type Task struct {
	ID       string         `json:"id"`
	Key      string         `json:"key"`
	Source   Source         `json:"source"`
	Prompt   string         `json:"prompt"`
	Metadata map[string]any `json:"metadata,omitempty"`
	Target   *Target        `json:"target,omitempty"`
	State    TaskState      `json:"state"`
	// CausedBy is the trigger's event (cron.fire, a failed task's outcome
	// for a retry); RequestedSeq is this task's agent.work.requested
	// event and OutcomeSeq its outcome event.
	CausedBy     int64  `json:"causedBy,omitempty"`
	RequestedSeq int64  `json:"requestedSeq,omitempty"`
	OutcomeSeq   int64  `json:"outcomeSeq,omitempty"`
	CreatedMs    int64  `json:"createdMs"`
	StartedMs    int64  `json:"startedMs,omitempty"`
	EndedMs      int64  `json:"endedMs,omitempty"`
	Error        string `json:"error,omitempty"`
	Skip         string `json:"skip,omitempty"`
	RetryOf      string `json:"retryOf,omitempty"`
	RetriedBy    string `json:"retriedBy,omitempty"`
	// Reply is what reached the user (done), Channel where, Delivered
	// whether the channel took it.
	Reply     string `json:"reply,omitempty"`
	Channel   string `json:"channel,omitempty"`
	Delivered bool   `json:"delivered,omitempty"`
}

func (t Task) request() Request {
	return Request{Source: t.Source, Prompt: t.Prompt, Metadata: t.Metadata, CausedBy: t.CausedBy, Target: t.Target}
}

// taskStore persists task states: one fsync'd append per state change.
type taskStore struct {
	file  *jsonl.File
	lines int // lines in the file (for compaction)
	slack int // compactSlack; tests lower it
}

// compactSlack is how many lines beyond 2 per task the file may grow
// before it is compacted.
const compactSlack = 4000

// tasksFile is the queue's file under the data dir.
const tasksFile = "schedule/tasks.jsonl"

// Retention of finished tasks: their idempotency keys answer duplicates
// for this long, and at most maxKeptTasks of them are kept.
const (
	taskRetention = 7 * 24 * time.Hour
	maxKeptTasks  = 10000
)

// openTaskStore opens the file (healing a torn tail), removes temp files a
// crash left behind, and returns the latest state of every task.
func openTaskStore(dataDir string) (*taskStore, map[string]*Task, error) {
	path := filepath.Join(dataDir, tasksFile)
	removeStaleTemps(path)
	f, err := jsonl.Open(path, jsonl.Options{Sync: true})
	if err != nil {
		return nil, nil, err
	}
	tasks := map[string]*Task{}
	lines := 0
	err = f.Forward(func(line []byte) bool {
		lines++
		var t Task
		if json.Unmarshal(line, &t) == nil && t.ID != "" {
			tasks[t.ID] = &t
		}
		return true
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	return &taskStore{file: f, lines: lines, slack: compactSlack}, tasks, nil
}

// put appends a task's state; it is on disk (fsync'd) when put returns.
func (s *taskStore) put(t *Task) error {
	if err := s.file.AppendJSON(t); err != nil {
		return err
	}
	s.lines++
	return nil
}

// compact rewrites the file with one line per kept task: every open task,
// and finished ones younger than the retention (newest maxKeptTasks).
func (s *taskStore) compact(tasks map[string]*Task, now time.Time) error {
	var open, done []*Task
	for _, t := range tasks {
		switch {
		case !t.State.Final():
			open = append(open, t)
		case now.Sub(time.UnixMilli(max(t.EndedMs, t.CreatedMs))) < taskRetention:
			done = append(done, t)
		default:
			delete(tasks, t.ID)
		}
	}
	sort.Slice(done, func(a, b int) bool { return done[a].CreatedMs > done[b].CreatedMs })
	if len(done) > maxKeptTasks {
		for _, t := range done[maxKeptTasks:] {
			delete(tasks, t.ID)
		}
		done = done[:maxKeptTasks]
	}
	keep := append(open, done...)
	sort.Slice(keep, func(a, b int) bool { return taskBefore(keep[a], keep[b]) })
	s.lines = len(keep)
	return s.file.Rewrite(func(*jsonl.File) ([][]byte, error) {
		lines := make([][]byte, 0, len(keep))
		for _, t := range keep {
			b, err := json.Marshal(t)
			if err != nil {
				return nil, err
			}
			lines = append(lines, b)
		}
		return lines, nil
	})
}

// removeStaleTemps deletes ".<base>.tmp-*" files next to path: what an
// atomic write (config.WriteFileAtomic) leaves when the process dies
// between creating its temp file and renaming it. Only the owner of the
// data dir (one process, config.LockDataDir) calls this, at start, so no
// live write can be cut.
func removeStaleTemps(path string) {
	dir, base := filepath.Split(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasPrefix(e.Name(), "."+base+".tmp-") {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
