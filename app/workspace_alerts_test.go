package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/workspace"
	"github.com/alice-trading/alice/workspace/agentstate"
)

// ringBell starts a shell in a new workspace and makes it ask for a person.
func ringBell(t *testing.T, a *app.App, tag string) *workspace.Session {
	t.Helper()
	ws, err := a.Workspaces().Create(context.Background(), tag, "shell-only", nil)
	require.NoError(t, err)
	s, err := a.Workspaces().StartSession(ws.ID, workspace.AgentShell)
	require.NoError(t, err)
	require.True(t, a.Workspaces().WaitReady(context.Background(), s.ID(), 30*time.Second), "shell never drew a prompt")
	require.NoError(t, a.Workspaces().Send(s.ID(), "echo 'Deploy to prod? [y/N]'; printf '\\007'", true))
	require.Eventually(t, func() bool {
		st, _ := a.Workspaces().AgentStatus(s.ID())
		return st.State == agentstate.NeedsYou
	}, 30*time.Second, 20*time.Millisecond)
	return s
}

// TestNeedsYouAlertReachesTheTUI: a workspace session that rings the bell
// becomes one toast-bound notification with the workspace, agent and
// screen; the Ask connector (an agent) never gets it.
func TestNeedsYouAlertReachesTheTUI(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, map[string]string{})
	a.Touch("mcp-ask", "other-agent") // the last channel is an agent: alerts still go to people
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	notes := a.Notifications(ctx)
	ringBell(t, a, "needs-human")
	select {
	case n := <-notes:
		assert.Contains(t, n.Text, "Workspace needs-human · sh1 (shell) needs you")
		assert.Contains(t, n.Text, "Deploy to prod? [y/N]")
		assert.Equal(t, workspace.AlertSource, n.Source)
	case <-time.After(30 * time.Second):
		t.Fatal("no alert reached the TUI connector")
	}
	select {
	case n := <-notes:
		t.Fatalf("a second alert for the same state: %q", n.Text)
	case <-time.After(2 * time.Second):
	}
}

// TestNeedsYouAlertReachesTelegramEmulator runs against telegram-test-api
// (scripts/telegram: ALICE_TELEGRAM_EMULATOR=http://127.0.0.1:9000).
func TestNeedsYouAlertReachesTelegramEmulator(t *testing.T) {
	t.Parallel()
	base := strings.TrimRight(os.Getenv("ALICE_TELEGRAM_EMULATOR"), "/")
	if base == "" {
		t.Skip("ALICE_TELEGRAM_EMULATOR not set; see scripts/telegram/README.md to run the Bot API emulator")
	}
	const chat = 5151
	token := fmt.Sprintf("%d:alice-ws-alert", time.Now().UnixNano())
	a := apptest.Start(t, map[string]string{config.ConnectorsFile: fmt.Sprintf(
		`{"mcpAsk":{"enabled":false},"telegram":{"enabled":true,"botToken":%q,"chatIds":[%d],"apiBaseUrl":%q}}`, token, chat, base)})
	require.Empty(t, a.Problems())
	ringBell(t, a, "tg-alert")

	var texts []string
	require.Eventually(t, func() bool {
		b, _ := json.Marshal(map[string]any{"token": token, "chatId": chat})
		resp, err := http.Post(base+"/getUpdates", "application/json", bytes.NewReader(b))
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		var env struct {
			Result []struct {
				Message struct{ Text string } `json:"message"`
			} `json:"result"`
		}
		if json.NewDecoder(resp.Body).Decode(&env) != nil {
			return false
		}
		for _, r := range env.Result {
			texts = append(texts, r.Message.Text)
		}
		for _, tx := range texts {
			if strings.Contains(tx, "tg-alert · sh1 (shell) needs you") {
				return true
			}
		}
		return false
	}, 15*time.Second, 100*time.Millisecond, "bot messages: %q", texts)
	for _, tx := range texts {
		if strings.Contains(tx, "needs you") {
			assert.Contains(t, tx, "Deploy to prod? [y/N]")
		}
	}
}
