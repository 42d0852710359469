package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
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

func (p *workspacesPane) agentCore() (AgentCore, bool) {
	ac, ok := p.m.core.(AgentCore)
	return ac, ok
}

// stateStyle colours a state; the glyph already tells it by shape.
func stateStyle(st Styles, state string) lipgloss.Style {
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
func agentBadge(st Styles, states []AgentSessionState) string {
	counts, glyphs := countStates(states)
	for _, s := range urgentStates {
		if n := counts[s]; n > 0 {
			return stateStyle(st, s).Render(fmt.Sprintf("%s%d", glyphs[s], n))
		}
	}
	return ""
}

// agentSummary is the status bar segment: "! 1 needs you · ✓ 2 done".
func agentSummary(st Styles, states []AgentSessionState) string {
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
