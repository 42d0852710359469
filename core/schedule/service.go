package schedule

import (
	"context"
	"time"
)

// Automation is the automation use case every surface shares: the cron
// jobs (list, add or edit from the one-line schedule people type, enable,
// remove, run now, preview) and the heartbeat (on/off, wake, run now). The
// Settings pane, Telegram and MCP's cron tools all act through the same
// Engine and Heartbeat, so it is a thin facade: what the engine does (and
// how it persists) stays the engine's business.
type Automation struct {
	cron      *Engine
	heartbeat *Heartbeat
}

// NewAutomation wraps the running cron engine and heartbeat.
func NewAutomation(cron *Engine, heartbeat *Heartbeat) *Automation {
	return &Automation{cron: cron, heartbeat: heartbeat}
}

// JobInput is a job as a form or a chat command states it.
type JobInput struct {
	ID       string // "" adds a job
	Name     string
	Prompt   string
	Schedule string // ParseScheduleText: "every 30m", RFC 3339, or cron
	Enabled  bool
	// Target is where the job runs: nil adds it to the in-process Alice,
	// and on an edit leaves the job's target as it is.
	Target *Target
}

// Jobs lists the cron jobs with their state (next run, last result).
func (a *Automation) Jobs() []Job { return a.cron.List() }

// SaveJob adds (ID "") or edits a job.
func (a *Automation) SaveJob(in JobInput) (Job, error) {
	s, err := ParseScheduleText(in.Schedule)
	if err != nil {
		return Job{}, err
	}
	if in.ID == "" {
		return a.cron.AddTargeted(in.Name, in.Prompt, s, in.Enabled, in.Target)
	}
	return a.cron.Update(in.ID, JobPatch{Name: &in.Name, Payload: &in.Prompt, Schedule: &s, Enabled: &in.Enabled, Target: in.Target})
}

// SetJobEnabled enables or disables a job.
func (a *Automation) SetJobEnabled(id string, on bool) error {
	_, err := a.cron.Update(id, JobPatch{Enabled: &on})
	return err
}

// RemoveJob deletes a job.
func (a *Automation) RemoveJob(id string) error { return a.cron.Remove(id) }

// RunJobNow fires a job at once and waits for its outcome.
func (a *Automation) RunJobNow(ctx context.Context, id string) (Outcome, error) {
	return a.cron.RunNow(ctx, id)
}

// Preview lists the next n fire times of a typed schedule, in the
// engine's location.
func (a *Automation) Preview(schedule string, n int) ([]time.Time, error) {
	s, err := ParseScheduleText(schedule)
	if err != nil {
		return nil, err
	}
	return a.cron.PreviewIn(s, n)
}

// HeartbeatEnabled reports whether heartbeat.json enables the heartbeat.
func (a *Automation) HeartbeatEnabled() bool { return a.heartbeat.Enabled() }

// SetHeartbeat switches the heartbeat on or off (heartbeat.json) and
// wakes it so the change applies now.
func (a *Automation) SetHeartbeat(on bool) error { return a.heartbeat.SetEnabled(on) }

// WakeHeartbeat tells the heartbeat its config changed (interval,
// enabled), so it re-reads it now rather than after the current wait.
func (a *Automation) WakeHeartbeat() { a.heartbeat.Poke() }

// RunHeartbeatNow runs one heartbeat even when it is disabled (active
// hours still apply).
func (a *Automation) RunHeartbeatNow(ctx context.Context) Outcome { return a.heartbeat.RunNow(ctx) }
