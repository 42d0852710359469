package telegram

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/freeport"
)

// freeAddr is a loopback address nothing listens on until the test starts
// its server there, outside the range other tests' port-0 listeners and
// connections could take it from in between (core/freeport).
func freeAddr(t *testing.T) string {
	addr, err := freeport.Addr()
	require.NoError(t, err)
	return addr
}

func healingBot(t *testing.T, base string, h *harness) *Bot {
	bot, err := New(Options{
		Config: config.Telegram{Enabled: true, ChatIDs: []int64{allowedChat}, APIBaseURL: base},
		Token:  "123:SECRET", Agent: h.agent, Center: h.center, Commands: h.cmds, Events: h.events,
		PollTimeout: time.Second, IdleDelay: 5 * time.Millisecond,
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond,
	})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, bot.Close()) })
	return bot
}

// TestRecoversWhenTheBotAPIStartsLater starts the bot against a closed
// port, then opens a Bot API there: the bot connects on its own, records
// connector.down then connector.up, and answers /status.
func TestRecoversWhenTheBotAPIStartsLater(t *testing.T) {
	addr := freeAddr(t)
	h := &harness{agent: &fakeAgent{}, center: &fakeCenter{}, cmds: &fakeCommands{}, events: &fakeEvents{}}
	bot := healingBot(t, "http://"+addr, h)
	require.NoError(t, bot.Start(context.Background()))
	hl := bot.Health()
	require.Equal(t, LinkDown, hl.State)
	require.ErrorContains(t, hl.Err, "connection refused")
	require.False(t, bot.Up())
	eventually(t, func() bool { return bot.Health().Attempts >= 3 }, "it keeps retrying")

	api := &fakeAPI{t: t, token: "123:SECRET", nextID: 100}
	ln, err := net.Listen("tcp", addr)
	require.NoError(t, err)
	srv := httptest.NewUnstartedServer(api)
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	opened := time.Now()

	eventually(t, bot.Up, "the bot reconnects once the API listens")
	t.Logf("recovered %v after the Bot API started", time.Since(opened).Round(time.Millisecond))
	require.Equal(t, "AliceTestBot", bot.Health().Bot)
	api.userSays(allowedChat, "/status")
	eventually(t, func() bool { return len(api.sentTo(allowedChat)) == 1 }, "/status answered")
	require.Equal(t, "All systems go.", api.sentTo(allowedChat)[0].Text)
	require.Equal(t, []string{"connector.down", "connector.up"}, h.events.Types(), "one down event (the error did not change), one up")
}

// TestRecoversFromA401 answers 401 until the token is "fixed" on the
// server side (a revoked token restored), then works.
func TestRecoversFromA401(t *testing.T) {
	api, _ := newFakeAPI(t)
	var authorised atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !authorised.Load() {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"ok":false,"error_code":401,"description":"Unauthorized"}`))
			return
		}
		api.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	h := &harness{agent: &fakeAgent{}, center: &fakeCenter{}, cmds: &fakeCommands{}, events: &fakeEvents{}}
	bot := healingBot(t, srv.URL, h)
	require.NoError(t, bot.Start(context.Background()))
	require.ErrorContains(t, bot.Health().Err, "401 Unauthorized")
	authorised.Store(true)
	eventually(t, bot.Up, "the bot reconnects once the token is accepted")
	api.userSays(allowedChat, "/status")
	eventually(t, func() bool { return len(api.sentTo(allowedChat)) == 1 }, "/status answered")
}

// TestPollFailureReconnects: the API goes away while polling and comes
// back; the link goes down and up again.
func TestPollFailureReconnects(t *testing.T) {
	api, _ := newFakeAPI(t)
	var broken atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if broken.Load() && strings.HasSuffix(r.URL.Path, "/getUpdates") {
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		api.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	h := &harness{agent: &fakeAgent{}, center: &fakeCenter{}, cmds: &fakeCommands{}, events: &fakeEvents{}}
	bot := healingBot(t, srv.URL, h)
	require.NoError(t, bot.Start(context.Background()))
	require.True(t, bot.Up())
	broken.Store(true)
	eventually(t, func() bool { return bot.Health().State == LinkDown }, "a failed poll takes the link down")
	broken.Store(false)
	eventually(t, bot.Up, "and it comes back")
	api.userSays(allowedChat, "/status")
	eventually(t, func() bool { return len(api.sentTo(allowedChat)) == 1 }, "/status answered")
	types := h.events.Types()
	require.Equal(t, "connector.up", types[0])
	require.Contains(t, types, "connector.down")
	require.Equal(t, "connector.up", types[len(types)-1])
}

func TestBackoffDoublesToTheCap(t *testing.T) {
	b := &Bot{o: Options{MinBackoff: time.Second, MaxBackoff: 15 * time.Second}}
	var got []time.Duration
	for n := 1; n <= 6; n++ {
		got = append(got, b.backoff(n, nil))
	}
	require.Equal(t, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 15 * time.Second, 15 * time.Second}, got)
	require.Equal(t, 7*time.Second, b.backoff(1, &APIError{Code: 429, RetryAfter: 7}), "retry_after wins")
}

func TestStrangerLogIsRateLimited(t *testing.T) {
	var s strangerLog
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	steps := []struct {
		chat   int64
		at     time.Duration
		n      int
		logged bool
	}{
		{666, 0, 1, true},
		{666, time.Second, 0, false},
		{666, 30 * time.Second, 0, false},
		{777, 31 * time.Second, 1, true}, // another stranger has its own line
		{666, 61 * time.Second, 3, true}, // a minute later: the count of what was ignored
		{666, 62 * time.Second, 0, false},
	}
	for i, st := range steps {
		n, ok := s.note(st.chat, t0.Add(st.at))
		require.Equal(t, st.logged, ok, "step %d", i)
		require.Equal(t, st.n, n, "step %d", i)
	}
}

func TestRunAndRetryCommands(t *testing.T) {
	h := startBot(t, nil)
	for i, tc := range []struct{ say, want string }{
		{"/run morning brief", "Running morning brief now."},
		{"/run", "Usage: /run JOB"},
		{"/run ghost", "Failed: no cron job"},
		{"/retry t-9", "Retrying t-9."},
		{"/retry", "Usage: /retry TASK"},
	} {
		h.api.userSays(allowedChat, tc.say)
		eventually(t, func() bool { return len(h.api.sentTo(allowedChat)) == i+1 }, tc.say)
		require.Contains(t, h.api.sentTo(allowedChat)[i].Text, tc.want, tc.say)
	}
	h.cmds.mu.Lock()
	defer h.cmds.mu.Unlock()
	require.Len(t, h.cmds.runs, 1)
	require.True(t, strings.HasPrefix(h.cmds.runs[0], "morning brief|telegram:42:"), "the message is the idempotency key: %s", h.cmds.runs[0])
}
