package tui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/workspaces"
)

// viewReuse says how much of the last frame the next View may keep. A
// keystroke typed into an attached session changes nothing on screen until
// the session echoes it, and the echo changes only the session's lines:
// drawing the whole window again for either cost more than everything else
// on the echo's path.
type viewReuse int

const (
	// viewFresh draws everything (any message but the two below).
	viewFresh viewReuse = iota
	// viewBody keeps the footer and status bar: only the shown session's
	// screen changed (a TermChangedMsg).
	viewBody
	// viewSame keeps the whole frame: the message was input passed
	// straight to the attached session.
	viewSame
)

// lastFrame is what View drew last, for viewSame and viewBody.
type lastFrame struct {
	ok             bool
	view           tea.View
	footer, status string
	tabBar         string
}

// noteReuse decides, after Update handled msg, what the next View may
// keep. focus is the focus before the message; settled is false when the
// update also changed something around the pane (a dialog dropped).
func (m *Model) noteReuse(msg tea.Msg, focus Focus, settled bool) {
	forwarded := m.Workspaces.TakeForwarded()
	m.reuse = viewFresh
	if !m.last.ok || m.Focus != focus || !settled || m.overlayOpen() {
		return
	}
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		if forwarded {
			m.reuse = viewSame
		}
	case workspaces.TermChangedMsg:
		m.reuse = viewBody
	}
}

// ViewUnchanged tells the program, after Update, that the frame did not
// change (tea.ViewKeeper): the message was input passed straight to the
// attached session, so the program neither asks for a view nor draws one.
// The frame on screen may be newer than the last view (an echo patched
// onto it), and the session's TermChangedMsg brings the model up to date.
func (m *Model) ViewUnchanged() bool { return m.reuse == viewSame && m.last.ok }

// TextSink says where typed text goes without a message (tea.TextTaker):
// the attached session's, while it has the keys — the Workspaces pane has
// the focus and nothing is open over it. Any other state takes keys
// through Update.
func (m *Model) TextSink() tea.TextSink {
	if m.Focus != FocusWorkspaces || m.overlayOpen() {
		return nil
	}
	return m.Workspaces.TextSink()
}
