package live

import (
	"net/http"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/tui"
)

// TestActivityShowsAWebhookRunLive drives the real TUI over a running
// core: a webhook POST starts an agent run, and the Activity pane's Runs
// tab shows it and its outcome without any key press.
func TestActivityShowsAWebhookRunLive(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, map[string]string{config.WebhookFile: `{"tokens":[{"id":"ci","token":"s3cret-token-for-tests"}]}`})
	dark := true
	m := tui.New(New(a), tui.Options{Version: "test", Dark: &dark})
	t.Cleanup(m.Close)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(150, 36),
		teatest.WithProgramOptions(tea.WithEnvironment([]string{"TERM=xterm-256color"})))
	scr := newVTScreen(t, tm, 150, 36)
	tm.Send(tea.KeyPressMsg{Code: '6', Mod: tea.ModAlt})
	tm.Send(tea.KeyPressMsg{Code: ']', Text: "]"})
	scr.waitFor("Runs")

	url := strings.TrimSuffix(a.MCPURL(), "/mcp") + "/api/events/ingest"
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
	tm.WaitFinished(t, teatest.WithFinalTimeout(30*time.Second))
}
