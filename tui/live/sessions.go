package live

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/workspaces"
	"github.com/alice-trading/alice/workspace"
	"github.com/charmbracelet/x/vt"
)

var _ workspaces.SessionCore = (*Core)(nil)

// StartSessionSize starts a session with its pty sized for the pane.
func (c *Core) StartSessionSize(workspaceID, agent string, cols, rows int) (workspaces.Terminal, error) {
	s, err := c.ws.StartSessionSize(workspaceID, workspace.Agent(agent), cols, rows)
	if err != nil {
		return nil, err
	}
	return terminal{s}, nil
}

// WorkspaceDetail lists live sessions and paused records of a workspace.
func (c *Core) WorkspaceDetail(workspaceID string) workspaces.WorkspaceDetail {
	var d workspaces.WorkspaceDetail
	if w, ok := c.ws.Get(workspaceID); ok {
		d.Archived = w.Archived
	}
	live := map[string]bool{}
	for _, s := range c.ws.Sessions(workspaceID) {
		live[s.ID()] = true
		st, _ := s.State()
		info := workspaces.SessionInfo{ID: s.ID(), Name: s.Name(), Agent: string(s.Agent()),
			State: string(st), Created: s.Created(), Term: terminal{s}}
		if as, ok := c.ws.AgentStatus(s.ID()); ok {
			info.AgentState, info.Glyph = as.State.String(), as.State.Glyph()
		}
		d.Sessions = append(d.Sessions, info)
	}
	for _, r := range c.ws.SessionRecords(workspaceID) {
		if !live[r.ID] {
			d.Sessions = append(d.Sessions, workspaces.SessionInfo{ID: r.ID, Name: r.Name, Agent: string(r.Agent),
				State: "paused", Created: r.CreatedAt})
		}
	}
	return d
}

// StopSession ends a session's process tree and waits for it.
func (c *Core) StopSession(id string) error {
	s, ok := c.ws.Session(id)
	if !ok {
		return fmt.Errorf("%w: %s", workspace.ErrSessionNotFound, id)
	}
	s.Stop()
	return nil
}

// RestartSession restarts a live session or resumes a paused record.
func (c *Core) RestartSession(id string) (workspaces.Terminal, error) {
	if s, ok := c.ws.Session(id); ok {
		return terminal{s}, s.Restart()
	}
	s, err := c.ws.ResumeSession(id)
	if err != nil {
		return nil, err
	}
	return terminal{s}, nil
}

// SavedOutput reads a paused session's saved scrollback (read-only; the
// session is not restarted).
func (c *Core) SavedOutput(id string, cols, rows int) ([]string, bool, error) {
	return c.ws.SavedOutput(id, cols, rows)
}

func (c *Core) RemoveWorkspace(id string, removeDir bool) error {
	return c.ws.RemoveWorkspace(id, removeDir)
}

func (c *Core) ArchiveWorkspace(id string, archived bool) error {
	return c.ws.Archive(id, archived)
}

func (t terminal) Scrollback() []string { return t.s.Terminal().ScrollbackStyled() }

func (t terminal) Wrapped() []bool { return t.s.Terminal().Wrapped() }

func (t terminal) MouseReporting() bool { return t.s.Terminal().MouseReporting() }

// SendMouse converts a bubbletea mouse message to the emulator's event.
func (t terminal) SendMouse(m tea.MouseMsg) {
	var ev vt.Mouse
	switch m := m.(type) {
	case tea.MouseClickMsg:
		ev = vt.MouseClick(m.Mouse())
	case tea.MouseReleaseMsg:
		ev = vt.MouseRelease(m.Mouse())
	case tea.MouseWheelMsg:
		ev = vt.MouseWheel(m.Mouse())
	case tea.MouseMotionMsg:
		ev = vt.MouseMotion(m.Mouse())
	default:
		return
	}
	t.s.Terminal().SendMouse(ev)
}
