// Package tui is alice's terminal surface: the one Bubble Tea root model
// (Model) with the tab bar, the rounded frame, the footer of key hints, the
// status bar, the command palette, help, the confirmation dialog and quit.
// Each pane lives in its own package (tui/chat, tui/inbox, tui/portfolio,
// tui/workspaces, tui/market, tui/activity, tui/mcppage, tui/settings) and
// shares tui/kit; the root wires them in New. It talks to the running
// core only through Core, which embeds each pane's own core interface;
// tui/live adapts the real app.App to it and tests use tui/internal/tuitest.
// No IO happens inside Update: every Core call runs in a tea.Cmd.
package tui

import (
	"context"

	"github.com/alice-trading/alice/tui/chat"
	"github.com/alice-trading/alice/tui/inbox"
	"github.com/alice-trading/alice/tui/portfolio"
	"github.com/alice-trading/alice/tui/workspaces"
)

// Core is everything the UI needs from alice's core.
//
// Contract:
//   - The model calls these methods only from tea.Cmd goroutines, possibly
//     several at once, so implementations must be safe for concurrent use.
//     The exceptions are the Terminal input methods (SendKey, Paste), which
//     are called on the UI goroutine to keep keystroke order and must only
//     queue (never wait on the child).
//   - Background changes reach the UI through Events, read by exactly one
//     in-flight Cmd that is re-armed after each value (the bridge; there is
//     no program.Send). Values are the *Event types at the end of this file;
//     other values are ignored. A lossy channel is fine: events only tell a
//     pane to reload, and a periodic tick reloads the portfolio and status.
//   - Terminal output is not an event: the pane waits on Terminal.Changed.
//   - Errors are shown in the status bar (first line) or, for Send, as a
//     chat message with the full text (e.g. how to configure a provider).
type Core interface {
	// Status describes listeners, provider and start-up problems.
	Status() StatusInfo
	// Events streams core changes (values of the *Event types below) until
	// ctx ends. The root model reads one event per Cmd and re-arms.
	Events(ctx context.Context) <-chan any

	chat.Core
	inbox.Core
	portfolio.Core
	workspaces.Core
}

// StatusInfo feeds the status bar.
type StatusInfo struct {
	MainMCP  string
	AskMCP   string
	Provider string
	Problems []string
	// Telegram is set while the Telegram link is down (retrying), "" when
	// it is up or off.
	Telegram string
	// What else the core runs in the background, which quitting stops:
	// enabled scheduled jobs, the heartbeat and the Telegram bot.
	Schedules   int
	Heartbeat   bool
	TelegramBot bool
}

// Core events delivered through Events.
type (
	// InboxChangedEvent: entries were appended or removed.
	InboxChangedEvent struct{}
	// TradingChangedEvent: commits, fills, snapshots or accounts changed.
	// MarkMoved: a simulator's mark was pinned (from any client or tool),
	// so the Market pane reloads the shown symbol's quote and chart.
	TradingChangedEvent struct{ ApprovalRequested, MarkMoved bool }
	// WorkspacesChangedEvent: a workspace or session changed state.
	WorkspacesChangedEvent struct{}
	// NotificationEvent: the agent or scheduler notified the user.
	NotificationEvent struct{ Text, Source string }
)
