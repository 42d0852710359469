package workspace

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/inbox"

	"github.com/charmbracelet/x/ansi"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/require"
)

// TestInboxPushOverMCPFromWorkspace wires the pieces the way main does:
// /mcp/{wsId} resolves the id with Manager.Lookup and serves the
// WorkspaceToolCenter's tools; an external MCP client calls inbox_push on
// the URL from the workspace's .mcp.json and the entry appears, rendered
// live from the workspace file. (A stand-in for the mcp package's server.)
func TestInboxPushOverMCPFromWorkspace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	store, err := inbox.Open(filepath.Join(dir, "inbox", "entries.jsonl"), nil)
	require.NoError(t, err)
	defer store.Close()
	wtc := core.NewWorkspaceToolCenter(nil)
	wtc.Register(inbox.PushToolFactory(store))

	var m *Manager
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	defer ts.Close()
	m = newTestManager(t, filepath.Join(dir, "ws"), func(o *Options) { o.MCPURL = func() string { return ts.URL + "/mcp" } })
	mux.HandleFunc("/mcp/{wsId}", func(w http.ResponseWriter, r *http.Request) {
		id, ok := m.Lookup(r.PathValue("wsId"))
		if !ok {
			http.Error(w, "unknown workspace", http.StatusNotFound)
			return
		}
		s := server.NewMCPServer("alice-workspace", "test")
		for _, tool := range wtc.ToolsFor(id) {
			tool := tool
			s.AddTool(mcp.NewToolWithRawSchema(tool.Name, tool.Description, tool.InputSchema),
				func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					args, _ := json.Marshal(req.GetRawArguments())
					res, err := tool.Invoke(ctx, args)
					if err != nil {
						return mcp.NewToolResultError(err.Error()), nil
					}
					return mcp.NewToolResultText(core.ResultText(res)), nil
				})
		}
		server.NewStreamableHTTPServer(s, server.WithStateLess(true)).ServeHTTP(w, r)
	})

	w := createWS(t, m, "pusher", "chat")
	require.NoError(t, os.MkdirAll(filepath.Join(w.Dir, "reports"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(w.Dir, "reports", "btc.md"), []byte("# BTC outlook\n\nStill up."), 0o644))
	var cfg struct {
		MCPServers map[string]struct{ URL string } `json:"mcpServers"`
	}
	raw, err := os.ReadFile(filepath.Join(w.Dir, ".mcp.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &cfg))

	ctx := context.Background()
	c, err := client.NewStreamableHttpClient(cfg.MCPServers["alice-workspace"].URL)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.Start(ctx))
	_, err = c.Initialize(ctx, mcp.InitializeRequest{})
	require.NoError(t, err)
	events := store.Subscribe(ctx)
	req := mcp.CallToolRequest{}
	req.Params.Name = inbox.PushToolName
	req.Params.Arguments = map[string]any{"docs": []map[string]any{{"path": "reports/btc.md"}}, "comments": "Have a look."}
	res, err := c.CallTool(ctx, req)
	require.NoError(t, err)
	require.False(t, res.IsError, "%+v", res.Content)
	var out inbox.PushResult
	require.NoError(t, json.Unmarshal([]byte(res.Content[0].(mcp.TextContent).Text), &out))
	require.True(t, out.OK)

	ev := <-events
	require.Equal(t, inbox.EventAppended, ev.Kind)
	require.Equal(t, w.ID, ev.Entry.WorkspaceID, "identity comes from the URL")
	require.Equal(t, "pusher", ev.Entry.WorkspaceLabel)
	page, err := store.List(inbox.ListOptions{WorkspaceID: w.ID})
	require.NoError(t, err)
	require.Len(t, page.Entries, 1)
	docs := inbox.RenderDocs(page.Entries[0], m.DocReader(), 60)
	require.Contains(t, ansi.Strip(docs[0].Body), "BTC outlook")

	resp, err := http.Post(ts.URL+"/mcp/not-a-workspace", "application/json", nil)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
}
