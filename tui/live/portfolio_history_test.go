package live

import (
	"context"
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
	stageBuy(t, a, ctx)
	approvePending(t, c)
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
