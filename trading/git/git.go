package git

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/alice-trading/alice/core/jsonl"
	"github.com/alice-trading/alice/trading"
)

// Deps is what a TradingGit needs from its account.
type Deps struct {
	// Dispatch executes one operation (guards, then broker) and never
	// panics; failures come back as a Result with Success=false.
	Dispatch func(ctx context.Context, op Operation) Result
	// State reads the account for stateAfter given the order ids the
	// history considers pending; nil skips it. It must not call back into
	// this Git (the history lock is held).
	State func(ctx context.Context, pendingOrderIDs []string) (State, error)
	// Order looks up an order for sync; nil disables sync.
	Order func(ctx context.Context, id string) (*trading.OpenOrder, error)
	// Reconcile asks the broker whether an operation that was executing
	// when the process died reached it (by the client order id the commit
	// gave it). nil, or false, records the operation as interrupted.
	Reconcile func(ctx context.Context, op Operation) (Result, bool)
	// Now is the clock (time.Now when nil).
	Now    func() time.Time
	Logger *slog.Logger

	// crash is the tests' fault injector: it is called before and after
	// every write to disk and may panic to simulate the process dying.
	crash func(point string, written bool)
}

// progress checkpoints a push so a crash mid-push is recoverable.
type progress struct {
	Hash    string   `json:"hash"`
	Results []Result `json:"results"`
}

// history is commit.json in the inventory format {commits, head}.
type history struct {
	Commits []Commit `json:"commits"`
	Head    *string  `json:"head"`
}

// work is staging.json (next to commit.json): the staging area and the
// prepared commit. Keeping it apart means staging does not rewrite the
// whole history, and a push in progress is checkpointed to a third small
// file (commit.json.push) for the same reason.
type work struct {
	Staged  []Operation `json:"staged,omitempty"`
	Pending *Pending    `json:"pending,omitempty"`
}

type file struct {
	history
	work
}

// ErrNothingStaged, ErrNoPending and friends let callers branch on state.
var (
	ErrNothingStaged = errors.New("nothing staged: stage operations (placeOrder, closePosition, …) first")
	ErrNoPending     = errors.New("no pending commit: run tradingCommit first")
	ErrUncommitted   = errors.New("staged operations are not committed: run tradingCommit first")
	ErrClosed        = errors.New("this account was restarted or removed (its settings changed); nothing was done: run the tool again")
)

// Git is one account's history. It is safe for concurrent use; pushes are
// serialised.
type Git struct {
	mu      sync.Mutex
	path    string
	deps    Deps
	f       file
	pushing *progress
	closed  bool // Close was called: another instance may own the files
	// hist is commits.jsonl; persisted is how many commits it holds and
	// lastLine the newest one as written (to notice an in-place update).
	hist      *jsonl.File
	persisted int
	lastLine  []byte
}

// Close waits for an operation in progress (a push reaching the broker)
// to finish and refuses every later change (ErrClosed). The account
// manager closes an account's history before it rebuilds the account, so
// the new instance never reads a push checkpoint that is still being
// written, and nothing written through the old instance overwrites it.
func (g *Git) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
}

// Open loads path (a missing file is an empty history). A push that was
// interrupted is finalised: operations that completed keep their results,
// the rest are marked rejected and are never re-submitted.
func Open(path string, deps Deps) (*Git, error) {
	if deps.Now == nil {
		deps.Now = time.Now
	}
	if deps.Logger == nil {
		deps.Logger = slog.Default()
	}
	if deps.Dispatch == nil {
		return nil, errors.New("git: Dispatch is required")
	}
	g := &Git{path: path, deps: deps}
	if path != "" {
		if err := g.openHistory(); err != nil {
			return nil, err
		}
		if err := readJSON(g.workPath(), &g.f.work); err != nil {
			return nil, err
		}
		// Crash after saving a pushed/rejected commit but before clearing
		// the work file: the commit is done, never run it again.
		if p := g.f.Pending; p != nil && g.hasCommit(p.Hash) {
			g.f.work = work{}
			if err := g.saveWork(); err != nil {
				return nil, err
			}
		}
	}
	if path != "" {
		data, err := os.ReadFile(g.progressPath())
		switch {
		case err == nil:
			var p progress
			if err := json.Unmarshal(data, &p); err != nil {
				return nil, fmt.Errorf("git: corrupt %s: %w", g.progressPath(), err)
			}
			if err := g.recoverPush(&p); err != nil {
				return nil, err
			}
		case !errors.Is(err, os.ErrNotExist):
			return nil, err
		}
	}
	return g, nil
}

// recoverPush finalises a push that a crash interrupted. If the history
// already holds the commit (crash after saving it) the checkpoint is stale.
func (g *Git) recoverPush(p *progress) error {
	pend := g.f.Pending
	if pend == nil || pend.Hash != p.Hash {
		g.clearProgress()
		return nil
	}
	results := append([]Result(nil), p.Results...)
	for i := len(results); i < len(pend.Operations); i++ {
		op := pend.Operations[i]
		msg := "push interrupted by a restart; not re-submitted"
		if i == len(p.Results) {
			if r, ok := g.reconcile(op); ok {
				results = append(results, r)
				continue
			}
			msg = "push interrupted while this operation was executing; not re-submitted — check getOrders/tradingSync"
			if op.Order != nil && op.Order.ClientOrderID != "" {
				msg += " (clientOrderId " + op.Order.ClientOrderID + ")"
			}
		}
		results = append(results, Result{Action: op.Action, Status: StatusRejected, Error: msg, Symbol: op.Symbol()})
	}
	g.deps.Logger.Warn("trading git: finalised interrupted push", "hash", p.Hash, "completed", len(p.Results))
	g.appendLocked(Commit{Hash: pend.Hash, Message: pend.Message, Operations: pend.Operations, Results: results,
		Timestamp: g.deps.Now().UTC()})
	g.f.Staged, g.f.Pending = nil, nil
	if err := g.save(); err != nil {
		return err
	}
	g.clearProgress()
	return nil
}

func (g *Git) appendLocked(c Commit) Commit {
	if g.f.Head != nil {
		h := *g.f.Head
		c.ParentHash = &h
	}
	g.f.Commits = append(g.f.Commits, c)
	h := c.Hash
	g.f.Head = &h
	return c
}

func hashOf(v any) string {
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:8]
}

// StageResult is what staging returns.
type StageResult struct {
	Staged    bool      `json:"staged"`
	Index     int       `json:"index"`
	Operation Operation `json:"operation"`
	// StagedCount is how many operations are staged after this one.
	StagedCount int `json:"stagedCount"`
	// VoidedHash is the unpushed commit this stage voided, if any.
	VoidedHash string `json:"voidedHash,omitempty"`
	Note       string `json:"note,omitempty"`
}

// Stage adds an operation. While a push awaits a person's decision the
// staging area is frozen and Stage refuses (*AwaitingError). Staging after
// an unpushed commit voids it (its hash no longer covers the staging
// area) and the note lists every operation now staged, because the next
// commit will hold all of them.
func (g *Git) Stage(op Operation) (StageResult, error) {
	if err := op.Validate(); err != nil {
		return StageResult{}, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.frozenLocked(); err != nil {
		return StageResult{}, err
	}
	res := StageResult{Staged: true, Index: len(g.f.Staged), Operation: op, StagedCount: len(g.f.Staged) + 1}
	old := g.f.Pending
	g.f.Pending = nil
	g.f.Staged = append(g.f.Staged, op)
	if err := g.saveWork(); err != nil {
		g.f.Staged, g.f.Pending = g.f.Staged[:len(g.f.Staged)-1], old
		return StageResult{}, err
	}
	if old != nil {
		res.VoidedHash = old.Hash
		res.Note = voidNote(old.Hash, g.f.Staged)
	}
	return res, nil
}

// Unstage discards the staging area and an unpushed commit (the kill
// switch stops what an agent had staged). A commit awaiting a person's
// decision is refused (*AwaitingError): reject it first.
func (g *Git) Unstage() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.frozenLocked(); err != nil {
		return err
	}
	old := g.f.work
	g.f.Staged, g.f.Pending = nil, nil
	if err := g.saveWork(); err != nil {
		g.f.work = old
		return err
	}
	return nil
}

// voidNote tells the stager that an unpushed commit is gone and exactly
// what the next commit will hold.
func voidNote(hash string, staged []Operation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "unpushed commit %s was voided because the staging area changed; %d operation(s) are staged now and the next tradingCommit will include all of them:", hash, len(staged))
	for i, op := range staged {
		fmt.Fprintf(&b, " %d) %s;", i+1, op.Describe())
	}
	return strings.TrimSuffix(b.String(), ";")
}

// Prepared is what Commit returns.
type Prepared struct {
	Prepared       bool   `json:"prepared"`
	Hash           string `json:"hash"`
	Message        string `json:"message"`
	OperationCount int    `json:"operationCount"`
}

// Commit prepares the staged operations under message. Nothing executes.
// Each new order gets a client order id derived from the hash so brokers
// that support it can refuse duplicates.
func (g *Git) Commit(message string) (Prepared, error) {
	message = strings.TrimSpace(message)
	if err := ValidateMessage(message); err != nil {
		if errors.Is(err, ErrBadMessage) {
			err = fmt.Errorf("commit message: %w", err)
		}
		return Prepared{}, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.frozenLocked(); err != nil {
		return Prepared{}, err
	}
	if len(g.f.Staged) == 0 {
		return Prepared{}, ErrNothingStaged
	}
	now := g.deps.Now().UTC()
	h := hashOf(struct {
		Message    string      `json:"message"`
		Operations []Operation `json:"operations"`
		Timestamp  time.Time   `json:"timestamp"`
		ParentHash *string     `json:"parentHash"`
	}{message, g.f.Staged, now, g.f.Head})
	ops := make([]Operation, len(g.f.Staged))
	for i, op := range g.f.Staged {
		if op.Order != nil {
			o := *op.Order
			o.ClientOrderID = fmt.Sprintf("alice-%s-%d", h, i)
			o.OCAGroup = trading.CommitOCAGroup(h, o.OCAGroup) // only this commit's orders share it
			op.Order = &o
		}
		ops[i] = op
	}
	old := g.f.Pending
	g.f.Pending = &Pending{Hash: h, Message: message, Timestamp: now, Operations: ops}
	if err := g.saveWork(); err != nil {
		g.f.Pending = old
		return Prepared{}, err
	}
	return Prepared{Prepared: true, Hash: h, Message: message, OperationCount: len(ops)}, nil
}

// dispatch runs one operation, turning a panic into a rejected result so
// a buggy broker cannot wedge the history in "pushing".
func (g *Git) dispatch(ctx context.Context, op Operation) (r Result) {
	defer func() {
		if p := recover(); p != nil {
			g.deps.Logger.Error("trading git: dispatch panicked", "action", op.Action, "panic", p)
			r = Result{Status: StatusRejected, Error: fmt.Sprintf("internal error: %v", p)}
		}
	}()
	return g.deps.Dispatch(ctx, op)
}

func (g *Git) stateAfter(ctx context.Context) *State {
	if g.deps.State == nil {
		return nil
	}
	st, err := g.deps.State(ctx, g.pendingOrdersLocked())
	if err != nil {
		g.deps.Logger.Warn("trading git: stateAfter", "err", err)
		return nil
	}
	return &st
}
