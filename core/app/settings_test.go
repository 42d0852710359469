package app

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

// TestServeBannerListsConnectors starts the app with the Ask connector and
// a Telegram bot (against a fake Bot API) and checks what `alice serve`
// prints beside the MCP URLs, and that /settings' notifications switch
// lands in connectors.json.
func TestServeBannerListsConnectors(t *testing.T) {
	bot := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/getMe"):
			_, _ = w.Write([]byte(`{"ok":true,"result":{"id":1,"is_bot":true,"username":"AliceBot"}}`))
		default: // getUpdates: an empty long poll
			select {
			case <-r.Context().Done():
			case <-time.After(50 * time.Millisecond):
			}
			_, _ = w.Write([]byte(`{"ok":true,"result":[]}`))
		}
	}))
	defer bot.Close()
	home := t.TempDir()
	paths, err := config.ResolvePaths(home)
	require.NoError(t, err)
	require.NoError(t, paths.Ensure())
	write := func(name, body string) {
		require.NoError(t, os.WriteFile(filepath.Join(paths.Config, name), []byte(body), 0o600))
	}
	write(config.MCPFile, `{"port":0}`)
	write(config.ConnectorsFile, fmt.Sprintf(`{"mcpAsk":{"enabled":true,"port":%d},"telegram":{"enabled":true,"botToken":"1:x","chatIds":[42,43],"apiBaseUrl":%q}}`, freePort(t), bot.URL))
	write(config.NewsFile, `{"enabled":false,"intervalMinutes":10,"maxInMemory":10,"retentionDays":1,"feeds":[]}`)
	store := config.NewStore(paths.Config)
	require.NoError(t, store.CheckAll())
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
	lines := strings.Join(a.ConnectorLines(), "\n")
	assert.Contains(t, lines, "mcp-ask: Ask connector at http://127.0.0.1:")
	assert.Contains(t, lines, "telegram: polling the Bot API, allowed chats 42,43")
	assert.NotContains(t, lines, "tui")

	cmds := telegramCommands{a}
	require.True(t, cmds.NotificationsEnabled())
	require.NoError(t, cmds.SetNotifications(false))
	c, err := store.Connectors()
	require.NoError(t, err)
	assert.False(t, c.Telegram.NotificationsOn())
	assert.Contains(t, strings.Join(a.ConnectorLines(), "\n"), "notifications off")
	require.NoError(t, cmds.SetNotifications(true))
	require.True(t, cmds.NotificationsEnabled())
}
