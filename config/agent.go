package config

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// AgentFile is agent.json.
const AgentFile = "agent.json"

// Agent tunes the agent loop.
type Agent struct {
	// MaxSteps bounds tool-calling rounds per request.
	MaxSteps int `json:"maxSteps"`
	// MaxHistoryEntries bounds history sent to text-only providers.
	MaxHistoryEntries int `json:"maxHistoryEntries"`
	// AITrading lets tools called by an agent (alice's own, MCP clients,
	// workspaces) stage orders. Off: they refuse, while a person can still
	// trade from the alice UI or Telegram. Re-read on every staging.
	AITrading bool `json:"aiTrading"`
}

// DefaultAgent allows 20 steps and AI trading (every push still needs a
// person unless the account auto-approves).
func DefaultAgent() Agent { return Agent{MaxSteps: 20, MaxHistoryEntries: 50, AITrading: true} }

// Validate checks bounds.
func (c *Agent) Validate() (string, error) {
	if c.MaxSteps < 1 || c.MaxSteps > 200 {
		return "maxSteps", fmt.Errorf("must be 1..200, got %d", c.MaxSteps)
	}
	if c.MaxHistoryEntries < 1 {
		return "maxHistoryEntries", fmt.Errorf("must be positive")
	}
	return "", nil
}

// ToolsFile is tools.json; its disabled list is read on every call.
const ToolsFile = "tools.json"

// Tools disables tools by name.
type Tools struct {
	Disabled []string `json:"disabled"`
}

// DefaultTools disables nothing.
func DefaultTools() Tools { return Tools{Disabled: []string{}} }

// CompactionFile is compaction.json.
const CompactionFile = "compaction.json"

// Compaction sets when sessions are summarised.
type Compaction struct {
	MaxContextTokens       int `json:"maxContextTokens"`
	MaxOutputTokens        int `json:"maxOutputTokens"`
	AutoCompactBuffer      int `json:"autoCompactBuffer"`
	MicrocompactKeepRecent int `json:"microcompactKeepRecent"`
}

// DefaultCompaction matches the reference: threshold 167000 tokens.
func DefaultCompaction() Compaction {
	return Compaction{MaxContextTokens: 200000, MaxOutputTokens: 20000, AutoCompactBuffer: 13000, MicrocompactKeepRecent: 3}
}

// Threshold is the token count above which a session is compacted.
func (c Compaction) Threshold() int {
	return c.MaxContextTokens - c.MaxOutputTokens - c.AutoCompactBuffer
}

// Validate checks the threshold is positive.
func (c *Compaction) Validate() (string, error) {
	if c.MaxContextTokens <= 0 {
		return "maxContextTokens", errors.New("must be positive")
	}
	if c.Threshold() <= 0 {
		return "autoCompactBuffer", fmt.Errorf("maxContextTokens - maxOutputTokens - autoCompactBuffer must be positive, got %d", c.Threshold())
	}
	if c.MicrocompactKeepRecent < 0 {
		return "microcompactKeepRecent", errors.New("must not be negative")
	}
	return "", nil
}

// HeartbeatFile is heartbeat.json.
const HeartbeatFile = "heartbeat.json"

// ActiveHours limits the heartbeat to a daily window; End before Start
// wraps past midnight.
type ActiveHours struct {
	Start    string `json:"start,omitempty"`
	End      string `json:"end,omitempty"`
	Timezone string `json:"timezone,omitempty"` // IANA name or "local"
	// Market, instead of start/end, makes the heartbeat active while this
	// account's market is open (its broker's calendar: trading days,
	// holidays and early closes).
	Market string `json:"market,omitempty"`
}

// WorkTarget runs scheduled work in a workspace instead of the in-process
// Alice (the same fields as a cron job's target; see core/schedule.Target).
type WorkTarget struct {
	Kind       string `json:"kind"` // alice | oneshot | session
	Workspace  string `json:"workspace,omitempty"`
	Agent      string `json:"agent,omitempty"` // claude | codex | shell
	Session    string `json:"session,omitempty"`
	Model      string `json:"model,omitempty"`
	TimeoutSec int    `json:"timeoutSec,omitempty"`
}

// Heartbeat is the periodic self-check.
type Heartbeat struct {
	Enabled     bool         `json:"enabled"`
	Every       string       `json:"every"`
	Prompt      string       `json:"prompt"`
	ActiveHours *ActiveHours `json:"activeHours"`
	// Target, when set, runs the heartbeat in a workspace.
	Target *WorkTarget `json:"target,omitempty"`
}

// DefaultHeartbeatPrompt asks for a notify_user call only when useful.
const DefaultHeartbeatPrompt = "Read brain/heartbeat.md in your data directory if it exists and follow it. Check the portfolio and any open orders. Call notify_user only if something genuinely deserves the user's attention; silence means nothing is pushed."

// DefaultHeartbeat is off, every 30 minutes, always active when enabled.
func DefaultHeartbeat() Heartbeat {
	return Heartbeat{Every: "30m", Prompt: DefaultHeartbeatPrompt}
}

var hhmm = regexp.MustCompile(`^([01]?\d|2[0-3]):([0-5]\d)$`)

// ParseHHMM returns minutes after midnight.
func ParseHHMM(s string) (int, error) {
	m := hhmm.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("want HH:MM, got %q", s)
	}
	h, _ := strconv.Atoi(m[1])
	mm, _ := strconv.Atoi(m[2])
	return h*60 + mm, nil
}

// Validate checks interval, times and timezone.
func (c *Heartbeat) Validate() (string, error) {
	if _, err := ParseEvery(c.Every); err != nil {
		return "every", err
	}
	if c.Target != nil {
		switch c.Target.Kind {
		case "alice", "oneshot", "session":
		default:
			return "target.kind", fmt.Errorf("want alice, oneshot or session, got %q", c.Target.Kind)
		}
		switch c.Target.Agent {
		case "", "claude", "codex", "shell":
		default:
			return "target.agent", fmt.Errorf("want claude, codex or shell, got %q", c.Target.Agent)
		}
		if c.Target.Kind == "session" && c.Target.Workspace == "" {
			return "target.workspace", fmt.Errorf("required for kind session")
		}
	}
	if c.ActiveHours != nil && c.ActiveHours.Market != "" {
		if c.ActiveHours.Start != "" || c.ActiveHours.End != "" {
			return "activeHours.market", fmt.Errorf("use start/end or market, not both")
		}
		return "", nil
	}
	if c.ActiveHours != nil {
		if _, err := ParseHHMM(c.ActiveHours.Start); err != nil {
			return "activeHours.start", err
		}
		if _, err := ParseHHMM(c.ActiveHours.End); err != nil {
			return "activeHours.end", err
		}
		if tz := c.ActiveHours.Timezone; tz != "" && tz != "local" {
			if _, err := time.LoadLocation(tz); err != nil {
				return "activeHours.timezone", fmt.Errorf("unknown IANA timezone %q", tz)
			}
		}
	}
	return "", nil
}

var everyRe = regexp.MustCompile(`^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$`)

// MaxEvery is the longest duration ParseEvery takes (a year).
const MaxEvery = 8760 * time.Hour

// everyText writes a whole number of hours as "8760h".
func everyText(d time.Duration) string { return strconv.FormatInt(int64(d/time.Hour), 10) + "h" }

// ParseEvery parses durations like "2h", "30m", "5m30s", up to MaxEvery.
func ParseEvery(s string) (time.Duration, error) {
	m := everyRe.FindStringSubmatch(s)
	if s == "" || m == nil {
		return 0, fmt.Errorf("want a duration like \"30m\", \"2h\" or \"5m30s\", got %q", s)
	}
	var d time.Duration
	for i, unit := range []time.Duration{time.Hour, time.Minute, time.Second} {
		if m[i+1] == "" {
			continue
		}
		n, err := strconv.ParseInt(m[i+1], 10, 64)
		if err != nil || n > int64(MaxEvery/unit) {
			return 0, fmt.Errorf("duration %q is too large (at most %s, 365 days)", s, everyText(MaxEvery))
		}
		d += time.Duration(n) * unit
	}
	if d > MaxEvery {
		return 0, fmt.Errorf("duration %q is too large (at most %s, 365 days)", s, everyText(MaxEvery))
	}
	if d <= 0 {
		return 0, fmt.Errorf("duration must be positive, got %q", s)
	}
	return d, nil
}
