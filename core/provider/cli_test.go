package provider

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/proctree"
)

func collectEvents(ch <-chan Event) []Event {
	var out []Event
	for ev := range ch {
		out = append(out, ev)
	}
	return out
}

// fakeIO points the fake CLIs' argv/stdin recordings at temp files.
func fakeIO(t *testing.T) (args, stdin func() string) {
	dir := t.TempDir()
	a, s := filepath.Join(dir, "args"), filepath.Join(dir, "stdin")
	t.Setenv("FAKE_ARGS_FILE", a)
	t.Setenv("FAKE_STDIN_FILE", s)
	read := func(p string) func() string {
		return func() string {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			return string(b)
		}
	}
	return read(a), read(s)
}

func TestClaudeCLIStreamJSON(t *testing.T) {
	args, stdin := fakeIO(t)
	p := NewClaudeCLI(CLIOptions{Command: "testdata/fake-claude.sh", Model: "sonnet", MaxTurns: 7, MCPURL: func() string { return "http://127.0.0.1:9/mcp" }})
	evs := collectEvents(p.Stream(context.Background(), Request{System: "be brief", Messages: []Message{{Role: RoleUser, Text: "price of AAPL?"}}}))
	kinds := make([]EventKind, len(evs))
	for i, ev := range evs {
		kinds[i] = ev.Kind
	}
	require.Equal(t, []EventKind{EventText, EventToolCall, EventToolResult, EventToolCall, EventToolResult, EventText, EventDone}, kinds)
	require.Equal(t, "getQuote", evs[1].ToolCall.Name, "mcp__alice__ prefix stripped")
	require.Equal(t, "toolu_1", evs[1].ToolCall.ID)
	require.JSONEq(t, `{"aliceId":"sim-paper|AAPL"}`, string(evs[1].ToolCall.Input))
	require.Equal(t, "toolu_1", evs[2].ToolCall.ID)
	require.Equal(t, `{"last":"190.25"}`, evs[2].Text, "content blocks flattened")
	require.Equal(t, "notify_user", evs[3].ToolCall.Name)
	require.Equal(t, `{"acknowledged":true}`, evs[4].Text, "string content kept")
	require.Equal(t, "AAPL is at 190.25.", evs[6].Text)

	argv := strings.Split(strings.TrimSpace(args()), "\n")
	require.Equal(t, "-p", argv[0])
	flag := func(name string) string {
		for i, a := range argv {
			if a == name && i+1 < len(argv) {
				return argv[i+1]
			}
		}
		t.Fatalf("flag %s missing in %q", name, argv)
		return ""
	}
	require.Equal(t, "stream-json", flag("--output-format"))
	require.JSONEq(t, `{"mcpServers":{"alice":{"type":"http","url":"http://127.0.0.1:9/mcp"}}}`, flag("--mcp-config"))
	require.Contains(t, argv, "--strict-mcp-config")
	require.Equal(t, "mcp__alice", flag("--allowedTools"))
	require.Contains(t, flag("--disallowedTools"), "Bash", "no shell for the chat agent")
	require.Equal(t, "sonnet", flag("--model"))
	require.Equal(t, "7", flag("--max-turns"))
	require.Equal(t, "be brief", flag("--system-prompt"))
	require.Equal(t, "price of AAPL?", stdin(), "the prompt goes through stdin, not argv")
}

func TestCodexCLIJSONL(t *testing.T) {
	args, stdin := fakeIO(t)
	p := NewCodexCLI(CLIOptions{Command: "testdata/fake-codex.sh", MCPURL: func() string { return "http://127.0.0.1:9/mcp" }})
	evs := collectEvents(p.Stream(context.Background(), Request{System: "persona", Messages: []Message{{Role: RoleUser, Text: "account?"}}}))
	require.Len(t, evs, 6)
	require.Equal(t, EventToolCall, evs[0].Kind)
	require.Equal(t, "getAccount", evs[0].ToolCall.Name)
	require.JSONEq(t, `{"source":"sim-paper"}`, string(evs[0].ToolCall.Input))
	require.Equal(t, `{"netLiquidation":"100000"}`, evs[1].Text)
	require.False(t, evs[1].IsError)
	require.Equal(t, "placeOrder", evs[2].ToolCall.Name)
	require.True(t, evs[3].IsError, "failed MCP call is an error result")
	require.Equal(t, "unknown account x", evs[3].Text)
	require.Equal(t, "Your net liquidation is 100000.", evs[4].Text)
	require.Equal(t, EventDone, evs[5].Kind)
	a := args()
	require.Contains(t, a, `mcp_servers.alice.url="http://127.0.0.1:9/mcp"`)
	require.Contains(t, a, "read-only")
	require.True(t, strings.HasSuffix(strings.TrimSpace(a), "\n-"), "prompt read from stdin")
	require.Contains(t, stdin(), "persona")
	require.True(t, strings.HasSuffix(stdin(), "account?"))
}

func TestCLIFailuresAreClear(t *testing.T) {
	evs := collectEvents(NewClaudeCLI(CLIOptions{Command: "testdata/fake-fail.sh"}).Stream(context.Background(), Request{Messages: []Message{{Role: RoleUser, Text: "x"}}}))
	require.Len(t, evs, 1)
	require.Equal(t, EventError, evs[0].Kind)
	require.Contains(t, evs[0].Err.Error(), "Not logged in", "stderr explains the failure")
	evs = collectEvents(NewCodexCLI(CLIOptions{Command: "definitely-not-installed-cli"}).Stream(context.Background(), Request{}))
	require.Contains(t, evs[0].Err.Error(), "not found on PATH")

	// A result line that reports an error (e.g. max turns) is an error.
	evs, done := parseClaudeLine([]byte(`{"type":"result","subtype":"error_max_turns","is_error":true,"result":""}`))
	require.True(t, done)
	require.ErrorContains(t, evs[0].Err, "error_max_turns")
}

func TestCLICancelKillsTheProcess(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := NewClaudeCLI(CLIOptions{Command: "testdata/fake-hang.sh"}).Stream(ctx, Request{Messages: []Message{{Role: RoleUser, Text: "x"}}})
	first := <-ch
	require.Equal(t, "thinking", first.Text)
	cancel()
	closed := make(chan struct{})
	go func() {
		for range ch {
		}
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("the stream did not end after cancel: the CLI was not killed")
	}
}

// TestCLIDaemonEndsWithTheRequest: a process the CLI started that left its
// process group and lost its parent (a daemon) does not outlive the request.
func TestCLIDaemonEndsWithTheRequest(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("found through /proc")
	}
	pidFile := filepath.Join(t.TempDir(), "daemon.pid")
	t.Setenv("FAKE_DAEMON_PID_FILE", pidFile)
	evs := collectEvents(NewCodexCLI(CLIOptions{Command: "testdata/fake-codex-daemon.sh"}).Stream(context.Background(), Request{Messages: []Message{{Role: RoleUser, Text: "x"}}}))
	require.Equal(t, EventDone, evs[len(evs)-1].Kind)
	b, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	require.Eventually(t, func() bool { return !proctree.Alive(proctree.Proc{PID: pid}) }, 30*time.Second, 20*time.Millisecond,
		"the daemon (pid %d) outlived the request", pid)
}

func TestRouterResolution(t *testing.T) {
	dir := t.TempDir()
	store := config.NewStore(dir)
	write := func(s string) { require.NoError(t, os.WriteFile(store.Path(config.AIProviderFile), []byte(s), 0o600)) }
	env := map[string]string{}
	r := NewRouter(store, func() string { return "" }).WithGetenv(func(k string) string { return env[k] })

	_, err := r.Resolve("", "tui")
	var np *NoProviderError
	require.True(t, errors.As(err, &np))
	require.ErrorIs(t, err, ErrNoProvider)
	require.Contains(t, err.Error(), store.Path(config.AIProviderFile), "names the file to edit")
	for _, b := range []string{`"anthropic"`, `"openai"`, `"claude-cli"`, "11434"} {
		require.Contains(t, err.Error(), b, "the how-to has an example for each backend")
	}

	env["OPENAI_API_KEY"] = "sk-test"
	res, err := r.Resolve("", "tui")
	require.NoError(t, err)
	require.Equal(t, "env:OPENAI_API_KEY", res.Profile)
	require.Equal(t, "openai", res.Provider.Name())
	env["ANTHROPIC_API_KEY"] = "k"
	res, err = r.Resolve("", "tui")
	require.NoError(t, err)
	require.Equal(t, "anthropic", res.Provider.Name(), "Anthropic key wins when both are set")

	write(`{"profiles":{"only":{"backend":"codex-cli"}}}`)
	res, err = r.Resolve("", "tui")
	require.NoError(t, err)
	require.Equal(t, "only", res.Profile, "a single profile needs no activeProfile")

	write(`{"activeProfile":"a","profiles":{"a":{"backend":"anthropic","apiKeyEnv":"ANT"},"l":{"backend":"openai","baseUrl":"http://127.0.0.1:11434/v1","model":"qwen"},"c":{"backend":"claude-cli"}},"channels":{"telegram":"l","cron":"c"}}`)
	delete(env, "ANTHROPIC_API_KEY")
	_, err = r.Resolve("", "tui")
	require.ErrorContains(t, err, "no API key", "anthropic without a key is explained")
	env["ANT"] = "k"
	cases := []struct{ profile, channel, want, backend string }{
		{"", "tui", "a", "anthropic"},
		{"", "telegram", "l", "openai"},
		{"", "telegram/123", "l", "openai"},
		{"", "telegramx", "a", "anthropic"},
		{"", "cron/default", "c", "claude-cli"},
		{"l", "cron", "l", "openai"},
	}
	for _, tc := range cases {
		res, err := r.Resolve(tc.profile, tc.channel)
		require.NoError(t, err, tc)
		require.Equal(t, tc.want, res.Profile, tc)
		require.Equal(t, tc.backend, res.Provider.Name(), tc)
	}
	_, err = r.Resolve("missing", "tui")
	require.ErrorContains(t, err, `"profiles.missing"`)
	write(`{"activeProfile":"x","profiles":{}}`)
	_, err = r.Resolve("", "tui")
	require.ErrorContains(t, err, "activeProfile", "config errors name the key")
}

func TestRouterPassesCLIAuthThroughEnv(t *testing.T) {
	store := config.NewStore(t.TempDir())
	require.NoError(t, os.WriteFile(store.Path(config.AIProviderFile), []byte(`{"activeProfile":"c","profiles":{"c":{"backend":"claude-cli","apiKeyEnv":"MY_KEY","authMode":"bearer","baseUrl":"http://gw"}}}`), 0o600))
	work := filepath.Join(t.TempDir(), "brain")
	r := NewRouter(store, nil).WithGetenv(func(k string) string { return map[string]string{"MY_KEY": "secret"}[k] }).WithCLIDir(work)
	res, err := r.Resolve("", "tui")
	require.NoError(t, err)
	c := res.Provider.(*ClaudeCLI)
	require.Contains(t, c.o.Env, "ANTHROPIC_AUTH_TOKEN=secret")
	require.Contains(t, c.o.Env, "ANTHROPIC_BASE_URL=http://gw")
	require.Equal(t, work, c.o.Dir)
	require.DirExists(t, work)
	require.Equal(t, config.DefaultAgent().MaxSteps, c.o.MaxTurns)
}

func TestExampleConfigIsValid(t *testing.T) {
	store := config.NewStore(t.TempDir())
	require.NoError(t, os.WriteFile(store.Path(config.AIProviderFile), []byte(ExampleConfig), 0o600))
	cfg, err := store.AIProvider()
	require.NoError(t, err, "the example shown to users must load as-is")
	require.Len(t, cfg.Profiles, 5)
	seen := map[config.Backend]bool{}
	for _, p := range cfg.Profiles {
		seen[p.Backend] = true
	}
	for _, b := range config.Backends {
		require.True(t, seen[b], "example covers %s", b)
	}
	env := map[string]string{"ANTHROPIC_API_KEY": "k"}
	r := NewRouter(store, nil).WithGetenv(func(k string) string { return env[k] })
	res, err := r.Resolve("", "heartbeat")
	require.NoError(t, err)
	require.Equal(t, "local", res.Profile)
	res, err = r.Resolve("", "tui")
	require.NoError(t, err)
	require.Equal(t, "claude", res.Profile)
}

// A channel's disabled tools are refused by the claude CLI and hidden by
// alice's MCP endpoint for both CLIs.
func TestCLIArgsCarryDisabledTools(t *testing.T) {
	t.Parallel()
	mcp := func() string { return "http://127.0.0.1:3001/mcp" }
	claude := NewClaudeCLI(CLIOptions{MCPURL: mcp}).Args("sys", "placeOrder", "tradingPush")
	joined := strings.Join(claude, " ")
	require.Contains(t, joined, "mcp__alice__placeOrder,mcp__alice__tradingPush")
	require.Contains(t, joined, `"url":"http://127.0.0.1:3001/mcp?without=placeOrder%2CtradingPush"`)
	require.NotContains(t, strings.Join(NewClaudeCLI(CLIOptions{MCPURL: mcp}).Args("sys"), " "), "without=")

	codex := strings.Join(NewCodexCLI(CLIOptions{MCPURL: mcp}).Args("placeOrder"), " ")
	require.Contains(t, codex, `mcp_servers.alice.url="http://127.0.0.1:3001/mcp?without=placeOrder"`)
	require.Equal(t, "", WithoutTools("", []string{"x"}))
}

func TestWorkspaceAgentOverride(t *testing.T) {
	t.Parallel()
	store := config.NewStore(t.TempDir())
	require.NoError(t, os.WriteFile(store.Path(config.AIProviderFile), []byte(`{"profiles":{
	  "haiku":{"backend":"anthropic","model":"claude-haiku","apiKeyEnv":"K","baseUrl":"http://gw"},
	  "bearer":{"backend":"claude-cli","apiKey":"tok","authMode":"bearer"},
	  "mini":{"backend":"openai","model":"gpt-mini","apiKey":"sk","baseUrl":"http://oa"},
	  "cx":{"backend":"codex-cli"}}}`), 0o600))
	r := NewRouter(store, nil).WithGetenv(func(k string) string { return map[string]string{"K": "secret"}[k] })
	cases := []struct {
		profile, agent string
		want           AgentLaunch
		err            string
	}{
		{"haiku", "claude", AgentLaunch{Args: []string{"--model", "claude-haiku"}, Env: []string{"ANTHROPIC_API_KEY=secret", "ANTHROPIC_BASE_URL=http://gw"}}, ""},
		{"bearer", "claude", AgentLaunch{Env: []string{"ANTHROPIC_AUTH_TOKEN=tok"}}, ""},
		{"mini", "codex", AgentLaunch{Args: []string{"-m", "gpt-mini"}, Env: []string{"OPENAI_API_KEY=sk", "CODEX_API_KEY=sk", "OPENAI_BASE_URL=http://oa"}}, ""},
		{"cx", "codex", AgentLaunch{}, ""},
		{"mini", "claude", AgentLaunch{}, `profile "mini" (openai) cannot start claude`},
		{"haiku", "codex", AgentLaunch{}, `profile "haiku" (anthropic) cannot start codex`},
		{"nope", "claude", AgentLaunch{}, `no profile named "nope"`},
	}
	for _, tc := range cases {
		got, err := r.WorkspaceAgent(tc.profile, tc.agent)
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, tc.want, got, tc.profile+"/"+tc.agent)
	}
}
