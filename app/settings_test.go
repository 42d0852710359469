package app_test

import (
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

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
)

// TestServeBannerListsConnectors starts the app with the Ask connector and
// a Telegram bot (against a fake Bot API) and checks what `alice serve`
// prints beside the MCP URLs, and that /settings' notifications switch
// lands in connectors.json.
func TestServeBannerListsConnectors(t *testing.T) {
	t.Parallel()
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
	t.Cleanup(bot.Close) // after the app has shut down
	a := apptest.StartWithAsk(t, func(askPort int) map[string]string {
		return map[string]string{config.ConnectorsFile: fmt.Sprintf(
			`{"mcpAsk":{"enabled":true,"port":%d},"telegram":{"enabled":true,"botToken":"1:x","chatIds":[42,43],"apiBaseUrl":%q}}`, askPort, bot.URL)}
	})
	store := config.NewStore(a.Paths().Config)
	lines := strings.Join(a.ConnectorLines(), "\n")
	assert.Contains(t, lines, "mcp-ask: Ask connector at http://127.0.0.1:")
	assert.Contains(t, lines, "telegram: connected as @AliceBot, polling the Bot API, allowed chats 42,43")
	assert.NotContains(t, lines, "tui")

	cmds := app.TelegramCommands(a)
	require.True(t, cmds.NotificationsEnabled())
	require.NoError(t, cmds.SetNotifications(false))
	c, err := store.Connectors()
	require.NoError(t, err)
	assert.False(t, c.Telegram.NotificationsOn())
	assert.Contains(t, strings.Join(a.ConnectorLines(), "\n"), "notifications off")
	require.NoError(t, cmds.SetNotifications(true))
	require.True(t, cmds.NotificationsEnabled())
}

// TestSettingsServiceUsesTheOneCheck: the running core's settings service
// refuses a raw accounts.json write that only the domain validation
// (broker presets) catches, exactly as `alice check` would, and leaves the
// file as it was.
func TestSettingsServiceUsesTheOneCheck(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	svc := a.Settings()
	orig, base, err := svc.Read(config.AccountsFile)
	require.NoError(t, err)
	draft := []byte(`[{"id":"x","presetId":"alpacca","enabled":true,"guards":[]}]`)
	_, err = svc.Write(config.AccountsFile, base, draft)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown preset "alpacca"`)
	assert.Contains(t, err.Error(), svc.Path(config.AccountsFile))
	now, _, err := svc.Read(config.AccountsFile)
	require.NoError(t, err)
	assert.Equal(t, string(orig), string(now))

	// The same draft on disk fails app.Validate with the same message.
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, config.AccountsFile), draft, 0o600))
	verr := app.Validate(config.NewReadOnlyStore(dir), func(string) string { return "" })
	require.Error(t, verr)
	assert.Contains(t, verr.Error(), `unknown preset "alpacca"`)
	require.NoError(t, svc.Validate())
}
