package telegram

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/connector"
)

type harness struct {
	api    *fakeAPI
	bot    *Bot
	agent  *fakeAgent
	center *fakeCenter
	cmds   *fakeCommands
	appr   *fakeApprovals
	events *fakeEvents
}

const allowedChat, strangerChat = int64(42), int64(666)

func startBot(t *testing.T, tweak func(*fakeAPI)) *harness {
	api, srv := newFakeAPI(t)
	if tweak != nil {
		tweak(api)
	}
	h := &harness{api: api, agent: &fakeAgent{}, center: &fakeCenter{}, cmds: &fakeCommands{}, appr: &fakeApprovals{}, events: &fakeEvents{}}
	bot, err := New(Options{
		Config:      config.Telegram{Enabled: true, ChatIDs: []int64{allowedChat}, APIBaseURL: srv.URL},
		Token:       api.token,
		Agent:       h.agent,
		Center:      h.center,
		Commands:    h.cmds,
		Approvals:   h.appr,
		Events:      h.events,
		PollTimeout: time.Second,
		IdleDelay:   5 * time.Millisecond,
	})
	require.NoError(t, err)
	require.NoError(t, bot.Start(context.Background()))
	t.Cleanup(func() { require.NoError(t, bot.Close()) })
	h.bot = bot
	return h
}

func eventually(t *testing.T, cond func() bool, msg string) {
	t.Helper()
	require.Eventually(t, cond, 30*time.Second, 5*time.Millisecond, msg)
}

func TestConversationFromAllowedChat(t *testing.T) {
	h := startBot(t, nil)
	h.api.userSays(strangerChat, "sell everything")
	h.api.userSays(allowedChat, "how is my portfolio?")
	eventually(t, func() bool { return len(h.api.sentTo(allowedChat)) == 1 }, "reply to the allowed chat")

	require.Equal(t, "You said: how is my portfolio?", h.api.sentTo(allowedChat)[0].Text)
	require.Equal(t, []string{"telegram/42: how is my portfolio?"}, h.agent.Calls(), "the stranger never reaches the agent")
	require.Empty(t, h.api.sentTo(strangerChat), "nothing is written to a chat off the allow list")
	require.Equal(t, []string{"telegram:42"}, h.center.Touches())
	eventually(t, func() bool { return len(h.events.Types()) == 3 }, "events recorded")
	require.Equal(t, []string{"connector.up", "message.received", "message.sent"}, h.events.Types())
}

func TestUpdatesAreHandledOnceEvenIfTheServerIgnoresOffset(t *testing.T) {
	h := startBot(t, func(f *fakeAPI) { f.ignoreOffset = true })
	h.api.userSays(allowedChat, "one")
	h.api.userSays(allowedChat, "/help")
	eventually(t, func() bool { return len(h.api.sentTo(allowedChat)) == 2 }, "both answered")
	h.api.mu.Lock()
	polls := h.api.polls
	h.api.mu.Unlock()
	eventually(t, func() bool { h.api.mu.Lock(); defer h.api.mu.Unlock(); return h.api.polls > polls+3 }, "keeps polling")
	require.Equal(t, []string{"telegram/42: one"}, h.agent.Calls())
	require.Len(t, h.api.sentTo(allowedChat), 2)
}

func TestCommands(t *testing.T) {
	h := startBot(t, nil)
	cases := []struct {
		say  string
		want string
	}{
		{"/status", "All systems go."},
		{"/status@AliceTestBot", "All systems go."},
		{"/compact", "Compacted telegram/42."},
		{"/heartbeat off", "Heartbeat disabled."},
		{"/heartbeat on", "Heartbeat enabled."},
		{"/heartbeat sometimes", "Usage: /heartbeat on|off"},
		{"/frobnicate", "Unknown command /frobnicate."},
	}
	for i, tc := range cases {
		h.api.userSays(allowedChat, tc.say)
		eventually(t, func() bool { return len(h.api.sentTo(allowedChat)) == i+1 }, tc.say)
		require.True(t, strings.HasPrefix(h.api.sentTo(allowedChat)[i].Text, tc.want), "%s → %q", tc.say, h.api.sentTo(allowedChat)[i].Text)
	}
	require.Equal(t, []bool{false, true}, h.cmds.heartbeat)
	require.Empty(t, h.agent.Calls(), "commands never reach the agent")

	h.api.userSays(allowedChat, "/heartbeat")
	eventually(t, func() bool { return len(h.api.sentTo(allowedChat)) == len(cases)+1 }, "heartbeat keyboard")
	kb := h.api.sentTo(allowedChat)[len(cases)].Markup
	require.NotNil(t, kb)
	require.Equal(t, "heartbeat:off", kb.InlineKeyboard[0][1].CallbackData)
	h.api.userTaps(allowedChat, "heartbeat:off")
	eventually(t, func() bool { return len(h.api.sentTo(allowedChat)) == len(cases)+2 }, "tap answered")
	require.Equal(t, []bool{false, true, false}, h.cmds.heartbeat)
}

func TestTradingApprovalButtons(t *testing.T) {
	h := startBot(t, nil)
	sent := func(n int) sentMessage {
		eventually(t, func() bool { return len(h.api.sentTo(allowedChat)) >= n+1 }, fmt.Sprintf("message %d", n))
		return h.api.sentTo(allowedChat)[n]
	}
	h.api.userSays(allowedChat, "/trading")
	panel := sent(0)
	require.Contains(t, panel.Text, "Paper (paper-1) – commit a1b2c3d4")
	require.Contains(t, panel.Text, "BUY 5 MSFT")
	require.Equal(t, []InlineButton{{Text: "Push a1b2c3d4", CallbackData: "trading:push:paper-1:a1b2c3d4"},
		{Text: "Reject", CallbackData: "trading:reject:paper-1:a1b2c3d4"}}, panel.Markup.InlineKeyboard[0])

	// A tap from a chat off the allow list approves nothing.
	h.api.userTaps(strangerChat, "trading:push:paper-1:a1b2c3d4")
	// The agent changes the commit; the old button must not push the new one.
	h.appr.stage("paper-1", "e5f6a7b8")
	h.api.userTaps(allowedChat, "trading:push:paper-1:a1b2c3d4")
	require.Contains(t, sent(1).Text, "commit a1b2c3d4 is no longer the prepared commit")
	require.Contains(t, sent(1).Text, "/trading")
	// A button from before hashes were bound decides nothing either.
	h.api.userTaps(allowedChat, "trading:push:paper-1")
	require.Contains(t, sent(2).Text, "does not name a commit")
	h.appr.mu.Lock()
	require.Empty(t, h.appr.approved, "no old button approved anything")
	h.appr.mu.Unlock()

	h.api.userSays(allowedChat, "/trading")
	fresh := sent(3).Markup.InlineKeyboard[0][0].CallbackData
	require.Equal(t, "trading:push:paper-1:e5f6a7b8", fresh)
	h.api.userTaps(allowedChat, fresh)
	require.Equal(t, "Pushed paper-1.", sent(4).Text)
	h.api.userTaps(allowedChat, "trading:reject:paper-1:e5f6a7b8")
	require.Contains(t, sent(5).Text, "Failed", "a decided commit cannot be decided again")
	h.api.userTaps(allowedChat, "trading:bogus")
	require.Equal(t, "That button is no longer valid.", sent(6).Text)
	h.appr.mu.Lock()
	require.Equal(t, []string{"paper-1:e5f6a7b8"}, h.appr.approved)
	require.Empty(t, h.appr.rejected)
	h.appr.mu.Unlock()
	require.Empty(t, h.api.sentTo(strangerChat))
	h.api.mu.Lock()
	require.Len(t, h.api.answered, 6, "every allowed tap is answered so the client stops spinning")
	h.api.mu.Unlock()
}

func TestTradingCallbackFitsTelegramLimit(t *testing.T) {
	long := strings.Repeat("a", 48) // the longest account id config allows
	for _, acct := range []string{"paper-1", long} {
		for _, act := range []string{"push", "reject"} {
			data := tradingCallback(act, acct, "a1b2c3d4")
			require.LessOrEqual(t, len(data), maxCallbackData, data)
			require.True(t, strings.HasSuffix(data, ":a1b2c3d4"), data)
		}
	}
	require.Equal(t, "trading:reject::a1b2c3d4", tradingCallback("reject", long, "a1b2c3d4"))
	// The hash alone then finds the account.
	h := startBot(t, nil)
	h.api.userTaps(allowedChat, "trading:reject::a1b2c3d4")
	eventually(t, func() bool { return len(h.api.sentTo(allowedChat)) == 1 }, "reject answered")
	require.Equal(t, "Rejected paper-1.", h.api.sentTo(allowedChat)[0].Text)
}

func TestSendRoutesToAllowedChatsOnly(t *testing.T) {
	h := startBot(t, nil)
	ctx := context.Background()
	require.NoError(t, h.bot.Send(ctx, connector.Notification{Text: "to last chat", To: "42"}))
	require.NoError(t, h.bot.Send(ctx, connector.Notification{Text: "fallback", To: "666"}))
	require.NoError(t, h.bot.Send(ctx, connector.Notification{Text: strings.Repeat("y", 9000)}))
	sent := h.api.allSent()
	require.Len(t, sent, 5, "two short + a 9000-char text in three chunks")
	for _, m := range sent {
		require.Equal(t, allowedChat, m.ChatID)
		require.LessOrEqual(t, len([]rune(m.Text)), 4096)
	}

	empty, err := New(Options{Token: "t", Agent: h.agent, Center: h.center})
	require.NoError(t, err)
	require.ErrorContains(t, empty.Send(ctx, connector.Notification{Text: "x"}), "allow-listed")
}

func TestErrorsNeverLeakTheToken(t *testing.T) {
	bot, err := New(Options{Token: "999:TOPSECRET", Agent: &fakeAgent{}, Center: &fakeCenter{},
		Config: config.Telegram{ChatIDs: []int64{1}, APIBaseURL: "http://127.0.0.1:1"}})
	require.NoError(t, err)
	err = bot.Send(context.Background(), connector.Notification{Text: "x"})
	require.Error(t, err)
	require.NotContains(t, err.Error(), "TOPSECRET")
	require.NoError(t, bot.Start(context.Background()), "an unreachable API is retried, not a start failure")
	t.Cleanup(func() { _ = bot.Close() })
	h := bot.Health()
	require.Equal(t, LinkDown, h.State)
	require.Error(t, h.Err)
	require.NotContains(t, h.Err.Error(), "TOPSECRET")
	require.False(t, bot.Up())

	_, srv := newFakeAPI(t)
	bad, _ := New(Options{Token: "wrong", Agent: &fakeAgent{}, Center: &fakeCenter{}, Config: config.Telegram{APIBaseURL: srv.URL}})
	require.NoError(t, bad.Start(context.Background()))
	t.Cleanup(func() { _ = bad.Close() })
	var ae *APIError
	require.ErrorAs(t, bad.Health().Err, &ae)
	require.Equal(t, 401, ae.Code)
}

func TestResolveToken(t *testing.T) {
	t.Setenv("ALICE_TEST_TG_TOKEN", "env-token")
	cases := []struct {
		cfg  config.Telegram
		want string
		err  string
	}{
		{config.Telegram{BotToken: "inline"}, "inline", ""},
		{config.Telegram{BotTokenEnv: "ALICE_TEST_TG_TOKEN"}, "env-token", ""},
		{config.Telegram{BotTokenEnv: "ALICE_TEST_TG_UNSET"}, "", "ALICE_TEST_TG_UNSET is empty"},
		{config.Telegram{}, "", "telegram.botToken"},
	}
	for _, tc := range cases {
		got, err := ResolveToken(tc.cfg)
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, tc.want, got)
	}
}

func TestSplitMessage(t *testing.T) {
	long := strings.Repeat("a", 3000) + "\n" + strings.Repeat("b", 3000)
	cases := []struct {
		in    string
		parts int
		first int
	}{
		{"", 1, 0},
		{"hello", 1, 5},
		{strings.Repeat("é", 4000), 1, 4000},
		{strings.Repeat("é", 4001), 2, 4000},
		{long, 2, 3001}, // cut after the newline
	}
	for _, tc := range cases {
		got := splitMessage(tc.in)
		require.Len(t, got, tc.parts, tc.in[:min(10, len(tc.in))])
		require.Len(t, []rune(got[0]), tc.first)
		require.Equal(t, tc.in, strings.Join(got, ""), "nothing lost")
	}
}

// A plain notification (a trading notice carrying an agent's symbols and a
// broker's refusal) is shown literally: its Markdown-looking text makes no
// bold, link or HTML, while an ordinary notification is still Markdown.
func TestPlainNotificationsShowLiterally(t *testing.T) {
	h := startBot(t, nil)
	ctx := context.Background()
	hostile := "✗ placeOrder BRK_B: *insufficient* funds [approve](http://evil.example) <b>now</b>\n• second line"
	require.NoError(t, h.bot.Send(ctx, connector.Notification{Text: hostile, To: "42", Plain: true}))
	require.NoError(t, h.bot.Send(ctx, connector.Notification{Text: "BTC is *up*", To: "42"}))
	sent := h.api.sentTo(allowedChat)
	require.Len(t, sent, 2)
	require.Equal(t, "HTML", sent[0].Mode)
	require.Equal(t, "✗ placeOrder BRK_B: *insufficient* funds [approve](http://evil.example) &lt;b&gt;now&lt;/b&gt;\n• second line", sent[0].Text)
	require.Equal(t, "BTC is <i>up</i>", sent[1].Text)
}
