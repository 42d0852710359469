package tools

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/alice-trading/alice/core"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// OpenAlice's current trading surface through the tools: stage-and-commit
// with commitMessage (source defaulting to the aliceId's account), the
// staging caller recorded on the operation, and the order/trade history
// views attributing the fill to that session.
func TestCommitMessageProvenanceAndHistories(t *testing.T) {
	tc, m := setup(t, true)
	ctx := core.WithCaller(context.Background(), core.Caller{Session: "tui/default", Channel: "tui", Agent: "openai (m)"})
	res, err := tc.Call(ctx, "placeOrder", json.RawMessage(`{"aliceId":"sim-paper|AAPL","action":"BUY","orderType":"MKT","totalQuantity":"3","commitMessage":"Entry: momentum"}`))
	require.NoError(t, err)
	var staged struct {
		Source    string `json:"source"`
		Staged    bool   `json:"staged"`
		Operation struct {
			StagedBy map[string]string `json:"stagedBy"`
		} `json:"operation"`
		Committed struct{ Hash, Message string } `json:"committed"`
		NextStep  string                         `json:"nextStep"`
	}
	require.NoError(t, json.Unmarshal([]byte(core.ResultText(res)), &staged))
	assert.Equal(t, "sim-paper", staged.Source, "source defaults to the aliceId's account")
	assert.True(t, staged.Staged)
	assert.Equal(t, map[string]string{"session": "tui/default", "channel": "tui", "agent": "openai (m)"}, staged.Operation.StagedBy)
	assert.Equal(t, "Entry: momentum", staged.Committed.Message)
	assert.Len(t, staged.Committed.Hash, 8)
	assert.Contains(t, staged.NextStep, "tradingPush")
	require.Equal(t, staged.Committed.Hash, m.Pending()[0].Hash, "it is the prepared commit")

	_, arr, err := call(t, tc, "tradingPush", `{}`)
	require.NoError(t, err)
	require.Equal(t, "pushed", arr[0].(map[string]any)["status"])

	_, orders, err := call(t, tc, "orderHistory", `{"source":"sim-paper"}`)
	require.NoError(t, err)
	require.Len(t, orders, 1)
	o := orders[0].(map[string]any)
	assert.Equal(t, "sim-paper", o["account"])
	assert.Equal(t, "filled", o["status"])
	assert.Equal(t, "alice", o["source"])
	assert.Equal(t, "BUY", o["side"])
	assert.Equal(t, "3", o["quantity"])
	assert.Equal(t, "Entry: momentum", o["message"])
	assert.Equal(t, staged.Committed.Hash, o["commitHash"])
	assert.Equal(t, "tui/default", o["stagedBy"].(map[string]any)["session"])

	_, trades, err := call(t, tc, "tradeHistory", `{"limit":5}`)
	require.NoError(t, err)
	require.Len(t, trades, 1)
	tr := trades[0].(map[string]any)
	assert.Equal(t, "order", tr["source"])
	assert.Equal(t, "3", tr["quantity"])
	assert.NotEmpty(t, tr["price"])
	assert.Equal(t, "tui/default", tr["stagedBy"].(map[string]any)["session"])

	// A stage whose commit cannot happen says so and keeps the stage.
	_, err = tc.Call(ctx, "placeOrder", json.RawMessage(`{"aliceId":"sim-paper|AAPL","action":"BUY","orderType":"MKT","totalQuantity":"1","commitMessage":"  "}`))
	require.NoError(t, err, "a blank commitMessage only stages")
	u, _ := m.Get("sim-paper")
	assert.Len(t, u.Git().Status().Staged, 1)
}

func TestEmptyHistories(t *testing.T) {
	tc, _ := setup(t, false)
	obj, _, err := call(t, tc, "orderHistory", `{}`)
	require.NoError(t, err)
	assert.Equal(t, []any{}, obj["orders"])
	assert.Equal(t, "No order history yet.", obj["message"])
	obj, _, err = call(t, tc, "tradeHistory", `{}`)
	require.NoError(t, err)
	assert.Equal(t, []any{}, obj["trades"])
}
