package schedule

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/alice-trading/alice/config"
)

// Market schedules in words: "15m before close of sim-paper", "5m after
// open of paper-1", "at open of sim-paper".
var (
	marketText   = regexp.MustCompile(`^(\d+)m (before|after) (open|close) of (\S+)$`)
	marketAtText = regexp.MustCompile(`^at (open|close) of (\S+)$`)
)

// ParseScheduleText reads the one-line schedule people type in the
// Settings pane: "every 30m" (or just "30m"), an RFC 3339 time for a
// one-shot job, a market time ("15m before close of sim-paper"), or a
// 5-field cron expression (optionally "CRON_TZ=Zone …").
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
	if m := marketText.FindStringSubmatch(t); m != nil {
		n, _ := strconv.Atoi(m[1])
		if m[2] == "before" {
			n = -n
		}
		s := Schedule{Kind: KindMarket, Market: &MarketSpec{Account: m[4], Event: m[3], OffsetMinutes: Minutes(n)}}
		return s, s.Validate()
	}
	if m := marketAtText.FindStringSubmatch(t); m != nil {
		s := Schedule{Kind: KindMarket, Market: &MarketSpec{Account: m[2], Event: m[1]}}
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
	case KindMarket:
		if s.Market == nil {
			return "market"
		}
		m := s.Market
		switch {
		case m.OffsetMinutes < 0:
			return fmt.Sprintf("%dm before %s of %s", -m.OffsetMinutes, m.Event, m.Account)
		case m.OffsetMinutes > 0:
			return fmt.Sprintf("%dm after %s of %s", m.OffsetMinutes, m.Event, m.Account)
		}
		return fmt.Sprintf("at %s of %s", m.Event, m.Account)
	default:
		return s.Cron
	}
}

// ParseTargetText reads a target as people type it: "" or "alice" (in
// Alice), "oneshot shell" / "oneshot claude in research" (a one-shot run,
// in a new workspace or the one named), "session claude in desk" /
// "session shell in desk sh1" (a turn of that workspace's session).
func ParseTargetText(text string) (*Target, error) {
	f := strings.Fields(strings.TrimSpace(text))
	if len(f) == 0 || (len(f) == 1 && f[0] == "alice") {
		return nil, nil
	}
	t := &Target{Kind: TargetKind(f[0])}
	if len(f) >= 2 {
		t.Agent = f[1]
	}
	switch {
	case len(f) >= 4 && f[2] == "in":
		t.Workspace = f[3]
		if len(f) == 5 {
			t.Session = f[4]
		} else if len(f) > 5 {
			return nil, fmt.Errorf("target %q: want \"<oneshot|session> <agent> [in <workspace> [session]]\"", text)
		}
	case len(f) > 2:
		return nil, fmt.Errorf("target %q: want \"<oneshot|session> <agent> [in <workspace> [session]]\"", text)
	}
	if t.Kind != TargetOneShot && t.Kind != TargetSession {
		return nil, fmt.Errorf("target %q: start with alice, oneshot or session", text)
	}
	return t, t.Validate()
}

// TargetText is a target in ParseTargetText's syntax.
func TargetText(t *Target) string {
	if !t.InWorkspace() {
		return "alice"
	}
	s := string(t.Kind)
	if t.Agent != "" {
		s += " " + t.Agent
	}
	if t.Workspace != "" {
		s += " in " + t.Workspace
		if t.Session != "" {
			s += " " + t.Session
		}
	}
	return s
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
	if s.Kind != KindMarket {
		return Preview(s, e.clock(), n)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var out []time.Time
	for t := e.clock(); len(out) < n; {
		next, err := nextMarket(e.cal, s.Market, t)
		if err != nil {
			return nil, err
		}
		out = append(out, next)
		t = next
	}
	return out, nil
}
