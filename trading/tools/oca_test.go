package tools

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/alice-trading/alice/trading"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reported attack: a bracket's take-profit/stop-loss legs rest in the
// group oca-<parent>; an order joining it would cancel them on its fill.
// Staging refuses it (even on an autoApprove account), the legs stay, and
// a new group is namespaced to the commit that created it.
func TestOrderMayNotJoinAnOpenOCAGroup(t *testing.T) {
	tc, m := setup(t, true)
	_, _, err := call(t, tc, "placeOrder", `{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"MKT","totalQuantity":"1","tif":"DAY",
		"takeProfit":{"price":"10000"},"stopLoss":{"price":"1"},"commitMessage":"bracket"}`)
	require.NoError(t, err)
	_, pushed, err := call(t, tc, "tradingPush", `{"source":"sim-paper"}`)
	require.NoError(t, err)
	require.Equal(t, "pushed", pushed[0].(map[string]any)["status"])

	u, err := m.Get("sim-paper")
	require.NoError(t, err)
	open := func() map[string]trading.OpenOrder {
		orders, err := u.Sim().Orders(context.Background(), nil) // the broker: the legs are not in the history
		require.NoError(t, err)
		out := map[string]trading.OpenOrder{}
		for _, o := range orders {
			if o.Status.Pending() {
				out[o.Order.OrderID] = o
			}
		}
		return out
	}
	legs := open()
	require.Len(t, legs, 2, "take-profit and stop-loss rest")
	var group string
	for _, o := range legs {
		group = o.Order.OCAGroup
	}
	require.NotEmpty(t, group)

	_, err = tc.Call(context.Background(), "placeOrder", json.RawMessage(`{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"MKT",
		"totalQuantity":"0.01","tif":"DAY","ocaGroup":"`+group+`","commitMessage":"join"}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "already has open orders at the broker")
	_, _ = tc.Call(context.Background(), "tradingPush", json.RawMessage(`{"source":"sim-paper"}`)) // nothing staged
	assert.Equal(t, legs, open(), "both legs still rest")

	// A fresh group is accepted and sent under the commit's prefix.
	_, _, err = call(t, tc, "placeOrder", `{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","orderType":"LMT","lmtPrice":"1","totalQuantity":"1","tif":"GTC","ocaGroup":"mine"}`)
	require.NoError(t, err)
	_, _, err = call(t, tc, "tradingCommit", `{"message":"own group"}`)
	require.NoError(t, err)
	_, _, err = call(t, tc, "tradingPush", `{"source":"sim-paper"}`)
	require.NoError(t, err)
	found := false
	for _, o := range open() {
		if regexp.MustCompile(`^alice-[0-9a-f]{8}-mine$`).MatchString(o.Order.OCAGroup) {
			found = true
		}
	}
	assert.True(t, found, "the new order rests in alice-<hash>-mine")

	// Not-applicable fields and oversized strings are refused at staging.
	for _, args := range []string{
		`"orderType":"LMT","lmtPrice":"1","tif":"GTC","trailingPercent":"5"`,
		`"orderType":"LMT","lmtPrice":"1","tif":"GTC","goodTillDate":"../../x"`,
		`"orderType":"LMT","lmtPrice":"1","tif":"GTD","goodTillDate":"../../x"`,
		`"orderType":"LMT","lmtPrice":"1","tif":"GTC","parentId":"nope"`,
		`"orderType":"LMT","lmtPrice":"1","tif":"GTC","ocaGroup":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"`,
	} {
		_, err := tc.Call(context.Background(), "placeOrder", json.RawMessage(`{"source":"sim-paper","aliceId":"sim-paper|AAPL","action":"BUY","totalQuantity":"1",`+args+`}`))
		assert.Error(t, err, args)
	}
}
