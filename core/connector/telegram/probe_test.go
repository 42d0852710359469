package telegram

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

func TestSendTestReachesEveryAllowedChat(t *testing.T) {
	f, srv := newFakeAPI(t)
	cfg := config.Telegram{BotToken: f.token, APIBaseURL: srv.URL, ChatIDs: []int64{7, 8}}
	require.NoError(t, SendTest(context.Background(), cfg, "hello from settings"))
	f.mu.Lock()
	sent := append([]sentMessage(nil), f.sent...)
	f.mu.Unlock()
	require.Len(t, sent, 2)
	require.Equal(t, int64(8), sent[1].ChatID)
	require.Equal(t, "hello from settings", sent[0].Text)

	cfg.BotToken = "wrong"
	err := SendTest(context.Background(), cfg, "x")
	require.ErrorContains(t, err, "401 Unauthorized")
	require.NotContains(t, err.Error(), "wrong", "the token never appears in errors")

	cfg.ChatIDs = nil
	require.ErrorContains(t, SendTest(context.Background(), cfg, "x"), "chatIds")
}
