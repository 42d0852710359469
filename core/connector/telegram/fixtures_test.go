package telegram

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

// TestReplaysRecordedEmulatorAnswers feeds the bot the exact JSON the
// telegram-test-api emulator produced (testdata/).
func TestReplaysRecordedEmulatorAnswers(t *testing.T) {
	dir := filepath.Join("testdata")
	updates, err := os.ReadFile(filepath.Join(dir, "emulator-getUpdates.json"))
	require.NoError(t, err)
	sent, err := os.ReadFile(filepath.Join(dir, "emulator-sendMessage.json"))
	require.NoError(t, err)

	var mu sync.Mutex
	calls := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		method := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
		mu.Lock()
		calls[method]++
		n := calls[method]
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case method == "getUpdates" && n == 1:
			_, _ = w.Write(updates)
		case method == "getUpdates":
			_, _ = w.Write([]byte(`{"ok":true,"result":[]}`))
		case method == "sendMessage":
			_, _ = w.Write(sent)
		default: // getMe, answerCallbackQuery
			_, _ = w.Write([]byte(`{"ok":true,"result":{"id":666,"is_bot":true,"username":"TestNameBot"}}`))
		}
	}))
	defer srv.Close()

	appr := &fakeApprovals{}
	bot, err := New(Options{Token: "7:fixture", Agent: &fakeAgent{}, Center: &fakeCenter{}, Approvals: appr,
		Config: config.Telegram{ChatIDs: []int64{4242}, APIBaseURL: srv.URL}, IdleDelay: 5 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, bot.Start(context.Background()))
	defer bot.Close()
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return calls["answerCallbackQuery"] == 1 && calls["sendMessage"] == 2
	}, 30*time.Second, 5*time.Millisecond, "panel + refusal sent, tap answered")
	appr.mu.Lock()
	defer appr.mu.Unlock()
	// The recorded tap is an old-style button without a commit hash: it
	// must decide nothing.
	require.Empty(t, appr.approved)
}
