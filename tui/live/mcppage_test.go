package live

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/tui"
)

// showMCPPage runs the real TUI over a and opens the MCP page.
func showMCPPage(t *testing.T, a *app.App) (*teatest.TestModel, *vtScreen) {
	dark := true
	m := tui.New(New(a), tui.Options{Version: "test", Dark: &dark})
	t.Cleanup(m.Close)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(150, 40),
		teatest.WithProgramOptions(tea.WithEnvironment([]string{"TERM=xterm-256color"})))
	scr := newVTScreen(t, tm, 150, 40)
	tm.Send(tea.KeyPressMsg{Code: '7', Mod: tea.ModAlt})
	scr.waitFor("Connected clients")
	return tm, scr
}

func TestMCPPageListsAGoClientWithItsCalls(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c, err := client.NewStreamableHttpClient(a.MCPURL())
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, c.Start(ctx))
	t.Cleanup(func() { _ = c.Close() })
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "page-probe", Version: "2.5.0"}
	_, err = c.Initialize(ctx, init)
	require.NoError(t, err)
	for i := 0; i < 2; i++ {
		req := mcpgo.CallToolRequest{}
		req.Params.Name = "listUTAs"
		_, err = c.CallTool(ctx, req)
		require.NoError(t, err)
	}

	clients := New(a).MCPClients()
	require.Len(t, clients, 1)
	require.Equal(t, "page-probe", clients[0].Name)
	require.Equal(t, 2, clients[0].Calls["listUTAs"])
	require.False(t, clients[0].LastCall.IsZero())

	tm, scr := showMCPPage(t, a)
	scr.waitFor("page-probe 2.5.0")
	scr.waitFor("listUTAs×2")
	scr.waitFor("claude mcp add --transport http alice " + a.MCPURL())
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.WaitFinished(t, teatest.WithFinalTimeout(30*time.Second))
}

// TestMCPPageListsATypeScriptSDKClient connects the official TypeScript
// SDK client (the one scripts/mcp uses) and finds it on the page by the
// name it sent in initialize. It needs scripts/mcp's node_modules
// (scripts/mcp/blackbox.sh installs them in $ALICE_MCP_NODE_DIR or
// /tmp/alice-mcp-node) and is skipped without them.
func TestMCPPageListsATypeScriptSDKClient(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("ALICE_MCP_NODE_DIR")
	if dir == "" {
		dir = "/tmp/alice-mcp-node"
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Skip("TypeScript MCP SDK not installed (run scripts/mcp/blackbox.sh once)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found")
	}
	a := apptest.Start(t, nil)
	// The script lives next to node_modules so its imports resolve.
	f, err := os.CreateTemp(dir, "alice-page-probe-*.mjs")
	require.NoError(t, err)
	script := f.Name()
	require.NoError(t, f.Close())
	require.NoError(t, os.WriteFile(script, []byte(`
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
const transport = new StreamableHTTPClientTransport(new URL(process.argv[2]));
const client = new Client({ name: "alice-ts-sdk-probe", version: "0.0.7" });
await client.connect(transport);
await client.callTool({ name: "listUTAs", arguments: {} });
console.log("ready");
process.stdin.resume();
process.stdin.on("end", async () => { await transport.terminateSession().catch(() => {}); await client.close(); process.exit(0); });
`), 0o600))
	t.Cleanup(func() { _ = os.Remove(script) })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, a.MCPURL())
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = stdin.Close(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "ready", strings.TrimSpace(line))

	tm, scr := showMCPPage(t, a)
	scr.waitFor("alice-ts-sdk-probe 0.0.7")
	scr.waitFor("listUTAs×1")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.WaitFinished(t, teatest.WithFinalTimeout(30*time.Second))
}
