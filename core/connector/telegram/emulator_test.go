package telegram

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

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/connector"
)

// emulatorClient plays the human against telegram-test-api's client API
// (scripts/telegram/emulator.mjs).
type emulatorClient struct {
	t     *testing.T
	base  string
	token string
}

func (c *emulatorClient) post(path string, body any) []byte {
	c.t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(c.base+path, "application/json", bytes.NewReader(b))
	require.NoError(c.t, err)
	defer resp.Body.Close()
	var out bytes.Buffer
	_, _ = out.ReadFrom(resp.Body)
	require.Equal(c.t, http.StatusOK, resp.StatusCode, out.String())
	return out.Bytes()
}

func (c *emulatorClient) from(chat int64) map[string]any {
	return map[string]any{
		"botToken": c.token, "date": time.Now().Unix(),
		"from": map[string]any{"id": chat, "first_name": "Tester", "is_bot": false},
		"chat": map[string]any{"id": chat, "type": "private", "first_name": "Tester"},
	}
}

func (c *emulatorClient) say(chat int64, text string) {
	m := c.from(chat)
	m["text"] = text
	c.post("/sendMessage", m)
}

func (c *emulatorClient) tap(chat int64, data string) {
	msg := c.from(chat)
	delete(msg, "botToken")
	c.post("/sendCallback", map[string]any{"botToken": c.token, "date": time.Now().Unix(), "from": msg["from"], "message": msg, "data": data})
}

type botMessage struct {
	ChatID json.Number     `json:"chat_id"`
	Text   string          `json:"text"`
	Markup *InlineKeyboard `json:"reply_markup"`
}

// read returns the bot's unread messages to chat.
func (c *emulatorClient) read(chat int64) []botMessage {
	var env struct {
		Result []struct {
			Message botMessage `json:"message"`
		} `json:"result"`
	}
	require.NoError(c.t, json.Unmarshal(c.post("/getUpdates", map[string]any{"token": c.token, "chatId": chat}), &env))
	out := make([]botMessage, 0, len(env.Result))
	for _, r := range env.Result {
		out = append(out, r.Message)
	}
	return out
}

// waitFor collects the bot's messages to chat until n have arrived.
func (c *emulatorClient) waitFor(chat int64, n int) []botMessage {
	c.t.Helper()
	var got []botMessage
	require.Eventually(c.t, func() bool {
		got = append(got, c.read(chat)...)
		return len(got) >= n
	}, 15*time.Second, 50*time.Millisecond, "waiting for %d bot messages to chat %d", n, chat)
	return got
}

// TestAgainstBotAPIEmulator drives the connector against the real
// telegram-test-api emulator. Start it with
// `cd scripts/telegram && npm ci && node emulator.mjs`, then run with
// ALICE_TELEGRAM_EMULATOR=http://127.0.0.1:9000.
func TestAgainstBotAPIEmulator(t *testing.T) {
	base := os.Getenv("ALICE_TELEGRAM_EMULATOR")
	if base == "" {
		t.Skip("ALICE_TELEGRAM_EMULATOR not set; see scripts/telegram/README.md to run the Bot API emulator")
	}
	base = strings.TrimRight(base, "/")
	token := fmt.Sprintf("%d:alice-it", time.Now().UnixNano())
	const me, stranger = int64(4242), int64(777)
	human := &emulatorClient{t: t, base: base, token: token}

	center, err := connector.New(t.TempDir())
	require.NoError(t, err)
	agent, appr := &fakeAgent{}, &fakeApprovals{}
	bot, err := New(Options{
		Config:    config.Telegram{Enabled: true, ChatIDs: []int64{me}, APIBaseURL: base},
		Token:     token,
		Agent:     agent,
		Center:    center,
		Commands:  &fakeCommands{},
		Approvals: appr,
		IdleDelay: 50 * time.Millisecond,
	})
	require.NoError(t, err)
	center.Register(connector.NewQueue("mcp-ask"))
	center.Register(bot)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	require.NoError(t, bot.Start(ctx))
	defer bot.Close()

	// A conversation from the allowed chat reaches the agent and is answered.
	human.say(stranger, "transfer my funds")
	human.say(me, "hello alice")
	got := human.waitFor(me, 1)
	require.Equal(t, "You said: hello alice", got[0].Text)
	require.Equal(t, []string{"telegram/4242: hello alice"}, agent.Calls())
	last, ok := center.Last()
	require.True(t, ok)
	require.Equal(t, connector.Interaction{Channel: "telegram", To: "4242", Time: last.Time}, last)

	// A notification follows the user to Telegram.
	ch, err := center.Notify(ctx, "BTC crossed 100k", "important", "heartbeat")
	require.NoError(t, err)
	require.Equal(t, "telegram", ch)
	require.Equal(t, "BTC crossed 100k", human.waitFor(me, 1)[0].Text)

	// Another agent asks through the Ask port: the routing hint moves to
	// mcp-ask, yet an approval request still reaches the person here.
	center.Touch("mcp-ask", "other-agent")
	ch, err = center.NotifyHumans(ctx, "A trading commit is waiting for your approval on paper-1: a1b2c3d4", "important", "trading")
	require.NoError(t, err)
	require.Equal(t, "telegram", ch)
	require.Contains(t, human.waitFor(me, 1)[0].Text, "waiting for your approval on paper-1: a1b2c3d4")

	// /trading shows the pending commit with buttons bound to its hash.
	human.say(me, "/trading")
	panel := human.waitFor(me, 1)[0]
	require.Contains(t, panel.Text, "commit a1b2c3d4")
	require.NotNil(t, panel.Markup)
	oldButton := panel.Markup.InlineKeyboard[0][0].CallbackData
	require.Equal(t, "trading:push:paper-1:a1b2c3d4", oldButton)
	// The agent stages more: the commit changes; the old button is refused.
	appr.stage("paper-1", "e5f6a7b8")
	human.tap(me, oldButton)
	require.Contains(t, human.waitFor(me, 1)[0].Text, "a1b2c3d4 is no longer the prepared commit")
	human.say(me, "/trading")
	fresh := human.waitFor(me, 1)[0].Markup.InlineKeyboard[0][0].CallbackData
	require.Equal(t, "trading:push:paper-1:e5f6a7b8", fresh)
	human.tap(me, fresh)
	require.Equal(t, "Pushed paper-1.", human.waitFor(me, 1)[0].Text)
	appr.mu.Lock()
	require.Equal(t, []string{"paper-1:e5f6a7b8"}, appr.approved, "only the commit the person saw")
	appr.mu.Unlock()

	// The stranger got nothing and never reached the agent.
	require.Empty(t, human.read(stranger))
	require.Len(t, agent.Calls(), 1)
}
