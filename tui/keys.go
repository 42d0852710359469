package tui

import "charm.land/bubbles/v2/key"

// KeyMap holds every binding with its help text; the help overlay and the
// status hints are generated from it.
type KeyMap struct {
	Global     GlobalKeys
	Chat       ChatKeys
	Inbox      InboxKeys
	Portfolio  PortfolioKeys
	Workspaces WorkspaceKeys
	Dialog     DialogKeys
}

// GlobalKeys work in every pane (unless a terminal is attached).
type GlobalKeys struct {
	Next, Prev, Chat, Inbox, Portfolio, Workspaces, Settings, Help, Quit key.Binding
}

// ChatKeys drive the chat pane.
type ChatKeys struct {
	Send, HistoryUp, HistoryDown, ScrollUp, ScrollDown, ToggleTools, Sessions, Cancel key.Binding
}

// InboxKeys drive the inbox pane.
type InboxKeys struct {
	Up, Down, Open, Back, Delete, Jump key.Binding
}

// PortfolioKeys drive the portfolio pane.
type PortfolioKeys struct {
	PrevAccount, NextAccount, Up, Down, Approve, Reject, Refresh key.Binding
}

// WorkspaceKeys drive the workspaces pane.
type WorkspaceKeys struct {
	Up, Down, Create, Shell, Claude, Codex, Attach, Detach, Zoom, Files, Git, Back key.Binding
}

// DialogKeys answer confirmations.
type DialogKeys struct {
	Yes, No key.Binding
}

// DefaultKeyMap is alice's key layout.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Global: GlobalKeys{
			Next:       b("tab", "next pane", "tab"),
			Prev:       b("shift+tab", "previous pane", "shift+tab"),
			Chat:       b("alt+1", "chat", "alt+1", "f2"),
			Inbox:      b("alt+2", "inbox", "alt+2", "f3"),
			Portfolio:  b("alt+3", "portfolio", "alt+3", "f4"),
			Workspaces: b("alt+4", "workspaces", "alt+4", "f5"),
			Settings:   b("alt+5", "settings", "alt+5", "f6"),
			Help:       b("?/f1", "help", "?", "f1"),
			Quit:       b("ctrl+c", "quit", "ctrl+c"),
		},
		Chat: ChatKeys{
			Send:        b("enter", "send", "enter"),
			HistoryUp:   b("↑", "previous input", "up"),
			HistoryDown: b("↓", "next input", "down"),
			ScrollUp:    b("pgup", "scroll up", "pgup", "ctrl+u"),
			ScrollDown:  b("pgdn", "scroll down", "pgdown", "ctrl+d"),
			ToggleTools: b("ctrl+o", "expand tool calls", "ctrl+o"),
			Sessions:    b("ctrl+s", "sessions", "ctrl+s"),
			Cancel:      b("esc", "stop reply", "esc"),
		},
		Inbox: InboxKeys{
			Up:     b("↑/k", "up", "up", "k"),
			Down:   b("↓/j", "down", "down", "j"),
			Open:   b("enter", "open", "enter"),
			Back:   b("esc", "back", "esc"),
			Delete: b("d", "delete", "d"),
			Jump:   b("w/g", "go to workspace", "w", "g"),
		},
		Portfolio: PortfolioKeys{
			PrevAccount: b("[", "previous account", "[", "left", "h"),
			NextAccount: b("]", "next account", "]", "right", "l"),
			Up:          b("↑/k", "up", "up", "k"),
			Down:        b("↓/j", "down", "down", "j"),
			Approve:     b("a", "approve push", "a"),
			Reject:      b("x", "reject", "x"),
			Refresh:     b("r", "refresh", "r"),
		},
		Workspaces: WorkspaceKeys{
			Up:     b("↑/k", "up", "up", "k"),
			Down:   b("↓/j", "down", "down", "j"),
			Create: b("n", "new workspace", "n"),
			Shell:  b("s", "start shell", "s"),
			Claude: b("c", "start claude", "c"),
			Codex:  b("x", "start codex", "x"),
			Attach: b("enter", "attach", "enter"),
			Detach: b("ctrl+q", "detach", "ctrl+q"),
			Zoom:   b("z", "full screen", "z"),
			Files:  b("f", "files", "f"),
			Git:    b("l", "git log/status", "l", "g"),
			Back:   b("esc", "back", "esc"),
		},
		Dialog: DialogKeys{
			Yes: b("y", "confirm", "y"),
			No:  b("n/esc", "cancel", "n", "esc"),
		},
	}
}
