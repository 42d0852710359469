package schedule

import (
	"fmt"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/alice-trading/alice/config"
)

// Kind is a schedule's discriminator.
type Kind string

// The schedule kinds.
const (
	KindAt    Kind = "at"
	KindEvery Kind = "every"
	KindCron  Kind = "cron"
)

// Status is a job's last run result.
type Status string

// Job statuses; Skipped means the previous cron run was still going.
const (
	StatusOK      Status = "ok"
	StatusError   Status = "error"
	StatusSkipped Status = "skipped"
)

// Schedule says when a job fires: once (at), on an interval (every) or on
// a 5-field cron expression (min hour dom month dow). Cron expressions use
// the engine's location (the host's local time unless configured) and may
// carry their own "CRON_TZ=Area/City " prefix. As in Vixie cron, when both
// day-of-month and day-of-week are restricted either may match.
type Schedule struct {
	Kind  Kind   `json:"kind"`
	At    string `json:"at,omitempty"`
	Every string `json:"every,omitempty"`
	Cron  string `json:"cron,omitempty"`
	// Market is the spec of kind market (see MarketSpec).
	Market *MarketSpec `json:"market,omitempty"`
}

// JobState is a job's bookkeeping.
type JobState struct {
	NextRunAtMs       *int64  `json:"nextRunAtMs"`
	LastRunAtMs       *int64  `json:"lastRunAtMs"`
	LastStatus        *Status `json:"lastStatus"`
	ConsecutiveErrors int     `json:"consecutiveErrors"`
}

// Job is one entry of cron/jobs.json.
type Job struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Enabled  bool     `json:"enabled"`
	Schedule Schedule `json:"schedule"`
	Payload  string   `json:"payload"`
	// Target runs the job in a workspace instead of the in-process Alice.
	Target    *Target  `json:"target,omitempty"`
	State     JobState `json:"state"`
	CreatedAt int64    `json:"createdAt"`
}

var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// backoff is the delay after consecutive errors.
var backoff = []time.Duration{30 * time.Second, time.Minute, 5 * time.Minute, 15 * time.Minute, time.Hour}

// Validate checks a schedule and returns a clear error.
func (s Schedule) Validate() error {
	switch s.Kind {
	case KindAt:
		if _, err := time.Parse(time.RFC3339, s.At); err != nil {
			return fmt.Errorf("schedule.at must be an ISO timestamp like 2026-12-01T09:30:00Z, got %q", s.At)
		}
	case KindEvery:
		d, err := config.ParseEvery(s.Every)
		if err != nil {
			return fmt.Errorf("schedule.every: %w", err)
		}
		if d < time.Second {
			return fmt.Errorf("schedule.every must be at least 1s, got %q", s.Every)
		}
	case KindCron:
		if _, err := cronParser.Parse(s.Cron); err != nil {
			return fmt.Errorf("schedule.cron %q: %v (want 5 fields: min hour dom month dow, e.g. \"0 9 * * 1-5\")", s.Cron, err)
		}
	case KindMarket:
		return s.Market.validate()
	case "":
		return errMissingSchedule
	default:
		return fmt.Errorf("schedule.kind must be at, every, cron or market, got %q", s.Kind)
	}
	return nil
}

// Next is the first fire time strictly after from (zero when none, and
// for kind market, which needs a calendar: Engine computes those).
func (s Schedule) Next(from time.Time) time.Time {
	switch s.Kind {
	case KindAt:
		t, _ := time.Parse(time.RFC3339, s.At)
		if t.After(from) {
			return t
		}
	case KindEvery:
		d, err := config.ParseEvery(s.Every)
		if err == nil && d > 0 {
			return from.Add(d)
		}
	case KindCron:
		if sch, err := cronParser.Parse(s.Cron); err == nil {
			return sch.Next(from)
		}
	}
	return time.Time{}
}
