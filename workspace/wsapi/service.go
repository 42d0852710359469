// Package wsapi is the workspace management API shared by the running
// instance (an HTTP handler on the main MCP listener, behind the same
// Host/Origin checks and bearer token as /mcp) and the headless CLI
// (`alice workspace …`), which talks to that API when an instance is up
// and drives a workspace.Manager on the data dir directly otherwise. Both
// paths go through Backend, so they behave the same.
package wsapi

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/alice-trading/alice/workspace"
)

// Session is one live session of a workspace.
type Session struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Agent string `json:"agent"`
	State string `json:"state"`
	// AgentState is what the agent is doing (working, needs-you, idle,
	// done, errored, exited) and Glyph its shape; empty when unknown.
	AgentState string `json:"agentState,omitempty"`
	Glyph      string `json:"glyph,omitempty"`
}

// Info describes a workspace and how MCP clients reach alice from it.
type Info struct {
	ID        string    `json:"id"`
	Tag       string    `json:"tag"`
	Template  string    `json:"template"`
	Dir       string    `json:"dir"`
	CreatedAt time.Time `json:"createdAt"`
	Archived  bool      `json:"archived,omitempty"`
	// MCPURL is alice's global endpoint (/mcp); WorkspaceMCPURL is the
	// workspace-scoped one (/mcp/{wsId}).
	MCPURL          string    `json:"mcpUrl"`
	WorkspaceMCPURL string    `json:"workspaceMcpUrl"`
	Sessions        []Session `json:"sessions"`
}

// CreateRequest is the body of POST /api/workspaces.
type CreateRequest struct {
	Tag      string `json:"tag"`
	Template string `json:"template,omitempty"`
}

// SendRequest is the body of POST /api/workspaces/{id}/send: text typed
// into a session (the newest live one unless Session names one), followed
// by Enter unless Draft.
type SendRequest struct {
	Session string `json:"session,omitempty"`
	Text    string `json:"text"`
	Draft   bool   `json:"draft,omitempty"`
}

// Backend is what `alice workspace` needs; Service (direct) and Client
// (HTTP) implement it.
type Backend interface {
	List(ctx context.Context) ([]Info, error)
	Create(ctx context.Context, tag, template string) (Info, error)
	// Remove stops the workspace's sessions and forgets it; its directory
	// is deleted only with removeDir.
	Remove(ctx context.Context, idOrTag string, removeDir bool) error
	Send(ctx context.Context, idOrTag string, req SendRequest) error
	// Run runs a one-shot or a session turn in the workspace (run.go).
	Run(ctx context.Context, idOrTag string, req RunRequest) (RunResult, error)
}

// ErrBadRequest marks caller mistakes (HTTP 400).
var ErrBadRequest = errors.New("bad request")

// Service runs the operations on a Manager.
type Service struct {
	M *workspace.Manager
	// MCPURL is alice's global MCP endpoint (…/mcp).
	MCPURL func() string
	// Queue, when set, runs RunRequests as tasks of the durable work queue
	// (the running instance); the workspace id is resolved already.
	Queue func(ctx context.Context, wsID string, req RunRequest) (RunResult, error)
}

var _ Backend = Service{}

func (s Service) mcpURL() string {
	if s.MCPURL == nil {
		return ""
	}
	return strings.TrimRight(s.MCPURL(), "/")
}

func (s Service) info(w workspace.Workspace) Info {
	base := s.mcpURL()
	in := Info{ID: w.ID, Tag: w.Tag, Template: w.Template, Dir: w.Dir, CreatedAt: w.CreatedAt, Archived: w.Archived,
		MCPURL: base, WorkspaceMCPURL: base + "/" + w.ID, Sessions: []Session{}}
	for _, ss := range s.M.Sessions(w.ID) {
		st, _ := ss.State()
		row := Session{ID: ss.ID(), Name: ss.Name(), Agent: string(ss.Agent()), State: string(st)}
		if as, ok := s.M.AgentStatus(ss.ID()); ok {
			row.AgentState, row.Glyph = as.State.String(), as.State.Glyph()
		}
		in.Sessions = append(in.Sessions, row)
	}
	return in
}

// List returns every workspace, oldest first.
func (s Service) List(context.Context) ([]Info, error) {
	out := []Info{}
	for _, w := range s.M.List() {
		out = append(out, s.info(w))
	}
	return out, nil
}

// Create makes a workspace ("" template = chat).
func (s Service) Create(ctx context.Context, tag, template string) (Info, error) {
	if template == "" {
		template = "chat"
	}
	if err := workspace.ValidateTag(tag); err != nil {
		return Info{}, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	w, err := s.M.Create(ctx, tag, template, nil)
	if err != nil {
		return Info{}, err
	}
	return s.info(w), nil
}

// Remove stops the sessions and forgets the workspace.
func (s Service) Remove(_ context.Context, idOrTag string, removeDir bool) error {
	return s.M.RemoveWorkspace(idOrTag, removeDir)
}

// Send types text into a session of the workspace.
func (s Service) Send(_ context.Context, idOrTag string, req SendRequest) error {
	w, ok := s.M.Get(idOrTag)
	if !ok {
		return fmt.Errorf("%w: %s", workspace.ErrWorkspaceNotFound, idOrTag)
	}
	var target *workspace.Session
	for _, ss := range s.M.Sessions(w.ID) {
		st, _ := ss.State()
		live := st == workspace.StateRunning || st == workspace.StateStarting || st == workspace.StateRestarting
		if req.Session != "" && (ss.ID() == req.Session || ss.Name() == req.Session) {
			target = ss
			break
		}
		if req.Session == "" && live {
			target = ss // newest live wins (oldest first)
		}
	}
	if target == nil {
		if req.Session != "" {
			return fmt.Errorf("%w: %s in %s", workspace.ErrSessionNotFound, req.Session, w.Tag)
		}
		return fmt.Errorf("%w: no live session in %s", workspace.ErrSessionNotFound, w.Tag)
	}
	// The same path as the TUI's send line and workspaceSend: typed as keys
	// (pasted when multi-line), Enter after a pause, the session
	// acknowledged.
	return s.M.Send(target.ID(), req.Text, !req.Draft)
}
