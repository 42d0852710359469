package git

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alice-trading/alice/trading"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
)

// The model-based test drives random sequences of stage / commit /
// request / approve / reject / sync against a Git persisted on disk and
// kills the "process" at one persistence point per run (before or after
// the write), reopening from disk and carrying on. After every step it
// checks the invariant of the package doc: every operation the broker
// executed is in a commit whose hash was approved and was shown with that
// operation, nothing executed twice, nothing executed left out of the
// history, nothing acknowledged as staged lost.

// crashSignal is the panic that simulates the process dying.
type crashSignal struct {
	point   string
	written bool
}

// modelBroker outlives crashes: it is the outside world.
type modelBroker struct {
	mu       sync.Mutex
	executed []execution
	orders   map[string]*trading.OpenOrder
}

type execution struct {
	symbol, clientID, orderID string
}

func (b *modelBroker) dispatch(_ context.Context, op Operation) Result {
	b.mu.Lock()
	defer b.mu.Unlock()
	id := fmt.Sprintf("ord-%d", len(b.executed)+1)
	b.executed = append(b.executed, execution{op.Symbol(), op.Order.ClientOrderID, id})
	st := trading.StatusFilled
	if op.Order.OrderType == trading.Limit {
		st = trading.StatusSubmitted
	}
	b.orders[id] = &trading.OpenOrder{Contract: *op.Contract, Order: *op.Order, Status: st}
	return Result{Success: true, OrderID: id, Status: FromOrderStatus(st)}
}

func (b *modelBroker) reconcile(_ context.Context, op Operation) (Result, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.executed {
		if e.clientID == op.Order.ClientOrderID {
			return Result{Success: true, OrderID: e.orderID, Status: FromOrderStatus(b.orders[e.orderID].Status)}, true
		}
	}
	return Result{}, false
}

func (b *modelBroker) order(_ context.Context, id string) (*trading.OpenOrder, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o, ok := b.orders[id]
	if !ok {
		return nil, errors.New("no such order")
	}
	c := *o
	return &c, nil
}

func (b *modelBroker) fillOne(rng *rand.Rand) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var open []string
	for id, o := range b.orders {
		if o.Status == trading.StatusSubmitted {
			open = append(open, id)
		}
	}
	if len(open) == 0 {
		return
	}
	slices.Sort(open)
	o := b.orders[open[rng.IntN(len(open))]]
	o.Status, o.FilledQty, o.AvgFillPrice = trading.StatusFilled, o.Order.TotalQuantity, decimal.NewFromInt(50)
}

// world is one run: the disk, the broker, the current process's Git and
// what the people and the agent were told.
type world struct {
	t       *testing.T
	path    string
	broker  *modelBroker
	g       *Git
	writes  int
	crashAt int
	crashes int
	now     time.Time

	next      int                 // next symbol number
	acked     map[string]bool     // symbols whose Stage returned success
	shown     map[string][]string // hash → symbols a person was shown (RequestApproval)
	approved  map[string][]string // hash → symbols approved (person or autoApprove)
	lastShown string              // the newest hash a person was shown
	stats     *modelStats
}

// modelStats shows the runs exercised what they claim to.
type modelStats struct{ frozen, stale, approvals, executed, crashes int }

func (w *world) fault(point string, written bool) {
	w.writes++
	if w.writes == w.crashAt {
		panic(crashSignal{point, written})
	}
}

func (w *world) clock() time.Time {
	w.now = w.now.Add(time.Second)
	return w.now
}

func (w *world) open() {
	for {
		if w.try(func() {
			g, err := Open(w.path, Deps{Dispatch: w.broker.dispatch, Order: w.broker.order, Reconcile: w.broker.reconcile,
				Now: w.clock, crash: w.fault, Logger: slog.New(slog.DiscardHandler)})
			require.NoError(w.t, err)
			w.g = g
		}) {
			return
		}
	}
}

// try runs fn; a crash discards the process and reports false.
func (w *world) try(fn func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, crash := r.(crashSignal); !crash {
				panic(r)
			}
			w.crashes++
			ok = false
		}
	}()
	fn()
	return true
}

func symbols(ops []Operation) []string {
	out := make([]string, len(ops))
	for i, op := range ops {
		out[i] = op.Symbol()
	}
	return out
}

// step runs one random action; a crash reopens from disk.
func (w *world) step(rng *rand.Rand) {
	ctx := context.Background()
	action := rng.IntN(9)
	ok := w.try(func() {
		awaiting := w.g.Status().AwaitingApproval
		switch action {
		case 0, 1, 2: // the agent stages
			w.next++
			sym := fmt.Sprintf("S%d", w.next)
			typ := trading.Market
			if rng.IntN(2) == 0 {
				typ = trading.Limit
			}
			_, err := w.g.Stage(buy(sym, "1", typ))
			if awaiting {
				require.ErrorIs(w.t, err, ErrAwaitingApproval, "stage while a push awaits a person")
				w.stats.frozen++
				require.Contains(w.t, err.Error(), w.g.Status().PendingHash)
				return
			}
			require.NoError(w.t, err)
			w.acked[sym] = true
		case 3: // the agent commits
			_, err := w.g.Commit("model")
			if awaiting {
				require.ErrorIs(w.t, err, ErrAwaitingApproval)
			}
		case 4: // the agent commits if needed and asks for a push (autoApprove off)
			if st := w.g.Status(); st.PendingHash == "" && len(st.Staged) > 0 {
				_, err := w.g.Commit("model push")
				require.NoError(w.t, err)
			}
			if p, _, err := w.g.RequestApproval(); err == nil {
				w.shown[p.Hash] = symbols(p.Operations)
				w.lastShown = p.Hash
			}
		case 5: // a person approves what they were shown — maybe an old button
			hash := w.lastShown
			if rng.IntN(4) == 0 {
				hash = w.anyShown(rng)
			}
			if hash == "" {
				return
			}
			w.approved[hash] = w.shown[hash]
			w.stats.approvals++
			if _, _, err := w.g.Push(ctx, hash); err != nil {
				require.ErrorIs(w.t, err, ErrStale, "a decision about another commit is refused")
				w.stats.stale++
			}
		case 6: // autoApprove pushes the commit it just read
			st := w.g.Status()
			if st.PendingHash == "" || st.AwaitingApproval {
				return
			}
			w.approved[st.PendingHash] = symbols(w.g.PendingCommit().Operations)
			_, _, err := w.g.Push(ctx, st.PendingHash)
			require.NoError(w.t, err)
		case 7: // a person rejects
			if w.lastShown != "" {
				if _, err := w.g.Reject(ctx, w.lastShown, "no"); err != nil {
					require.ErrorIs(w.t, err, ErrStale)
				}
			}
		case 8: // the market moves and the agent syncs
			w.broker.fillOne(rng)
			_, err := w.g.Sync(ctx, 0)
			require.NoError(w.t, err)
		}
	})
	if !ok {
		w.open()
	}
	w.check()
}

func (w *world) anyShown(rng *rand.Rand) string {
	keys := make([]string, 0, len(w.shown))
	for k := range w.shown {
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return ""
	}
	slices.Sort(keys)
	return keys[rng.IntN(len(keys))]
}

// check asserts the invariant against the broker and the history on disk.
func (w *world) check() {
	t := w.t
	t.Helper()
	w.broker.mu.Lock()
	executed := slices.Clone(w.broker.executed)
	w.broker.mu.Unlock()
	inHistory := map[string]string{} // symbol → commit hash
	results := map[string]Result{}
	for _, c := range w.g.Commits() {
		if c.isSync() {
			continue
		}
		rejected := strings.HasPrefix(c.Message, "[rejected]")
		if !rejected {
			_, ok := w.approved[c.Hash]
			require.True(t, ok, "pushed commit %s was approved", c.Hash)
		}
		for i, op := range c.Operations {
			prev, twice := inHistory[op.Symbol()]
			require.False(t, twice, "%s recorded in %s and %s", op.Symbol(), prev, c.Hash)
			inHistory[op.Symbol()] = c.Hash
			results[op.Symbol()] = c.Results[i]
		}
	}
	seen := map[string]bool{}
	for _, e := range executed {
		require.False(t, seen[e.symbol], "%s executed twice", e.symbol)
		seen[e.symbol] = true
		hash := strings.Split(e.clientID, "-")[1]
		require.Contains(t, w.approved[hash], e.symbol, "%s executed in commit %s, which a person approved with it", e.symbol, hash)
		if shown, ok := w.shown[hash]; ok {
			require.Equal(t, shown, w.approved[hash], "approved exactly what was shown")
		}
		// Nothing lost: the history records the execution (a push still in
		// progress is the only exception, and steps never overlap).
		require.Equal(t, hash, inHistory[e.symbol], "%s recorded under its commit", e.symbol)
		require.True(t, results[e.symbol].Success, "%s recorded as executed: %+v", e.symbol, results[e.symbol])
		require.Equal(t, e.orderID, results[e.symbol].OrderID)
	}
	staged := map[string]bool{}
	st := w.g.Status()
	for _, op := range st.Staged {
		staged[op.Symbol()] = true
	}
	if p := w.g.PendingCommit(); p != nil {
		require.Equal(t, symbols(st.Staged), symbols(p.Operations), "the prepared commit covers exactly the staging area")
	}
	for sym := range w.acked {
		_, recorded := inHistory[sym]
		require.True(t, staged[sym] || recorded, "acknowledged %s is neither staged nor in the history", sym)
	}
}

func runModel(t *testing.T, seed uint64, steps, crashAt int) (writes int, stats modelStats) {
	w := &world{t: t, stats: &stats, path: filepath.Join(t.TempDir(), "commit.json"), crashAt: crashAt,
		broker: &modelBroker{orders: map[string]*trading.OpenOrder{}}, now: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC),
		acked: map[string]bool{}, shown: map[string][]string{}, approved: map[string][]string{}}
	w.open()
	rng := rand.New(rand.NewPCG(seed, 7))
	for range steps {
		w.step(rng)
	}
	stats.crashes += w.crashes
	stats.executed += len(w.broker.executed)
	return w.writes, stats
}

func (s *modelStats) add(o modelStats) {
	s.frozen += o.frozen
	s.stale += o.stale
	s.approvals += o.approvals
	s.executed += o.executed
	s.crashes += o.crashes
}

func TestModelCrashAtEveryPersistencePoint(t *testing.T) {
	seeds, steps := 6, 30
	if testing.Short() {
		seeds = 2
	}
	var (
		mu   sync.Mutex
		runs int
		st   modelStats
	)
	// The group returns once every parallel run has finished (the runs
	// wait on fsync, not on the CPU).
	t.Run("group", func(t *testing.T) {
		for seed := range uint64(seeds) {
			total, _ := runModel(t, seed, steps, -1)
			require.Positive(t, total)
			// One run per persistence point of the crash-free run: the
			// crash fires at that point (before or after its write), the
			// process is reopened from disk and the sequence carries on.
			for k := 1; k <= total; k++ {
				t.Run(fmt.Sprintf("seed%d/crash%d", seed, k), func(t *testing.T) {
					t.Parallel()
					_, s := runModel(t, seed, steps, k)
					mu.Lock()
					defer mu.Unlock()
					st.add(s)
					runs++
				})
			}
		}
	})
	require.False(t, t.Failed())
	t.Logf("%d runs, %d crashes injected, %d approvals (%d refused as stale), %d stages refused while awaiting, %d operations executed",
		runs, st.crashes, st.approvals, st.stale, st.frozen, st.executed)
	require.Equal(t, runs, st.crashes, "every run crashed once")
	require.Positive(t, st.stale)
	require.Positive(t, st.frozen)
	require.Positive(t, st.executed)
}
