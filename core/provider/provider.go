// Package provider talks to AI backends. Every backend streams one model
// turn as Events; the agent (core/agent) runs the tool loop on top, so tool
// execution, persistence and limits are the same for every API backend.
package provider

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/alice-trading/alice/core"
)

// Role of a conversation message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// ToolCall is the model asking for a tool.
type ToolCall struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"` // always a valid JSON value ("{}" when the model sent garbage)
	// InvalidInput holds the raw arguments when the model sent text that is
	// not JSON (small local models do). The agent then answers the call with
	// an error the model can correct instead of running the tool on "{}".
	InvalidInput string `json:"-"`
}

// toolInput normalises raw tool arguments: empty means "{}", invalid JSON
// is reported through InvalidInput.
func toolInput(raw string) (json.RawMessage, string) {
	if strings.TrimSpace(raw) == "" {
		return json.RawMessage("{}"), ""
	}
	if !json.Valid([]byte(raw)) {
		return json.RawMessage("{}"), raw
	}
	return json.RawMessage(raw), ""
}

// ToolResult answers a ToolCall.
type ToolResult struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Content string `json:"content"`
	IsError bool   `json:"isError"`
}

// Message is one turn of the conversation sent to a backend. An assistant
// message may carry tool calls; a user message may carry tool results.
type Message struct {
	Role        Role
	Text        string
	ToolCalls   []ToolCall
	ToolResults []ToolResult
}

// Request is one model turn.
type Request struct {
	Model     string
	System    string
	Messages  []Message
	Tools     []core.Tool
	MaxTokens int
	// DisabledTools are a channel's refused tools, for self-looping
	// backends that reach alice's tools over MCP (API backends simply do
	// not get them in Tools).
	DisabledTools []string
}

// EventKind enumerates stream events.
type EventKind int

const (
	EventText     EventKind = iota // a text delta
	EventToolCall                  // a complete tool call
	EventDone                      // the turn ended; StopReason set (CLI backends: Text = final result)
	EventError                     // the turn failed; Err set
	// EventToolResult is a tool result reported by a self-looping backend
	// (ToolCall.ID names the call, Text is the output, IsError marks failures).
	EventToolResult
)

// Event is one streamed step of a model turn.
type Event struct {
	Kind       EventKind
	Text       string
	ToolCall   ToolCall
	StopReason string
	IsError    bool
	Err        error
	// Usage is the turn's token count, on EventDone when the backend
	// reported it (nil when it did not).
	Usage *Usage
}

// Usage is what one model turn consumed. Input includes prompt-cache
// reads and writes (Anthropic reports them apart; CacheRead and
// CacheWrite keep the split for pricing).
type Usage struct {
	InputTokens  int64 `json:"inputTokens"`
	OutputTokens int64 `json:"outputTokens"`
	CacheRead    int64 `json:"cacheReadTokens,omitempty"`
	CacheWrite   int64 `json:"cacheWriteTokens,omitempty"`
}

// Provider streams one model turn. The channel closes after EventDone or
// EventError; cancelling ctx ends the stream (the channel then closes
// without a final event). Name is the tag persisted in session lines.
type Provider interface {
	Name() string
	Stream(ctx context.Context, req Request) <-chan Event
}

// SelfLooping marks backends that run their own agent loop (the claude and
// codex CLIs reach alice's tools through its MCP endpoint). The agent sends
// them one flattened prompt and records the tool calls they report as
// EventToolCall / EventToolResult.
type SelfLooping interface {
	Provider
	SelfLooping()
}

// emit sends an event unless ctx is done.
func emit(ctx context.Context, ch chan<- Event, ev Event) bool {
	select {
	case ch <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}

// schemaMap decodes a tool's JSON schema for SDKs that want a map.
func schemaMap(t core.Tool) map[string]any {
	var m map[string]any
	if err := json.Unmarshal(t.InputSchema, &m); err != nil || m == nil {
		m = map[string]any{"type": "object"}
	}
	return m
}
