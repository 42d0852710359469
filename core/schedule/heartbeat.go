package schedule

import (
	"context"
	"log/slog"
	"time"

	"alice/config"
)

// WithinActiveHours reports whether now falls in the window. A window whose
// end is before its start wraps past midnight; no window means always.
func WithinActiveHours(ah *config.ActiveHours, now time.Time) bool {
	if ah == nil {
		return true
	}
	start, err1 := config.ParseHHMM(ah.Start)
	end, err2 := config.ParseHHMM(ah.End)
	if err1 != nil || err2 != nil {
		return true // validated on load; be permissive rather than silent
	}
	loc := time.Local
	if ah.Timezone != "" && ah.Timezone != "local" {
		if l, err := time.LoadLocation(ah.Timezone); err == nil {
			loc = l
		}
	}
	t := now.In(loc)
	m := t.Hour()*60 + t.Minute()
	if start <= end {
		return m >= start && m < end
	}
	return m >= start || m < end
}

// Heartbeat periodically asks the agent to look around; heartbeat.json is
// re-read on every tick so edits apply without a restart.
type Heartbeat struct {
	store  *config.Store
	worker *Worker
	events EventLog
	log    *slog.Logger
	now    func() time.Time
}

// NewHeartbeat builds the heartbeat.
func NewHeartbeat(store *config.Store, worker *Worker, events EventLog, log *slog.Logger) *Heartbeat {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Heartbeat{store: store, worker: worker, events: events, log: log, now: time.Now}
}

// Tick runs one heartbeat if enabled and inside active hours. Outside
// active hours the agent is never called; the skip is recorded.
func (h *Heartbeat) Tick(ctx context.Context) Outcome {
	cfg, err := h.store.Heartbeat()
	if err != nil {
		h.log.Error("Heartbeat config unreadable", "err", err)
		return Outcome{Err: err}
	}
	if !cfg.Enabled {
		return Outcome{Skip: "disabled"}
	}
	if !WithinActiveHours(cfg.ActiveHours, h.now()) {
		_, _ = h.events.Append("agent.work.skip", map[string]any{"source": SourceHeartbeat, "reason": "outside-active-hours"})
		return Outcome{Skip: "outside-active-hours"}
	}
	return h.worker.Run(ctx, Request{Source: SourceHeartbeat, Prompt: cfg.Prompt})
}

// Run ticks every configured interval until ctx ends.
func (h *Heartbeat) Run(ctx context.Context) {
	for {
		every := 30 * time.Minute
		if cfg, err := h.store.Heartbeat(); err == nil {
			if d, err := config.ParseEvery(cfg.Every); err == nil {
				every = d
			}
		}
		t := time.NewTimer(every)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		out := h.Tick(ctx)
		h.log.Info("Heartbeat", "outcome", out.String())
	}
}
