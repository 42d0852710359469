package config

import (
	"fmt"
	"slices"
	"strings"
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
	// Sandbox says whether sessions and one-shot runs run where alice's
	// own directories (config, data, logs) are hidden: "auto" when the
	// kernel allows it (else unsandboxed, said in the log and by doctor),
	// "on" (a session does not start without it), "off".
	Sandbox string `json:"sandbox"`
}

// Sandbox modes (workspaces.json "sandbox").
const (
	SandboxAuto = "auto"
	SandboxOn   = "on"
	SandboxOff  = "off"
)

// SandboxModes are the values "sandbox" takes.
var SandboxModes = []string{SandboxAuto, SandboxOn, SandboxOff}

// DefaultWorkspaces keeps 10,000 lines per session and 64 MiB in all, and
// waits 10 ms after an Escape (tmux's default since 3.5), and sandboxes
// sessions where the kernel allows it.
func DefaultWorkspaces() Workspaces {
	return Workspaces{ScrollbackLines: 10000, ScrollbackBudgetMB: 64, EscapeTimeMs: 10, Sandbox: SandboxAuto}
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
	if !slices.Contains(SandboxModes, c.Sandbox) {
		msg := fmt.Sprintf("unknown value %q", c.Sandbox)
		if near := Nearest(c.Sandbox, SandboxModes); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		return "sandbox", fmt.Errorf("%s; one of: %s", msg, strings.Join(SandboxModes, ", "))
	}
	return "", nil
}

// EscapeTime is EscapeTimeMs as a duration.
func (c Workspaces) EscapeTime() time.Duration {
	return time.Duration(c.EscapeTimeMs) * time.Millisecond
}

// Workspaces loads workspaces.json.
func (s *Store) Workspaces() (Workspaces, error) { return Load(s, WorkspacesFile, DefaultWorkspaces) }
