package mcppage_test

import (
	"testing"

	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/workspaces"
	"github.com/stretchr/testify/require"
)

// A workspace created while the page is open adds a row above the
// snippets; the cursor stays on the one the person selected.
func TestMCPPageCursorKeepsTheItem(t *testing.T) {
	t.Parallel()
	h, f := tuitest.NewPagesHarness(t, 120, 40)
	h.Alt('7')
	h.Key("down", "down", "down", "down") // main, Ask, workspace, claude mcp add, .mcp.json
	h.Key("y")
	require.Contains(t, h.Toast(), "copied .mcp.json")
	f.Mu.Lock()
	f.Workspace = append([]workspaces.WorkspaceInfo{{ID: "ws0", Tag: "aaa-new", Template: "chat"}}, f.Workspace...)
	f.Mu.Unlock()
	h.Run(h.M.MCPPage.Load())
	require.Contains(t, h.Screen(), "aaa-new")
	h.Key("y")
	require.Contains(t, h.Toast(), "copied .mcp.json")
}
