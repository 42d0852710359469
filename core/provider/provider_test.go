package provider

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"alice/config"
)

func collectEvents(ch <-chan Event) []Event {
	var out []Event
	for ev := range ch {
		out = append(out, ev)
	}
	return out
}

func TestClaudeCLIStreamJSON(t *testing.T) {
	argsFile := filepath.Join(t.TempDir(), "args")
	t.Setenv("FAKE_ARGS_FILE", argsFile)
	p := NewClaudeCLI("testdata/fake-claude.sh", "sonnet", func() string { return "http://127.0.0.1:9/mcp" })
	evs := collectEvents(p.Stream(context.Background(), Request{System: "be brief", Messages: []Message{{Role: RoleUser, Text: "price of AAPL?"}}}))
	require.Len(t, evs, 5)
	require.Equal(t, EventText, evs[0].Kind)
	require.Equal(t, EventToolCall, evs[1].Kind)
	require.Equal(t, "getQuote", evs[1].ToolCall.Name, "mcp__alice__ prefix stripped")
	require.JSONEq(t, `{"aliceId":"sim-paper|AAPL"}`, string(evs[1].ToolCall.Input))
	require.Equal(t, EventToolResult, evs[2].Kind)
	require.Equal(t, `{"last":"190.25"}`, evs[2].Text)
	require.Equal(t, EventDone, evs[4].Kind)
	require.Equal(t, "AAPL is at 190.25.", evs[4].Text)
	args, err := os.ReadFile(argsFile)
	require.NoError(t, err)
	for _, want := range []string{"-p", "--output-format stream-json", "--strict-mcp-config", `"url":"http://127.0.0.1:9/mcp"`, "--model sonnet", "price of AAPL?"} {
		require.Contains(t, string(args), want)
	}
}

func TestCodexCLIJSONL(t *testing.T) {
	argsFile := filepath.Join(t.TempDir(), "args")
	t.Setenv("FAKE_ARGS_FILE", argsFile)
	p := NewCodexCLI("testdata/fake-codex.sh", "", func() string { return "http://127.0.0.1:9/mcp" })
	evs := collectEvents(p.Stream(context.Background(), Request{Messages: []Message{{Role: RoleUser, Text: "account?"}}}))
	require.Len(t, evs, 4)
	require.Equal(t, "getAccount", evs[0].ToolCall.Name)
	require.Equal(t, `{"netLiquidation":"100000"}`, evs[1].Text)
	require.Equal(t, "Your net liquidation is 100000.", evs[2].Text)
	require.Equal(t, EventDone, evs[3].Kind)
	args, _ := os.ReadFile(argsFile)
	require.Contains(t, string(args), `mcp_servers.alice.url="http://127.0.0.1:9/mcp"`)
}

func TestCLIFailuresAreClear(t *testing.T) {
	evs := collectEvents(NewClaudeCLI("testdata/fake-fail.sh", "", nil).Stream(context.Background(), Request{Messages: []Message{{Role: RoleUser, Text: "x"}}}))
	require.Len(t, evs, 1)
	require.Equal(t, EventError, evs[0].Kind)
	require.Contains(t, evs[0].Err.Error(), "Not logged in")
	evs = collectEvents(NewCodexCLI("definitely-not-installed-cli", "", nil).Stream(context.Background(), Request{}))
	require.Contains(t, evs[0].Err.Error(), "not found on PATH")
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

	env["OPENAI_API_KEY"] = "sk-test"
	res, err := r.Resolve("", "tui")
	require.NoError(t, err)
	require.Equal(t, "env:OPENAI_API_KEY", res.Profile)
	require.Equal(t, "openai", res.Provider.Name())

	write(`{"activeProfile":"a","profiles":{"a":{"backend":"anthropic","apiKeyEnv":"ANT"},"l":{"backend":"openai","baseUrl":"http://127.0.0.1:11434/v1","model":"qwen"},"c":{"backend":"claude-cli"}},"channels":{"telegram":"l","cron":"c"}}`)
	_, err = r.Resolve("", "tui")
	require.ErrorContains(t, err, "no API key", "anthropic without a key is explained")
	env["ANT"] = "k"
	cases := []struct{ profile, channel, want, backend string }{
		{"", "tui", "a", "anthropic"},
		{"", "telegram", "l", "openai"},
		{"", "telegram/123", "l", "openai"},
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
