package app_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/agent"
)

// tradingLLM is an OpenAI-compatible server that, asked to "buy" or
// "sell", calls placeOrder / closePosition (with commitMessage) and then
// confirms, reporting a fixed token usage for every turn in the stream's
// last chunk (as OpenAI does with stream_options.include_usage).
func tradingLLM(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
			StreamOptions struct {
				IncludeUsage bool `json:"include_usage"`
			} `json:"stream_options"`
		}
		require.NoError(t, json.NewDecoder(r.Body).Decode(&body))
		require.True(t, body.StreamOptions.IncludeUsage, "alice asks for the usage")
		last := body.Messages[len(body.Messages)-1]
		text, _ := last.Content.(string)
		delta := map[string]any{"role": "assistant", "content": "done"}
		finish, in, out := "stop", 1500, 20
		call := func(name, args string) {
			delta = map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{"index": 0, "id": "c1", "type": "function",
				"function": map[string]any{"name": name, "arguments": args}}}}
			finish, in, out = "tool_calls", 1200, 80
		}
		switch {
		case last.Role == "user" && strings.Contains(text, "buy"):
			call("placeOrder", `{"aliceId":"sim-paper|AAPL","action":"BUY","orderType":"MKT","totalQuantity":"10","commitMessage":"entry"}`)
		case last.Role == "user" && strings.Contains(text, "sell"):
			call("closePosition", `{"aliceId":"sim-paper|AAPL","commitMessage":"exit"}`)
		}
		chunk, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion.chunk", "model": "gpt-4o-mini",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
		usage, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion.chunk", "model": "gpt-4o-mini", "choices": []any{},
			"usage": map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out}})
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\ndata: %s\n\ndata: [DONE]\n\n", chunk, usage)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A session's token cost beside the P&L of the trades it originated: one
// session buys (two model turns), a person approves, the price moves, a
// second session sells; sessionCosts over MCP shows each session's tokens
// and dollars, and the realised gain on the first session's lot.
func TestSessionCostsBesideRealisedPnL(t *testing.T) {
	t.Parallel()
	llm := tradingLLM(t)
	a := apptest.Start(t, map[string]string{
		config.AIProviderFile: `{"activeProfile":"mock","profiles":{"mock":{"backend":"openai","model":"gpt-4o-mini","baseUrl":"` + llm.URL + `/v1"}}}`,
	})
	ctx := t.Context()
	u, err := app.TradingManager(a).Get("sim-paper")
	require.NoError(t, err)
	require.NoError(t, u.Sim().SetMarkPrice("AAPL", decimal.NewFromInt(200)))

	ask := func(session, prompt string) {
		s, err := a.Chat().AskWithSession(ctx, prompt, session, agent.Options{Channel: "tui"})
		require.NoError(t, err)
		res, err := s.Wait()
		require.NoError(t, err)
		require.Equal(t, "done", res.Text)
		pend := a.Trading().Pending()
		require.Len(t, pend, 1, "the agent's commit waits for a person")
		require.Equal(t, session, pend[0].Operations[0].StagedBy.Session)
		pushed, err := a.Trading().Push(ctx, "sim-paper", pend[0].Hash)
		require.NoError(t, err)
		require.Len(t, pushed.Submitted, 1, "%+v", pushed.Rejected)
	}
	ask("desk-buyer", "please buy apple")
	require.NoError(t, u.Sim().SetMarkPrice("AAPL", decimal.NewFromInt(230)))
	ask("desk-seller", "now sell it")

	th, err := a.Trading().TradeHistory("sim-paper", 10)
	require.NoError(t, err)
	require.Len(t, th, 2)
	buy, sell := th[1], th[0]
	wantPnL := sell.Price.Sub(buy.Price).Mul(decimal.NewFromInt(10))
	require.True(t, wantPnL.IsPositive(), "the price rose: %s", wantPnL)

	c := mcpClient(t, a.MCPURL())
	out, isErr := callText(t, c, "sessionCosts", map[string]any{})
	require.False(t, isErr, out)
	var rows []struct {
		Session      string
		Turns        int
		InputTokens  int64
		OutputTokens int64
		CostUSD      string
		Models       []string
		Fills        int
		RealizedPnL  []struct {
			Account, Currency, Realized string
			Fills                       int
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	by := map[string]int{}
	for i, r := range rows {
		by[r.Session] = i
	}
	require.Contains(t, by, "desk-buyer")
	require.Contains(t, by, "desk-seller")
	buyer, seller := rows[by["desk-buyer"]], rows[by["desk-seller"]]
	// Two turns each: 1200 in / 80 out (the tool call), 1500 / 20 (the reply).
	for _, r := range []int{by["desk-buyer"], by["desk-seller"]} {
		require.Equal(t, 2, rows[r].Turns)
		require.EqualValues(t, 2700, rows[r].InputTokens)
		require.EqualValues(t, 100, rows[r].OutputTokens)
		require.Equal(t, []string{"gpt-4o-mini"}, rows[r].Models)
		// gpt-4o-mini: $0.15 in, $0.60 out per million tokens.
		require.Equal(t, "0.000465", rows[r].CostUSD)
	}
	require.Equal(t, 1, buyer.Fills)
	require.Len(t, buyer.RealizedPnL, 1)
	require.Equal(t, "USD", buyer.RealizedPnL[0].Currency)
	require.Equal(t, wantPnL.String(), buyer.RealizedPnL[0].Realized, "the gain on the lot the buyer opened")
	require.Equal(t, 1, seller.Fills)
	require.Equal(t, "0", seller.RealizedPnL[0].Realized)

	out, isErr = callText(t, c, "sessionCosts", map[string]any{"session": "desk-buyer"})
	require.False(t, isErr, out)
	require.Contains(t, out, `"inputTokens":2700`)
	out, isErr = callText(t, c, "sessionCosts", map[string]any{"session": "nobody"})
	require.True(t, isErr, out)
}
