package app_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
)

// botAPIPerson plays the person in a Telegram chat through the
// telegram-test-api emulator's client API (scripts/telegram).
type botAPIPerson struct {
	t     *testing.T
	base  string
	token string
	chat  int64
}

func (p *botAPIPerson) post(path string, body any) []byte {
	p.t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(p.base+path, "application/json", bytes.NewReader(b))
	require.NoError(p.t, err)
	defer resp.Body.Close()
	var out bytes.Buffer
	_, _ = out.ReadFrom(resp.Body)
	require.Equal(p.t, http.StatusOK, resp.StatusCode, out.String())
	return out.Bytes()
}

func (p *botAPIPerson) user() map[string]any {
	return map[string]any{"id": p.chat, "first_name": "Me", "is_bot": false}
}

func (p *botAPIPerson) say(text string) {
	p.post("/sendMessage", map[string]any{"botToken": p.token, "date": time.Now().Unix(), "text": text,
		"from": p.user(), "chat": map[string]any{"id": p.chat, "type": "private", "first_name": "Me"}})
}

func (p *botAPIPerson) tap(data string) {
	msg := map[string]any{"from": p.user(), "chat": map[string]any{"id": p.chat, "type": "private"}}
	p.post("/sendCallback", map[string]any{"botToken": p.token, "date": time.Now().Unix(), "from": p.user(), "message": msg, "data": data})
}

type botAPIMessage struct {
	Text   string `json:"text"`
	Markup *struct {
		InlineKeyboard [][]struct {
			CallbackData string `json:"callback_data"`
		} `json:"inline_keyboard"`
	} `json:"reply_markup"`
}

// next waits for the bot's next message to the chat.
func (p *botAPIPerson) next() botAPIMessage {
	p.t.Helper()
	return p.nextN(1)[0]
}

// nextN waits for the bot's next n messages (in whatever order they were
// sent).
func (p *botAPIPerson) nextN(n int) []botAPIMessage {
	p.t.Helper()
	var got []botAPIMessage
	require.Eventually(p.t, func() bool {
		var env struct {
			Result []struct {
				Message botAPIMessage `json:"message"`
			} `json:"result"`
		}
		require.NoError(p.t, json.Unmarshal(p.post("/getUpdates", map[string]any{"token": p.token, "chatId": p.chat}), &env))
		for _, r := range env.Result {
			got = append(got, r.Message)
		}
		return len(got) >= n
	}, 15*time.Second, 50*time.Millisecond, "waiting for the bot")
	require.Len(p.t, got, n, "%d message(s) at a time", n)
	return got
}

// TestApprovalsReachPeopleAgainstBotAPIEmulator runs the whole core with
// Telegram pointed at the telegram-test-api emulator: after another agent
// asks through the Ask port, approval requests still reach the TUI and
// Telegram; staging is frozen while a push waits; an old Push button is
// refused; only the commit the person saw executes. Run with
// scripts/telegram/integration.sh (skips without ALICE_TELEGRAM_EMULATOR).
func TestApprovalsReachPeopleAgainstBotAPIEmulator(t *testing.T) {
	t.Parallel()
	base := strings.TrimRight(os.Getenv("ALICE_TELEGRAM_EMULATOR"), "/")
	if base == "" {
		t.Skip("ALICE_TELEGRAM_EMULATOR not set; see scripts/telegram/README.md to run the Bot API emulator")
	}
	llm := echoLLM(t)
	me := &botAPIPerson{t: t, base: base, token: fmt.Sprintf("%d:alice-app", time.Now().UnixNano()), chat: 4242}
	a := apptest.StartWithAsk(t, func(askPort int) map[string]string {
		return map[string]string{
			config.ConnectorsFile: fmt.Sprintf(`{"mcpAsk":{"enabled":true,"port":%d},"telegram":{"enabled":true,"botToken":%q,"chatIds":[4242],"apiBaseUrl":%q}}`,
				askPort, me.token, base),
			config.AIProviderFile: `{"activeProfile":"mock","profiles":{"mock":{"backend":"openai","model":"m","baseUrl":"` + llm.URL + `/v1"}}}`,
		}
	})
	ctx := t.Context()
	tui := a.Notifications(ctx) // a TUI is attached
	agent, ask := mcpClient(t, a.MCPURL()), mcpClient(t, a.AskURL())
	tool := func(name string, args map[string]any) string {
		out, isErr := callText(t, agent, name, args)
		require.False(t, isErr, "%s: %s", name, out)
		return out
	}
	hashOf := func(out string) string {
		var arr []map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &arr))
		return arr[0]["hash"].(string)
	}
	buy := func(q string) map[string]any {
		return map[string]any{"source": "sim-paper", "aliceId": "sim-paper|AAPL", "action": "BUY", "orderType": "MKT", "totalQuantity": q}
	}
	toldTUI := func(hash string) {
		select {
		case n := <-tui:
			require.Contains(t, n.Text, hash)
		case <-time.After(30 * time.Second):
			t.Fatal("the TUI was not told")
		}
	}

	me.say("hello alice")
	require.Equal(t, "You said: hello alice", me.next().Text)
	out, isErr := callText(t, ask, "askWithSession", map[string]any{"message": "hi from another agent", "sessionId": "other-agent"})
	require.False(t, isErr, out)
	last, _ := a.Connectors().Last()
	require.Equal(t, "mcp-ask", last.Channel)

	tool("placeOrder", buy("7"))
	h7 := hashOf(tool("tradingCommit", map[string]any{"message": "buy 7"}))
	tool("tradingPush", map[string]any{})
	approval := me.next().Text
	require.Contains(t, approval, "waiting for your approval on sim-paper: "+h7)
	// the evidence a person judges by: notional at the quote, position and
	// cash after, each guard's verdict with headroom, TIF and who staged it
	for _, want := range []string{"placeOrder BUY 7 AAPL (MKT) DAY", "est. ", "at the current quote", "position AAPL 0 → 7; cash 100,000.00 → ",
		"max-position-size: position ", "% of equity, limit ", "max-order-value: order value ", ", limit 50,000.00 → ok", "staged by ", "time in force DAY"} {
		require.Contains(t, approval, want)
	}
	toldTUI(h7)
	out, isErr = callText(t, agent, "placeOrder", buy("13"))
	require.True(t, isErr, out)
	require.Contains(t, out, "commit "+h7)

	me.say("/trading")
	panel := me.next()
	require.Contains(t, panel.Text, "commit "+h7)
	require.Contains(t, panel.Text, "max-order-value: ", "the /trading panel carries the evidence too")
	oldPush, reject := panel.Markup.InlineKeyboard[0][0].CallbackData, panel.Markup.InlineKeyboard[0][1].CallbackData
	require.Equal(t, "trading:push:sim-paper:"+h7, oldPush)
	me.tap(reject)
	require.Equal(t, "Rejected "+h7+".", me.next().Text)

	tool("placeOrder", buy("13"))
	c13 := tool("tradingCommit", map[string]any{"message": "buy 13"})
	require.Contains(t, c13, `"operationCount":1`)
	h13 := hashOf(c13)
	tool("tradingPush", map[string]any{})
	require.Contains(t, me.next().Text, h13)
	toldTUI(h13)
	me.tap(oldPush)
	require.Contains(t, me.next().Text, h7+" is no longer the prepared commit")
	me.say("/trading")
	me.tap(me.next().Markup.InlineKeyboard[0][0].CallbackData)
	require.Contains(t, me.next().Text, "Pushed "+h13)
	pos, err := a.Trading().Positions(ctx, "sim-paper")
	require.NoError(t, err)
	require.Len(t, pos, 1)
	require.Equal(t, "13", pos[0].Quantity.String(), "exactly what the person approved")

	// a guard that stops an approved order reaches the person in a
	// message that stays (the reply and a notification), not a status line
	tool("placeOrder", buy("1000"))
	h1000 := hashOf(tool("tradingCommit", map[string]any{"message": "buy 1000"}))
	tool("tradingPush", map[string]any{})
	require.Contains(t, me.next().Text, "would be rejected", "the approval request already says so")
	toldTUI(h1000)
	me.say("/trading")
	me.tap(me.next().Markup.InlineKeyboard[0][0].CallbackData)
	two := me.nextN(2)
	got := two[0].Text + "\n" + two[1].Text
	require.Contains(t, got, "Pushed "+h1000+": 0 submitted, 1 rejected.")
	require.Contains(t, got, "✗ placeOrder AAPL: [guard:")
	require.Contains(t, got, "On sim-paper: Pushed "+h1000)

	// the kill switch from Telegram: asked, confirmed by a button, recorded
	me.say("/halt")
	confirm := me.next()
	require.Contains(t, confirm.Text, "Halt trading on EVERY account?")
	me.tap(confirm.Markup.InlineKeyboard[0][0].CallbackData)
	require.Contains(t, me.next().Text, "Trading halted since")
	out, isErr = callText(t, agent, "placeOrder", buy("1"))
	require.True(t, isErr, out)
	require.Contains(t, out, "trading is halted")
	_, err = a.Trading().Resume("test")
	require.NoError(t, err)
}
