package config

import "fmt"

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
}

// DefaultWorkspaces keeps 10,000 lines per session and 64 MiB in all.
func DefaultWorkspaces() Workspaces {
	return Workspaces{ScrollbackLines: 10000, ScrollbackBudgetMB: 64}
}

// Validate checks bounds.
func (c *Workspaces) Validate() (string, error) {
	if c.ScrollbackLines < 100 || c.ScrollbackLines > 1_000_000 {
		return "scrollbackLines", fmt.Errorf("must be 100..1000000, got %d", c.ScrollbackLines)
	}
	if c.ScrollbackBudgetMB < 1 || c.ScrollbackBudgetMB > 65536 {
		return "scrollbackBudgetMB", fmt.Errorf("must be 1..65536, got %d", c.ScrollbackBudgetMB)
	}
	return "", nil
}

// Workspaces loads workspaces.json.
func (s *Store) Workspaces() (Workspaces, error) { return Load(s, WorkspacesFile, DefaultWorkspaces) }
