package workspaces

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// AgentCore is what the agent features of the Workspaces pane need beyond
// Core: each session's derived agent state, the workspace diff with its
// commit/discard actions, and typing into a session without attaching.
// tui/live implements it; the pane finds it by type assertion, so a Core
// without it still works (no glyphs, no diff, no send line).
type AgentCore interface {
	// AgentStates lists the live sessions' agent states of a workspace.
	AgentStates(workspaceID string) []AgentSessionState
	WorkspaceDiff(workspaceID string) (WorkspaceDiff, error)
	// CommitWorkspace commits every change and makes it the new diff base.
	CommitWorkspace(workspaceID, message string) (string, error)
	// DiscardWorkspace restores paths (all changes when none) to the base.
	DiscardWorkspace(workspaceID string, paths []string) ([]string, error)
	// SendText types text into a session; enter submits it.
	SendText(sessionID, text string, enter bool) error
	// AcknowledgeSession tells the state tracker a person looked at it.
	AcknowledgeSession(sessionID string)
	// WatchSession marks a session as in front of a person (attached), so
	// no alert is sent about it; off ends that.
	WatchSession(sessionID string, on bool)
}

// AgentSessionState is one session's derived agent state.
type AgentSessionState struct {
	SessionID string
	Name      string
	Agent     string
	State     string // working | needs-you | idle | done | errored | exited
	Glyph     string // differs by shape per state
	Detail    string
}

// WorkspaceDiff is a workspace's changes against its sessions' start.
type WorkspaceDiff struct {
	Base  string
	Files []DiffFile
}

// DiffFile is one changed path.
type DiffFile struct {
	Path      string
	Change    string // added | modified | deleted
	Binary    bool
	TooLarge  bool
	Additions int
	Deletions int
	Patch     string
}

func (p *Pane) agentCore() (AgentCore, bool) {
	ac, ok := p.core.(AgentCore)
	return ac, ok
}

// stateStyle colours a state; the glyph already tells it by shape.
func stateStyle(st kit.Styles, state string) lipgloss.Style {
	switch state {
	case "needs-you":
		return st.Warn.Bold(true)
	case "errored":
		return st.Error
	case "done":
		return st.Profit
	case "working":
		return st.Accent
	}
	return st.Muted
}

// urgentStates are counted on the tab badge and in the status bar, most
// pressing first.
var urgentStates = []string{"needs-you", "errored", "done"}

// agentBadge is the tab marker for a set of session states: the most
// pressing state's glyph and count, e.g. "!2" when two sessions need you.
func agentBadge(st kit.Styles, states []AgentSessionState) string {
	counts, glyphs := countStates(states)
	for _, s := range urgentStates {
		if n := counts[s]; n > 0 {
			return stateStyle(st, s).Render(fmt.Sprintf("%s%d", glyphs[s], n))
		}
	}
	return ""
}

// agentSummary is the status bar segment: "! 1 needs you · ✓ 2 done".
func agentSummary(st kit.Styles, states []AgentSessionState) string {
	counts, glyphs := countStates(states)
	var parts []string
	for _, s := range urgentStates {
		if n := counts[s]; n > 0 {
			label := map[string]string{"needs-you": "need you", "errored": "errored", "done": "done"}[s]
			if s == "needs-you" && n == 1 {
				label = "needs you"
			}
			parts = append(parts, stateStyle(st, s).Inherit(st.StatusBar).Render(fmt.Sprintf("%s %d %s", glyphs[s], n, label)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return st.StatusKey.Render(" Agents ") + strings.Join(parts, st.StatusBar.Render(" · "))
}

func countStates(states []AgentSessionState) (map[string]int, map[string]string) {
	counts, glyphs := map[string]int{}, map[string]string{}
	for _, a := range states {
		counts[a.State]++
		glyphs[a.State] = a.Glyph
	}
	return counts, glyphs
}

// agentKeys are the Workspaces list keys of the agent features.
var agentKeys = struct{ Diff, Send key.Binding }{
	Diff: key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "diff since start (commit/discard)")),
	Send: sendKeys.Open,
}

// agentHelp replaces the footer hints while the diff or send line is open
// and adds the agent keys in list mode.
func (p *Pane) agentHelp() ([]key.Binding, bool) {
	switch {
	case p.Diff != nil:
		return diffKeys.help(), true
	case p.Send != nil:
		return sendKeys.help(), true
	}
	return nil, false
}

// agentListKeys are appended to the list-mode hints when AgentCore exists.
func (p *Pane) agentListKeys() []key.Binding {
	if _, ok := p.agentCore(); !ok {
		return nil
	}
	return []key.Binding{agentKeys.Diff, agentKeys.Send}
}

// updateAgentUI routes messages and keys to the diff view or send line
// while one is open, and opens them from list mode. handled=false lets the
// pane carry on.
func (p *Pane) updateAgentUI(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case diffLoadedMsg, diffActionMsg:
		if p.Diff == nil {
			return nil, true
		}
		_, cmd := p.Diff.Update(msg)
		return cmd, true
	case sentMsg:
		return p.onSent(msg), true
	case tea.KeyPressMsg:
		switch {
		case p.Diff != nil:
			closed, cmd := p.Diff.Update(msg)
			if closed {
				p.Diff = nil
				return p.Load(), true
			}
			return cmd, true
		case p.Send != nil:
			return p.onSendKey(msg), true
		case p.Mode != WsList:
			return nil, false
		case key.Matches(msg, agentKeys.Diff):
			ws, ok := p.current()
			if !ok {
				return nil, true
			}
			if _, ok := p.agentCore(); !ok {
				return kit.ErrCmd(errors.New("this core cannot show workspace diffs")), true
			}
			p.Diff = newDiffView(p.m, p.core, ws, p.w, p.h)
			return p.Diff.Load(), true
		case key.Matches(msg, agentKeys.Send):
			return p.openSend(), true
		}
	case tea.PasteMsg:
		if p.Send != nil && p.Send.busy {
			p.Send.held.add(msg)
			return nil, true
		}
		if p.Send != nil {
			var cmd tea.Cmd
			p.Send.in, cmd = p.Send.in.Update(msg)
			return cmd, true
		}
	}
	return nil, false
}

// agentView draws the diff view or the list with the send line.
func (p *Pane) agentView(list func() string) (string, bool) {
	switch {
	case p.Diff != nil:
		p.Diff.w, p.Diff.h = p.w, p.h
		return p.Diff.View(), true
	case p.Send != nil:
		return p.sendView(list()), true
	}
	return "", false
}

// acknowledge tells the tracker a person is now looking at a session
// (attached): its bell is answered, Done turns Idle, and no alert is sent
// about it until unwatch.
func (p *Pane) acknowledge(t Terminal) tea.Cmd {
	ac, ok := p.agentCore()
	if !ok || t == nil {
		return nil
	}
	id, prev := t.ID(), p.watchedID
	p.watchedID = id
	return func() tea.Msg {
		if prev != "" && prev != id {
			ac.WatchSession(prev, false)
		}
		if prev != id {
			ac.WatchSession(id, true)
		}
		ac.AcknowledgeSession(id)
		return nil
	}
}

// unwatch ends acknowledge's watch when the person detaches.
func (p *Pane) unwatch() tea.Cmd {
	ac, ok := p.agentCore()
	id := p.watchedID
	p.watchedID = ""
	if !ok || id == "" {
		return nil
	}
	return func() tea.Msg { ac.WatchSession(id, false); return nil }
}

// allAgentStates collects the agent state of every listed session.
func (p *Pane) allAgentStates() []AgentSessionState {
	var out []AgentSessionState
	for _, d := range p.details {
		for _, s := range d.Sessions {
			if s.AgentState != "" {
				out = append(out, AgentSessionState{SessionID: s.ID, Name: s.Name, Agent: s.Agent, State: s.AgentState, Glyph: s.Glyph})
			}
		}
	}
	return out
}

// Badge marks the Workspaces tab with the most pressing agent state.
func (p *Pane) Badge() string { return agentBadge(*p.m.Styles(), p.allAgentStates()) }

// AgentStatus is the status bar segment for the agents.
func (p *Pane) AgentStatus() string { return agentSummary(*p.m.Styles(), p.allAgentStates()) }

// sessionGlyph is a session's state glyph, styled, or a space.
func (p *Pane) sessionGlyph(s SessionInfo) string {
	if s.Glyph == "" {
		return " "
	}
	return stateStyle(*p.m.Styles(), s.AgentState).Render(s.Glyph)
}

// sessionStateText is what the session row says: the agent state while
// the process runs, else the process state.
func sessionStateText(s SessionInfo) string {
	if s.AgentState != "" && isLive(s.State) {
		return s.AgentState
	}
	st, _, _ := strings.Cut(s.State, ":")
	return st
}

// agentActions are the palette entries of the agent features.
func (p *Pane) agentActions(w WorkspaceInfo) []kit.Action {
	if _, ok := p.agentCore(); !ok {
		return nil
	}
	m := p.m
	return []kit.Action{
		{ID: "workspaces.diff", Title: "Diff of " + w.Tag + " since its sessions started", Group: "Workspaces", Key: kit.KeyOf(agentKeys.Diff),
			Keywords: "changes review commit discard", Run: m.GoAndPress(p, agentKeys.Diff)},
		{ID: "workspaces.send", Title: "Type a prompt into a session of " + w.Tag, Group: "Workspaces", Key: kit.KeyOf(agentKeys.Send),
			Keywords: "send input agent", Run: m.GoAndPress(p, agentKeys.Send)},
	}
}
