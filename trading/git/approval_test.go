package git

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/alice-trading/alice/trading"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIssueSequenceFreezesWhileAwaiting is issue 15's sequence: buy 7,
// commit, push (waiting for a person), buy 13 must be refused naming the
// waiting commit; after the person rejects, "buy 13" holds exactly one
// operation. It survives a restart in the middle.
func TestIssueSequenceFreezesWhileAwaiting(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "commit.json")
	f := newFake()
	g := open(t, path, f)
	_, err := g.Stage(buy("AAPL", "7", trading.Market))
	require.NoError(t, err)
	p7, err := g.Commit("buy 7")
	require.NoError(t, err)
	shown, _, err := g.RequestApproval()
	require.NoError(t, err)
	assert.Equal(t, p7.Hash, shown.Hash)
	assert.True(t, g.Status().AwaitingApproval)

	g = open(t, path, f) // the freeze is on disk, not only in memory
	for name, try := range map[string]func() error{
		"stage":       func() error { _, err := g.Stage(buy("AAPL", "13", trading.Market)); return err },
		"stageCancel": func() error { _, err := g.Stage(Operation{Action: CancelOrder, OrderID: "o-1"}); return err },
		"commit":      func() error { _, err := g.Commit("buy 13"); return err },
	} {
		err := try()
		require.ErrorIs(t, err, ErrAwaitingApproval, name)
		assert.Contains(t, err.Error(), p7.Hash, name)
		assert.Contains(t, err.Error(), "tradingReject", name)
		assert.Contains(t, err.Error(), "Portfolio", name)
	}
	st := g.Status()
	require.Len(t, st.Staged, 1, "nothing slipped in")
	assert.Equal(t, p7.Hash, st.PendingHash)

	_, err = g.Reject(ctx, p7.Hash, "")
	require.NoError(t, err)
	_, err = g.Stage(buy("AAPL", "13", trading.Market))
	require.NoError(t, err)
	p13, err := g.Commit("buy 13")
	require.NoError(t, err)
	assert.Equal(t, 1, p13.OperationCount)
	_, _, err = g.RequestApproval()
	require.NoError(t, err)
	res, c, err := g.Push(ctx, p13.Hash)
	require.NoError(t, err)
	assert.Equal(t, 1, res.OperationCount)
	assert.Equal(t, "13", c.Operations[0].Order.TotalQuantity.String())
	assert.Equal(t, 1, f.callCount(), "only the 13 reached the broker")
}

func TestDecisionsBindToTheShownHash(t *testing.T) {
	ctx := context.Background()
	f := newFake()
	g := open(t, "", f)
	_, _ = g.Stage(buy("AAPL", "1", trading.Market))
	old, _ := g.Commit("one")
	_, _ = g.Stage(buy("MSFT", "1", trading.Market)) // voids "one"
	cur, _ := g.Commit("two")

	_, _, err := g.Push(ctx, old.Hash)
	var stale *StaleError
	require.ErrorAs(t, err, &stale)
	assert.Equal(t, cur.Hash, stale.Have)
	assert.Contains(t, err.Error(), "nothing was executed")
	_, err = g.Reject(ctx, old.Hash, "")
	assert.ErrorIs(t, err, ErrStale)
	_, _, err = g.Push(ctx, "")
	assert.ErrorContains(t, err, "hash is required")
	assert.Zero(t, f.callCount())

	_, _, err = g.Push(ctx, cur.Hash)
	require.NoError(t, err)
	_, _, err = g.Push(ctx, cur.Hash)
	require.ErrorAs(t, err, &stale, "a decided commit cannot be pushed again")
	assert.Empty(t, stale.Have)
	assert.Equal(t, 2, f.callCount())
}

func TestVoidNoteListsEveryStagedOperation(t *testing.T) {
	g := open(t, "", newFake())
	_, _ = g.Stage(buy("AAPL", "7", trading.Market))
	p, _ := g.Commit("buy 7")
	r, err := g.Stage(buy("AAPL", "13", trading.Market))
	require.NoError(t, err)
	assert.Equal(t, p.Hash, r.VoidedHash)
	assert.Equal(t, 2, r.StagedCount)
	assert.Contains(t, r.Note, p.Hash)
	assert.Contains(t, r.Note, "1) placeOrder BUY 7 AAPL (MKT)")
	assert.Contains(t, r.Note, "2) placeOrder BUY 13 AAPL (MKT)")
	r, err = g.Stage(buy("MSFT", "1", trading.Market))
	require.NoError(t, err)
	assert.Empty(t, r.Note, "nothing was voided this time")
	assert.Equal(t, 3, r.StagedCount)
}
