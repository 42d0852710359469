package config

import (
	"fmt"
	"time"
)

// WorkspacesFile is workspaces.json: settings of the pty-backed workspace
// sessions.
const WorkspacesFile = "workspaces.json"

// Workspaces tunes workspace sessions.
type Workspaces struct {
	// ScrollbackLines caps each session's scrollback (lines kept after
	// they scroll off the screen); memory stays bounded by it.
	ScrollbackLines int `json:"scrollbackLines"`
	// ScrollbackBudgetMB bounds all sessions' scrollback together (MiB of
	// text and attribute runs); past it the oldest lines of any session
	// are dropped first.
	ScrollbackBudgetMB int `json:"scrollbackBudgetMB"`
	// EscapeTimeMs is how long an Escape that ends a read from your
	// terminal waits for the rest of a key sequence (tmux's escape-time):
	// the delay of a lone Escape typed into an attached session (vim,
	// Claude Code) or any pane. 0 hands it on at once; a sequence your
	// terminal splits right after its ESC is then read as Escape and text.
	EscapeTimeMs int `json:"escapeTimeMs"`
}

// DefaultWorkspaces keeps 10,000 lines per session and 64 MiB in all, and
// waits 10 ms after an Escape (tmux's default since 3.5).
func DefaultWorkspaces() Workspaces {
	return Workspaces{ScrollbackLines: 10000, ScrollbackBudgetMB: 64, EscapeTimeMs: 10}
}

// Validate checks bounds.
func (c *Workspaces) Validate() (string, error) {
	if c.ScrollbackLines < 100 || c.ScrollbackLines > 1_000_000 {
		return "scrollbackLines", fmt.Errorf("must be 100..1000000, got %d", c.ScrollbackLines)
	}
	if c.ScrollbackBudgetMB < 1 || c.ScrollbackBudgetMB > 65536 {
		return "scrollbackBudgetMB", fmt.Errorf("must be 1..65536, got %d", c.ScrollbackBudgetMB)
	}
	if c.EscapeTimeMs < 0 || c.EscapeTimeMs > 1000 {
		return "escapeTimeMs", fmt.Errorf("must be 0..1000, got %d", c.EscapeTimeMs)
	}
	return "", nil
}

// EscapeTime is EscapeTimeMs as a duration.
func (c Workspaces) EscapeTime() time.Duration {
	return time.Duration(c.EscapeTimeMs) * time.Millisecond
}

// Workspaces loads workspaces.json.
func (s *Store) Workspaces() (Workspaces, error) { return Load(s, WorkspacesFile, DefaultWorkspaces) }
