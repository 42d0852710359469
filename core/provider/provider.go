// Package provider talks to AI backends. Every backend streams one model
// turn as Events; the agent (core/agent) runs the tool loop on top, so tool
// execution, persistence and limits are the same for every API backend.
package provider

import (
	"context"
	"encoding/json"

	"alice/core"
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
	Input json.RawMessage `json:"input"`
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
}

// EventKind enumerates stream events.
type EventKind int

const (
	EventText     EventKind = iota // a text delta
	EventToolCall                  // a complete tool call
	EventDone                      // the turn ended; StopReason set
	EventError                     // the turn failed; Err set
)

// Event is one streamed step of a model turn.
type Event struct {
	Kind       EventKind
	Text       string
	ToolCall   ToolCall
	StopReason string
	Err        error
}

// Provider streams one model turn. The channel closes after EventDone or
// EventError; cancelling ctx ends the stream.
type Provider interface {
	Name() string
	Stream(ctx context.Context, req Request) <-chan Event
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
