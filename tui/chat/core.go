package chat

import (
	"context"
	"time"
)

// chatCore is what the Chat pane needs from alice.
type Core interface {
	Sessions() ([]string, error)
	History(session string, limit int) ([]ChatMessage, error)
	// Send starts one agent turn; the channel closes after a ChatDone or
	// ChatError event.
	Send(ctx context.Context, session, text string) (<-chan ChatEvent, error)
	Compact(ctx context.Context, session string) error
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
