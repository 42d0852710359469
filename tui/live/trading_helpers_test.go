package live

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/alice-trading/alice/app"
	"github.com/stretchr/testify/require"
)

// stageBuy has an agent (ctx's caller) stage, commit and push a market buy
// of 2 MSFT on sim-paper through the tools.
func stageBuy(t *testing.T, a *app.App, ctx context.Context) {
	t.Helper()
	for _, call := range []struct{ tool, args string }{
		{"placeOrder", `{"source":"sim-paper","aliceId":"sim-paper|MSFT","action":"BUY","orderType":"MKT","totalQuantity":"2"}`},
		{"tradingCommit", `{"source":"sim-paper","message":"buy MSFT"}`},
		{"tradingPush", `{"source":"sim-paper"}`},
	} {
		_, err := a.Tools().Call(ctx, call.tool, json.RawMessage(call.args))
		require.NoError(t, err, call.tool)
	}
}

// approvePending approves the one pending push through the adapter, as a
// person does in the Portfolio pane.
func approvePending(t *testing.T, c *Core) {
	t.Helper()
	pending, err := c.Pending()
	require.NoError(t, err)
	require.Len(t, pending, 1)
	_, err = c.Approve(context.Background(), "sim-paper", pending[0].Hash)
	require.NoError(t, err)
}
