package app_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
)

// A bearer token written to mcp.json (as the Settings pane does) guards
// the running listener within a second, and revoking it opens it again.
func TestMCPTokenAppliesWithoutRestart(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	initialize := func(token string) int {
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
		req, err := http.NewRequest(http.MethodPost, a.MCPURL(), strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	require.Equal(t, http.StatusOK, initialize(""))

	file := filepath.Join(a.Paths().Config, config.MCPFile)
	require.NoError(t, os.WriteFile(file, []byte(`{"port":0,"token":"fresh-token"}`), 0o600))
	require.Eventually(t, func() bool { return initialize("") == http.StatusUnauthorized }, 30*time.Second, 100*time.Millisecond)
	require.Equal(t, http.StatusOK, initialize("fresh-token"))

	require.NoError(t, os.WriteFile(file, []byte(`{"port":0}`), 0o600))
	require.Eventually(t, func() bool { return initialize("") == http.StatusOK }, 30*time.Second, 100*time.Millisecond)
}
