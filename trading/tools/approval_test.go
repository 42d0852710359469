package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/alice-trading/alice/core"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const buyAAPL = `{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"MKT","totalQuantity":"%s"}`

func stage(t *testing.T, tc *core.ToolCenter, qty string) (map[string]any, error) {
	t.Helper()
	obj, _, err := call(t, tc, "placeOrder", strings.Replace(buyAAPL, "%s", qty, 1))
	return obj, err
}

// TestIssueSequenceThroughTools is issue 15's report, replayed through the
// tools with autoApprove off: while "buy 7" waits for a person, "buy 13"
// is refused naming the waiting commit; after the reject, "buy 13" is a
// commit of exactly one operation, and only 13 shares are bought.
func TestIssueSequenceThroughTools(t *testing.T) {
	tc, m := setup(t, false)
	ctx := context.Background()
	_, err := stage(t, tc, "7")
	require.NoError(t, err)
	_, arr, err := call(t, tc, "tradingCommit", `{"message":"buy 7"}`)
	require.NoError(t, err)
	h7 := arr[0].(map[string]any)["hash"].(string)
	_, arr, err = call(t, tc, "tradingPush", `{}`)
	require.NoError(t, err)
	assert.Equal(t, "pending", arr[0].(map[string]any)["status"])

	_, err = stage(t, tc, "13")
	require.Error(t, err, "staging while a push awaits a person is refused")
	assert.Contains(t, err.Error(), h7)
	assert.Contains(t, err.Error(), "tradingReject")
	_, err = tc.Call(ctx, "cancelOrder", json.RawMessage(`{"source":"sim-paper","orderId":"x"}`))
	assert.ErrorContains(t, err, h7)
	_, err = tc.Call(ctx, "tradingCommit", json.RawMessage(`{"message":"buy 13"}`))
	assert.ErrorContains(t, err, h7)
	obj, _, err := call(t, tc, "tradingStatus", `{"source":"sim-paper"}`)
	require.NoError(t, err)
	st := obj["sim-paper"].(map[string]any)
	assert.Len(t, st["staged"], 1, "the refused stage left nothing behind")
	assert.Equal(t, true, st["awaitingApproval"])

	// A person rejects what they were shown.
	_, err = m.Reject(ctx, "sim-paper", h7, "not 7")
	require.NoError(t, err)
	_, err = stage(t, tc, "13")
	require.NoError(t, err)
	_, arr, err = call(t, tc, "tradingCommit", `{"message":"buy 13"}`)
	require.NoError(t, err)
	c13 := arr[0].(map[string]any)
	assert.EqualValues(t, 1, c13["operationCount"])
	_, _, err = call(t, tc, "tradingPush", `{}`)
	require.NoError(t, err)
	res, err := m.Push(ctx, "sim-paper", c13["hash"].(string))
	require.NoError(t, err)
	require.Len(t, res.Submitted, 1)
	assert.Equal(t, "13", res.Submitted[0].FilledQty.String())
	pos, _ := m.Positions(ctx, "sim-paper")
	require.Len(t, pos, 1)
	assert.Equal(t, "13", pos[0].Quantity.String())
}

func TestStageAfterUnpushedCommitListsEverything(t *testing.T) {
	tc, _ := setup(t, false)
	_, err := stage(t, tc, "7")
	require.NoError(t, err)
	_, arr, err := call(t, tc, "tradingCommit", `{"message":"buy 7"}`)
	require.NoError(t, err)
	h7 := arr[0].(map[string]any)["hash"].(string)
	obj, err := stage(t, tc, "13")
	require.NoError(t, err)
	note := obj["note"].(string)
	assert.Contains(t, note, h7+" was voided")
	assert.Contains(t, note, "1) placeOrder BUY 7 AAPL (MKT)")
	assert.Contains(t, note, "2) placeOrder BUY 13 AAPL (MKT)")
	assert.EqualValues(t, 2, obj["stagedCount"])
}

func TestAgentWithdrawsWithTradingReject(t *testing.T) {
	tc, _ := setup(t, false)
	ctx := context.Background()
	_, err := stage(t, tc, "7")
	require.NoError(t, err)
	_, arr, _ := call(t, tc, "tradingCommit", `{"message":"buy 7"}`)
	h := arr[0].(map[string]any)["hash"].(string)
	_, _, err = call(t, tc, "tradingPush", `{}`)
	require.NoError(t, err)
	_, err = tc.Call(ctx, "tradingReject", json.RawMessage(`{"source":"sim-paper","hash":"0000beef"}`))
	assert.ErrorContains(t, err, "no longer the prepared commit")
	obj, _, err := call(t, tc, "tradingReject", `{"source":"sim-paper","hash":"`+h+`"}`)
	require.NoError(t, err)
	assert.Equal(t, "[rejected] buy 7 — withdrawn by the agent", obj["message"])
	_, err = stage(t, tc, "13")
	assert.NoError(t, err, "the staging area is open again")
}

// OpenAlice's tradingReject(source, reason?) has no hash: it discards
// whatever is there — a commit waiting for a person, or a bare staging
// area (committed first so the log records what was discarded).
func TestTradingRejectWithoutHash(t *testing.T) {
	tc, m := setup(t, false)
	obj, _, err := call(t, tc, "tradingReject", `{"source":"sim-paper"}`)
	require.NoError(t, err)
	assert.Equal(t, "Nothing staged to reject.", obj["message"])

	_, err = stage(t, tc, "7")
	require.NoError(t, err)
	obj, _, err = call(t, tc, "tradingReject", `{"source":"sim-paper","reason":"wrong size"}`)
	require.NoError(t, err)
	assert.Equal(t, "[rejected] staged operations (never committed) — wrong size", obj["message"])
	u, _ := m.Get("sim-paper")
	assert.Empty(t, u.Git().Status().Staged)

	_, err = stage(t, tc, "8")
	require.NoError(t, err)
	_, _, err = call(t, tc, "tradingCommit", `{"message":"buy 8"}`)
	require.NoError(t, err)
	_, _, err = call(t, tc, "tradingPush", `{}`)
	require.NoError(t, err)
	require.True(t, u.Git().Status().AwaitingApproval)
	obj, _, err = call(t, tc, "tradingReject", `{"source":"sim-paper"}`)
	require.NoError(t, err)
	assert.Equal(t, "[rejected] buy 8 — withdrawn by the agent", obj["message"])
	assert.Empty(t, m.Pending(), "nothing waits and nothing executed")
	oh, err := m.OrderHistory("sim-paper", 10)
	require.NoError(t, err)
	require.Len(t, oh, 2)
	for _, o := range oh {
		assert.Equal(t, "user-rejected", string(o.Status))
		assert.Empty(t, o.OrderID)
	}
}

// TestEmptyResultsAreArrays: no trading tool answers JSON null for an
// empty list (parentHash: null is the inventory's format for a root).
func TestEmptyResultsAreArrays(t *testing.T) {
	tc, _ := setup(t, false)
	for _, c := range []struct{ tool, args string }{
		{"tradingLog", `{}`}, {"tradingLog", `{"symbol":"NVDA"}`}, {"tradingStatus", `{}`}, {"tradingSync", `{}`},
		{"getOrders", `{}`}, {"getOrders", `{"orderIds":["nope"]}`}, {"getPortfolio", `{}`}, {"listUTAs", `{}`},
		{"searchContracts", `{"pattern":"zzzzzz"}`}, {"simulatePriceChange", `{"priceChanges":[{"symbol":"all","change":"+1%"}]}`},
	} {
		res, err := tc.Call(context.Background(), c.tool, json.RawMessage(c.args))
		require.NoError(t, err, c.tool)
		text := core.ResultText(res)
		assert.NotContains(t, text, "null", "%s %s → %s", c.tool, c.args, text)
	}
	res, err := tc.Call(context.Background(), "tradingLog", json.RawMessage(`{}`))
	require.NoError(t, err)
	assert.Equal(t, "[]", core.ResultText(res))
}

// TestSourceIsTakenTheSameWayEverywhere: every trading tool accepts
// "source", and an unknown one is the same error everywhere.
func TestSourceIsTakenTheSameWayEverywhere(t *testing.T) {
	tc, _ := setup(t, false)
	for _, tool := range tc.Tools() {
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		require.NoError(t, json.Unmarshal(tool.InputSchema, &schema), tool.Name)
		if tool.Name == "listUTAs" {
			continue // lists the sources themselves
		}
		_, ok := schema.Properties["source"]
		assert.True(t, ok, "%s takes source", tool.Name)
	}
	_, err := tc.Call(context.Background(), "tradingShow", json.RawMessage(`{"source":"nope","hash":"a1b2c3d4"}`))
	assert.ErrorContains(t, err, `no enabled account matches source "nope"`)
	_, err = tc.Call(context.Background(), "tradingShow", json.RawMessage(`{"source":"sim-paper","hash":"a1b2c3d4"}`))
	assert.ErrorContains(t, err, `no commit "a1b2c3d4" in source "sim-paper"`)
}
