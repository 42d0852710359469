package git

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alice-trading/alice/trading"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeBroker records dispatched operations and answers sync lookups.
type fakeBroker struct {
	mu      sync.Mutex
	calls   []Operation
	fail    map[string]bool // symbol → reject
	orders  map[string]*trading.OpenOrder
	next    int
	panicAt int // panic on this call number (1-based); 0 = never
	onCall  func(n int)
}

func newFake() *fakeBroker {
	return &fakeBroker{fail: map[string]bool{}, orders: map[string]*trading.OpenOrder{}}
}

func (f *fakeBroker) dispatch(_ context.Context, op Operation) Result {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, op)
	if f.onCall != nil {
		f.onCall(len(f.calls))
	}
	if f.panicAt == len(f.calls) {
		panic("simulated crash")
	}
	if f.fail[op.Symbol()] {
		return Result{Status: StatusRejected, Error: "rejected by fake"}
	}
	f.next++
	id := "ord-" + decimal.NewFromInt(int64(f.next)).String()
	if op.Action == PlaceOrder && op.Order.OrderType == trading.Limit {
		f.orders[id] = &trading.OpenOrder{Contract: *op.Contract, Order: *op.Order, Status: trading.StatusSubmitted}
		return Result{Success: true, OrderID: id, Status: StatusSubmitted}
	}
	return Result{Success: true, OrderID: id, Status: StatusFilled, FilledQty: decimal.NewFromInt(1), FilledPrice: decimal.NewFromInt(100)}
}

func (f *fakeBroker) order(_ context.Context, id string) (*trading.OpenOrder, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	o := *f.orders[id]
	return &o, nil
}

func (f *fakeBroker) callCount() int { f.mu.Lock(); defer f.mu.Unlock(); return len(f.calls) }

func testClock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Second)
		return t
	}
}

func open(t *testing.T, path string, f *fakeBroker) *Git {
	t.Helper()
	g, err := Open(path, Deps{Dispatch: f.dispatch, Order: f.order, Now: testClock(),
		State: func(context.Context, []string) (State, error) {
			return State{NetLiquidation: decimal.NewFromInt(1000)}, nil
		}})
	require.NoError(t, err)
	return g
}

func buy(sym, qty string, typ trading.OrderType) Operation {
	o := trading.Order{Action: trading.Buy, OrderType: typ, TotalQuantity: decimal.RequireFromString(qty), TIF: trading.Day}
	if typ == trading.Limit {
		o.LmtPrice = decimal.NewFromInt(90)
	}
	return Operation{Action: PlaceOrder, Contract: &trading.Contract{Symbol: sym}, Order: &o}
}

func TestStageValidation(t *testing.T) {
	g := open(t, "", newFake())
	cases := []struct {
		name string
		op   Operation
		ok   bool
	}{
		{"valid market buy", buy("AAPL", "1", trading.Market), true},
		{"place without contract", Operation{Action: PlaceOrder, Order: &trading.Order{Action: trading.Buy, OrderType: trading.Market, TotalQuantity: decimal.NewFromInt(1)}}, false},
		{"limit without price", Operation{Action: PlaceOrder, Contract: &trading.Contract{Symbol: "X"}, Order: &trading.Order{Action: trading.Buy, OrderType: trading.Limit, TotalQuantity: decimal.NewFromInt(1)}}, false},
		{"modify without changes", Operation{Action: ModifyOrder, OrderID: "1"}, false},
		{"cancel", Operation{Action: CancelOrder, OrderID: "1"}, true},
		{"cancel without id", Operation{Action: CancelOrder}, false},
		{"close", Operation{Action: ClosePosition, Contract: &trading.Contract{Symbol: "AAPL"}}, true},
		{"unknown action", Operation{Action: "launchRocket"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := g.Stage(tc.op)
			if tc.ok {
				assert.NoError(t, err)
			} else {
				assert.Error(t, err)
			}
		})
	}
	assert.Len(t, g.Status().Staged, 3)
}

func TestCommitPushLifecycle(t *testing.T) {
	ctx := context.Background()
	f := newFake()
	f.fail["TSLA"] = true
	g := open(t, filepath.Join(t.TempDir(), "commit.json"), f)

	_, err := g.Commit("empty")
	assert.ErrorIs(t, err, ErrNothingStaged)
	_, _, err = g.Push(ctx, "")
	assert.ErrorIs(t, err, ErrNoPending)

	_, err = g.Stage(buy("AAPL", "2", trading.Market))
	require.NoError(t, err)
	_, err = g.Stage(buy("TSLA", "1", trading.Market))
	require.NoError(t, err)
	_, _, err = g.Push(ctx, "")
	assert.ErrorIs(t, err, ErrUncommitted)
	_, err = g.Commit("  ")
	assert.Error(t, err)

	p, err := g.Commit("buy two")
	require.NoError(t, err)
	assert.Len(t, p.Hash, 8)
	assert.Equal(t, 2, p.OperationCount)
	assert.Zero(t, f.callCount(), "commit executes nothing")
	st := g.Status()
	assert.Equal(t, p.Hash, st.PendingHash)
	assert.Equal(t, "buy two", st.PendingMessage)

	res, c, err := g.Push(ctx, p.Hash)
	require.NoError(t, err)
	assert.Equal(t, p.Hash, res.Hash)
	require.Len(t, res.Submitted, 1)
	require.Len(t, res.Rejected, 1)
	assert.Equal(t, "AAPL", res.Submitted[0].Symbol)
	assert.Equal(t, "rejected by fake", res.Rejected[0].Error)
	assert.Nil(t, c.ParentHash)
	require.NotNil(t, c.StateAfter)
	assert.Equal(t, "alice-"+p.Hash+"-0", c.Operations[0].Order.ClientOrderID)
	st = g.Status()
	assert.Empty(t, st.Staged)
	assert.Empty(t, st.PendingHash)
	assert.Equal(t, p.Hash, st.Head)
	assert.Equal(t, 1, st.CommitCount)

	// A second commit chains to the first.
	_, err = g.Stage(buy("MSFT", "1", trading.Market))
	require.NoError(t, err)
	p2, err := g.Commit("second")
	require.NoError(t, err)
	assert.NotEqual(t, p.Hash, p2.Hash)
	_, c2, err := g.Push(ctx, p2.Hash)
	require.NoError(t, err)
	require.NotNil(t, c2.ParentHash)
	assert.Equal(t, p.Hash, *c2.ParentHash)
}

func TestStagingAfterCommitVoidsIt(t *testing.T) {
	g := open(t, "", newFake())
	_, _ = g.Stage(buy("AAPL", "1", trading.Market))
	p, _ := g.Commit("one")
	r, err := g.Stage(buy("MSFT", "1", trading.Market))
	require.NoError(t, err)
	assert.Contains(t, r.Note, p.Hash)
	assert.Empty(t, g.Status().PendingHash)
	_, _, err = g.Push(context.Background(), "")
	assert.ErrorIs(t, err, ErrUncommitted)
}

func TestReject(t *testing.T) {
	ctx := context.Background()
	f := newFake()
	g := open(t, "", f)
	_, err := g.Reject(ctx, "", "no")
	assert.ErrorIs(t, err, ErrNoPending)
	_, _ = g.Stage(buy("AAPL", "1", trading.Market))
	p, _ := g.Commit("risky")
	c, err := g.Reject(ctx, p.Hash, "too risky")
	require.NoError(t, err)
	assert.Equal(t, "[rejected] risky — too risky", c.Message)
	assert.Equal(t, p.Hash, c.Hash)
	require.Len(t, c.Results, 1)
	assert.Equal(t, StatusUserRejected, c.Results[0].Status)
	assert.Equal(t, "too risky", c.Results[0].Error)
	assert.Zero(t, f.callCount())
	assert.Empty(t, g.Status().Staged)
	_, _ = g.Stage(buy("AAPL", "1", trading.Market))
	p, _ = g.Commit("again")
	c, _ = g.Reject(ctx, p.Hash, "")
	assert.Equal(t, "Rejected by user", c.Results[0].Error)
}

func TestLogShowAndSync(t *testing.T) {
	ctx := context.Background()
	f := newFake()
	g := open(t, "", f)
	_, _ = g.Stage(buy("AAPL", "2", trading.Market))
	_, _ = g.Stage(buy("MSFT", "3", trading.Limit))
	p1, _ := g.Commit("first")
	_, _, err := g.Push(ctx, p1.Hash)
	require.NoError(t, err)
	_, _ = g.Stage(Operation{Action: ClosePosition, Contract: &trading.Contract{Symbol: "AAPL"}, Quantity: decimal.NewFromInt(1)})
	p2, _ := g.Commit("second")
	_, _, _ = g.Push(ctx, p2.Hash)

	log := g.Log(0, "")
	require.Len(t, log, 2)
	assert.Equal(t, p2.Hash, log[0].Hash, "newest first")
	assert.Equal(t, "closed (partial: 1) @100", log[0].Operations[0].Change)
	assert.Equal(t, "BUY 2 @100", log[1].Operations[0].Change)
	assert.Equal(t, "BUY 3 LMT @90 (submitted)", log[1].Operations[1].Change)
	assert.Len(t, g.Log(1, ""), 1)
	assert.Len(t, g.Log(10, "msft"), 1, "symbol filter")
	assert.Empty(t, g.Log(10, "NVDA"))

	c, ok := g.Show(p1.Hash)
	require.True(t, ok)
	assert.Equal(t, "first", c.Message)
	_, ok = g.Show(p1.Hash[:5])
	assert.True(t, ok, "prefix")
	_, ok = g.Show("ab")
	assert.False(t, ok)

	pending := g.PendingOrderIDs()
	require.Len(t, pending, 1)
	// Nothing changed at the broker: sync records nothing.
	sr, err := g.Sync(ctx, 0)
	require.NoError(t, err)
	assert.Zero(t, sr.UpdatedCount)
	assert.Equal(t, 2, g.Status().CommitCount)
	// The limit order fills; sync records a [sync] commit.
	f.mu.Lock()
	o := f.orders[pending[0]]
	o.Status, o.FilledQty, o.AvgFillPrice = trading.StatusFilled, decimal.NewFromInt(3), decimal.NewFromInt(89)
	f.mu.Unlock()
	sr, err = g.Sync(ctx, 0)
	require.NoError(t, err)
	require.Equal(t, 1, sr.UpdatedCount)
	assert.Equal(t, StatusFilled, sr.Updates[0].CurrentStatus)
	assert.Equal(t, "89", sr.Updates[0].FilledPrice)
	log = g.Log(1, "")
	assert.Equal(t, "[sync] 1 order(s) updated", log[0].Message)
	assert.Equal(t, "MSFT", log[0].Operations[0].Symbol)
	assert.Empty(t, g.PendingOrderIDs())
}

func TestRestartKeepsStagedAndPending(t *testing.T) {
	path := filepath.Join(t.TempDir(), "commit.json")
	f := newFake()
	g := open(t, path, f)
	_, _ = g.Stage(buy("AAPL", "1", trading.Market))
	_, _ = g.Stage(buy("MSFT", "1", trading.Market))
	p, _ := g.Commit("survive restart")

	g2 := open(t, path, f)
	st := g2.Status()
	assert.Len(t, st.Staged, 2)
	assert.Equal(t, p.Hash, st.PendingHash)
	res, _, err := g2.Push(context.Background(), p.Hash)
	require.NoError(t, err)
	assert.Len(t, res.Submitted, 2)

	g3 := open(t, path, f)
	assert.Equal(t, 1, g3.Status().CommitCount)
	_, _, err = g3.Push(context.Background(), "")
	assert.ErrorIs(t, err, ErrNoPending, "a pushed commit can never be pushed again")
	assert.Equal(t, 2, f.callCount())

	// the history is append-only JSONL beside commit.json: one line per commit
	data, err := os.ReadFile(filepath.Join(filepath.Dir(path), "commits.jsonl"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Len(t, lines, 1)
	var onDisk struct{ Commits []Commit }
	onDisk.Commits = make([]Commit, 1)
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &onDisk.Commits[0]))
	assert.Equal(t, p.Hash, onDisk.Commits[0].Hash)
	assert.True(t, onDisk.Commits[0].Results[0].FilledPrice.Equal(decimal.NewFromInt(100)), "decimals rehydrate")
}

func TestCrashMidPushNeverResubmits(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "commit.json")
	crashed := filepath.Join(dir, "crashed", "commit.json")
	f := newFake()
	// While the second operation executes, copy the file: that is what a
	// process killed at this instant leaves on disk.
	f.onCall = func(n int) {
		if n == 2 {
			require.NoError(t, os.MkdirAll(filepath.Dir(crashed), 0o700))
			for _, name := range []string{"commit.json", "commit.json.push", "staging.json"} {
				data, err := os.ReadFile(filepath.Join(filepath.Dir(path), name))
				if os.IsNotExist(err) {
					continue // no history yet: this is the first commit
				}
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(crashed), name), data, 0o600))
			}
		}
	}
	g := open(t, path, f)
	for _, s := range []string{"AAPL", "MSFT", "NVDA"} {
		_, _ = g.Stage(buy(s, "1", trading.Market))
	}
	p, _ := g.Commit("three")
	_, _, err := g.Push(context.Background(), p.Hash)
	require.NoError(t, err)
	require.Equal(t, 3, f.callCount())

	f.onCall = nil
	g2 := open(t, crashed, f)
	st := g2.Status()
	assert.Empty(t, st.Staged)
	assert.Empty(t, st.PendingHash)
	assert.Equal(t, p.Hash, st.Head)
	c, ok := g2.Show(p.Hash)
	require.True(t, ok)
	require.Len(t, c.Results, 3)
	assert.True(t, c.Results[0].Success, "completed op keeps its result")
	assert.False(t, c.Results[1].Success)
	assert.Contains(t, c.Results[1].Error, "alice-"+p.Hash+"-1", "names the client order id to check")
	assert.False(t, c.Results[2].Success)
	_, _, err = g2.Push(context.Background(), "")
	assert.ErrorIs(t, err, ErrNoPending)
	assert.Equal(t, 3, f.callCount(), "nothing re-submitted after the restart")
	assert.NoFileExists(t, crashed+".push", "checkpoint cleared")
	assert.NoFileExists(t, path+".push", "a completed push leaves no checkpoint")
	g3 := open(t, crashed, f)
	assert.Equal(t, 1, g3.Status().CommitCount, "recovery is not repeated")
}

func TestDispatchPanicBecomesRejection(t *testing.T) {
	f := newFake()
	f.panicAt = 1
	g := open(t, "", f)
	_, _ = g.Stage(buy("AAPL", "1", trading.Market))
	_, _ = g.Stage(buy("MSFT", "1", trading.Market))
	p, _ := g.Commit("x")
	res, _, err := g.Push(context.Background(), p.Hash)
	require.NoError(t, err)
	require.Len(t, res.Rejected, 1)
	assert.Contains(t, res.Rejected[0].Error, "internal error")
	assert.Len(t, res.Submitted, 1)
	_, err = g.Stage(buy("AAPL", "1", trading.Market))
	assert.NoError(t, err, "history is not wedged")
}

func TestCrashAfterHistorySavedDropsPending(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "commit.json")
	f := newFake()
	g := open(t, path, f)
	_, _ = g.Stage(buy("AAPL", "1", trading.Market))
	p, _ := g.Commit("once")
	staging, err := os.ReadFile(filepath.Join(dir, "staging.json"))
	require.NoError(t, err)
	_, _, err = g.Push(context.Background(), p.Hash)
	require.NoError(t, err)
	// Simulate a crash between writing commit.json and clearing staging.json.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "staging.json"), staging, 0o600))
	g2 := open(t, path, f)
	assert.Empty(t, g2.Status().PendingHash)
	assert.Empty(t, g2.Status().Staged)
	_, _, err = g2.Push(context.Background(), "")
	assert.ErrorIs(t, err, ErrNoPending)
	assert.Equal(t, 1, f.callCount())
}

func TestCorruptHistoryIsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "commit.json")
	require.NoError(t, os.WriteFile(path, []byte("{not json"), 0o600))
	_, err := Open(path, Deps{Dispatch: newFake().dispatch})
	assert.ErrorContains(t, err, "corrupt")
}
