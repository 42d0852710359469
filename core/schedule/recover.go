package schedule

import (
	"encoding/json"
	"sort"

	"github.com/alice-trading/alice/core/eventlog"
)

// abandonedReason is recorded for a task that was running when the last
// process died.
const abandonedReason = "alice stopped (crash or kill) while the task ran; it is not re-run automatically because the run may already have acted — retry it with workRetry or from the Activity pane"

// recover applies the restart rule (queue.go) to the tasks the last
// process left, then compacts the file. Called once, from NewWorker.
func (w *Worker) recover() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	var running, queued []*Task
	var minSeq int64
	for _, t := range w.tasks {
		switch t.State {
		case TaskRunning:
			running = append(running, t)
			if t.RequestedSeq > 0 && (minSeq == 0 || t.RequestedSeq < minSeq) {
				minSeq = t.RequestedSeq
			}
		case TaskQueued:
			queued = append(queued, t)
		}
	}
	recorded := map[string]eventlog.Entry{}
	if len(running) > 0 && minSeq > 0 {
		// An outcome recorded just before the crash (event written, final
		// state not yet persisted) is adopted, never recorded twice.
		entries, err := w.events.Read(eventlog.ReadOptions{AfterSeq: minSeq})
		if err != nil {
			w.log.Warn("Reading the event log for task outcomes failed", "err", err)
		}
		for _, e := range entries {
			if stateOfOutcome(e.Type) == "" {
				continue
			}
			var p struct {
				TaskID string `json:"taskId"`
			}
			if json.Unmarshal(e.Payload, &p) == nil && p.TaskID != "" {
				recorded[p.TaskID] = e
			}
		}
	}
	sort.Slice(running, func(a, b int) bool { return taskBefore(running[a], running[b]) })
	for _, t := range running {
		if e, ok := recorded[t.ID]; ok {
			t.State, t.OutcomeSeq, t.EndedMs = stateOfOutcome(e.Type), e.Seq, e.TS
			if err := w.store.put(t); err != nil {
				return err
			}
			continue
		}
		w.finishLocked(t, TaskAbandoned, map[string]any{"reason": abandonedReason}, nil)
		w.log.Warn("Task abandoned: it was running when alice stopped", "task", t.ID, "source", t.Source)
	}
	sort.Slice(queued, func(a, b int) bool { return taskBefore(queued[a], queued[b]) })
	for _, t := range queued {
		if t.RequestedSeq == 0 {
			// Persisted, but the process died before agent.work.requested.
			ev, err := w.events.AppendCaused("agent.work.requested", requestPayload{Source: t.Source, Prompt: t.Prompt,
				Metadata: t.Metadata, Queued: true, TaskID: t.ID, Key: t.Key, RetryOf: t.RetryOf, Target: t.Target}, t.CausedBy)
			if err == nil {
				t.RequestedSeq = ev.Seq
			}
		}
	}
	w.resumable = queued
	if err := w.store.compact(w.tasks, w.now()); err != nil {
		return err
	}
	for id, t := range w.tasks {
		w.byKey[t.Key] = id
	}
	return nil
}
