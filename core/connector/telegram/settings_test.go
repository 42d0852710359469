package telegram

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/connector"
)

type settingsCmds struct {
	fakeCommands
	mu      sync.Mutex
	notesOn bool
}

func (s *settingsCmds) ActiveProfile() string  { return "mock" }
func (s *settingsCmds) HeartbeatEnabled() bool { return false }
func (s *settingsCmds) NotificationsEnabled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.notesOn
}
func (s *settingsCmds) SetNotifications(on bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notesOn = on
	return nil
}

type listingCenter struct {
	fakeCenter
	notes []connector.Notification
}

func (c *listingCenter) Recent(int) ([]connector.Notification, error) { return c.notes, nil }

// streamingAgent says something before its tool call, then answers.
type streamingAgent struct{ fakeAgent }

func (a *streamingAgent) AskStreaming(_ context.Context, prompt, session string, interim func(string)) (string, error) {
	interim("Let me check the *portfolio*…")
	return "Done: all fine.", nil
}

func startSettingsBot(t *testing.T) (*fakeAPI, *Bot, *settingsCmds) {
	api, srv := newFakeAPI(t)
	cmds := &settingsCmds{notesOn: true}
	center := &listingCenter{notes: []connector.Notification{{TS: time.Date(2026, 11, 20, 9, 30, 0, 0, time.Local).UnixMilli(), Text: "AAPL < 190", Source: "heartbeat"}}}
	bot, err := New(Options{Config: config.Telegram{Enabled: true, ChatIDs: []int64{allowedChat}, APIBaseURL: srv.URL},
		Token: api.token, Agent: &streamingAgent{}, Center: center, Commands: cmds, PollTimeout: time.Second, IdleDelay: 5 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, bot.Start(context.Background()))
	t.Cleanup(func() { require.NoError(t, bot.Close()) })
	return api, bot, cmds
}

func TestSettingsCommandTogglesNotifications(t *testing.T) {
	api, bot, cmds := startSettingsBot(t)
	api.userSays(allowedChat, "/settings")
	eventually(t, func() bool { return len(api.sentTo(allowedChat)) == 1 }, "settings panel sent")
	panel := api.sentTo(allowedChat)[0]
	assert.Equal(t, "HTML", panel.Mode)
	assert.Contains(t, panel.Text, "<b>Settings</b>")
	assert.Contains(t, panel.Text, "AI profile: <code>mock</code>")
	assert.Contains(t, panel.Text, "Notifications: on")
	require.NotNil(t, panel.Markup)
	assert.Equal(t, "settings:notifications:off", panel.Markup.InlineKeyboard[1][0].CallbackData)

	api.userTaps(allowedChat, "settings:notifications:off")
	// The bot flips the setting, then answers the tap and replies; wait
	// for the reply, i.e. until the tap is fully handled. (Waiting only for
	// the flag raced with that reply: counting messages afterwards was off
	// by one about one run in ten under -race.)
	eventually(t, func() bool { return sentContaining(api, allowedChat, "Notifications disabled.") == 1 }, "tap answered")
	require.False(t, cmds.NotificationsEnabled(), "tap turns notifications off")
	err := bot.Send(context.Background(), connector.Notification{Text: "hello", To: "42"})
	require.ErrorIs(t, err, ErrMuted)
	require.Zero(t, sentContaining(api, allowedChat, "hello"), "a muted notice is not sent")
	// An approval request (important) still reaches the person. Send
	// returns once Telegram accepted the message, so no polling is needed.
	require.NoError(t, bot.Send(context.Background(), connector.Notification{Text: "commit 1234abcd is waiting for your approval", Urgency: "important", To: "42"}))
	require.Equal(t, 1, sentContaining(api, allowedChat, "waiting for your approval"), "important notice delivered while muted")

	api.userTaps(allowedChat, "settings:heartbeat:on")
	eventually(t, func() bool {
		cmds.fakeCommands.mu.Lock()
		defer cmds.fakeCommands.mu.Unlock()
		return len(cmds.heartbeat) == 1 && cmds.heartbeat[0]
	}, "heartbeat button")
}

func TestNotificationsCommandListsRecent(t *testing.T) {
	api, _, _ := startSettingsBot(t)
	api.userSays(allowedChat, "/notifications")
	eventually(t, func() bool { return len(api.sentTo(allowedChat)) == 1 }, "list sent")
	msg := api.sentTo(allowedChat)[0].Text
	assert.Contains(t, msg, "<code>11-20 09:30</code> <i>heartbeat</i>")
	assert.Contains(t, msg, "AAPL &lt; 190")
}

func TestInterimTextReachesTheChatBeforeTheAnswer(t *testing.T) {
	api, _, _ := startSettingsBot(t)
	api.userSays(allowedChat, "how is my portfolio?")
	eventually(t, func() bool { return len(api.sentTo(allowedChat)) == 2 }, "interim + answer")
	sent := api.sentTo(allowedChat)
	assert.Equal(t, "Let me check the <i>portfolio</i>…", sent[0].Text)
	assert.True(t, strings.HasPrefix(sent[1].Text, "Done: all fine."))
}

func TestRichSendFallsBackToPlainText(t *testing.T) {
	var mu sync.Mutex
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p map[string]any
		_ = json.NewDecoder(r.Body).Decode(&p)
		mu.Lock()
		bodies = append(bodies, p)
		mu.Unlock()
		if p["parse_mode"] == "HTML" {
			_, _ = w.Write([]byte(`{"ok":false,"error_code":400,"description":"Bad Request: can't parse entities: unmatched end tag"}`))
			return
		}
		_, _ = w.Write([]byte(`{"ok":true,"result":{"message_id":1,"chat":{"id":1}}}`))
	}))
	defer srv.Close()
	c, err := newClient(srv.URL, "t", srv.Client())
	require.NoError(t, err)
	require.NoError(t, c.sendRich(context.Background(), 1, "**odd *nesting**", nil))
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, bodies, 2)
	assert.Nil(t, bodies[1]["parse_mode"])
	assert.Equal(t, "**odd *nesting**", bodies[1]["text"], "the plain resend carries the original text")
}

// sentContaining counts the messages to chat whose text contains sub.
func sentContaining(api *fakeAPI, chat int64, sub string) int {
	n := 0
	for _, m := range api.sentTo(chat) {
		if strings.Contains(m.Text, sub) {
			n++
		}
	}
	return n
}
