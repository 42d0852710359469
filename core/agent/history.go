package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/provider"
	"github.com/alice-trading/alice/core/session"
)

// ToMessages converts the active window into provider messages. Tool
// calls without a matching result (a crash mid-turn) and results without
// their call (a window cut between them) are dropped, so every backend
// accepts the history.
func ToMessages(entries []session.Entry) []provider.Message {
	called, answered := map[string]bool{}, map[string]bool{}
	for _, e := range entries {
		for _, b := range e.Message.Content.Blocks {
			switch b.Type {
			case "tool_use":
				called[b.ID] = true
			case "tool_result":
				if called[b.ToolUseID] {
					answered[b.ToolUseID] = true
				}
			}
		}
	}
	var out []provider.Message
	for _, e := range entries {
		if e.Subtype == "compact_boundary" {
			continue
		}
		role := provider.RoleUser
		if e.Message.Role == "assistant" {
			role = provider.RoleAssistant
		}
		m := provider.Message{Role: role}
		if e.Message.Content.Blocks == nil {
			m.Text = e.Message.Content.Text
		}
		var texts []string
		for _, b := range e.Message.Content.Blocks {
			switch b.Type {
			case "text":
				texts = append(texts, b.Text)
			case "tool_use":
				if answered[b.ID] {
					m.ToolCalls = append(m.ToolCalls, provider.ToolCall{ID: b.ID, Name: b.Name, Input: b.Input})
				}
			case "tool_result":
				if answered[b.ToolUseID] {
					m.ToolResults = append(m.ToolResults, provider.ToolResult{ID: b.ToolUseID, Content: b.Content, IsError: b.IsError})
				}
			case "image":
				texts = append(texts, "[image]")
			}
		}
		if len(texts) > 0 {
			m.Text = strings.Join(texts, "\n")
		}
		if m.Text == "" && len(m.ToolCalls) == 0 && len(m.ToolResults) == 0 {
			continue
		}
		out = append(out, m)
	}
	return out
}

// historyPreamble introduces flattened history (the reference's wording).
const historyPreamble = "The following is the recent conversation history. Use it as context if it references earlier events or decisions."

// FlattenHistory renders history as text for CLI backends, which take one
// prompt: <chat_history>…</chat_history> with the last limit messages,
// then the newest message (the prompt) on its own.
func FlattenHistory(entries []session.Entry, limit int) (history, prompt string) {
	msgs := session.ToTextHistory(entries, true)
	if len(msgs) == 0 {
		return "", ""
	}
	prompt = msgs[len(msgs)-1].Text
	msgs = msgs[:len(msgs)-1]
	if limit > 0 && len(msgs) > limit {
		msgs = msgs[len(msgs)-limit:]
	}
	if len(msgs) == 0 {
		return "", prompt
	}
	var b strings.Builder
	b.WriteString("<chat_history>\n" + historyPreamble + "\n\n")
	for _, m := range msgs {
		who := "User"
		if m.Role == "assistant" {
			who = "Bot"
		}
		fmt.Fprintf(&b, "[%s] %s\n", who, m.Text)
	}
	b.WriteString("</chat_history>")
	return b.String(), prompt
}

// selfLoopRecorder persists what a CLI backend reports in the same shape
// as the tool loop: consecutive assistant output (text, tool_use) becomes
// one assistant entry, consecutive tool results one user entry.
type selfLoopRecorder struct {
	c         *Center
	sessionID string
	tag       string
	role      string // role of the pending blocks
	blocks    []session.Block
	err       error
}

func (r *selfLoopRecorder) add(role string, b session.Block) {
	if r.role != role {
		r.flush()
	}
	r.role = role
	r.blocks = append(r.blocks, b)
}

func (r *selfLoopRecorder) flush() {
	if len(r.blocks) == 0 {
		return
	}
	if _, err := r.c.d.Sessions.AppendLocked(r.sessionID, session.NewBlocks(r.role, r.blocks, r.tag)); err != nil && r.err == nil {
		r.err = fmt.Errorf("save reply: %w", err)
	}
	r.blocks = nil
}

// runSelfLooping sends one flattened prompt to a CLI backend and records
// the tool calls it reports (they ran against alice's MCP endpoint).
func (c *Center) runSelfLooping(ctx context.Context, sessionID string, res provider.Resolved, system string, entries []session.Entry, cfg config.Agent, disabled []string, out chan<- Event) (Result, error) {
	history, prompt := FlattenHistory(entries, cfg.MaxHistoryEntries)
	if history != "" {
		prompt = history + "\n\n" + prompt
	}
	rec := &selfLoopRecorder{c: c, sessionID: sessionID, tag: res.Provider.Name()}
	result := Result{Profile: res.Profile}
	var texts []string
	names := map[string]string{}
	inputs := map[string][]byte{}
	started := map[string]time.Time{}
	var streamErr error
	for ev := range res.Provider.Stream(ctx, provider.Request{Model: res.Model, System: system, Messages: []provider.Message{{Role: provider.RoleUser, Text: prompt}}, DisabledTools: disabled}) {
		switch ev.Kind {
		case provider.EventText:
			texts = append(texts, ev.Text)
			out <- Event{Kind: TextDelta, Text: ev.Text}
			rec.add("assistant", session.Block{Type: "text", Text: ev.Text})
		case provider.EventToolCall:
			tc := ev.ToolCall
			names[tc.ID], inputs[tc.ID], started[tc.ID] = tc.Name, tc.Input, time.Now()
			result.ToolCalls = append(result.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Name, Input: tc.Input})
			out <- Event{Kind: ToolUse, ToolID: tc.ID, Tool: tc.Name, Input: tc.Input}
			rec.add("assistant", session.Block{Type: "tool_use", ID: tc.ID, Name: tc.Name, Input: tc.Input})
		case provider.EventToolResult:
			id := ev.ToolCall.ID
			out <- Event{Kind: ToolResult, ToolID: id, Tool: names[id], Content: ev.Text, IsError: ev.IsError}
			rec.add("user", session.Block{Type: "tool_result", ToolUseID: id, Content: ev.Text, IsError: ev.IsError})
			var d time.Duration
			if t, ok := started[id]; ok {
				d = time.Since(t)
			}
			c.logToolCall(sessionID, id, names[id], inputs[id], ev.Text, ev.IsError, d)
		case provider.EventDone:
			result.Text = ev.Text
			// the CLI's own loop is one turn here; CLI backends report no
			// usage, so its tokens and cost are logged as unknown
			c.recordUsage(ctx, sessionID, res, ev.Usage)
		case provider.EventError:
			streamErr = ev.Err
		}
	}
	if len(texts) > 0 && (ctx.Err() != nil || streamErr != nil) {
		rec.add("assistant", session.Block{Type: "text", Text: "[interrupted]"})
	}
	rec.flush()
	if result.Text == "" && len(texts) > 0 {
		result.Text = texts[len(texts)-1]
	}
	switch {
	case ctx.Err() != nil:
		return result, fmt.Errorf("stopped: %w", ctx.Err())
	case streamErr != nil:
		return result, fmt.Errorf("%s: %w", res.Label(), streamErr)
	}
	return result, rec.err
}
