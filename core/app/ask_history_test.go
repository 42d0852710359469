package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

// getSessionHistory over the Ask connector carries the tool lines
// OpenAlice's toTextHistory produces, so an external client sees what
// Alice did, not only what she said.
func TestAskHistoryIncludesToolSummaryLines(t *testing.T) {
	llm := echoLLM(t)
	defer llm.Close()
	paths, err := config.ResolvePaths(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, paths.Ensure())
	for name, body := range map[string]string{
		config.MCPFile:        `{"port":0}`,
		config.ConnectorsFile: fmt.Sprintf(`{"mcpAsk":{"enabled":true,"port":%d}}`, freePort(t)),
		config.AIProviderFile: `{"activeProfile":"mock","profiles":{"mock":{"backend":"openai","model":"m","baseUrl":"` + llm.URL + `/v1"}}}`,
		config.NewsFile:       `{"enabled":false,"intervalMinutes":10,"maxInMemory":10,"retentionDays":1,"feeds":[]}`,
	} {
		require.NoError(t, os.WriteFile(filepath.Join(paths.Config, name), []byte(body), 0o600))
	}
	store := config.NewStore(paths.Config)
	a, err := New(Options{Paths: paths, Store: store, Version: "test"})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	require.NoError(t, a.Start(ctx))
	defer func() {
		cancel()
		sctx, c2 := context.WithTimeout(context.Background(), 5*time.Second)
		defer c2()
		require.NoError(t, a.Shutdown(sctx))
	}()

	ask := mcpClient(t, a.Ask.URL())
	out, isErr := callText(t, ask, "askWithSession", map[string]any{"message": "please notify me", "sessionId": "tools"})
	require.False(t, isErr, out)
	out, isErr = callText(t, ask, "getSessionHistory", map[string]any{"sessionId": "tools"})
	require.False(t, isErr, out)
	var hist struct {
		Messages []struct{ Role, Text string } `json:"messages"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &hist))
	var all []string
	for _, m := range hist.Messages {
		all = append(all, m.Role+": "+m.Text)
	}
	joined := strings.Join(all, "\n")
	require.Contains(t, joined, "user: please notify me")
	require.Contains(t, joined, `[Tool: notify_user {"text":"webhook says hi"}]`)
	require.Contains(t, joined, "[Result: ")
}
