package workspaces

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// workspacesCore is what the Workspaces pane needs from alice.
type Core interface {
	Templates() []string
	Workspaces() ([]WorkspaceInfo, error)
	CreateWorkspace(ctx context.Context, tag, template string) (WorkspaceInfo, error)
	StartSession(workspaceID, agent string) (Terminal, error)
	Terminals(workspaceID string) []Terminal
	Files(workspaceID, rel string) ([]FileInfo, error)
	GitSummary(workspaceID string) (string, error)
}

// Terminal is a live pty session rendered by an in-process emulator.
type Terminal interface {
	ID() string
	Name() string
	State() string
	Render() string
	// Frame is the screen and the cursor read together: one wait for
	// the emulator's lock per redraw.
	Frame() TermFrame
	// Subscribe returns a channel nudged (capacity 1) each time the
	// screen changes, for this reader alone (other clients' panes showing
	// the same session have their own), and the call that ends it.
	Subscribe() (changes <-chan struct{}, cancel func())
	SendKey(tea.KeyPressMsg)
	// SendText sends typed text (printable characters, Enter, Tab,
	// Backspace; no other control, no escape) as it is; false when the
	// session is closed.
	SendText([]byte) bool
	Paste(string)
	Resize(cols, rows int)
	// Attach returns the full-screen zoom command (ctrl+q detaches).
	Attach() tea.ExecCommand
}

// TermFrame is a session's screen (ANSI-styled rows) and cursor, read
// together.
type TermFrame struct {
	Screen        string
	X, Y          int
	CursorVisible bool
}

// WorkspaceInfo is one workspace row.
type WorkspaceInfo struct {
	ID       string
	Tag      string
	Template string
	Dir      string
	Sessions []string // "sh1 running", …
}

// FileInfo is one directory entry of a workspace.
type FileInfo struct {
	Name  string
	IsDir bool
	Size  int64
}
