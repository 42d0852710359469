// Package mcpdemo wires both MCP listeners with a few sample tools and an
// in-memory echo agent, so black-box clients, the conformance suite and the
// load benchmark can run against the real transport without an AI provider
// or the rest of alice.
package mcpdemo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/mcp"
)

// Options configures the demo servers.
type Options struct {
	Main, Ask mcp.Listen
	Logger    *slog.Logger
	// Disabled is the tools.json stand-in, read on every request.
	Disabled func() []string
}

// Servers are the two running listeners.
type Servers struct {
	Main, Ask *mcp.Server
	Agent     *EchoAgent
}

// Start builds and starts both listeners; ctx ends them.
func Start(ctx context.Context, o Options) (*Servers, error) {
	tc := core.NewToolCenter(o.Disabled)
	Register(tc)
	wtc := core.NewWorkspaceToolCenter(o.Disabled)
	wtc.Register(core.WorkspaceToolFactory{Name: "inbox_push", Build: inboxPush})
	// Workspaces known to the demo: /mcp/demo-ws and /mcp/research.
	workspaces := []core.WorkspaceIdentity{{ID: "demo-ws", Label: "Demo"}, {ID: "research", Label: "Research"}}
	lookup := func(id string) (core.WorkspaceIdentity, bool) {
		for _, ws := range workspaces {
			if ws.ID == id {
				return ws, true
			}
		}
		return core.WorkspaceIdentity{}, false
	}
	agent := NewEchoAgent()
	s := &Servers{
		Main:  mcp.NewMain(mcp.MainOptions{Listen: o.Main, Tools: tc, Workspaces: wtc, LookupWorkspace: lookup, Logger: o.Logger, Version: "demo"}),
		Ask:   mcp.NewAsk(mcp.AskOptions{Listen: o.Ask, Asker: agent, Sessions: agent, Recorder: agent, Logger: o.Logger, Version: "demo"}),
		Agent: agent,
	}
	if err := s.Main.Start(ctx); err != nil {
		return nil, err
	}
	if err := s.Ask.Start(ctx); err != nil {
		_ = s.Main.Close()
		return nil, err
	}
	return s, nil
}

// Close stops both listeners.
func (s *Servers) Close() error {
	return errors.Join(s.Main.Close(), s.Ask.Close())
}

// Register adds the sample tools: echo, add, quote (decimal strings) and
// fail (always a tool error).
func Register(r core.ToolRegistry) {
	r.Register(
		core.Tool{
			Name: "echo", Group: "demo", Description: "Echo a message back.",
			InputSchema: core.Schema(`{"type":"object","properties":{"message":{"type":"string","description":"Text to echo"}},"required":["message"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				var a struct {
					Message string `json:"message"`
				}
				if err := core.DecodeArgs(args, &a); err != nil {
					return nil, err
				}
				return map[string]string{"echo": a.Message}, nil
			},
		},
		core.Tool{
			Name: "add", Group: "demo", Description: "Add two numbers.",
			InputSchema: core.Schema(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				var a struct{ A, B float64 }
				if err := core.DecodeArgs(args, &a); err != nil {
					return nil, err
				}
				return map[string]float64{"sum": a.A + a.B}, nil
			},
		},
		core.Tool{
			Name: "fail", Group: "demo", Description: "Always returns a tool error (for client error handling).",
			InputSchema: core.Schema(`{"type":"object","properties":{}}`),
			Handler: func(context.Context, json.RawMessage) (any, error) {
				return nil, errors.New("this tool always fails")
			},
		},
	)
}

func inboxPush(ws core.WorkspaceIdentity) core.Tool {
	return core.Tool{
		Name: "inbox_push", Group: "workspace", Description: "Push a note to the user's inbox from this workspace.",
		InputSchema: core.Schema(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`),
		Handler: func(_ context.Context, args json.RawMessage) (any, error) {
			var a struct {
				Title string `json:"title"`
			}
			if err := core.DecodeArgs(args, &a); err != nil {
				return nil, err
			}
			return map[string]string{"workspace": ws.ID, "label": ws.Label, "title": a.Title}, nil
		},
	}
}

// EchoAgent is an in-memory stand-in for AgentCenter + session store.
type EchoAgent struct {
	mu       sync.Mutex
	sessions map[string][]mcp.Message
	touches  int
}

// NewEchoAgent returns an empty agent.
func NewEchoAgent() *EchoAgent { return &EchoAgent{sessions: map[string][]mcp.Message{}} }

// AskWithSession replies "Alice (turn N): <message>".
func (a *EchoAgent) AskWithSession(_ context.Context, message, sessionID string) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	turn := len(a.sessions[sessionID])/2 + 1
	reply := fmt.Sprintf("Alice (turn %d): %s", turn, message)
	a.sessions[sessionID] = append(a.sessions[sessionID], mcp.Message{Role: "user", Text: message}, mcp.Message{Role: "assistant", Text: reply})
	return reply, nil
}

// ListSessions lists stored session ids with prefix.
func (a *EchoAgent) ListSessions(prefix string) ([]string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for id := range a.sessions {
		if strings.HasPrefix(id, prefix) {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out, nil
}

// History returns the last limit messages.
func (a *EchoAgent) History(sessionID string, limit int) ([]mcp.Message, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	m := a.sessions[sessionID]
	if len(m) > limit {
		m = m[len(m)-limit:]
	}
	return append([]mcp.Message(nil), m...), nil
}

// Touch counts recorded interactions.
func (a *EchoAgent) Touch(string, string) {
	a.mu.Lock()
	a.touches++
	a.mu.Unlock()
}
