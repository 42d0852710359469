package provider

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/alice-trading/alice/core/proctree"
)

// CLIOptions configure a CLI backend (claude or codex).
type CLIOptions struct {
	// Command is the executable (default "claude" / "codex").
	Command string
	Model   string
	// MCPURL returns alice's main MCP endpoint; the CLI reaches alice's
	// tools through it. Empty means the CLI runs without alice's tools.
	MCPURL func() string
	// Dir is the working directory (empty: the current one).
	Dir string
	// Env adds KEY=VALUE pairs (API keys, base URLs) to the inherited
	// environment.
	Env []string
	// MaxTurns bounds the CLI's own agent loop (claude --max-turns).
	MaxTurns int
}

func (o CLIOptions) mcpURL() string {
	if o.MCPURL == nil {
		return ""
	}
	return o.MCPURL()
}

// claudeDisallowed keeps the claude CLI to alice's tools plus read-only
// local tools: no shell, no file edits, no sub-agents.
var claudeDisallowed = []string{"Bash", "Edit", "MultiEdit", "Write", "NotebookEdit", "Task", "TaskOutput", "TodoWrite",
	"AskUserQuestion", "Skill", "EnterPlanMode", "ExitPlanMode", "KillShell", "BashOutput"}

// ClaudeCLI runs `claude -p --output-format stream-json --verbose`, prompt
// on stdin (a long flattened history would overflow argv).
type ClaudeCLI struct{ o CLIOptions }

// NewClaudeCLI builds the backend.
func NewClaudeCLI(o CLIOptions) *ClaudeCLI {
	if o.Command == "" {
		o.Command = "claude"
	}
	return &ClaudeCLI{o: o}
}

func (c *ClaudeCLI) Name() string { return "claude-cli" }
func (c *ClaudeCLI) SelfLooping() {}

// Args is the argv (without the executable) for one request. disabled
// tools (a channel's) are both refused by the CLI and hidden by alice's
// MCP endpoint (WithoutTools).
func (c *ClaudeCLI) Args(system string, disabled ...string) []string {
	deny := append([]string(nil), claudeDisallowed...)
	for _, d := range disabled {
		deny = append(deny, "mcp__alice__"+d)
	}
	args := []string{"-p", "--output-format", "stream-json", "--verbose",
		"--disallowedTools", strings.Join(deny, ",")}
	if u := WithoutTools(c.o.mcpURL(), disabled); u != "" {
		cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"alice": map[string]string{"type": "http", "url": u}}})
		args = append(args, "--mcp-config", string(cfg), "--strict-mcp-config", "--allowedTools", "mcp__alice")
	}
	if c.o.Model != "" {
		args = append(args, "--model", c.o.Model)
	}
	if c.o.MaxTurns > 0 {
		args = append(args, "--max-turns", fmt.Sprint(c.o.MaxTurns))
	}
	if system != "" {
		args = append(args, "--system-prompt", system)
	}
	return args
}

// Stream runs one print-mode invocation. The last user message carries the
// flattened history and prompt (see agent.FlattenHistory).
func (c *ClaudeCLI) Stream(ctx context.Context, req Request) <-chan Event {
	return runJSONL(ctx, c.o, c.Args(req.System, req.DisabledTools...), lastUserText(req.Messages), parseClaudeLine)
}

type claudeBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// parseClaudeLine maps one stream-json line to events; done reports the
// final "result" line.
func parseClaudeLine(line []byte) (evs []Event, done bool) {
	var v struct {
		Type    string   `json:"type"`
		Subtype string   `json:"subtype"`
		IsError bool     `json:"is_error"`
		Result  string   `json:"result"`
		Errors  []string `json:"errors"`
		Message struct {
			Content []claudeBlock `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &v) != nil {
		return nil, false
	}
	switch v.Type {
	case "assistant":
		for _, b := range v.Message.Content {
			switch b.Type {
			case "text":
				if b.Text != "" {
					evs = append(evs, Event{Kind: EventText, Text: b.Text})
				}
			case "tool_use":
				in, bad := toolInput(string(b.Input))
				evs = append(evs, Event{Kind: EventToolCall, ToolCall: ToolCall{ID: b.ID, Name: stripMCPPrefix(b.Name), Input: in, InvalidInput: bad}})
			}
		}
	case "user":
		for _, b := range v.Message.Content {
			if b.Type == "tool_result" {
				evs = append(evs, Event{Kind: EventToolResult, ToolCall: ToolCall{ID: b.ToolUseID}, Text: resultText(b.Content), IsError: b.IsError})
			}
		}
	case "result":
		if v.IsError || (v.Subtype != "" && v.Subtype != "success") {
			msg := firstNonEmpty(v.Result, strings.Join(v.Errors, "; "), v.Subtype)
			return append(evs, Event{Kind: EventError, Err: fmt.Errorf("claude CLI: %s", msg)}), true
		}
		return append(evs, Event{Kind: EventDone, Text: v.Result, StopReason: "end_turn"}), true
	}
	return evs, false
}

// CodexCLI runs `codex exec --json`, prompt on stdin ("-").
type CodexCLI struct{ o CLIOptions }

// NewCodexCLI builds the backend.
func NewCodexCLI(o CLIOptions) *CodexCLI {
	if o.Command == "" {
		o.Command = "codex"
	}
	return &CodexCLI{o: o}
}

func (c *CodexCLI) Name() string { return "codex-cli" }
func (c *CodexCLI) SelfLooping() {}

// Args is the argv (without the executable) for one request. The sandbox
// is read-only: codex may look around but alice's tools are its only way
// to act.
func (c *CodexCLI) Args(disabled ...string) []string {
	args := []string{"exec", "--json", "--skip-git-repo-check", "--sandbox", "read-only"}
	if u := WithoutTools(c.o.mcpURL(), disabled); u != "" {
		args = append(args, "-c", fmt.Sprintf("mcp_servers.alice.url=%q", u))
	}
	if c.o.Model != "" {
		args = append(args, "-m", c.o.Model)
	}
	return append(args, "-")
}

// Stream runs one `codex exec` turn; codex has no system-prompt flag, so
// the system prompt leads the prompt.
func (c *CodexCLI) Stream(ctx context.Context, req Request) <-chan Event {
	prompt := lastUserText(req.Messages)
	if req.System != "" {
		prompt = "<instructions>\n" + req.System + "\n</instructions>\n\n" + prompt
	}
	return runJSONL(ctx, c.o, c.Args(req.DisabledTools...), prompt, parseCodexLine)
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
			Error     *struct {
				Message string `json:"message"`
			} `json:"error"`
			Status string `json:"status"`
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
			in, bad := toolInput(string(v.Item.Arguments))
			out, failed := resultText(v.Item.Result), v.Item.Status == "failed"
			if v.Item.Error != nil {
				out, failed = firstNonEmpty(v.Item.Error.Message, out), true
			}
			return []Event{
				{Kind: EventToolCall, ToolCall: ToolCall{ID: v.Item.ID, Name: v.Item.Tool, Input: in, InvalidInput: bad}},
				{Kind: EventToolResult, ToolCall: ToolCall{ID: v.Item.ID, Name: v.Item.Tool}, Text: out, IsError: failed},
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

// WithoutToolsParam is the query parameter of alice's main MCP endpoint
// that hides tools from that client (comma-separated names). It can only
// take tools away, so any client may use it.
const WithoutToolsParam = "without"

// WithoutTools adds the tools to hide to an MCP endpoint URL.
func WithoutTools(mcpURL string, tools []string) string {
	if mcpURL == "" || len(tools) == 0 {
		return mcpURL
	}
	u, err := url.Parse(mcpURL)
	if err != nil {
		return mcpURL
	}
	q := u.Query()
	q.Set(WithoutToolsParam, strings.Join(tools, ","))
	u.RawQuery = q.Encode()
	return u.String()
}

// tailBuffer keeps the last n bytes written (a CLI's stderr for errors).
type tailBuffer struct {
	b []byte
	n int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > t.n {
		t.b = t.b[len(t.b)-t.n:]
	}
	return len(p), nil
}

// cliEnv is the inherited environment plus extra, minus variables that
// make a nested claude refuse to start.
func cliEnv(extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "CLAUDECODE=") || strings.HasPrefix(kv, "CLAUDE_CODE_ENTRYPOINT=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// runJSONL runs a CLI with the prompt on stdin, parsing each stdout line;
// the process group is killed when ctx ends, and every process still
// carrying the request's proctree tag when the CLI has exited, so nothing
// the CLI started outlives its request.
func runJSONL(ctx context.Context, o CLIOptions, args []string, stdin string, parse func([]byte) ([]Event, bool)) <-chan Event {
	ch := make(chan Event, 16)
	go func() {
		defer close(ch)
		path, err := exec.LookPath(o.Command)
		if err != nil {
			emit(ctx, ch, Event{Kind: EventError, Err: fmt.Errorf("%s not found on PATH (install it or set \"command\" in the profile): %w", o.Command, err)})
			return
		}
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.Dir = o.Dir
		cmd.Env = cliEnv(o.Env)
		tag := proctree.TagCommand(cmd)
		// Whatever the CLI started and left running, even a daemon that
		// left its process group, goes when the request ends.
		defer proctree.End(proctree.Query{Tag: tag}.Find, 2*time.Second)
		cmd.Stdin = strings.NewReader(stdin)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		stderr := &tailBuffer{n: 4096}
		cmd.Stderr = stderr
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
			if finished {
				continue // drain so the CLI never blocks on a full pipe
			}
			evs, done := parse(sc.Bytes())
			for _, ev := range evs {
				if !emit(ctx, ch, ev) {
					_ = cmd.Wait()
					return
				}
			}
			finished = done
		}
		werr := cmd.Wait()
		if !finished && ctx.Err() == nil {
			msg := strings.TrimSpace(string(stderr.b))
			if werr != nil {
				msg = firstNonEmpty(msg, werr.Error())
			}
			emit(ctx, ch, Event{Kind: EventError, Err: fmt.Errorf("%s ended without a result: %s", o.Command, firstNonEmpty(msg, "no output"))})
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

// resultText flattens a tool result that may be a string, content blocks
// or an MCP result object {content:[…]}.
func resultText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	type block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	join := func(bs []block) string {
		parts := make([]string, 0, len(bs))
		for _, b := range bs {
			if b.Type == "text" || b.Type == "" {
				parts = append(parts, b.Text)
			} else {
				parts = append(parts, "["+b.Type+"]")
			}
		}
		return strings.Join(parts, "\n")
	}
	var blocks []block
	if json.Unmarshal(raw, &blocks) == nil {
		return join(blocks)
	}
	var obj struct {
		Content []block `json:"content"`
	}
	if json.Unmarshal(raw, &obj) == nil && len(obj.Content) > 0 {
		return join(obj.Content)
	}
	return string(raw)
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
