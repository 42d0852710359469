package app_test

import (
	"encoding/json"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/trading"
)

// OpenAlice's current trading surface (v0.89) through a real MCP client
// over HTTP: the new tools and parameter names in tools/list, stage-and-
// commit with commitMessage, the hash-less tradingReject, orderHistory and
// tradeHistory, an order placed outside alice picked up and attributed as
// "external", and every alice order attributed to the MCP client that
// staged it.
func TestOpenAliceTradingSurfaceOverMCP(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	ctx := t.Context()
	c := mcpClient(t, a.MCPURL())
	list, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	require.NoError(t, err)
	props := map[string]map[string]bool{}
	required := map[string][]string{}
	for _, tl := range list.Tools {
		var s struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		raw, err := json.Marshal(tl.RawInputSchema)
		require.NoError(t, err)
		if len(tl.RawInputSchema) == 0 {
			raw, _ = json.Marshal(tl.InputSchema)
		}
		require.NoError(t, json.Unmarshal(raw, &s), tl.Name)
		props[tl.Name] = map[string]bool{}
		for k := range s.Properties {
			props[tl.Name][k] = true
		}
		required[tl.Name] = s.Required
	}
	for tool, want := range map[string][]string{
		"orderHistory":  {"source", "limit"},
		"tradeHistory":  {"source", "limit"},
		"placeOrder":    {"source", "aliceId", "action", "orderType", "totalQuantity", "commitMessage", "subAccountId"},
		"modifyOrder":   {"source", "orderId", "lmtPrice", "commitMessage"},
		"closePosition": {"source", "aliceId", "qty", "commitMessage", "subAccountId"},
		"cancelOrder":   {"source", "orderId", "commitMessage"},
		"tradingReject": {"source", "reason", "hash"},
	} {
		for _, p := range want {
			require.True(t, props[tool][p], "%s has %s", tool, p)
		}
	}
	require.Equal(t, []string{"source"}, required["tradingReject"], "tradingReject(source, reason?)")
	require.ElementsMatch(t, []string{"aliceId", "action", "orderType"}, required["placeOrder"], "source defaults to the aliceId's account")

	u, err := app.TradingManager(a).Get("sim-paper")
	require.NoError(t, err)
	require.NoError(t, u.Sim().SetMarkPrice("AAPL", decimal.NewFromInt(200)))
	require.NoError(t, u.Sim().SetMarkPrice("MSFT", decimal.NewFromInt(400)))

	// Stage and commit in one call; the commit waits for a person.
	out, isErr := callText(t, c, "placeOrder", map[string]any{"aliceId": "sim-paper|AAPL", "action": "BUY", "orderType": "MKT", "totalQuantity": "2", "commitMessage": "Entry: breakout"})
	require.False(t, isErr, out)
	var staged struct {
		Source    string
		Operation struct{ StagedBy map[string]string }
		Committed struct{ Hash string }
	}
	require.NoError(t, json.Unmarshal([]byte(out), &staged))
	require.Equal(t, "sim-paper", staged.Source)
	require.Equal(t, "mcp", staged.Operation.StagedBy["channel"])
	require.Equal(t, "app-test", staged.Operation.StagedBy["agent"], "the MCP client's name from initialize")
	if sid := staged.Operation.StagedBy["session"]; sid != "" { // session-less protocol clients have none
		require.Contains(t, sid, "mcp:")
	}
	pend := a.Trading().Pending()
	require.Len(t, pend, 1)
	require.Equal(t, staged.Committed.Hash, pend[0].Hash)

	// A person approves it.
	_, err = a.Trading().Push(ctx, "sim-paper", pend[0].Hash)
	require.NoError(t, err)

	// Staged, then discarded with OpenAlice's hash-less reject.
	out, isErr = callText(t, c, "closePosition", map[string]any{"aliceId": "sim-paper|AAPL", "qty": "1"})
	require.False(t, isErr, out)
	out, isErr = callText(t, c, "tradingReject", map[string]any{"source": "sim-paper", "reason": "too early"})
	require.False(t, isErr, out)
	require.Contains(t, out, "[rejected]")

	// Someone buys MSFT in the venue's own app; the poll records it.
	ext, err := u.Broker().PlaceOrder(ctx, trading.Contract{Symbol: "MSFT"}, trading.Order{Action: trading.Buy, OrderType: trading.Limit,
		TotalQuantity: decimal.NewFromInt(1), LmtPrice: decimal.NewFromInt(390), TIF: trading.GTC}, nil)
	require.NoError(t, err)
	obs, err := app.TradingManager(a).ObserveExternal(ctx, "sim-paper")
	require.NoError(t, err)
	require.Len(t, obs, 1)

	out, isErr = callText(t, c, "orderHistory", map[string]any{"source": "sim-paper", "limit": 10})
	require.False(t, isErr, out)
	var orders []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &orders))
	require.Len(t, orders, 3)
	bySource := map[string][]map[string]any{}
	for _, o := range orders {
		bySource[o["source"].(string)] = append(bySource[o["source"].(string)], o)
	}
	require.Len(t, bySource["external"], 1)
	require.Equal(t, ext.OrderID, bySource["external"][0]["orderId"])
	require.Equal(t, "submitted", bySource["external"][0]["status"])
	statuses := map[string]bool{}
	for _, o := range bySource["alice"] {
		statuses[o["status"].(string)] = true
		require.Equal(t, "app-test", o["stagedBy"].(map[string]any)["agent"])
	}
	require.Equal(t, map[string]bool{"filled": true, "user-rejected": true}, statuses)

	out, isErr = callText(t, c, "tradeHistory", map[string]any{})
	require.False(t, isErr, out)
	var trades []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &trades))
	require.Len(t, trades, 1)
	require.Equal(t, "2", trades[0]["quantity"])
	require.Equal(t, "order", trades[0]["source"])

	out, isErr = callText(t, c, "tradeHistory", map[string]any{"limit": 0})
	require.True(t, isErr, "bad limit is a tool error: %s", out)
}
