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

// At 80x24 the .mcp.json snippet is shown whole in the rows the page
// leaves free, even when it is not selected; where it cannot fit whole,
// the selected snippet shows what fits and a "more" marker, the others a
// line count.
func TestMCPPageShowsSnippetInFreeRows(t *testing.T) {
	t.Parallel()
	h, _ := tuitest.NewPagesHarness(t, 80, 24)
	h.Alt('7')
	scr := h.Screen()
	require.Contains(t, scr, `"mcpServers": {`, "%s", scr)
	require.Contains(t, scr, `"url": "http://127.0.0.1:3001/mcp"`, "%s", scr)
	require.NotContains(t, scr, "more lines", "%s", scr)

	h.Send(tuitest.WindowSize(80, 19))
	scr = h.Screen()
	require.NotContains(t, scr, `"mcpServers": {`, "%s", scr)
	require.Contains(t, scr, "{  … ", "the collapsed snippet says it has more\n%s", scr)
	h.Key("down", "down", "down", "down") // select .mcp.json
	scr = h.Screen()
	require.Contains(t, scr, `"mcpServers": {`, "%s", scr)
	require.Contains(t, scr, "more lines · y copies it all", "%s", scr)
	require.Contains(t, scr, "Connected clients", "the rest of the page stays\n%s", scr)
}
