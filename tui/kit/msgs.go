package kit

import (
	tea "charm.land/bubbletea/v2"
)

// Messages a pane returns for the root to show.

// ErrMsg reports a failed core call as an error toast.
type ErrMsg struct{ Err error }

// FlashMsg shows an info toast that expires.
type FlashMsg string

// WithdrawMsg drops a live info toast whose text it is: what it said is no
// longer so (it stays in the history).
type WithdrawMsg string

// FocusWorkspaceMsg asks the root to show a workspace.
type FocusWorkspaceMsg struct{ ID string }

func ErrCmd(err error) tea.Cmd { return func() tea.Msg { return ErrMsg{err} } }

func FlashCmd(s string) tea.Cmd { return func() tea.Msg { return FlashMsg(s) } }
