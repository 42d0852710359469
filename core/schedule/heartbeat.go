package schedule

import (
	"context"
	"log/slog"
	"time"

	"github.com/alice-trading/alice/config"
)

// WithinActiveHours reports whether now falls in the window. A window whose
// end is before its start wraps past midnight; start == end is an empty
// window; no window means always. The window is read in its IANA timezone
// ("local" or "" = the host's zone).
func WithinActiveHours(ah *config.ActiveHours, now time.Time) bool {
	if ah == nil {
		return true
	}
	start, err1 := config.ParseHHMM(ah.Start)
	end, err2 := config.ParseHHMM(ah.End)
	if err1 != nil || err2 != nil {
		return true // config validation rejects these; never go silent on a typo
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
	wake   chan struct{}
}

// NewHeartbeat builds the heartbeat.
func NewHeartbeat(store *config.Store, worker *Worker, events EventLog, log *slog.Logger) *Heartbeat {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Heartbeat{store: store, worker: worker, events: events, log: log, now: time.Now, wake: make(chan struct{}, 1)}
}

// Tick runs one scheduled heartbeat if enabled and inside active hours.
func (h *Heartbeat) Tick(ctx context.Context) Outcome {
	return h.tick(ctx, false)
}

// RunNow runs a heartbeat at once even when it is disabled. Active hours
// still apply: they are the user's quiet-hours promise, so outside them
// the agent is not called.
func (h *Heartbeat) RunNow(ctx context.Context) Outcome {
	return h.tick(ctx, true)
}

func (h *Heartbeat) tick(ctx context.Context, force bool) Outcome {
	cfg, err := h.store.Heartbeat()
	if err != nil {
		h.log.Error("Heartbeat config unreadable", "err", err)
		return Outcome{Err: err}
	}
	if !cfg.Enabled && !force {
		return Outcome{Skip: "disabled"}
	}
	if !WithinActiveHours(cfg.ActiveHours, h.now()) {
		_, _ = h.events.Append("agent.work.skip", map[string]any{"source": SourceHeartbeat, "reason": "outside-active-hours"})
		return Outcome{Skip: "outside-active-hours"}
	}
	return h.worker.Run(ctx, Request{Source: SourceHeartbeat, Prompt: cfg.Prompt})
}

// SetEnabled turns the heartbeat on or off in heartbeat.json (the TUI and
// Telegram's /heartbeat use it) and restarts the wait.
func (h *Heartbeat) SetEnabled(on bool) error {
	cfg, err := h.store.Heartbeat()
	if err != nil {
		return err
	}
	cfg.Enabled = on
	if err := config.Save(h.store, config.HeartbeatFile, cfg); err != nil {
		return err
	}
	select {
	case h.wake <- struct{}{}:
	default:
	}
	return nil
}

// Enabled reports heartbeat.json's enabled flag.
func (h *Heartbeat) Enabled() bool {
	cfg, err := h.store.Heartbeat()
	return err == nil && cfg.Enabled
}

// maxHeartbeatBackoff bounds the wait after repeated failures.
const maxHeartbeatBackoff = 4 * time.Hour

// Run ticks every configured interval until ctx ends. Consecutive errors
// double the wait (up to 4 h) so a broken provider is not hammered.
func (h *Heartbeat) Run(ctx context.Context) {
	failures := 0
	for {
		every := 30 * time.Minute
		if cfg, err := h.store.Heartbeat(); err == nil {
			if d, err := config.ParseEvery(cfg.Every); err == nil && d > 0 {
				every = d
			}
		}
		wait := every
		for i := 0; i < failures && wait < maxHeartbeatBackoff; i++ {
			wait *= 2
		}
		wait = min(wait, max(every, maxHeartbeatBackoff))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-h.wake:
			t.Stop()
			continue // config changed: re-read the interval
		case <-t.C:
		}
		out := h.Tick(ctx)
		if out.Err != nil {
			failures++
		} else {
			failures = 0
		}
		h.log.Info("Heartbeat", "outcome", out.String())
	}
}

// Poke makes a running heartbeat re-read heartbeat.json now (after an
// edit from the Settings pane) instead of at the end of its current wait.
func (h *Heartbeat) Poke() {
	select {
	case h.wake <- struct{}{}:
	default:
	}
}
