package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading/simmarket"
	"github.com/alice-trading/alice/trading/uta"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func setup(t *testing.T, autoApprove bool) (*core.ToolCenter, *uta.Manager) {
	t.Helper()
	dir := t.TempDir()
	store := config.NewStore(filepath.Join(dir, "config"))
	accts := config.DefaultAccounts()
	accts[0].AutoApprove = autoApprove
	require.NoError(t, config.Save(store, config.AccountsFile, accts))
	var mu sync.Mutex
	now := time.Date(2026, 2, 2, 15, 0, 0, 0, time.UTC)
	m := uta.NewManager(store, config.Paths{Config: filepath.Join(dir, "config"), Data: filepath.Join(dir, "data")},
		simmarket.New(42), nil, nil, uta.WithClock(func() time.Time { mu.Lock(); defer mu.Unlock(); now = now.Add(time.Second); return now }))
	require.NoError(t, m.Start(context.Background()))
	t.Cleanup(func() { _ = m.Close() })
	tc := core.NewToolCenter(nil)
	Register(tc, m)
	u, err := m.Get("sim-paper")
	require.NoError(t, err)
	require.NoError(t, u.Sim().SetMarkPrice("AAPL", decimal.NewFromInt(200)))
	return tc, m
}

func call(t *testing.T, tc *core.ToolCenter, name, args string) (map[string]any, []any, error) {
	t.Helper()
	res, err := tc.Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		return nil, nil, err
	}
	var v any
	require.NoError(t, json.Unmarshal([]byte(core.ResultText(res)), &v))
	obj, _ := v.(map[string]any)
	arr, _ := v.([]any)
	return obj, arr, nil
}

func TestAllToolsRegistered(t *testing.T) {
	tc, _ := setup(t, false)
	want := []string{"listUTAs", "searchContracts", "getContractDetails", "getAccount", "getPortfolio", "getOrders", "getQuote",
		"getMarketClock", "placeOrder", "modifyOrder", "closePosition", "cancelOrder", "tradingCommit", "tradingPush",
		"tradingLog", "tradingShow", "tradingReject", "tradingStatus", "tradingSync", "simulatePriceChange", "orderHistory", "tradeHistory"}
	for _, n := range want {
		tool, ok := tc.Get(n)
		require.True(t, ok, n)
		assert.Equal(t, Group, tool.Group)
	}
	assert.Len(t, tc.Tools(), len(want))
}

func TestBadArguments(t *testing.T) {
	tc, _ := setup(t, false)
	cases := []struct{ name, tool, args, want string }{
		{"unknown param", "getAccount", `{"acount":"x"}`, "unknown parameter"},
		{"wrong type", "tradingLog", `{"limit":"ten"}`, "limit"},
		{"non-positive limit", "tradingLog", `{"limit":0}`, "limit must be > 0"},
		{"unknown source", "getAccount", `{"source":"nope"}`, "no enabled account"},
		{"no source, bad aliceId", "placeOrder", `{"aliceId":"AAPL","action":"BUY","orderType":"MKT","totalQuantity":"1"}`, "invalid aliceId"},
		{"close without source or aliceId", "closePosition", `{}`, "aliceId is required"},
		{"history limit", "orderHistory", `{"limit":500}`, "between 1 and 200"},
		{"trade history limit", "tradeHistory", `{"limit":0}`, "between 1 and 200"},
		{"modify needs source", "modifyOrder", `{"orderId":"x","lmtPrice":"1"}`, "source is required"},
		{"bad aliceId", "placeOrder", `{"source":"sim-paper","aliceId":"AAPL","action":"BUY","orderType":"MKT","totalQuantity":"1"}`, "invalid aliceId"},
		{"foreign aliceId", "placeOrder", `{"source":"sim-paper","aliceId":"other|AAPL","action":"BUY","orderType":"MKT","totalQuantity":"1"}`, "belongs to account"},
		{"unknown symbol", "placeOrder", `{"source":"sim-paper","aliceId":"sim-paper|ZZZZ","action":"BUY","orderType":"MKT","totalQuantity":"1"}`, "unknown symbol"},
		{"bad action", "placeOrder", `{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"HOLD","orderType":"MKT","totalQuantity":"1"}`, "unknown action"},
		{"bad order type", "placeOrder", `{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"ICEBERG","totalQuantity":"1"}`, "unknown orderType"},
		{"negative qty", "placeOrder", `{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"MKT","totalQuantity":"-1"}`, "must be > 0"},
		{"numeric qty", "placeOrder", `{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"MKT","totalQuantity":1}`, "totalQuantity"},
		{"garbage qty", "placeOrder", `{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"MKT","totalQuantity":"lots"}`, "not a decimal"},
		{"no qty", "placeOrder", `{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"MKT","totalQuantity":""}`, "totalQuantity or cashQty"},
		{"limit without price", "placeOrder", `{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"LMT","totalQuantity":"1"}`, "lmtPrice"},
		{"symbol mismatch", "placeOrder", `{"source":"sim-paper","aliceId":"sim-paper|AAPL","symbol":"MSFT","action":"BUY","orderType":"MKT","totalQuantity":"1"}`, "does not match"},
		{"tp without price", "placeOrder", `{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"MKT","totalQuantity":"1","takeProfit":{"price":""}}`, "takeProfit.price is required"},
		{"modify nothing", "modifyOrder", `{"source":"sim-paper","orderId":"x"}`, "nothing to modify"},
		{"cancel without id", "cancelOrder", `{"source":"sim-paper"}`, "orderId is required"},
		{"commit nothing", "tradingCommit", `{"message":"x"}`, "nothing staged"},
		{"commit no message", "tradingCommit", `{}`, "message is required"},
		{"push nothing", "tradingPush", `{}`, "no pending commit"},
		{"show short hash", "tradingShow", `{"hash":"ab"}`, "at least 4"},
		{"show unknown hash", "tradingShow", `{"hash":"deadbeef"}`, "no commit"},
		{"sync delay too long", "tradingSync", `{"delayMs":60000}`, "delayMs"},
		{"bad price change", "simulatePriceChange", `{"priceChanges":[{"symbol":"AAPL","change":"up a bit"}]}`, "want \"@150\""},
		{"empty price changes", "simulatePriceChange", `{"priceChanges":[]}`, "at least one"},
		{"bad asset class", "searchContracts", `{"pattern":"A","assetClass":"bonds"}`, "unknown assetClass"},
		{"empty pattern", "searchContracts", `{"pattern":" "}`, "pattern is required"},
		{"quote bad aliceId", "getQuote", `{"aliceId":"|"}`, "invalid aliceId"},
		{"details without symbol", "getContractDetails", `{"source":"sim-paper"}`, "symbol or aliceId"},
		{"groupBy", "getOrders", `{"groupBy":"symbol"}`, "groupBy"},
		{"not json", "getAccount", `[1,2]`, "invalid arguments"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := call(t, tc, c.tool, c.args)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestTradeThroughToolsWithHumanApproval(t *testing.T) {
	tc, m := setup(t, false)
	ctx := context.Background()

	_, arr, err := call(t, tc, "listUTAs", `{}`)
	require.NoError(t, err)
	require.Len(t, arr, 1)

	// getAccount carries the staging facts next to the figures.
	obj, _, err := call(t, tc, "getAccount", `{}`)
	require.NoError(t, err)
	acct := obj["sim-paper"].(map[string]any)
	assert.NotEmpty(t, acct["netLiquidation"])
	assert.Equal(t, false, acct["readOnly"])
	assert.Equal(t, true, acct["agentsMayStage"])

	obj, _, err = call(t, tc, "searchContracts", `{"pattern":"BTCUSD","assetClass":"crypto"}`)
	require.NoError(t, err)
	hits := obj["sim-paper"].([]any)
	require.NotEmpty(t, hits)
	assert.Equal(t, "sim-paper|BTC", hits[0].(map[string]any)["aliceId"])

	obj, _, err = call(t, tc, "getQuote", `{"aliceId":"sim-paper|AAPL"}`)
	require.NoError(t, err)
	assert.Equal(t, "200", obj["last"])

	obj, _, err = call(t, tc, "placeOrder", `{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"MKT","totalQuantity":"10","lmtPrice":""}`)
	require.NoError(t, err)
	assert.Equal(t, true, obj["staged"])
	_, err = tc.Call(ctx, "placeOrder", json.RawMessage(`{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"LMT","totalQuantity":"5","lmtPrice":"150","tif":"GTC"}`))
	require.NoError(t, err)

	_, err = tc.Call(ctx, "tradingPush", json.RawMessage(`{}`))
	assert.ErrorContains(t, err, "not committed")

	_, arr, err = call(t, tc, "tradingCommit", `{"message":"open AAPL"}`)
	require.NoError(t, err)
	hash := arr[0].(map[string]any)["hash"].(string)

	_, arr, err = call(t, tc, "tradingPush", `{}`)
	require.NoError(t, err)
	out := arr[0].(map[string]any)
	assert.Equal(t, "pending", out["status"])
	assert.Contains(t, out["note"], "requires human approval")
	obj, _, _ = call(t, tc, "getPortfolio", `{}`)
	assert.Empty(t, obj["sim-paper"].(map[string]any)["positions"], "the tool did not execute anything")

	// The human approves in the UI the commit they were shown.
	res, err := m.Push(ctx, "sim-paper", hash)
	require.NoError(t, err)
	assert.Equal(t, hash, res.Hash)
	assert.Len(t, res.Submitted, 2)

	obj, _, err = call(t, tc, "getPortfolio", `{"source":"sim-paper"}`)
	require.NoError(t, err)
	pos := obj["sim-paper"].(map[string]any)["positions"].([]any)
	require.Len(t, pos, 1)
	assert.Equal(t, "2.00", pos[0].(map[string]any)["percentageOfEquity"])
	assert.Equal(t, "sim-paper|AAPL", pos[0].(map[string]any)["aliceId"])

	obj, _, err = call(t, tc, "getOrders", `{}`)
	require.NoError(t, err)
	orders := obj["sim-paper"].([]any)
	require.Len(t, orders, 1, "the resting limit order")
	orderID := orders[0].(map[string]any)["order"].(map[string]any)["orderId"].(string)

	_, err = tc.Call(ctx, "modifyOrder", json.RawMessage(`{"source":"sim-paper","orderId":"`+orderID+`","lmtPrice":"155"}`))
	require.NoError(t, err)
	_, err = tc.Call(ctx, "cancelOrder", json.RawMessage(`{"source":"sim-paper","orderId":"`+orderID+`"}`))
	require.NoError(t, err)
	_, err = tc.Call(ctx, "closePosition", json.RawMessage(`{"source":"sim-paper","aliceId":"sim-paper|AAPL","qty":"4"}`))
	require.NoError(t, err)
	obj, _, err = call(t, tc, "tradingStatus", `{"source":"sim-paper"}`)
	require.NoError(t, err)
	assert.Len(t, obj["sim-paper"].(map[string]any)["staged"], 3)
	_, arr, err = call(t, tc, "tradingCommit", `{"source":"sim-paper","message":"adjust"}`)
	require.NoError(t, err)
	res, err = m.Push(ctx, "sim-paper", arr[0].(map[string]any)["hash"].(string))
	require.NoError(t, err)
	assert.Len(t, res.Submitted, 3)

	_, arr, err = call(t, tc, "tradingLog", `{"limit":5}`)
	require.NoError(t, err)
	require.Len(t, arr, 2)
	first := arr[0].(map[string]any)
	assert.Equal(t, "adjust", first["message"])
	ops := first["operations"].([]any)
	assert.Equal(t, "modified "+orderID, ops[0].(map[string]any)["change"])
	assert.Equal(t, "AAPL", ops[0].(map[string]any)["symbol"], "order-id ops are labelled with their symbol")

	obj, _, err = call(t, tc, "tradingShow", `{"hash":"`+hash+`"}`)
	require.NoError(t, err)
	assert.Equal(t, "open AAPL", obj["message"])
	assert.Equal(t, "sim-paper", obj["accountId"])

	_, arr, err = call(t, tc, "tradingSync", `{}`)
	require.NoError(t, err)
	require.Len(t, arr, 1)
}

func TestAutoApprovePushExecutes(t *testing.T) {
	tc, _ := setup(t, true)
	_, err := tc.Call(context.Background(), "placeOrder", json.RawMessage(`{"source":"simulator","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"MKT","cashQty":"1000"}`))
	require.NoError(t, err)
	_, _, err = call(t, tc, "tradingCommit", `{"message":"auto"}`)
	require.NoError(t, err)
	_, arr, err := call(t, tc, "tradingPush", `{"source":"sim-paper"}`)
	require.NoError(t, err)
	out := arr[0].(map[string]any)
	assert.Equal(t, "pushed", out["status"])
	sub := out["result"].(map[string]any)["submitted"].([]any)
	require.Len(t, sub, 1)
	assert.Equal(t, "4.9997", sub[0].(map[string]any)["filledQty"], "$1000 buys at the ask (200.01), not at the last (200), in whole lots of 0.0001 shares")
}

func TestSimulatePriceChangeIsADryRun(t *testing.T) {
	tc, m := setup(t, true)
	ctx := context.Background()
	_, err := tc.Call(ctx, "placeOrder", json.RawMessage(`{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"MKT","totalQuantity":"10"}`))
	require.NoError(t, err)
	_, _ = tc.Call(ctx, "tradingCommit", json.RawMessage(`{"message":"x"}`))
	_, err = tc.Call(ctx, "tradingPush", json.RawMessage(`{}`))
	require.NoError(t, err)
	before, _ := m.Account(ctx, "sim-paper")

	cases := []struct {
		change, pnlChange, pct string
	}{
		{"+10%", "200", "0.20"},
		{"-5%", "-100", "-0.10"},
		{"@150", "-500", "-0.50"},
	}
	for _, c := range cases {
		obj, _, err := call(t, tc, "simulatePriceChange", `{"priceChanges":[{"symbol":"all","change":"`+c.change+`"}]}`)
		require.NoError(t, err, c.change)
		sum := obj["sim-paper"].(map[string]any)["summary"].(map[string]any)
		assert.Equal(t, c.pnlChange, sum["totalPnLChange"], c.change)
		assert.Equal(t, c.pct, sum["equityChangePercent"], c.change)
	}
	after, _ := m.Account(ctx, "sim-paper")
	assert.True(t, before.NetLiquidation.Equal(after.NetLiquidation), "no state change")
	mark, _ := func() (decimal.Decimal, error) { u, _ := m.Get("sim-paper"); return u.Sim().Mark("AAPL") }()
	assert.True(t, mark.Equal(decimal.NewFromInt(200)))
}

func TestNormalizePair(t *testing.T) {
	for in, want := range map[string]string{"BTCUSD": "BTC", "btc/usd": "BTC", "ETH-USDT": "ETH", "SOL": "SOL", "USD": "USD"} {
		assert.Equal(t, want, normalizePair(in), in)
	}
}
