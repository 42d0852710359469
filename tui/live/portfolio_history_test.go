package live

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/tui/portfolio"
	"github.com/stretchr/testify/require"
)

var _ portfolio.PositionHistoryCore = (*Core)(nil)

func TestPositionHistoryComesFromSnapshots(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	ctx := context.Background()
	hist, err := c.PositionHistory("sim-paper")
	require.NoError(t, err)
	require.Empty(t, hist["MSFT"], "nothing held yet")
	for _, call := range []struct{ tool, args string }{
		{"placeOrder", `{"source":"sim-paper","aliceId":"sim-paper|MSFT","action":"BUY","orderType":"MKT","totalQuantity":"2"}`},
		{"tradingCommit", `{"source":"sim-paper","message":"buy MSFT"}`},
		{"tradingPush", `{"source":"sim-paper"}`},
	} {
		_, err := a.Tools().Call(ctx, call.tool, json.RawMessage(call.args))
		require.NoError(t, err, call.tool)
	}
	pending, err := c.Pending()
	require.NoError(t, err)
	require.Len(t, pending, 1)
	_, err = c.Approve(ctx, "sim-paper", pending[0].Hash)
	require.NoError(t, err)
	hist, err = c.PositionHistory("sim-paper")
	require.NoError(t, err)
	require.NotEmpty(t, hist["MSFT"], "the post-push snapshot holds MSFT")
	require.Greater(t, hist["MSFT"][0], 0.0)
}

var _ portfolio.SnapshotCore = (*Core)(nil)

func TestTakeSnapshotAddsAPoint(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	before, err := a.Trading().Snapshots("sim-paper", time.Time{}, 0)
	require.NoError(t, err)
	require.NoError(t, c.TakeSnapshot(context.Background(), "sim-paper"))
	after, err := a.Trading().Snapshots("sim-paper", time.Time{}, 0)
	require.NoError(t, err)
	require.Len(t, after, len(before)+1)
	require.Error(t, c.TakeSnapshot(context.Background(), "no-such-account"), "an unknown account is an error, not a crash")
}
