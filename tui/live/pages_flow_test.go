package live

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/app"
	"github.com/alice-trading/alice/tui"
)

// startAppWithWebhook is startApp plus a webhook token.
func startAppWithWebhook(t *testing.T, token string) *app.App {
	home := t.TempDir()
	paths, err := config.ResolvePaths(home)
	require.NoError(t, err)
	require.NoError(t, paths.Ensure())
	for name, body := range map[string]string{
		config.MCPFile:        `{"port":0}`,
		config.ConnectorsFile: `{"mcpAsk":{"enabled":false}}`,
		config.NewsFile:       `{"enabled":false,"intervalMinutes":10,"maxInMemory":10,"retentionDays":1,"feeds":[]}`,
		config.WebhookFile:    `{"tokens":[{"id":"ci","token":"` + token + `"}]}`,
	} {
		require.NoError(t, os.WriteFile(filepath.Join(paths.Config, name), []byte(body), 0o600))
	}
	store := config.NewStore(paths.Config)
	require.NoError(t, store.CheckAll())
	a, err := app.New(app.Options{Paths: paths, Store: store, Version: "test"})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	require.NoError(t, a.Start(ctx))
	t.Cleanup(func() {
		cancel()
		sctx, c2 := context.WithTimeout(context.Background(), 5*time.Second)
		defer c2()
		require.NoError(t, a.Shutdown(sctx))
	})
	return a
}

// TestActivityShowsAWebhookRunLive drives the real TUI over a running
// core: a webhook POST starts an agent run, and the Activity pane's Runs
// tab shows it and its outcome without any key press.
func TestActivityShowsAWebhookRunLive(t *testing.T) {
	a := startAppWithWebhook(t, "s3cret-token-for-tests")
	dark := true
	m := tui.New(New(a), tui.Options{Version: "test", Dark: &dark})
	t.Cleanup(m.Close)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(150, 36),
		teatest.WithProgramOptions(tea.WithEnvironment([]string{"TERM=xterm-256color"})))
	scr := newVTScreen(t, tm, 150, 36)
	tm.Send(tea.KeyPressMsg{Code: '6', Mod: tea.ModAlt})
	tm.Send(tea.KeyPressMsg{Code: ']', Text: "]"})
	scr.waitFor("Runs")

	url := strings.TrimSuffix(a.MCP.URL(), "/mcp") + "/api/events/ingest"
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"type":"task.requested","payload":{"prompt":"webhook says TSLA halted"}}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer s3cret-token-for-tests")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = resp.Body.Close()
	require.Equal(t, http.StatusCreated, resp.StatusCode)

	// No provider is configured in this home, so the run's outcome is an
	// error that names the problem.
	scr.waitFor("task      webhook says TSLA halted              ✗ No AI provider is configured")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}
