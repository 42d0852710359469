package cli

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/workspace/wsapi"
)

// workspaceHome is a temp home whose mcp.json is mcpJSON.
func workspaceHome(t *testing.T, mcpJSON string) string {
	t.Helper()
	return apptest.Home(t, map[string]string{config.MCPFile: mcpJSON})
}

// startInstance runs alice in process on home, owning its data dir as
// cmd_core does, until the test ends.
func startInstance(t *testing.T, home string) *app.App {
	t.Helper()
	lock, err := config.LockDataDir(apptest.Paths(t, home).Data, "alice serve")
	require.NoError(t, err)
	t.Cleanup(func() { _ = lock.Release() }) // after Shutdown
	a := apptest.Run(t, home)
	recordListeners(lock, a, nil, slog.Default()) // as cmd_core does once bound
	return a
}

func alice(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestWorkspaceCLIOnTheDataDir(t *testing.T) {
	home := workspaceHome(t, `{"port":3999}`)
	out, errs, code := alice(t, "workspace", "new", "--home", home, "--template", "shell-only", "notes")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "alice is not running")
	require.Contains(t, out, "mcp:           http://127.0.0.1:3999/mcp\n")
	require.Regexp(t, `workspace mcp: http://127.0.0.1:3999/mcp/[0-9a-f-]{36}\n`, out)

	out, _, code = alice(t, "workspace", "ls", "--home", home, "--json")
	require.Equal(t, 0, code)
	var list []wsapi.Info
	require.NoError(t, json.Unmarshal([]byte(out), &list))
	require.Len(t, list, 1)
	require.Equal(t, "shell-only", list[0].Template)
	require.FileExists(t, filepath.Join(list[0].Dir, ".mcp.json"))

	_, errs, code = alice(t, "workspace", "new", "--home", home, "notes")
	require.Equal(t, 1, code)
	require.Contains(t, errs, "tag already in use")
	_, errs, code = alice(t, "workspace", "new", "--home", home)
	require.Equal(t, 1, code)
	require.Contains(t, errs, "want exactly one TAG")
	_, _, code = alice(t, "workspace", "bogus", "--home", home)
	require.Equal(t, 2, code, "unknown subcommand is a usage error")

	out, errs, code = alice(t, "workspace", "rm", "--home", home, "notes")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "directory is kept")
	require.DirExists(t, list[0].Dir)
	out, _, _ = alice(t, "workspace", "ls", "--home", home)
	require.Contains(t, out, "no workspaces")
}

// TestWorkspaceCLIThroughTheRunningInstance: with alice running (here in
// process), the CLI goes through its API — the instance's own manager
// knows the workspace at once, /mcp/{wsId} resolves, and the API sits
// behind the MCP port's token and Host checks.
func TestWorkspaceCLIThroughTheRunningInstance(t *testing.T) {
	home := workspaceHome(t, `{"port":0,"token":"s3cret"}`)
	paths := apptest.Paths(t, home)
	t.Cleanup(func() { // after the instance has shut down
		require.NoFileExists(t, paths.DataPath(config.LockOwnerFile), "the record goes with the instance")
	})
	a := startInstance(t, home)

	out, errs, code := alice(t, "workspace", "new", "--home", home, "live-ws")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "via the running alice")
	base := strings.TrimSuffix(a.MCPURL(), "/mcp")
	require.Contains(t, out, "mcp:           "+a.MCPURL()+"\n")
	w, ok := a.Workspaces().Get("live-ws")
	require.True(t, ok, "created in the running instance")
	_, ok = a.Workspaces().Lookup(w.ID)
	require.True(t, ok)
	require.Contains(t, out, "workspace mcp: "+a.MCPURL()+"/"+w.ID)

	// The API is authenticated like /mcp.
	get := func(token, host string) int {
		req, _ := http.NewRequest(http.MethodGet, base+"/api/workspaces", nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	require.Equal(t, http.StatusOK, get("s3cret", ""))
	require.Equal(t, http.StatusUnauthorized, get("", ""))
	require.Equal(t, http.StatusUnauthorized, get("wrong", ""))
	require.NotEqual(t, http.StatusOK, get("s3cret", "evil.example:80"), "DNS-rebinding Host is refused")

	out, errs, code = alice(t, "workspace", "rm", "--home", home, w.ID)
	require.Equal(t, 0, code, errs)
	_, ok = a.Workspaces().Get(w.ID)
	require.False(t, ok)
}
