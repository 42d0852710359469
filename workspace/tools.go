package workspace

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/eventlog"
	"github.com/alice-trading/alice/workspace/agentstate"
)

// Delegation tools: Alice (and any client of the main /mcp endpoint) can
// create workspaces, start agents in them, read their screens, type into
// them and review what they changed. They are ordinary catalogue tools,
// so tools.json can disable each, and every call is written to the event
// log.

// EventLog is the part of the event log the tools write to.
type EventLog interface {
	Append(typ string, payload any) (eventlog.Entry, error)
}

// ToolEventType is the event-log type of a delegation tool call.
const ToolEventType = "workspace.tool"

// Limits of the status and diff tools.
const (
	defaultStatusLines = 20
	maxStatusLines     = 200
	maxDiffToolBytes   = 64 << 10
	startPromptWait    = 20 * time.Second
)

// RegisterTools adds the delegation tools to reg. events may be nil.
func RegisterTools(reg core.ToolRegistry, m *Manager, events EventLog) {
	var names []string
	for _, t := range m.Templates() {
		names = append(names, t.Name)
	}
	tmpl, _ := json.Marshal(names)
	tools := []core.Tool{
		{
			Name: "workspaceList",
			Description: "List Alice's workspaces (per-task git repositories with agent sessions) with each live session's " +
				"agent state: working, needs-you, idle, done, errored or exited.",
			InputSchema: core.Schema(`{"type":"object","properties":{},"additionalProperties":false}`),
			Handler:     func(ctx context.Context, args json.RawMessage) (any, error) { return listTool(m, args) },
		},
		{
			Name:        "workspaceCreate",
			Description: "Create a workspace: a new git repository from a template, wired to Alice over MCP. Returns its id.",
			InputSchema: core.Schema(`{"type":"object","properties":{
				"tag":{"type":"string","description":"Short unique name: 1-33 of a-z 0-9 - _, e.g. btc-research"},
				"template":{"type":"string","enum":` + string(tmpl) + `,"description":"Template (default chat)"}},
				"required":["tag"],"additionalProperties":false}`),
			Handler: func(ctx context.Context, args json.RawMessage) (any, error) { return createTool(ctx, m, args) },
		},
		{
			Name: "workspaceStartAgent",
			Description: "Start an agent session (claude, codex, opencode or a shell) in a workspace, optionally typing a first prompt " +
				"once it is ready. Returns the session id; follow it with workspaceStatus.",
			InputSchema: core.Schema(`{"type":"object","properties":{
				"workspaceId":{"type":"string","description":"Workspace id or tag"},
				"agent":{"type":"string","enum":["claude","codex","opencode","shell"]},
				"prompt":{"type":"string","description":"First prompt (for a shell: a command line), submitted with Enter"}},
				"required":["workspaceId","agent"],"additionalProperties":false}`),
			Handler: func(ctx context.Context, args json.RawMessage) (any, error) { return startTool(ctx, m, args) },
		},
		{
			Name: "workspaceStatus",
			Description: "State of a workspace's sessions (working / needs-you / idle / done / errored / exited, with why) " +
				"and the last lines of each screen as text.",
			InputSchema: core.Schema(`{"type":"object","properties":{
				"workspaceId":{"type":"string","description":"Workspace id or tag"},
				"sessionId":{"type":"string","description":"One session (id or name such as sh1); all when omitted"},
				"lines":{"type":"integer","minimum":1,"maximum":200,"description":"Screen lines per session (default 20)"}},
				"required":["workspaceId"],"additionalProperties":false}`),
			Handler: func(ctx context.Context, args json.RawMessage) (any, error) { return statusTool(m, args) },
		},
		{
			Name: "workspaceSend",
			Description: "Type text into a running session without attaching, e.g. a prompt for its agent or an answer " +
				"to a question it asked; enter (default true) submits it.",
			InputSchema: core.Schema(`{"type":"object","properties":{
				"workspaceId":{"type":"string","description":"Workspace id or tag"},
				"sessionId":{"type":"string","description":"Session id or name (c1, x1, sh1)"},
				"text":{"type":"string","maxLength":16384},
				"enter":{"type":"boolean","description":"Press Enter after the text (default true)"}},
				"required":["workspaceId","sessionId","text"],"additionalProperties":false}`),
			Handler: func(ctx context.Context, args json.RawMessage) (any, error) { return sendTool(m, args) },
		},
		{
			Name: "workspaceDiff",
			Description: "What changed in a workspace since its sessions started: each file added, modified or deleted " +
				"(committed or not) with a unified diff.",
			InputSchema: core.Schema(`{"type":"object","properties":{
				"workspaceId":{"type":"string","description":"Workspace id or tag"},
				"patch":{"type":"boolean","description":"Include unified diffs (default true); false lists files only"}},
				"required":["workspaceId"],"additionalProperties":false}`),
			Handler: func(ctx context.Context, args json.RawMessage) (any, error) { return diffTool(m, args) },
		},
	}
	for i := range tools {
		tools[i].Group = "workspace"
		tools[i].Handler = logged(events, tools[i].Name, tools[i].Handler)
	}
	reg.Register(tools...)
}

// logged writes every call, its outcome and duration to the event log.
func logged(events EventLog, name string, h core.ToolHandler) core.ToolHandler {
	if events == nil {
		return h
	}
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		start := time.Now()
		res, err := h(ctx, args)
		payload := map[string]any{"tool": name, "args": clipJSON(args, 2048), "ok": err == nil,
			"durationMs": time.Since(start).Milliseconds()}
		if err != nil {
			payload["error"] = err.Error()
		}
		_, _ = events.Append(ToolEventType, payload)
		return res, err
	}
}

func clipJSON(b json.RawMessage, n int) any {
	if len(b) <= n && json.Valid(b) {
		return b
	}
	return string(b[:min(len(b), n)]) + "…"
}

// SessionView is one session in a tool result.
type SessionView struct {
	ID      string           `json:"id"`
	Name    string           `json:"name"`
	Agent   Agent            `json:"agent"`
	Process string           `json:"process"` // starting | running | restarting | exited | stopped | failed | paused
	Reason  string           `json:"reason,omitempty"`
	State   agentstate.State `json:"state"`
	Since   *time.Time       `json:"since,omitempty"`
	Detail  string           `json:"detail,omitempty"`
	Title   string           `json:"title,omitempty"`
	Screen  []string         `json:"screen,omitempty"`
}

func (m *Manager) sessionView(s *Session, lines int) SessionView {
	st, reason := s.State()
	v := SessionView{ID: s.ID(), Name: s.Name(), Agent: s.Agent(), Process: string(st), Reason: reason}
	if lines > 0 {
		m.refreshScreenState(s.ID())
		v.Screen = s.ScreenText(lines)
	}
	if as, ok := m.AgentStatus(s.ID()); ok {
		since := as.Since.UTC()
		v.State, v.Since, v.Detail, v.Title = as.State, &since, as.Detail, as.Title
	}
	return v
}

// views lists live sessions, then paused records, of a workspace.
func (m *Manager) views(wsID string, lines int) []SessionView {
	out := []SessionView{}
	live := map[string]bool{}
	for _, s := range m.Sessions(wsID) {
		live[s.ID()] = true
		out = append(out, m.sessionView(s, lines))
	}
	for _, r := range m.SessionRecords(wsID) {
		if !live[r.ID] {
			out = append(out, SessionView{ID: r.ID, Name: r.Name, Agent: r.Agent, Process: "paused", State: agentstate.Exited})
		}
	}
	return out
}

func listTool(m *Manager, args json.RawMessage) (any, error) {
	if err := core.DecodeArgs(args, &struct{}{}); err != nil {
		return nil, err
	}
	type row struct {
		ID        string           `json:"id"`
		Tag       string           `json:"tag"`
		Template  string           `json:"template"`
		Dir       string           `json:"dir"`
		CreatedAt time.Time        `json:"createdAt"`
		State     agentstate.State `json:"state"`
		Sessions  []SessionView    `json:"sessions"`
	}
	out := []row{}
	for _, w := range m.List() {
		out = append(out, row{ID: w.ID, Tag: w.Tag, Template: w.Template, Dir: w.Dir, CreatedAt: w.CreatedAt,
			State: m.WorkspaceAgentState(w.ID), Sessions: m.views(w.ID, 0)})
	}
	return map[string]any{"workspaces": out}, nil
}

func createTool(ctx context.Context, m *Manager, args json.RawMessage) (any, error) {
	var in struct {
		Tag      string `json:"tag"`
		Template string `json:"template"`
	}
	if err := core.DecodeArgs(args, &in); err != nil {
		return nil, err
	}
	if in.Template == "" {
		in.Template = "chat"
	}
	w, err := m.Create(ctx, in.Tag, in.Template, nil)
	if err != nil {
		return nil, err
	}
	return map[string]any{"id": w.ID, "tag": w.Tag, "template": w.Template, "dir": w.Dir, "agents": w.Agents}, nil
}

func startTool(ctx context.Context, m *Manager, args json.RawMessage) (any, error) {
	var in struct {
		WorkspaceID string `json:"workspaceId"`
		Agent       Agent  `json:"agent"`
		Prompt      string `json:"prompt"`
	}
	if err := core.DecodeArgs(args, &in); err != nil {
		return nil, err
	}
	if !in.Agent.Valid() {
		return nil, fmt.Errorf("invalid arguments: agent must be %s, got %q", AgentNames, in.Agent)
	}
	if len(in.Prompt) > MaxSendBytes {
		return nil, fmt.Errorf("invalid arguments: prompt is longer than %d bytes", MaxSendBytes)
	}
	s, err := m.StartSession(in.WorkspaceID, in.Agent)
	if err != nil {
		return nil, err
	}
	res := map[string]any{"sessionId": s.ID(), "name": s.Name(), "agent": s.Agent(), "workspaceId": s.WorkspaceID()}
	if strings.TrimSpace(in.Prompt) != "" {
		ready := m.WaitReady(ctx, s.ID(), startPromptWait)
		if err := m.Send(s.ID(), in.Prompt, true); err != nil {
			res["promptError"] = err.Error()
		} else {
			res["promptSent"] = true
		}
		if !ready {
			res["note"] = "the agent had not shown a ready screen yet when the prompt was typed; check workspaceStatus"
		}
	}
	return res, nil
}

func statusTool(m *Manager, args json.RawMessage) (any, error) {
	var in struct {
		WorkspaceID string `json:"workspaceId"`
		SessionID   string `json:"sessionId"`
		Lines       *int   `json:"lines"`
	}
	if err := core.DecodeArgs(args, &in); err != nil {
		return nil, err
	}
	lines := defaultStatusLines
	if in.Lines != nil {
		if *in.Lines < 1 || *in.Lines > maxStatusLines {
			return nil, fmt.Errorf("invalid arguments: lines must be 1-%d", maxStatusLines)
		}
		lines = *in.Lines
	}
	w, ok := m.Get(in.WorkspaceID)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrWorkspaceNotFound, in.WorkspaceID)
	}
	res := map[string]any{"workspaceId": w.ID, "tag": w.Tag}
	if in.SessionID != "" {
		s, err := m.ResolveSession(w.ID, in.SessionID)
		if err != nil {
			return nil, err
		}
		res["sessions"] = []SessionView{m.sessionView(s, lines)}
		return res, nil
	}
	res["state"] = m.WorkspaceAgentState(w.ID)
	res["sessions"] = m.views(w.ID, lines)
	return res, nil
}

func sendTool(m *Manager, args json.RawMessage) (any, error) {
	var in struct {
		WorkspaceID string `json:"workspaceId"`
		SessionID   string `json:"sessionId"`
		Text        string `json:"text"`
		Enter       *bool  `json:"enter"`
	}
	if err := core.DecodeArgs(args, &in); err != nil {
		return nil, err
	}
	s, err := m.ResolveSession(in.WorkspaceID, in.SessionID)
	if err != nil {
		return nil, err
	}
	enter := in.Enter == nil || *in.Enter
	if err := m.Send(s.ID(), in.Text, enter); err != nil {
		return nil, err
	}
	return map[string]any{"ok": true, "sessionId": s.ID(), "name": s.Name(), "entered": enter}, nil
}

func diffTool(m *Manager, args json.RawMessage) (any, error) {
	var in struct {
		WorkspaceID string `json:"workspaceId"`
		Patch       *bool  `json:"patch"`
	}
	if err := core.DecodeArgs(args, &in); err != nil {
		return nil, err
	}
	w, ok := m.Get(in.WorkspaceID)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrWorkspaceNotFound, in.WorkspaceID)
	}
	d, err := m.Diff(w.ID)
	if err != nil {
		return nil, err
	}
	withPatch := in.Patch == nil || *in.Patch
	budget, truncated := maxDiffToolBytes, false
	for i := range d.Files {
		f := &d.Files[i]
		switch {
		case !withPatch:
			f.Patch = ""
		case len(f.Patch) > budget:
			f.Patch, truncated = "", true
		default:
			budget -= len(f.Patch)
		}
	}
	res := map[string]any{"workspaceId": d.WorkspaceID, "base": d.Base, "files": d.Files}
	if truncated {
		res["note"] = fmt.Sprintf("patches past %d KiB were left out; call again with patch=false to list files, or read them from the workspace", maxDiffToolBytes>>10)
	}
	return res, nil
}
