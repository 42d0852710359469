package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/provider"
	"github.com/alice-trading/alice/core/session"
)

// stepLimitNote is the reply when a request keeps calling tools past
// agent.json maxSteps.
const stepLimitNote = "I stopped after reaching the tool-step limit (maxSteps in agent.json) for one request."

// runToolLoop drives API backends: model turn → tools → model turn … until
// a turn makes no tool calls or maxSteps turns ran. Each model turn is
// persisted as one assistant entry (text + tool_use blocks) and its tool
// results as one user entry, so the session file holds every step.
func (c *Center) runToolLoop(ctx context.Context, sessionID string, res provider.Resolved, system string, entries []session.Entry, cfg config.Agent, opts Options, out chan<- Event) (Result, error) {
	msgs := ToMessages(entries)
	tools := c.d.Tools.Tools(opts.DisabledTools...)
	result := Result{Profile: res.Profile}
	tag := res.Provider.Name()
	var turnMedia []string // images tools returned this turn (media/<name>)
	for step := 0; step < cfg.MaxSteps; step++ {
		if err := ctx.Err(); err != nil {
			return result, fmt.Errorf("stopped: %w", err)
		}
		var text strings.Builder
		var calls []provider.ToolCall
		var streamErr error
		for ev := range res.Provider.Stream(ctx, provider.Request{Model: res.Model, System: system, Messages: msgs, Tools: tools, MaxTokens: res.Config.MaxTokens}) {
			switch ev.Kind {
			case provider.EventText:
				text.WriteString(ev.Text)
				out <- Event{Kind: TextDelta, Text: ev.Text}
			case provider.EventToolCall:
				calls = append(calls, ev.ToolCall)
			case provider.EventError:
				streamErr = ev.Err
			case provider.EventDone:
				c.recordUsage(ctx, sessionID, res, ev.Usage)
			}
		}
		if err := ctx.Err(); err != nil {
			c.persistPartial(sessionID, text.String(), tag)
			result.Text = text.String()
			return result, fmt.Errorf("stopped: %w", err)
		}
		if streamErr != nil {
			c.persistPartial(sessionID, text.String(), tag)
			return result, fmt.Errorf("%s: %w", res.Label(), streamErr)
		}
		blocks := []session.Block{}
		if t := text.String(); t != "" {
			blocks = append(blocks, session.Block{Type: "text", Text: t})
		}
		for _, tc := range calls {
			blocks = append(blocks, session.Block{Type: "tool_use", ID: tc.ID, Name: tc.Name, Input: tc.Input})
		}
		if len(calls) == 0 {
			// The final message carries the turn's images, as in OpenAlice.
			for _, m := range turnMedia {
				blocks = append(blocks, session.Block{Type: "image", URL: m})
			}
		}
		if len(blocks) > 0 {
			if _, err := c.d.Sessions.AppendLocked(sessionID, session.NewBlocks("assistant", blocks, tag)); err != nil {
				return result, fmt.Errorf("save reply: %w", err)
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
			content, isErr, media := c.invoke(ctx, sessionID, tc, opts.DisabledTools)
			turnMedia = append(turnMedia, media...)
			out <- Event{Kind: ToolResult, ToolID: tc.ID, Tool: tc.Name, Content: content, IsError: isErr}
			results = append(results, provider.ToolResult{ID: tc.ID, Name: tc.Name, Content: content, IsError: isErr})
			resultBlocks = append(resultBlocks, session.Block{Type: "tool_result", ToolUseID: tc.ID, Content: content, IsError: isErr})
		}
		if _, err := c.d.Sessions.AppendLocked(sessionID, session.NewBlocks("user", resultBlocks, tag)); err != nil {
			return result, fmt.Errorf("save tool results: %w", err)
		}
		msgs = append(msgs, provider.Message{Role: provider.RoleUser, ToolResults: results})
	}
	if _, err := c.d.Sessions.AppendLocked(sessionID, session.NewText("assistant", stepLimitNote, tag)); err != nil {
		return result, fmt.Errorf("save reply: %w", err)
	}
	result.Text = stepLimitNote
	out <- Event{Kind: TextDelta, Text: stepLimitNote}
	return result, nil
}

// recordUsage logs one turn's tokens and cost (a turn whose backend
// reported no usage is still counted, marked unreported); a failing log never fails
// a turn.
func (c *Center) recordUsage(ctx context.Context, sessionID string, res provider.Resolved, u *provider.Usage) {
	if c.d.Usage == nil {
		return
	}
	caller, _ := core.CallerFrom(ctx)
	rec := UsageRecord{SessionID: sessionID, Channel: caller.Channel, Agent: res.Label(), Provider: res.Provider.Name(), Model: res.Model}
	if u != nil {
		rec.Usage = *u
	} else {
		rec.Unreported = true
	}
	if _, err := c.d.Usage.Record(rec); err != nil {
		c.log.Warn("Could not write the usage log", "session", sessionID, "err", err)
	}
}

// persistPartial keeps text streamed before an error or cancellation, so
// what the user saw is in the session.
func (c *Center) persistPartial(sessionID, text, tag string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	if _, err := c.d.Sessions.AppendLocked(sessionID, session.NewText("assistant", text+"\n\n[interrupted]", tag)); err != nil {
		c.log.Warn("Could not save a partial reply", "session", sessionID, "err", err)
	}
}

// maxToolOutput caps what one tool call feeds back to the model (and the
// session): a runaway result must not eat the whole context window.
const maxToolOutput = 100_000

// invoke runs one tool, logging the call; every failure becomes a tool
// error the model can read and react to.
func (c *Center) invoke(ctx context.Context, sessionID string, tc provider.ToolCall, disabled []string) (string, bool, []string) {
	start := time.Now()
	var content string
	var isErr bool
	var media []string
	switch {
	case tc.InvalidInput != "":
		content, isErr = "Error: the arguments were not valid JSON: "+clip(tc.InvalidInput, 200)+". Call "+tc.Name+" again with a JSON object.", true
	case contains(disabled, tc.Name):
		content, isErr = "Error: tool "+tc.Name+" is disabled for this channel", true
	default:
		res, err := c.d.Tools.Call(ctx, tc.Name, tc.Input)
		if err != nil {
			content, isErr = "Error: "+err.Error(), true
		} else {
			content, media = c.toolOutput(res)
			if tr, ok := res.(*core.ToolResult); ok && tr.IsError {
				isErr = true
			}
		}
	}
	if len(content) > maxToolOutput {
		content = fmt.Sprintf("%s\n[output truncated: %d bytes in total; ask for less, e.g. a smaller limit or range]", strings.TrimSuffix(clip(content, maxToolOutput), "…"), len(content))
	}
	c.logToolCall(sessionID, tc.ID, tc.Name, tc.Input, content, isErr, time.Since(start))
	return content, isErr, media
}

// logToolCall appends to the tool-call log; a failing log never fails a
// turn.
func (c *Center) logToolCall(sessionID, id, name string, input []byte, output string, isErr bool, d time.Duration) {
	if c.d.ToolLog == nil {
		return
	}
	status := "ok"
	if isErr {
		status = "error"
	}
	if err := c.d.ToolLog.Append(ToolCallRecord{ID: id, SessionID: sessionID, Name: name, Input: input, Output: output, Status: status, DurationMs: d.Milliseconds()}); err != nil {
		c.log.Warn("Could not write the tool-call log", "err", err)
	}
}
