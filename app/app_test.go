package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
)

// echoLLM is an OpenAI-compatible server that replies "You said: <text>",
// or calls notify_user when the prompt contains "notify".
// It closes when the test ends, after any app started later has shut down.
func echoLLM(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		require.NoError(t, json.NewDecoder(r.Body).Decode(&body))
		last := body.Messages[len(body.Messages)-1]
		text, _ := last.Content.(string)
		msg := map[string]any{"role": "assistant", "content": "You said: " + text}
		finish := "stop"
		if strings.Contains(text, "notify") && last.Role == "user" {
			msg = map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{"id": "n1", "type": "function",
				"function": map[string]any{"name": "notify_user", "arguments": `{"text":"webhook says hi"}`}}}}
			finish = "tool_calls"
		}
		// Stream it as one chunk, the way the real API frames replies.
		if tc, ok := msg["tool_calls"].([]any); ok {
			call := tc[0].(map[string]any)
			call["index"] = 0
			msg["tool_calls"] = []any{call}
		}
		chunk, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion.chunk", "model": "m",
			"choices": []any{map[string]any{"index": 0, "delta": msg, "finish_reason": finish}}})
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", chunk)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func mcpClient(t *testing.T, url string) *client.Client {
	c, err := client.NewStreamableHttpClient(url)
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, c.Start(ctx))
	req := mcpgo.InitializeRequest{}
	req.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcpgo.Implementation{Name: "app-test", Version: "0"}
	_, err = c.Initialize(ctx, req)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func callText(t *testing.T, c *client.Client, name string, args map[string]any) (string, bool) {
	req := mcpgo.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(context.Background(), req)
	require.NoError(t, err)
	var parts []string
	for _, ct := range res.Content {
		if tc, ok := ct.(mcpgo.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n"), res.IsError
}

// TestAppEndToEnd starts the whole core headless and drives it through
// real MCP clients: the tool catalogue, a workspace's inbox_push, the Ask
// connector through the agent pipeline, and webhook → agent → notification.
func TestAppEndToEnd(t *testing.T) {
	t.Parallel()
	llm := echoLLM(t)
	a := apptest.StartWithAsk(t, func(askPort int) map[string]string {
		return map[string]string{
			config.ConnectorsFile: fmt.Sprintf(`{"mcpAsk":{"enabled":true,"port":%d}}`, askPort),
			config.AIProviderFile: `{"activeProfile":"mock","profiles":{"mock":{"backend":"openai","model":"m","baseUrl":"` + llm.URL + `/v1"}}}`,
			config.WebhookFile:    `{"tokens":[{"id":"t","token":"hook-secret-1","createdAt":1}]}`,
		}
	})
	ctx, paths := t.Context(), a.Paths()
	require.Len(t, a.Listeners(), 2)

	// Main /mcp: the whole catalogue.
	main := mcpClient(t, a.MCPURL())
	tools, err := main.ListTools(ctx, mcpgo.ListToolsRequest{})
	require.NoError(t, err)
	names := map[string]bool{}
	for _, tl := range tools.Tools {
		names[tl.Name] = true
	}
	for _, want := range []string{"placeOrder", "tradingCommit", "getPortfolio", "calculate", "cronAdd", "notify_user", "readSession"} {
		require.True(t, names[want], want)
	}
	require.False(t, names["askWithSession"], "Ask tools are never in the main catalogue")
	out, isErr := callText(t, main, "getAccount", map[string]any{"source": "sim-paper"})
	require.False(t, isErr, out)
	require.Contains(t, out, "100000")
	out, isErr = callText(t, main, "placeOrder", map[string]any{"source": "sim-paper", "aliceId": "sim-paper|AAPL", "action": "BUY", "orderType": "MKT", "totalQuantity": "not-a-number"})
	require.True(t, isErr, "bad arguments are a tool error: %s", out)

	// A workspace's endpoint carries its identity; inbox_push lands in the inbox.
	ws, err := a.Workspaces().Create(ctx, "research", "shell-only", nil)
	require.NoError(t, err)
	wsc := mcpClient(t, a.MCPURL()+"/"+ws.ID)
	out, isErr = callText(t, wsc, "inbox_push", map[string]any{"comments": "report ready", "docs": []any{map[string]any{"path": "README.md"}}})
	require.False(t, isErr, out)
	page, err := a.Inbox().List(inboxAll())
	require.NoError(t, err)
	require.Len(t, page.Entries, 1)
	require.Equal(t, ws.ID, page.Entries[0].WorkspaceID)

	// The Ask connector talks to Alice through the agent pipeline.
	ask := mcpClient(t, a.AskURL())
	out, isErr = callText(t, ask, "askWithSession", map[string]any{"message": "hello alice", "sessionId": "daily"})
	require.False(t, isErr, out)
	require.Contains(t, out, "You said: hello alice")
	require.FileExists(t, filepath.Join(paths.Data, "sessions", "mcp-ask__daily.jsonl"))
	out, isErr = callText(t, ask, "askWithSession", map[string]any{"message": "x", "sessionId": "../../etc/passwd"})
	require.True(t, isErr, out)
	last, ok := a.Connectors().Last()
	require.True(t, ok)
	require.Equal(t, "mcp-ask", last.Channel, "the Ask connector records interactions")

	// Webhook → agent (calls notify_user) → the TUI connector after a TUI touch.
	a.Touch("tui", "tui/default")
	notes := a.Notifications(ctx)
	req, _ := http.NewRequest(http.MethodPost, strings.TrimSuffix(a.MCPURL(), "/mcp")+"/api/events/ingest",
		strings.NewReader(`{"type":"task.requested","payload":{"prompt":"please notify me"}}`))
	req.Header.Set("Authorization", "Bearer hook-secret-1")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	select {
	case n := <-notes:
		require.Contains(t, n.Text, "webhook says hi", "the task run reached the TUI")
	case <-time.After(30 * time.Second):
		t.Fatal("no notification")
	}

	// Another agent asks through the Ask port, which moves the routing
	// hint to mcp-ask; approval requests must still reach the people.
	out, isErr = callText(t, ask, "askWithSession", map[string]any{"message": "anything new?", "sessionId": "other-agent"})
	require.False(t, isErr, out)
	last, _ = a.Connectors().Last()
	require.Equal(t, "mcp-ask", last.Channel)

	// An agent (here an MCP client) stages, commits and asks to push: the
	// push waits for a person, and the people are told on the TUI.
	for _, step := range []struct {
		tool string
		args map[string]any
	}{
		{"placeOrder", map[string]any{"source": "sim-paper", "aliceId": "sim-paper|AAPL", "action": "BUY", "orderType": "MKT", "totalQuantity": "3"}},
		{"tradingCommit", map[string]any{"source": "sim-paper", "message": "buy 3 AAPL"}},
		{"tradingPush", map[string]any{"source": "sim-paper"}},
	} {
		out, isErr := callText(t, main, step.tool, step.args)
		require.False(t, isErr, "%s: %s", step.tool, out)
		if step.tool == "tradingPush" {
			require.Contains(t, out, "approval")
		}
	}
	select {
	case n := <-notes:
		require.Contains(t, n.Text, "waiting for your approval on sim-paper")
		require.Contains(t, n.Text, a.Trading().Pending()[0].Hash, "the notice names the commit")
		require.Contains(t, n.Text, "placeOrder BUY 3 AAPL (MKT)")
		require.Equal(t, "tui", n.Channel)
	case <-time.After(30 * time.Second):
		t.Fatal("no approval notice")
	}
	require.Len(t, a.Trading().Pending(), 1, "nothing executes without a person")
	res, err := a.Trading().Push(ctx, "sim-paper", a.Trading().Pending()[0].Hash)
	require.NoError(t, err)
	require.Len(t, res.Submitted, 1)
}
