package live

import (
	"github.com/alice-trading/alice/tui/workspaces"
)

var _ workspaces.AgentCore = (*Core)(nil)

// AgentStates lists the agent state of each live session of a workspace.
func (c *Core) AgentStates(workspaceID string) []workspaces.AgentSessionState {
	var out []workspaces.AgentSessionState
	for _, s := range c.ws.Sessions(workspaceID) {
		st, ok := c.ws.AgentStatus(s.ID())
		if !ok {
			continue
		}
		out = append(out, workspaces.AgentSessionState{SessionID: s.ID(), Name: s.Name(), Agent: string(s.Agent()),
			State: st.State.String(), Glyph: st.State.Glyph(), Detail: st.Detail})
	}
	return out
}

// WorkspaceDiff is the workspace's working tree against its diff base.
func (c *Core) WorkspaceDiff(workspaceID string) (workspaces.WorkspaceDiff, error) {
	d, err := c.ws.Diff(workspaceID)
	if err != nil {
		return workspaces.WorkspaceDiff{}, err
	}
	out := workspaces.WorkspaceDiff{Base: d.Base, Files: make([]workspaces.DiffFile, 0, len(d.Files))}
	for _, f := range d.Files {
		out.Files = append(out.Files, workspaces.DiffFile{Path: f.Path, Change: f.Change, Binary: f.Binary, TooLarge: f.TooLarge,
			Additions: f.Additions, Deletions: f.Deletions, Patch: f.Patch})
	}
	return out, nil
}

// CommitWorkspace accepts every change as a commit.
func (c *Core) CommitWorkspace(workspaceID, message string) (string, error) {
	return c.ws.CommitChanges(workspaceID, message)
}

// DiscardWorkspace restores paths (all when none) to the diff base.
func (c *Core) DiscardWorkspace(workspaceID string, paths []string) ([]string, error) {
	return c.ws.DiscardChanges(workspaceID, paths...)
}

// SendText types into a session without attaching.
func (c *Core) SendText(sessionID, text string, enter bool) error {
	return c.ws.Send(sessionID, text, enter)
}

// AcknowledgeSession marks a session as seen by a person.
func (c *Core) AcknowledgeSession(sessionID string) { c.ws.AcknowledgeAgent(sessionID) }

// WatchSession marks a session as in front of a person (no alerts).
func (c *Core) WatchSession(sessionID string, on bool) { c.ws.SetWatched(sessionID, on) }
