package agent

import (
	"context"
	"fmt"
	"strings"

	"alice/config"
	"alice/core/provider"
	"alice/core/session"
)

// ToMessages converts the active window into provider messages. Tool
// calls without a matching result (a crash mid-turn) are dropped so every
// backend accepts the history.
func ToMessages(entries []session.Entry) []provider.Message {
	answered := map[string]bool{}
	for _, e := range entries {
		for _, b := range e.Message.Content.Blocks {
			if b.Type == "tool_result" {
				answered[b.ToolUseID] = true
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
				m.ToolResults = append(m.ToolResults, provider.ToolResult{ID: b.ToolUseID, Content: b.Content, IsError: b.IsError})
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

// FlattenHistory renders history as text for CLI backends, which take one
// prompt: <chat_history>…</chat_history> then the new message.
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
	b.WriteString("<chat_history>\nThe following is the recent conversation history. Use it as context if it references earlier events or decisions.\n\n")
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

// runSelfLooping sends one flattened prompt to a CLI backend and records
// the tool calls it reports (they ran against alice's MCP endpoint).
func (c *Center) runSelfLooping(ctx context.Context, sessionID string, res provider.Resolved, system string, entries []session.Entry, cfg config.Agent, out chan<- Event) (Result, error) {
	history, prompt := FlattenHistory(entries, cfg.MaxHistoryEntries)
	if history != "" {
		prompt = history + "\n\n" + prompt
	}
	tag := res.Provider.Name()
	result := Result{Profile: res.Profile}
	var texts []string
	names := map[string]string{}
	for ev := range res.Provider.Stream(ctx, provider.Request{Model: res.Model, System: system, Messages: []provider.Message{{Role: provider.RoleUser, Text: prompt}}}) {
		switch ev.Kind {
		case provider.EventText:
			texts = append(texts, ev.Text)
			out <- Event{Kind: TextDelta, Text: ev.Text}
			_, _ = c.d.Sessions.AppendLocked(sessionID, session.NewText("assistant", ev.Text, tag))
		case provider.EventToolCall:
			tc := ev.ToolCall
			names[tc.ID] = tc.Name
			result.ToolCalls = append(result.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Name, Input: tc.Input})
			out <- Event{Kind: ToolUse, ToolID: tc.ID, Tool: tc.Name, Input: tc.Input}
			_, _ = c.d.Sessions.AppendLocked(sessionID, session.NewBlocks("assistant", []session.Block{{Type: "tool_use", ID: tc.ID, Name: tc.Name, Input: tc.Input}}, tag))
		case provider.EventToolResult:
			id, isErr := ev.ToolCall.ID, ev.StopReason == "error"
			out <- Event{Kind: ToolResult, ToolID: id, Tool: names[id], Content: ev.Text, IsError: isErr}
			_, _ = c.d.Sessions.AppendLocked(sessionID, session.NewBlocks("user", []session.Block{{Type: "tool_result", ToolUseID: id, Content: ev.Text, IsError: isErr}}, tag))
		case provider.EventDone:
			result.Text = ev.Text
		case provider.EventError:
			return result, fmt.Errorf("%s: %w", res.Label(), ev.Err)
		}
	}
	if result.Text == "" && len(texts) > 0 {
		result.Text = texts[len(texts)-1]
	}
	return result, ctx.Err()
}
