package app_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/trading/git"
)

// TestIssue15SequenceOverMCP replays issue 15's report through a real MCP
// client over HTTP against the running core, autoApprove off: while
// "buy 7" waits for a person, staging 13 is refused naming the waiting
// commit; a person's approval bound to an old hash is refused; after the
// reject, "buy 13" is one operation and exactly 13 shares are bought.
func TestIssue15SequenceOverMCP(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	ctx := t.Context()
	agent := mcpClient(t, a.MCPURL())
	call := func(tool string, args map[string]any) (map[string]any, string) {
		out, isErr := callText(t, agent, tool, args)
		require.False(t, isErr, "%s: %s", tool, out)
		var v any
		require.NoError(t, json.Unmarshal([]byte(out), &v), out)
		if arr, ok := v.([]any); ok {
			return arr[0].(map[string]any), out
		}
		m, _ := v.(map[string]any)
		return m, out
	}
	buy := func(qty string) map[string]any {
		return map[string]any{"source": "sim-paper", "aliceId": "sim-paper|AAPL", "action": "BUY", "orderType": "MKT", "totalQuantity": qty}
	}

	call("placeOrder", buy("7"))
	c7, _ := call("tradingCommit", map[string]any{"message": "buy 7"})
	h7 := c7["hash"].(string)
	p, _ := call("tradingPush", map[string]any{})
	require.Equal(t, "pending", p["status"])

	out, isErr := callText(t, agent, "placeOrder", buy("13"))
	require.True(t, isErr, "staging while a push waits for a person is refused: %s", out)
	require.Contains(t, out, "commit "+h7)
	require.Contains(t, out, "tradingReject")
	out, isErr = callText(t, agent, "tradingCommit", map[string]any{"message": "buy 13"})
	require.True(t, isErr, out)
	require.Contains(t, out, h7)

	// The person rejects the commit they were shown.
	_, err := a.Trading().Reject(ctx, "sim-paper", h7, "rejected in the alice UI")
	require.NoError(t, err)

	call("placeOrder", buy("13"))
	c13, _ := call("tradingCommit", map[string]any{"message": "buy 13"})
	require.EqualValues(t, 1, c13["operationCount"], "buy 13 holds exactly the new operation")
	call("tradingPush", map[string]any{"source": "sim-paper"})
	_, err = a.Trading().Push(ctx, "sim-paper", h7)
	require.ErrorIs(t, err, git.ErrStale, "an approval bound to the old commit executes nothing")
	res, err := a.Trading().Push(ctx, "sim-paper", c13["hash"].(string))
	require.NoError(t, err)
	require.Len(t, res.Submitted, 1)
	require.Equal(t, "13", res.Submitted[0].FilledQty.String())

	show, _ := call("tradingShow", map[string]any{"source": "sim-paper", "hash": c13["hash"]})
	require.Equal(t, "buy 13", show["message"])
	require.Len(t, show["operations"], 1)
	_, logText := call("tradingLog", map[string]any{"source": "sim-paper"})
	require.Contains(t, logText, "[rejected] buy 7")
	pf, _ := call("getPortfolio", map[string]any{"source": "sim-paper"})
	pos := pf["sim-paper"].(map[string]any)["positions"].([]any)
	require.Len(t, pos, 1)
	require.Equal(t, "13", pos[0].(map[string]any)["quantity"])
}

// TestIssue22CashQtySequenceOverMCP replays issue 22's bypass through a real
// MCP client against the running core: an autoApprove account with
// max-order-value 5000 and max-position-size 25 %. placeOrder with both
// totalQuantity 100 and cashQty 1 is refused at staging; 100 MSFT alone
// is stopped by the guards at push; nothing beyond the guards executes.
func TestIssue22CashQtySequenceOverMCP(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, map[string]string{"accounts.json": `[{"id":"auto","presetId":"simulator","enabled":true,"autoApprove":true,
  "guards":[{"type":"max-order-value","options":{"maxValue":5000}},{"type":"max-position-size","options":{"maxPercentOfEquity":25}}],
  "presetConfig":{"cash":"100000","seed":42}}]`})
	agent := mcpClient(t, a.MCPURL())
	order := map[string]any{"source": "auto", "aliceId": "auto|MSFT", "symbol": "MSFT", "action": "BUY", "orderType": "MKT", "totalQuantity": "100", "cashQty": "1"}
	out, isErr := callText(t, agent, "placeOrder", order)
	require.True(t, isErr, out)
	require.Contains(t, out, "set exactly one of totalQuantity")
	out, _ = callText(t, agent, "tradingStatus", map[string]any{"source": "auto"})
	require.Contains(t, out, `"staged":[]`, "nothing was staged")

	delete(order, "cashQty")
	out, isErr = callText(t, agent, "placeOrder", order)
	require.False(t, isErr, out)
	require.Contains(t, out, `"tif":"DAY"`, "the venue default is explicit")
	_, isErr = callText(t, agent, "tradingCommit", map[string]any{"source": "auto", "message": "100 MSFT"})
	require.False(t, isErr)
	out, isErr = callText(t, agent, "tradingPush", map[string]any{"source": "auto"})
	require.False(t, isErr, out)
	require.Contains(t, out, "[guard:max-order-value]")
	pos, err := a.Trading().Positions(t.Context(), "auto")
	require.NoError(t, err)
	require.Empty(t, pos, "nothing beyond the guards executed")
}
