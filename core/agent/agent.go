// Package agent is the AgentCenter: every AI interaction goes through it.
//
// AskWithSession runs the pipeline the architecture describes:
//
//  1. append the user message to the session
//  2. resolve the provider (ai-provider.json, read on every call)
//  3. compact the session if its context is getting full
//  4. read the active window
//  5. stream the generation, executing tool calls between model turns
//  6. persist every intermediate assistant/tool-result message and the
//     final reply
//
// Turns on one session are serialised. Ask is the stateless variant.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"alice/config"
	"alice/core"
	"alice/core/provider"
	"alice/core/session"
)

// Deps are the AgentCenter's collaborators.
type Deps struct {
	Sessions *session.Store
	Router   *provider.Router
	Tools    *core.ToolCenter
	Config   *config.Store
	// Persona returns the system prompt (re-read per request).
	Persona func() string
	// DataDir holds tool-calls/tool-calls.jsonl.
	DataDir string
	Logger  *slog.Logger
}

// Options tune one request.
type Options struct {
	// Channel names the surface ("tui", "telegram", "mcp-ask", "cron"…) for
	// per-channel provider overrides; defaults to the session id.
	Channel string
	// Preamble is prepended to the system prompt (connector context).
	Preamble      string
	SystemPrompt  string
	DisabledTools []string
	Profile       string
}

// EventKind enumerates stream events.
type EventKind int

const (
	TextDelta EventKind = iota
	ToolUse
	ToolResult
	Done
	Error
)

// Event is one step of a streamed turn.
type Event struct {
	Kind    EventKind
	Text    string          // TextDelta text, Done final text, Error message
	ToolID  string          // ToolUse / ToolResult
	Tool    string          // ToolUse / ToolResult
	Input   json.RawMessage // ToolUse
	Content string          // ToolResult
	IsError bool            // ToolResult
	Err     error           // Error
}

// ToolCall records a call made during a turn (the heartbeat gate reads
// notify_user calls from here).
type ToolCall struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// Result is a finished turn.
type Result struct {
	Text      string     `json:"text"`
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	Profile   string     `json:"profile,omitempty"`
}

// Stream is one running turn. Read Events for live updates, or just call
// Wait (it drains the events itself).
type Stream struct {
	events chan Event
	done   chan struct{}
	res    Result
	err    error
}

// Events yields the turn's events; it closes when the turn ends.
func (s *Stream) Events() <-chan Event { return s.events }

// Wait blocks until the turn ends and returns its result.
func (s *Stream) Wait() (Result, error) {
	for range s.events {
	}
	<-s.done
	return s.res, s.err
}

// Center is the AgentCenter.
type Center struct {
	d      Deps
	log    *slog.Logger
	logMu  sync.Mutex
	logSeq int64
}

// New builds a Center.
func New(d Deps) *Center {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Persona == nil {
		d.Persona = func() string { return "" }
	}
	return &Center{d: d, log: d.Logger}
}

// Sessions exposes the session store (history tools, UIs).
func (c *Center) Sessions() *session.Store { return c.d.Sessions }

// ProviderLabel describes what a channel would use right now.
func (c *Center) ProviderLabel(channel string) string {
	r, err := c.d.Router.Resolve("", channel)
	if err != nil {
		if errors.Is(err, provider.ErrNoProvider) {
			return "not configured"
		}
		return "error: " + firstLine(err.Error())
	}
	return r.Label()
}

// AskWithSession starts a turn on a session. Errors that happen before
// the turn starts (bad session id) are returned directly; everything later
// arrives as an Error event and from Wait.
func (c *Center) AskWithSession(ctx context.Context, prompt, sessionID string, opts Options) (*Stream, error) {
	if err := session.ValidateID(sessionID); err != nil {
		return nil, err
	}
	if strings.TrimSpace(prompt) == "" {
		return nil, errors.New("empty message")
	}
	s := &Stream{events: make(chan Event, 256), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		defer close(s.events)
		s.res, s.err = c.run(ctx, prompt, sessionID, opts, s.events)
		if s.err != nil {
			s.events <- Event{Kind: Error, Text: s.err.Error(), Err: s.err}
		} else {
			s.events <- Event{Kind: Done, Text: s.res.Text}
		}
	}()
	return s, nil
}

func (c *Center) run(ctx context.Context, prompt, sessionID string, opts Options, out chan<- Event) (Result, error) {
	unlock := c.d.Sessions.Lock(sessionID)
	defer unlock()
	if _, err := c.d.Sessions.AppendLocked(sessionID, session.NewText("user", prompt, "human")); err != nil {
		return Result{}, fmt.Errorf("save message: %w", err)
	}
	channel := opts.Channel
	if channel == "" {
		channel = sessionID
	}
	res, err := c.d.Router.Resolve(opts.Profile, channel)
	if err != nil {
		return Result{}, err
	}
	agentCfg, err := c.d.Config.Agent()
	if err != nil {
		return Result{}, err
	}
	entries, err := c.compactIfNeeded(ctx, sessionID, res.Provider)
	if err != nil {
		c.log.Warn("Compaction failed; continuing with the full session", "session", sessionID, "err", err)
		if entries, err = c.d.Sessions.ReadActive(sessionID); err != nil {
			return Result{}, err
		}
	}
	system := c.systemPrompt(opts)
	if _, ok := res.Provider.(provider.SelfLooping); ok {
		return c.runSelfLooping(ctx, sessionID, res, system, entries, agentCfg, out)
	}
	return c.runToolLoop(ctx, sessionID, res, system, entries, agentCfg, opts, out)
}

func (c *Center) systemPrompt(opts Options) string {
	parts := []string{}
	if opts.SystemPrompt != "" {
		parts = append(parts, opts.SystemPrompt)
	} else if p := c.d.Persona(); p != "" {
		parts = append(parts, p)
	}
	if opts.Preamble != "" {
		parts = append(parts, opts.Preamble)
	}
	parts = append(parts, "Current time: "+time.Now().UTC().Format(time.RFC1123))
	return strings.Join(parts, "\n\n")
}

// runToolLoop drives API backends: model turn → tools → model turn …
func (c *Center) runToolLoop(ctx context.Context, sessionID string, res provider.Resolved, system string, entries []session.Entry, cfg config.Agent, opts Options, out chan<- Event) (Result, error) {
	msgs := ToMessages(entries)
	tools := c.d.Tools.Tools(opts.DisabledTools...)
	result := Result{Profile: res.Profile}
	tag := res.Provider.Name()
	for step := 0; step < cfg.MaxSteps; step++ {
		var text strings.Builder
		var calls []provider.ToolCall
		for ev := range res.Provider.Stream(ctx, provider.Request{Model: res.Model, System: system, Messages: msgs, Tools: tools, MaxTokens: res.Config.MaxTokens}) {
			switch ev.Kind {
			case provider.EventText:
				text.WriteString(ev.Text)
				out <- Event{Kind: TextDelta, Text: ev.Text}
			case provider.EventToolCall:
				calls = append(calls, ev.ToolCall)
			case provider.EventError:
				c.persistPartial(sessionID, text.String(), tag)
				return result, fmt.Errorf("%s: %w", res.Label(), ev.Err)
			}
		}
		if err := ctx.Err(); err != nil {
			c.persistPartial(sessionID, text.String(), tag)
			return result, fmt.Errorf("stopped: %w", err)
		}
		blocks := []session.Block{}
		if t := text.String(); t != "" {
			blocks = append(blocks, session.Block{Type: "text", Text: t})
		}
		for _, tc := range calls {
			blocks = append(blocks, session.Block{Type: "tool_use", ID: tc.ID, Name: tc.Name, Input: tc.Input})
		}
		if len(blocks) > 0 {
			if _, err := c.d.Sessions.AppendLocked(sessionID, session.NewBlocks("assistant", blocks, tag)); err != nil {
				return result, err
			}
		}
		msgs = append(msgs, provider.Message{Role: provider.RoleAssistant, Text: text.String(), ToolCalls: calls})
		if len(calls) == 0 {
			result.Text = text.String()
			return result, nil
		}
		var results []provider.ToolResult
		var resultBlocks []session.Block
		for _, tc := range calls {
			out <- Event{Kind: ToolUse, ToolID: tc.ID, Tool: tc.Name, Input: tc.Input}
			result.ToolCalls = append(result.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Name, Input: tc.Input})
			content, isErr := c.invoke(ctx, sessionID, tc, opts.DisabledTools)
			out <- Event{Kind: ToolResult, ToolID: tc.ID, Tool: tc.Name, Content: content, IsError: isErr}
			results = append(results, provider.ToolResult{ID: tc.ID, Name: tc.Name, Content: content, IsError: isErr})
			resultBlocks = append(resultBlocks, session.Block{Type: "tool_result", ToolUseID: tc.ID, Content: content, IsError: isErr})
		}
		if _, err := c.d.Sessions.AppendLocked(sessionID, session.NewBlocks("user", resultBlocks, tag)); err != nil {
			return result, err
		}
		msgs = append(msgs, provider.Message{Role: provider.RoleUser, ToolResults: results})
	}
	const stopped = "I stopped after reaching the tool-step limit (maxSteps in agent.json) for one request."
	_, _ = c.d.Sessions.AppendLocked(sessionID, session.NewText("assistant", stopped, tag))
	result.Text = stopped
	return result, nil
}

// persistPartial keeps text streamed before an error or cancellation.
func (c *Center) persistPartial(sessionID, text, tag string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	_, _ = c.d.Sessions.AppendLocked(sessionID, session.NewText("assistant", text+"\n\n[interrupted]", tag))
}

// invoke runs one tool, logging the call; errors become tool errors the
// model can read.
func (c *Center) invoke(ctx context.Context, sessionID string, tc provider.ToolCall, disabled []string) (string, bool) {
	start := time.Now()
	var content string
	var isErr bool
	if contains(disabled, tc.Name) {
		content, isErr = "Error: tool "+tc.Name+" is disabled for this channel", true
	} else if res, err := c.d.Tools.Call(ctx, tc.Name, tc.Input); err != nil {
		content, isErr = "Error: "+err.Error(), true
	} else {
		content = core.ResultText(res)
		if tr, ok := res.(*core.ToolResult); ok && tr.IsError {
			isErr = true
		}
	}
	c.logToolCall(sessionID, tc, content, isErr, time.Since(start))
	return content, isErr
}

func (c *Center) logToolCall(sessionID string, tc provider.ToolCall, output string, isErr bool, d time.Duration) {
	if c.d.DataDir == "" {
		return
	}
	c.logMu.Lock()
	defer c.logMu.Unlock()
	c.logSeq++
	status := "ok"
	if isErr {
		status = "error"
	}
	line, _ := json.Marshal(map[string]any{"seq": c.logSeq, "id": tc.ID, "sessionId": sessionID, "name": tc.Name, "input": tc.Input,
		"output": clip(output, 4000), "status": status, "durationMs": d.Milliseconds(), "timestamp": time.Now().UTC().Format(time.RFC3339Nano)})
	p := filepath.Join(c.d.DataDir, "tool-calls", "tool-calls.jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.Write(append(line, '\n'))
}

// Ask is a stateless, tool-less prompt (summaries, tests of a profile).
func (c *Center) Ask(ctx context.Context, prompt, profile string) (Result, error) {
	res, err := c.d.Router.Resolve(profile, "ask")
	if err != nil {
		return Result{}, err
	}
	text, err := collect(ctx, res, c.d.Persona(), prompt)
	return Result{Text: text, Profile: res.Profile}, err
}

// collect runs one tool-less turn and returns its text.
func collect(ctx context.Context, res provider.Resolved, system, prompt string) (string, error) {
	var b strings.Builder
	final := ""
	for ev := range res.Provider.Stream(ctx, provider.Request{Model: res.Model, System: system, Messages: []provider.Message{{Role: provider.RoleUser, Text: prompt}}, MaxTokens: res.Config.MaxTokens}) {
		switch ev.Kind {
		case provider.EventText:
			b.WriteString(ev.Text)
		case provider.EventDone:
			final = ev.Text
		case provider.EventError:
			return b.String(), ev.Err
		}
	}
	if b.Len() == 0 {
		return final, ctx.Err()
	}
	return b.String(), ctx.Err()
}

// History returns a session's active window for UIs, newest last.
func (c *Center) History(sessionID string, limit int) ([]session.ChatItem, error) {
	entries, err := c.d.Sessions.ReadActive(sessionID)
	if err != nil {
		return nil, err
	}
	items := session.ToChatItems(entries)
	if limit > 0 && len(items) > limit {
		items = items[len(items)-limit:]
	}
	return items, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
