package provider

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
)

// SelfLooping marks backends that run their own agent loop (the claude and
// codex CLIs reach alice's tools through its MCP endpoint). The agent sends
// them one flattened prompt and records the tool calls they report.
type SelfLooping interface {
	SelfLooping()
}

// EventToolResult is a tool result reported by a self-looping backend.
const EventToolResult EventKind = 100

// ClaudeCLI runs `claude -p --output-format stream-json`.
type ClaudeCLI struct {
	command string
	model   string
	mcpURL  func() string
}

// NewClaudeCLI builds the backend; command defaults to "claude".
func NewClaudeCLI(command, model string, mcpURL func() string) *ClaudeCLI {
	if command == "" {
		command = "claude"
	}
	return &ClaudeCLI{command: command, model: model, mcpURL: mcpURL}
}

func (c *ClaudeCLI) Name() string { return "claude-cli" }
func (c *ClaudeCLI) SelfLooping() {}

// Stream runs one print-mode invocation. The last user message carries the
// flattened history and prompt (see agent.FlattenHistory).
func (c *ClaudeCLI) Stream(ctx context.Context, req Request) <-chan Event {
	prompt := lastUserText(req.Messages)
	args := []string{"-p", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"}
	if c.mcpURL != nil && c.mcpURL() != "" {
		cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"alice": map[string]string{"type": "http", "url": c.mcpURL()}}})
		args = append(args, "--mcp-config", string(cfg), "--strict-mcp-config", "--allowedTools", "mcp__alice")
	}
	if c.model != "" {
		args = append(args, "--model", c.model)
	}
	if req.System != "" {
		args = append(args, "--append-system-prompt", req.System)
	}
	args = append(args, "--", prompt)
	return runJSONL(ctx, c.command, args, parseClaudeLine)
}

// parseClaudeLine maps one stream-json line to events.
func parseClaudeLine(line []byte) ([]Event, bool) {
	var v struct {
		Type    string `json:"type"`
		Subtype string `json:"subtype"`
		IsError bool   `json:"is_error"`
		Result  string `json:"result"`
		Message struct {
			Content []struct {
				Type      string          `json:"type"`
				Text      string          `json:"text"`
				ID        string          `json:"id"`
				Name      string          `json:"name"`
				Input     json.RawMessage `json:"input"`
				ToolUseID string          `json:"tool_use_id"`
				Content   json.RawMessage `json:"content"`
				IsError   bool            `json:"is_error"`
			} `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &v) != nil {
		return nil, false
	}
	var out []Event
	switch v.Type {
	case "assistant":
		for _, b := range v.Message.Content {
			switch b.Type {
			case "text":
				out = append(out, Event{Kind: EventText, Text: b.Text})
			case "tool_use":
				out = append(out, Event{Kind: EventToolCall, ToolCall: ToolCall{ID: b.ID, Name: stripMCPPrefix(b.Name), Input: b.Input}})
			}
		}
	case "user":
		for _, b := range v.Message.Content {
			if b.Type == "tool_result" {
				out = append(out, Event{Kind: EventToolResult, ToolCall: ToolCall{ID: b.ToolUseID}, Text: resultText(b.Content), StopReason: boolStr(b.IsError)})
			}
		}
	case "result":
		if v.IsError {
			return append(out, Event{Kind: EventError, Err: fmt.Errorf("claude CLI: %s", firstNonEmpty(v.Result, v.Subtype))}), true
		}
		return append(out, Event{Kind: EventDone, Text: v.Result, StopReason: "end_turn"}), true
	}
	return out, false
}

// CodexCLI runs `codex exec --json`.
type CodexCLI struct {
	command string
	model   string
	mcpURL  func() string
}

// NewCodexCLI builds the backend; command defaults to "codex".
func NewCodexCLI(command, model string, mcpURL func() string) *CodexCLI {
	if command == "" {
		command = "codex"
	}
	return &CodexCLI{command: command, model: model, mcpURL: mcpURL}
}

func (c *CodexCLI) Name() string { return "codex-cli" }
func (c *CodexCLI) SelfLooping() {}

// Stream runs one `codex exec` turn.
func (c *CodexCLI) Stream(ctx context.Context, req Request) <-chan Event {
	prompt := lastUserText(req.Messages)
	if req.System != "" {
		prompt = req.System + "\n\n" + prompt
	}
	args := []string{"exec", "--json", "--skip-git-repo-check"}
	if c.mcpURL != nil && c.mcpURL() != "" {
		args = append(args, "-c", fmt.Sprintf("mcp_servers.alice.url=%q", c.mcpURL()))
	}
	if c.model != "" {
		args = append(args, "-m", c.model)
	}
	args = append(args, prompt)
	return runJSONL(ctx, c.command, args, parseCodexLine)
}

func parseCodexLine(line []byte) ([]Event, bool) {
	var v struct {
		Type    string `json:"type"`
		Message string `json:"message"`
		Error   struct {
			Message string `json:"message"`
		} `json:"error"`
		Item struct {
			ID        string          `json:"id"`
			Type      string          `json:"type"`
			Text      string          `json:"text"`
			Tool      string          `json:"tool"`
			Arguments json.RawMessage `json:"arguments"`
			Result    json.RawMessage `json:"result"`
			Status    string          `json:"status"`
		} `json:"item"`
	}
	if json.Unmarshal(line, &v) != nil {
		return nil, false
	}
	switch v.Type {
	case "item.completed":
		switch v.Item.Type {
		case "agent_message":
			return []Event{{Kind: EventText, Text: v.Item.Text}}, false
		case "mcp_tool_call":
			in := v.Item.Arguments
			if len(in) == 0 {
				in = json.RawMessage("{}")
			}
			return []Event{
				{Kind: EventToolCall, ToolCall: ToolCall{ID: v.Item.ID, Name: v.Item.Tool, Input: in}},
				{Kind: EventToolResult, ToolCall: ToolCall{ID: v.Item.ID, Name: v.Item.Tool}, Text: resultText(v.Item.Result), StopReason: boolStr(v.Item.Status == "failed")},
			}, false
		}
	case "turn.completed":
		return []Event{{Kind: EventDone, StopReason: "end_turn"}}, true
	case "turn.failed", "error":
		msg := firstNonEmpty(v.Error.Message, v.Message, "codex failed")
		return []Event{{Kind: EventError, Err: errors.New("codex CLI: " + msg)}}, true
	}
	return nil, false
}

// runJSONL runs a CLI, parsing each stdout line; the process group is
// killed when ctx ends so no CLI outlives its request.
func runJSONL(ctx context.Context, command string, args []string, parse func([]byte) ([]Event, bool)) <-chan Event {
	ch := make(chan Event, 16)
	go func() {
		defer close(ch)
		path, err := exec.LookPath(command)
		if err != nil {
			emit(ctx, ch, Event{Kind: EventError, Err: fmt.Errorf("%s not found on PATH (install it or set \"command\" in the profile): %w", command, err)})
			return
		}
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			emit(ctx, ch, Event{Kind: EventError, Err: err})
			return
		}
		if err := cmd.Start(); err != nil {
			emit(ctx, ch, Event{Kind: EventError, Err: err})
			return
		}
		finished := false
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
		for sc.Scan() {
			evs, done := parse(sc.Bytes())
			for _, ev := range evs {
				if !emit(ctx, ch, ev) {
					_ = cmd.Wait()
					return
				}
			}
			if done {
				finished = true
			}
		}
		werr := cmd.Wait()
		if !finished {
			msg := strings.TrimSpace(stderr.String())
			if werr != nil {
				msg = firstNonEmpty(msg, werr.Error())
			}
			emit(ctx, ch, Event{Kind: EventError, Err: fmt.Errorf("%s ended without a result: %s", command, firstNonEmpty(msg, "no output"))})
		}
	}()
	return ch
}

func lastUserText(msgs []Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == RoleUser && msgs[i].Text != "" {
			return msgs[i].Text
		}
	}
	return ""
}

func stripMCPPrefix(name string) string {
	if strings.HasPrefix(name, "mcp__") {
		if parts := strings.SplitN(name, "__", 3); len(parts) == 3 {
			return parts[2]
		}
	}
	return name
}

// resultText flattens a tool result that may be a string or blocks.
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			parts = append(parts, b.Text)
		}
		return strings.Join(parts, "\n")
	}
	var obj struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(raw, &obj) == nil && len(obj.Content) > 0 {
		var parts []string
		for _, b := range obj.Content {
			parts = append(parts, b.Text)
		}
		return strings.Join(parts, "\n")
	}
	return string(raw)
}

func boolStr(b bool) string {
	if b {
		return "error"
	}
	return ""
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
