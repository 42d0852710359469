package tui

import (
	tea "charm.land/bubbletea/v2"
)

// Messages a pane returns for the root to show.

// errMsg reports a failed core call as an error toast.
type errMsg struct{ err error }

// flashMsg shows an info toast that expires.
type flashMsg string

// focusWorkspaceMsg asks the root to show a workspace.
type focusWorkspaceMsg struct{ id string }

func errCmd(err error) tea.Cmd { return func() tea.Msg { return errMsg{err} } }
