package tools

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// The take-profit and stop-loss legs the broker opens for an order alice
// placed are listed by getOrders right after the push, as alice's own:
// they were missing until the poll for external orders found them, minutes
// later, and reported them as orders placed outside alice (black-box).
func TestBracketLegsAreAlicesOwnAtOnce(t *testing.T) {
	tc, m := setup(t, true)
	_, err := tc.Call(context.Background(), "placeOrder", json.RawMessage(`{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"MKT","totalQuantity":"1","takeProfit":{"price":"300"},"stopLoss":{"price":"100"}}`))
	require.NoError(t, err)
	_, _, err = call(t, tc, "tradingCommit", `{"message":"entry with a bracket"}`)
	require.NoError(t, err)
	_, _, err = call(t, tc, "tradingPush", `{"source":"sim-paper"}`)
	require.NoError(t, err)

	byAccount, _, err := call(t, tc, "getOrders", `{"source":"sim-paper"}`)
	require.NoError(t, err)
	orders, _ := byAccount["sim-paper"].([]any)
	require.Len(t, orders, 2, "both legs rest at the broker and are listed: %v", byAccount)

	found, err := m.ObserveExternal(context.Background(), "sim-paper")
	require.NoError(t, err)
	require.Empty(t, found, "the legs are not external orders")
	log, err := m.Log("sim-paper", 10, "")
	require.NoError(t, err)
	var msgs []string
	for _, e := range log {
		msgs = append(msgs, e.Message)
	}
	require.Contains(t, msgs, "[bracket] 2 take-profit/stop-loss leg(s) of sim-ord-1")
}
