package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/workspace"
)

func callJSON(t *testing.T, c interface {
	CallTool(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error)
}, name string, args map[string]any, into any) {
	t.Helper()
	req := mcpgo.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(context.Background(), req)
	require.NoError(t, err)
	var text strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(mcpgo.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	require.False(t, res.IsError, "%s: %s", name, text.String())
	require.NoError(t, json.Unmarshal([]byte(text.String()), into), text.String())
}

// TestDelegationThroughMCP: an MCP client creates a workspace, starts a
// shell with a command, reads its screen and sees the file it wrote in the
// workspace diff — the flow Alice uses to delegate work.
func TestDelegationThroughMCP(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, map[string]string{})
	c := mcpClient(t, a.MCPURL())

	var created struct{ ID, Tag, Dir string }
	callJSON(t, c, "workspaceCreate", map[string]any{"tag": "delegated", "template": "shell-only"}, &created)
	require.NotEmpty(t, created.ID)

	var started struct {
		SessionID  string `json:"sessionId"`
		Name       string `json:"name"`
		PromptSent bool   `json:"promptSent"`
	}
	callJSON(t, c, "workspaceStartAgent", map[string]any{"workspaceId": created.ID, "agent": "shell", "prompt": "echo hi > out.txt"}, &started)
	require.NotEmpty(t, started.SessionID)
	require.True(t, started.PromptSent)

	type status struct {
		Sessions []workspace.SessionView `json:"sessions"`
	}
	var st status
	require.Eventually(t, func() bool {
		callJSON(t, c, "workspaceStatus", map[string]any{"workspaceId": created.ID, "sessionId": started.SessionID, "lines": 10}, &st)
		_, err := os.Stat(filepath.Join(created.Dir, "out.txt"))
		return err == nil && len(st.Sessions) == 1 && strings.Contains(strings.Join(st.Sessions[0].Screen, "\n"), "echo hi > out.txt")
	}, 20*time.Second, 100*time.Millisecond, "status: %+v", st)
	assert.Equal(t, "running", st.Sessions[0].Process)
	assert.NotEqual(t, "working", st.Sessions[0].State.String())

	var diff struct {
		Base  string               `json:"base"`
		Files []workspace.FileDiff `json:"files"`
	}
	callJSON(t, c, "workspaceDiff", map[string]any{"workspaceId": "delegated"}, &diff)
	require.Len(t, diff.Files, 1, "%+v", diff.Files)
	assert.Equal(t, "out.txt", diff.Files[0].Path)
	assert.Equal(t, workspace.ChangeAdded, diff.Files[0].Change)
	assert.Contains(t, diff.Files[0].Patch, "+hi")

	// workspaceSend types into the session without attaching.
	var sent struct{ OK bool }
	callJSON(t, c, "workspaceSend", map[string]any{"workspaceId": created.ID, "sessionId": started.Name, "text": "echo sent-42"}, &sent)
	require.True(t, sent.OK)
	require.Eventually(t, func() bool {
		callJSON(t, c, "workspaceStatus", map[string]any{"workspaceId": created.ID}, &st)
		return len(st.Sessions) == 1 && strings.Count(strings.Join(st.Sessions[0].Screen, "\n"), "sent-42") >= 2
	}, 30*time.Second, 100*time.Millisecond, "status: %+v", st)

	var list struct {
		Workspaces []struct {
			ID       string                  `json:"id"`
			Sessions []workspace.SessionView `json:"sessions"`
		} `json:"workspaces"`
	}
	callJSON(t, c, "workspaceList", map[string]any{}, &list)
	require.Len(t, list.Workspaces, 1)
	require.Len(t, list.Workspaces[0].Sessions, 1)
	assert.Equal(t, started.SessionID, list.Workspaces[0].Sessions[0].ID)

	// Bad arguments are tool errors that name the problem.
	for _, bad := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"workspaceStartAgent", map[string]any{"workspaceId": created.ID, "agent": "vim"}, "agent must be"},
		{"workspaceStartAgent", map[string]any{"workspaceId": "nope", "agent": "shell"}, "workspace not found"},
		{"workspaceStatus", map[string]any{"workspaceId": created.ID, "lines": 500}, "lines must be"},
		{"workspaceSend", map[string]any{"workspaceId": created.ID, "sessionId": "zz9", "text": "x"}, "no live session"},
		{"workspaceCreate", map[string]any{"tag": "../etc"}, "invalid tag"},
		{"workspaceCreate", map[string]any{"tag": "delegated"}, "already in use"},
		{"workspaceDiff", map[string]any{"workspaceId": created.ID, "extra": 1}, "unknown parameter"},
	} {
		out, isErr := callText(t, c, bad.tool, bad.args)
		assert.True(t, isErr, "%s %v: %s", bad.tool, bad.args, out)
		assert.Contains(t, out, bad.want, bad.tool)
	}

	// Every call is in the event log.
	calls := map[string]int{}
	for _, e := range a.Activity().Recent() {
		if e.Type == workspace.ToolEventType {
			var p struct{ Tool string }
			require.NoError(t, json.Unmarshal(e.Payload, &p))
			calls[p.Tool]++
		}
	}
	for _, name := range []string{"workspaceCreate", "workspaceStartAgent", "workspaceStatus", "workspaceDiff", "workspaceSend", "workspaceList"} {
		assert.Positive(t, calls[name], name)
	}

	// inbox_read on the workspace endpoint sees what the workspace pushed.
	wsc := mcpClient(t, a.MCPURL()+"/"+created.ID)
	for i := range 2 {
		out, isErr := callText(t, wsc, "inbox_push", map[string]any{"comments": fmt.Sprintf("note %d", i)})
		require.False(t, isErr, out)
	}
	var read struct {
		Entries []struct{ Comments string } `json:"entries"`
	}
	callJSON(t, wsc, "inbox_read", map[string]any{"limit": 5}, &read)
	require.Len(t, read.Entries, 2)
	assert.Equal(t, "note 1", read.Entries[0].Comments)
}

// TestDelegationToolsObeyToolsJSON: tools.json disables a delegation tool
// like any other, read on each call.
func TestDelegationToolsObeyToolsJSON(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, map[string]string{config.ToolsFile: `{"disabled":["workspaceStartAgent","inbox_read"]}`})
	c := mcpClient(t, a.MCPURL())
	tools, err := c.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	require.NoError(t, err)
	names := map[string]bool{}
	for _, tl := range tools.Tools {
		names[tl.Name] = true
	}
	for _, n := range []string{"workspaceList", "workspaceCreate", "workspaceStatus", "workspaceSend", "workspaceDiff"} {
		assert.True(t, names[n], n)
	}
	assert.False(t, names["workspaceStartAgent"])
	req := mcpgo.CallToolRequest{}
	req.Params.Name = "workspaceStartAgent"
	req.Params.Arguments = map[string]any{"workspaceId": "x", "agent": "shell"}
	_, err = c.CallTool(context.Background(), req)
	assert.ErrorContains(t, err, "not found", "a disabled tool cannot be called")
	ws, err := a.Workspaces().Create(context.Background(), "scoped", "shell-only", nil)
	require.NoError(t, err)
	wsc := mcpClient(t, a.MCPURL()+"/"+ws.ID)
	wtools, err := wsc.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	require.NoError(t, err)
	for _, tl := range wtools.Tools {
		assert.NotEqual(t, "inbox_read", tl.Name)
	}
}
