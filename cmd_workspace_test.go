package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/app"
	"github.com/alice-trading/alice/workspace/wsapi"
)

func workspaceHome(t *testing.T, mcpJSON string) string {
	t.Helper()
	home := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(home, "config"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(home, "config", "mcp.json"), []byte(mcpJSON), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(home, "config", "connectors.json"), []byte(`{"mcpAsk":{"enabled":false}}`), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(home, "config", "news.json"),
		[]byte(`{"enabled":false,"intervalMinutes":10,"maxInMemory":10,"retentionDays":1,"feeds":[]}`), 0o600))
	return home
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
	paths, err := config.ResolvePaths(home)
	require.NoError(t, err)
	require.NoError(t, paths.Ensure())
	store := config.NewStore(paths.Config)
	require.NoError(t, store.CheckAll())
	// A running alice owns the data dir, as cmd_core does.
	lock, err := config.LockDataDir(paths.Data, "alice serve")
	require.NoError(t, err)
	defer func() { _ = lock.Release() }()
	a, err := app.New(app.Options{Paths: paths, Store: store, Version: "test"})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	require.NoError(t, a.Start(ctx))
	defer func() {
		cancel()
		sctx, c2 := context.WithTimeout(context.Background(), 5*time.Second)
		defer c2()
		require.NoError(t, a.Shutdown(sctx))
		require.NoFileExists(t, paths.DataPath(wsapi.InstanceFile), "the record goes with the instance")
	}()

	out, errs, code := alice(t, "workspace", "new", "--home", home, "live-ws")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "via the running alice")
	base := strings.TrimSuffix(a.MCP.URL(), "/mcp")
	require.Contains(t, out, "mcp:           "+a.MCP.URL()+"\n")
	w, ok := a.Workspaces.Get("live-ws")
	require.True(t, ok, "created in the running instance")
	_, ok = a.Workspaces.Lookup(w.ID)
	require.True(t, ok)
	require.Contains(t, out, "workspace mcp: "+a.MCP.URL()+"/"+w.ID)

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
	_, ok = a.Workspaces.Get(w.ID)
	require.False(t, ok)
}
