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
	cal    MarketCalendar
}

// SetMarketCalendar lets activeHours.market follow an account's sessions.
// Call before Run.
func (h *Heartbeat) SetMarketCalendar(cal MarketCalendar) { h.cal = cal }

// active applies activeHours: a daily window, or an account's market
// sessions (activeHours.market). A market that cannot be read (account
// down, a venue without sessions) counts as closed: the heartbeat stays
// quiet rather than waking people outside the hours they chose.
func (h *Heartbeat) active(ah *config.ActiveHours, now time.Time) (bool, string) {
	if ah == nil || ah.Market == "" {
		if WithinActiveHours(ah, now) {
			return true, ""
		}
		return false, "outside-active-hours"
	}
	if h.cal == nil {
		return false, "market-unknown"
	}
	sessions, err := h.cal.Sessions(ah.Market, now, 1)
	if err != nil || len(sessions) == 0 {
		h.log.Warn("Heartbeat market hours unavailable", "account", ah.Market, "err", err)
		return false, "market-unknown"
	}
	if s := sessions[0]; !now.Before(s.Open) && now.Before(s.Close) {
		return true, ""
	}
	return false, "market-closed"
}

// targetOf converts heartbeat.json's target.
func targetOf(t *config.WorkTarget) *Target {
	if t == nil {
		return nil
	}
	return &Target{Kind: TargetKind(t.Kind), Workspace: t.Workspace, Agent: t.Agent, Session: t.Session, Model: t.Model, TimeoutSec: t.TimeoutSec}
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
	if ok, reason := h.active(cfg.ActiveHours, h.now()); !ok {
		_, _ = h.events.Append("agent.work.skip", map[string]any{"source": SourceHeartbeat, "reason": reason})
		return Outcome{Skip: reason}
	}
	return h.worker.Run(ctx, Request{Source: SourceHeartbeat, Prompt: cfg.Prompt, Target: targetOf(cfg.Target)})
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
//
// The interval counts from the last run, which the work queue keeps across
// restarts: a restarted core (or an edited heartbeat.json) runs the next
// heartbeat when it is due instead of a whole interval later, so a core
// restarted more often than the interval still beats, and never twice
// within one interval.
func (h *Heartbeat) Run(ctx context.Context) {
	failures := 0
	var lastTick time.Time
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
		if last := h.lastRun(lastTick); failures == 0 && !last.IsZero() {
			wait = min(max(last.Add(every).Sub(h.now()), 0), every)
		}
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
		lastTick = h.now()
		if out.Err != nil {
			failures++
		} else {
			failures = 0
		}
		h.log.Info("Heartbeat", "outcome", out.String())
	}
}

// lastRun is when the heartbeat last ran: the newest heartbeat task the
// work queue keeps (persisted, so across restarts) or this loop's own last
// tick (a skipped tick, outside active hours, queues no task).
func (h *Heartbeat) lastRun(tick time.Time) time.Time {
	last := tick
	if h.worker == nil {
		return last
	}
	for _, t := range h.worker.Tasks() {
		if c := time.UnixMilli(t.CreatedMs); t.Source == SourceHeartbeat && c.After(last) {
			last = c
		}
	}
	return last
}

// Poke makes a running heartbeat re-read heartbeat.json now (after an
// edit from the Settings pane) instead of at the end of its current wait.
func (h *Heartbeat) Poke() {
	select {
	case h.wake <- struct{}{}:
	default:
	}
}
