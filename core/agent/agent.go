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
// API backends (anthropic, openai) stream one model turn at a time and
// the Center runs the tool loop (core.ToolCenter, up to agent.json
// maxSteps). CLI backends (claude-cli, codex-cli) run their own loop
// against alice's MCP endpoint; the Center sends them the history
// flattened to text and records the tool calls they report.
//
// Usage:
//
//	c := agent.New(agent.Deps{Sessions, Router, Tools, Config, Persona, DataDir, Logger})
//	s, err := c.AskWithSession(ctx, "How is AAPL?", "tui/default", agent.Options{Channel: "tui"})
//	for ev := range s.Events() { … TextDelta / ToolUse / ToolResult / Done / Error … }
//	res, err := s.Wait() // res.Text, res.ToolCalls
//
// Turns on one session are serialised; cancelling ctx stops the provider
// (killing a CLI) and what was produced stays in the session. Ask is the
// stateless variant, Compact the manual /compact, History the UI view.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/provider"
	"github.com/alice-trading/alice/core/session"
)

// Deps are the AgentCenter's collaborators.
type Deps struct {
	Sessions *session.Store
	Router   *provider.Router
	Tools    *core.ToolCenter
	Config   *config.Store
	// Persona returns the system prompt (re-read per request); see
	// PersonaFile. Nil means DefaultPersona.
	Persona func() string
	// DataDir holds tool-calls/tool-calls.jsonl (ignored when ToolLog is set;
	// both empty: tool calls are not logged).
	DataDir string
	ToolLog *ToolLog
	// Usage records every model turn's tokens and cost (default
	// DataDir/usage/usage.jsonl; both empty: not recorded).
	Usage  *UsageLog
	Logger *slog.Logger
	// Channels returns a channel's channels.json entry (core/channel's
	// Service); nil means no channel configuration.
	Channels ChannelLookup
}

// ChannelLookup finds a channel's configuration; false means the channel
// has no entry (nothing overridden).
type ChannelLookup interface {
	Lookup(id string) (config.Channel, bool, error)
}

// Options tune one request.
type Options struct {
	// Channel names the surface ("tui", "telegram", "mcp-ask", "cron"…) for
	// per-channel provider overrides; defaults to the session id.
	Channel string
	// Preamble is added after the system prompt (connector context such as
	// "You are operating via the MCP Ask connector…").
	Preamble string
	// SystemPrompt replaces the persona for this request.
	SystemPrompt string
	// DisabledTools are hidden from the model and refused if called anyway
	// (on top of tools.json).
	DisabledTools []string
	// Profile forces an ai-provider profile, overriding channel routing.
	Profile string
	// ChannelID names the channels.json entry whose profile, disabled
	// tools and persona addition apply ("" means Channel: "telegram" and
	// "mcp-ask" are channel ids as well as routing names).
	ChannelID string

	persona string // the channel's persona addition (set by withChannel)
}

// withChannel applies a channel's configuration to opts: its disabled
// tools are added, its profile is used unless one was forced, its persona
// addition (or OpenAlice's systemPrompt replacement) is set.
func (c *Center) withChannel(opts Options) (Options, error) {
	id := opts.ChannelID
	if id == "" {
		id = opts.Channel
	}
	if c.d.Channels == nil || id == "" {
		return opts, nil
	}
	ch, ok, err := c.d.Channels.Lookup(id)
	if err != nil || !ok {
		return opts, err
	}
	opts.DisabledTools = append(append([]string(nil), opts.DisabledTools...), ch.DisabledTools...)
	if opts.Profile == "" {
		opts.Profile = ch.Profile
	}
	if opts.SystemPrompt == "" {
		opts.SystemPrompt = ch.SystemPrompt
	}
	opts.persona = ch.Persona
	return opts, nil
}

// EventKind enumerates stream events.
type EventKind int

const (
	TextDelta  EventKind = iota // Text: a piece of the reply as it streams
	ToolUse                     // ToolID, Tool, Input: the model called a tool
	ToolResult                  // ToolID, Tool, Content, IsError: the tool answered
	Done                        // Text and Result: the turn finished (always last on success)
	Error                       // Text and Err: the turn failed (always last on failure)
)

func (k EventKind) String() string {
	switch k {
	case TextDelta:
		return "text"
	case ToolUse:
		return "tool_use"
	case ToolResult:
		return "tool_result"
	case Done:
		return "done"
	case Error:
		return "error"
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// Event is one step of a streamed turn.
type Event struct {
	Kind    EventKind
	Text    string          // TextDelta text, Done final text, Error message
	ToolID  string          // ToolUse / ToolResult
	Tool    string          // ToolUse / ToolResult
	Input   json.RawMessage // ToolUse
	Content string          // ToolResult
	IsError bool            // ToolResult
	Result  *Result         // Done
	Err     error           // Error
}

// ToolCall records a call made during a turn (the heartbeat gate reads
// notify_user calls from here).
type ToolCall struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// Result is a finished turn: the final reply text and every tool call in
// order.
type Result struct {
	Text      string     `json:"text"`
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	Profile   string     `json:"profile,omitempty"`
}

// Stream is one running turn. Consume it one of two ways: range over
// Events until it closes (then Wait returns at once), or just call Wait,
// which drains the events itself. A caller must do one of them: the turn
// holds its session until its events are consumed.
type Stream struct {
	events chan Event
	done   chan struct{}
	res    Result
	err    error
}

// Events yields the turn's events; it closes after Done or Error.
func (s *Stream) Events() <-chan Event { return s.events }

// Wait blocks until the turn ends and returns its result. After a
// cancellation the error wraps context.Canceled and the result holds what
// was produced before it.
func (s *Stream) Wait() (Result, error) {
	for range s.events {
	}
	<-s.done
	return s.res, s.err
}

// Center is the AgentCenter.
type Center struct {
	d   Deps
	log *slog.Logger
}

// New builds a Center.
func New(d Deps) *Center {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Persona == nil {
		d.Persona = func() string { return DefaultPersona }
	}
	if d.ToolLog == nil && d.DataDir != "" {
		d.ToolLog = NewToolLog(filepath.Join(d.DataDir, "tool-calls", "tool-calls.jsonl"))
	}
	if d.Usage == nil && d.DataDir != "" {
		d.Usage = NewUsageLog(filepath.Join(d.DataDir, "usage", "usage.jsonl"))
	}
	return &Center{d: d, log: d.Logger}
}

// Usage is the token/cost log (nil when not recorded).
func (c *Center) Usage() *UsageLog { return c.d.Usage }

// Sessions exposes the session store (history tools, UIs).
func (c *Center) Sessions() *session.Store { return c.d.Sessions }

// ProviderLabel describes what a channel would use right now, e.g.
// "claude (anthropic claude-sonnet-4-5)" or "not configured". channel is
// a routing name ("tui", "telegram") or a session id; channelID names the
// channels.json entry whose profile wins ("" = channel).
func (c *Center) ProviderLabel(channel string, channelID ...string) string {
	opts := Options{Channel: channel}
	if len(channelID) > 0 {
		opts.ChannelID = channelID[0]
	}
	opts, err := c.withChannel(opts)
	if err != nil {
		return "error: " + firstLine(err.Error())
	}
	r, err := c.d.Router.Resolve(opts.Profile, channel)
	if err != nil {
		if errors.Is(err, provider.ErrNoProvider) {
			return "not configured"
		}
		return "error: " + firstLine(err.Error())
	}
	return r.Label()
}

// AskWithSession starts a turn on a session and returns at once. Errors
// that happen before the turn starts (bad session id, empty prompt) are
// returned directly; everything later arrives as an Error event and from
// Wait (a missing provider is a *provider.NoProviderError whose message is
// a how-to for the user). Turns on one session run one at a time, in call
// order of acquiring the session.
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
		func() {
			defer func() {
				if r := recover(); r != nil {
					c.log.Error("Agent turn panicked", "session", sessionID, "panic", r)
					s.err = fmt.Errorf("internal error: %v", r)
				}
			}()
			s.res, s.err = c.run(ctx, prompt, sessionID, opts, s.events)
		}()
		if s.err != nil {
			s.events <- Event{Kind: Error, Text: s.err.Error(), Err: s.err}
		} else {
			r := s.res
			s.events <- Event{Kind: Done, Text: r.Text, Result: &r}
		}
	}()
	return s, nil
}

func (c *Center) run(ctx context.Context, prompt, sessionID string, opts Options, out chan<- Event) (Result, error) {
	unlock, err := c.d.Sessions.LockContext(ctx, sessionID)
	if err != nil {
		return Result{}, fmt.Errorf("stopped while waiting for the previous turn: %w", err)
	}
	defer unlock()
	if _, err := c.d.Sessions.AppendLocked(sessionID, session.NewText("user", prompt, "human")); err != nil {
		return Result{}, fmt.Errorf("save message: %w", err)
	}
	channel := opts.Channel
	if channel == "" {
		channel = sessionID
	}
	if opts, err = c.withChannel(opts); err != nil {
		return Result{}, err
	}
	res, err := c.d.Router.Resolve(opts.Profile, channel)
	if err != nil {
		return Result{}, err
	}
	agentCfg, err := c.d.Config.Agent()
	if err != nil {
		return Result{}, err
	}
	entries, err := c.compactIfNeeded(ctx, sessionID, res)
	if err != nil {
		c.log.Warn("Compaction failed; continuing with the full session", "session", sessionID, "err", err)
		if entries, err = c.d.Sessions.ReadActive(sessionID); err != nil {
			return Result{}, err
		}
	}
	system := c.systemPrompt(opts)
	// Tools see who asked (trading records it on what it stages).
	ctx = core.WithCaller(ctx, core.Caller{Session: sessionID, Channel: channel, Agent: res.Label()})
	if _, ok := res.Provider.(provider.SelfLooping); ok {
		return c.runSelfLooping(ctx, sessionID, res, system, entries, agentCfg, opts.DisabledTools, out)
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
	if opts.persona != "" {
		parts = append(parts, opts.persona)
	}
	if opts.Preamble != "" {
		parts = append(parts, opts.Preamble)
	}
	// Date only: a system prompt that changes every request would defeat
	// the providers' prompt caching; tools report exact times.
	parts = append(parts, "Today is "+time.Now().UTC().Format("Monday, 2 January 2006")+" (UTC).")
	return strings.Join(parts, "\n\n")
}

// Ask is a stateless, tool-less prompt with the persona as system prompt
// (one-off questions, testing a profile). profile "" uses the "ask"
// channel's routing.
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
	if final != "" {
		return final, ctx.Err() // CLI backends report the final answer on its own
	}
	return b.String(), ctx.Err()
}

// History returns the newest limit rows of a session's active window for
// UIs, newest last (limit <= 0: the whole window). It reads backwards only
// as far as the rows need: a tool row takes its output from a later
// entry, which is always read before the call it answers.
func (c *Center) History(sessionID string, limit int) ([]session.ChatItem, error) {
	return c.chatRows(sessionID, limit, c.d.Sessions.EachActive)
}

// Transcript is History across compactions: the newest limit rows of the
// whole session, older messages before each compaction row, so a person
// can still scroll to what a summary replaced.
func (c *Center) Transcript(sessionID string, limit int) ([]session.ChatItem, error) {
	return c.chatRows(sessionID, limit, c.d.Sessions.EachAll)
}

func (c *Center) chatRows(sessionID string, limit int, each func(string, func(session.Entry) bool) error) ([]session.ChatItem, error) {
	var rev []session.Entry
	rows := 0
	err := each(sessionID, func(e session.Entry) bool {
		rev = append(rev, e)
		rows += len(session.ToChatItems([]session.Entry{e}))
		return limit <= 0 || rows < limit
	})
	if err != nil {
		return nil, err
	}
	entries := make([]session.Entry, len(rev))
	for i, e := range rev {
		entries[len(rev)-1-i] = e
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

// clip cuts s on a rune boundary (see session.Clip).
func clip(s string, n int) string { return session.Clip(s, n) }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
