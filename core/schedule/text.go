package schedule

import (
	"fmt"
	"strings"
	"time"

	"github.com/alice-trading/alice/config"
)

// ParseScheduleText reads the one-line schedule people type in the
// Settings pane: "every 30m" (or just "30m"), an RFC 3339 time for a
// one-shot job, or a 5-field cron expression (optionally "CRON_TZ=Zone …").
func ParseScheduleText(text string) (Schedule, error) {
	t := strings.TrimSpace(text)
	if t == "" {
		return Schedule{}, errMissingSchedule
	}
	if rest, ok := strings.CutPrefix(t, "every "); ok {
		s := Schedule{Kind: KindEvery, Every: strings.TrimSpace(rest)}
		return s, s.Validate()
	}
	if _, err := config.ParseEvery(t); err == nil && !strings.Contains(t, " ") {
		s := Schedule{Kind: KindEvery, Every: t}
		return s, s.Validate()
	}
	if _, err := time.Parse(time.RFC3339, t); err == nil {
		s := Schedule{Kind: KindAt, At: t}
		return s, s.Validate()
	}
	s := Schedule{Kind: KindCron, Cron: t}
	return s, s.Validate()
}

// String is the schedule in ParseScheduleText's syntax.
func (s Schedule) String() string {
	switch s.Kind {
	case KindEvery:
		return "every " + s.Every
	case KindAt:
		return s.At
	default:
		return s.Cron
	}
}

// Preview lists the next n fire times after from (fewer for a one-shot).
func Preview(s Schedule, from time.Time, n int) ([]time.Time, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var out []time.Time
	for t := from; len(out) < n; {
		next := s.Next(t)
		if next.IsZero() {
			break
		}
		out = append(out, next)
		t = next
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("schedule %q never fires after %s", s.String(), from.Format(time.RFC3339))
	}
	return out, nil
}

// PreviewIn is Preview in the engine's location (what the engine will do).
func (e *Engine) PreviewIn(s Schedule, n int) ([]time.Time, error) {
	return Preview(s, e.clock(), n)
}
