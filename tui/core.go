// Package tui is alice's terminal surface: one Bubble Tea root model with
// four panes (chat, inbox, portfolio, workspaces), a help overlay and a
// status bar. It talks to the running core only through the Core interface
// declared here; tui/live adapts the real app.App to it and tests use
// a fake. No IO happens inside Update: every Core call runs in a tea.Cmd.
package tui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"
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

	// Chat.
	Sessions() ([]string, error)
	History(session string, limit int) ([]ChatMessage, error)
	// Send starts one agent turn; the channel closes after a ChatDone or
	// ChatError event.
	Send(ctx context.Context, session, text string) (<-chan ChatEvent, error)
	Compact(ctx context.Context, session string) error

	// Inbox.
	Inbox(limit int) ([]InboxEntry, error)
	RenderInbox(id string, width int) ([]RenderedDoc, error)
	DeleteInbox(id string) error

	// Portfolio.
	Accounts() ([]AccountSummary, error)
	Positions(account string) ([]Position, error)
	Orders(account string) ([]Order, error)
	Pending() ([]PendingCommit, error)
	// Approve and Reject decide the commit with hash — the one the person
	// was shown; the core refuses if the account's commit changed since.
	Approve(ctx context.Context, account, hash string) (string, error)
	Reject(ctx context.Context, account, hash, reason string) error
	TradingLog(account string, limit int) ([]CommitLogEntry, error)
	EquityCurve(account string) ([]EquityPoint, error)

	// Workspaces.
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
	Cursor() (x, y int, visible bool)
	// Changed receives a nudge (capacity 1) when the screen changes.
	Changed() <-chan struct{}
	SendKey(tea.KeyPressMsg)
	Paste(string)
	Resize(cols, rows int)
	// Attach returns the full-screen zoom command (ctrl+q detaches).
	Attach() tea.ExecCommand
}

// StatusInfo feeds the status bar.
type StatusInfo struct {
	MainMCP  string
	AskMCP   string
	Provider string
	Problems []string
}

// ChatRole is who wrote a chat message.
type ChatRole int

const (
	RoleUser ChatRole = iota
	RoleAssistant
	RoleTool
	RoleSystem
	// RoleImage is an image a tool returned; Text is its file path.
	RoleImage
	// RoleCompaction marks where the session was compacted; Text is the
	// summary that replaced the earlier messages (may be empty).
	RoleCompaction
)

// ChatMessage is one rendered unit of a conversation.
type ChatMessage struct {
	Role    ChatRole
	Text    string // markdown for assistant, plain otherwise
	Tool    string // tool name for RoleTool
	ToolID  string // pairs a streamed tool result with its call (optional)
	Input   string // tool input JSON
	Output  string // tool result text
	IsError bool
	Time    time.Time
}

// ChatEvent is one streamed step of an agent turn.
type ChatEvent struct {
	Kind    ChatEventKind
	Text    string // delta, final text, or error message
	Tool    string
	ToolID  string
	Input   string
	Output  string
	IsError bool
}

// ChatEventKind enumerates stream steps.
type ChatEventKind int

const (
	ChatDelta ChatEventKind = iota
	ChatToolUse
	ChatToolResult
	ChatDone
	ChatError
	// ChatImage: a tool returned an image, saved at Text (a file path).
	ChatImage
)

// InboxEntry is one push from a workspace agent.
type InboxEntry struct {
	ID          string
	WorkspaceID string
	Workspace   string
	Docs        []string
	Comments    string
	Time        time.Time
}

// RenderedDoc is a live-rendered inbox document or its tombstone.
type RenderedDoc struct {
	Path      string
	Body      string
	Tombstone string
}

// AccountSummary is one trading account's headline numbers.
type AccountSummary struct {
	ID            string
	Label         string
	Broker        string
	Health        string
	AutoApprove   bool
	NetLiq        decimal.Decimal
	Cash          decimal.Decimal
	UnrealizedPnL decimal.Decimal
	RealizedPnL   decimal.Decimal
	Error         string
}

// Position is one holding.
type Position struct {
	Symbol        string
	Side          string
	Quantity      decimal.Decimal
	AvgCost       decimal.Decimal
	MarketPrice   decimal.Decimal
	MarketValue   decimal.Decimal
	UnrealizedPnL decimal.Decimal
}

// Order is one open order.
type Order struct {
	ID       string
	Symbol   string
	Action   string
	Type     string
	Quantity decimal.Decimal
	Limit    decimal.Decimal
	Status   string
}

// PendingCommit awaits a person's approval.
type PendingCommit struct {
	Account    string
	Hash       string
	Message    string
	Operations []string
}

// CommitLogEntry is one Trading-as-Git commit.
type CommitLogEntry struct {
	Hash    string
	Message string
	Time    time.Time
	Changes []string
}

// EquityPoint is one snapshot's net liquidation value.
type EquityPoint struct {
	Time   time.Time
	Equity float64 // charting only; money values elsewhere stay decimal
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

// Core events delivered through Events.
type (
	// InboxChangedEvent: entries were appended or removed.
	InboxChangedEvent struct{}
	// TradingChangedEvent: commits, fills, snapshots or accounts changed.
	TradingChangedEvent struct{ ApprovalRequested bool }
	// WorkspacesChangedEvent: a workspace or session changed state.
	WorkspacesChangedEvent struct{}
	// NotificationEvent: the agent or scheduler notified the user.
	NotificationEvent struct{ Text, Source string }
)
