package kit

import (
	"charm.land/bubbles/v2/key"
)

// KeyMap holds every binding with its help text; the help overlay and the
// status hints are generated from it.
type KeyMap struct {
	Global     GlobalKeys
	Chat       ChatKeys
	Inbox      InboxKeys
	Portfolio  PortfolioKeys
	Workspaces WorkspaceKeys
	Dialog     DialogKeys
	Overlay    OverlayKeys
}

// GlobalKeys work in every pane (unless a terminal is attached).
type GlobalKeys struct {
	Next, Prev, GoTo, Palette, Help, Quit, QuitQ, Detach, Dismiss, Messages key.Binding
}

// ChatKeys drive the chat pane.
type ChatKeys struct {
	Send, Newline, HistoryUp, HistoryDown, ScrollUp, ScrollDown, Top, Bottom, ToggleTools,
	Sessions, Cancel, Editor, ClearLine, DeleteWord, Summary key.Binding
	// Complete takes the highlighted /command while the list is shown;
	// NewlineAlt is Newline's other keys (help lists it, the footer not).
	Complete, NewlineAlt key.Binding
}

// InboxKeys drive the inbox pane.
type InboxKeys struct {
	Up, Down, Open, Back, Delete, Jump, ReadAll key.Binding
}

// PortfolioKeys drive the portfolio pane.
type PortfolioKeys struct {
	PrevAccount, NextAccount, Up, Down, Approve, Reject, Refresh, History key.Binding
	// PageUp, PageDown, Top and Bottom scroll a portfolio taller than the
	// pane (Up and Down by a line).
	PageUp, PageDown, Top, Bottom key.Binding
}

// WorkspaceKeys drive the workspaces pane.
type WorkspaceKeys struct {
	Up, Down, Create, Shell, Claude, Codex, Attach, Detach, Zoom, Files, Git, Back key.Binding
}

// OverlayKeys drive the palette and the help overlay (typing filters).
type OverlayKeys struct {
	Up, Down, Run, Close key.Binding
}

// DialogKeys answer confirmations.
type DialogKeys struct {
	Yes, No key.Binding
	// Up and Down scroll a confirmation taller than the screen.
	Up, Down key.Binding
}

// DefaultKeyMap is alice's key layout.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Global: GlobalKeys{
			Next: b("tab", "next pane", "tab"),
			Prev: b("shift+tab", "previous pane", "shift+tab"),
			GoTo: b("alt+1…9", "go to pane N", "alt+1", "alt+2", "alt+3", "alt+4", "alt+5", "alt+6", "alt+7", "alt+8", "alt+9",
				"f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10"),
			Palette:  b("ctrl+p", "commands", "ctrl+p"),
			Help:     b("?", "help", "?", "f1"),
			Quit:     b("ctrl+c", "quit", "ctrl+c"),
			QuitQ:    b("q", "quit (outside inputs)", "q"),
			Detach:   b("ctrl+z", "detach", "ctrl+z"),
			Dismiss:  b("ctrl+x", "dismiss error", "ctrl+x"),
			Messages: b("alt+m", "message history", "alt+m"),
		},
		Chat: ChatKeys{
			Send:        b("enter", "send", "enter"),
			Newline:     b("ctrl+j", "newline", "ctrl+j"),
			NewlineAlt:  b("alt+enter", "newline (terminals that send it)", "alt+enter", "shift+enter"),
			HistoryUp:   b("↑", "previous input", "up"),
			HistoryDown: b("↓", "next input", "down"),
			ScrollUp:    b("pgup", "scroll up", "pgup"),
			ScrollDown:  b("pgdn", "scroll down", "pgdown"),
			Top:         b("ctrl+home", "oldest message", "ctrl+home"),
			Bottom:      b("ctrl+end", "newest message", "ctrl+end"),
			ToggleTools: b("ctrl+o", "expand tool calls", "ctrl+o"),
			Sessions:    b("ctrl+s", "sessions", "ctrl+s"),
			Cancel:      b("esc", "stop reply", "esc"),
			Editor:      b("ctrl+e", "edit in $EDITOR", "ctrl+e"),
			ClearLine:   b("ctrl+u", "delete to line start", "ctrl+u"),
			DeleteWord:  b("ctrl+w", "delete word", "ctrl+w"),
			Summary:     b("ctrl+r", "show/hide compaction summary", "ctrl+r"),
			Complete:    b("tab", "complete /command", "tab"),
		},
		Inbox: InboxKeys{
			Up:      b("↑/k", "up", "up", "k"),
			Down:    b("↓/j", "down", "down", "j"),
			Open:    b("enter", "open", "enter"),
			Back:    b("esc", "back", "esc"),
			Delete:  b("d", "delete", "d"),
			Jump:    b("w/g", "go to workspace", "w", "g"),
			ReadAll: b("m", "mark all read", "m"),
		},
		Portfolio: PortfolioKeys{
			PrevAccount: b("[", "previous account", "[", "left", "h"),
			NextAccount: b("]", "next account", "]", "right", "l"),
			Up:          b("↑/k", "scroll up", "up", "k"),
			Down:        b("↓/j", "scroll down", "down", "j"),
			PageUp:      b("pgup", "page up", "pgup"),
			PageDown:    b("pgdn", "page down", "pgdown"),
			Top:         b("home/g", "top", "home", "g"),
			Bottom:      b("end/G", "bottom", "end", "G"),
			Approve:     b("a", "approve push", "a"),
			Reject:      b("x", "reject", "x"),
			Refresh:     b("r", "refresh", "r"),
			History:     b("v", "orders, trades & session costs", "v"),
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
			Zoom:   b("z", "full screen (ctrl+q comes back)", "z"),
			Files:  b("f", "files", "f"),
			Git:    b("l", "git log/status", "l", "g"),
			Back:   b("esc", "back", "esc"),
		},
		Dialog: DialogKeys{
			Yes:  b("y", "confirm", "y"),
			No:   b("n/esc", "cancel", "n", "esc"),
			Up:   b("↑", "scroll up", "up", "pgup"),
			Down: b("↓", "scroll down", "down", "pgdown"),
		},
		Overlay: OverlayKeys{
			Up:    b("↑", "previous", "up", "ctrl+p", "ctrl+k"),
			Down:  b("↓", "next", "down", "ctrl+n", "ctrl+j"),
			Run:   b("enter", "run", "enter"),
			Close: b("esc", "close", "esc"),
		},
	}
}
