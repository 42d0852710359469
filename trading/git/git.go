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
	// Now is the clock (time.Now when nil).
	Now    func() time.Time
	Logger *slog.Logger
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
)

// Git is one account's history. It is safe for concurrent use; pushes are
// serialised.
type Git struct {
	mu      sync.Mutex
	path    string
	deps    Deps
	f       file
	pushing *progress
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
		if err := readJSON(path, &g.f.history); err != nil {
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
	Note      string    `json:"note,omitempty"`
}

// Stage adds an operation. Staging after a commit voids the prepared
// commit (its hash no longer covers the staging area) and says so.
func (g *Git) Stage(op Operation) (StageResult, error) {
	if err := op.Validate(); err != nil {
		return StageResult{}, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	res := StageResult{Staged: true, Index: len(g.f.Staged), Operation: op}
	if g.f.Pending != nil {
		res.Note = fmt.Sprintf("pending commit %s was voided; run tradingCommit again", g.f.Pending.Hash)
		g.f.Pending = nil
	}
	g.f.Staged = append(g.f.Staged, op)
	if err := g.saveWork(); err != nil {
		g.f.Staged = g.f.Staged[:len(g.f.Staged)-1]
		return StageResult{}, err
	}
	return res, nil
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
	if message == "" {
		return Prepared{}, errors.New("commit message is required")
	}
	g.mu.Lock()
	defer g.mu.Unlock()
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

// PendingCommit returns the prepared commit, if any.
func (g *Git) PendingCommit() *Pending {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.f.Pending == nil {
		return nil
	}
	p := *g.f.Pending
	p.Operations = append([]Operation(nil), p.Operations...)
	return &p
}

// Push executes the prepared commit. Each operation's result is
// checkpointed to disk before the next runs.
func (g *Git) Push(ctx context.Context) (PushResult, Commit, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.f.Pending == nil {
		if len(g.f.Staged) > 0 {
			return PushResult{}, Commit{}, ErrUncommitted
		}
		return PushResult{}, Commit{}, ErrNoPending
	}
	pend := g.f.Pending
	g.pushing = &progress{Hash: pend.Hash, Results: []Result{}}
	defer func() { g.pushing = nil }()
	if err := g.saveProgress(); err != nil {
		return PushResult{}, Commit{}, err
	}
	for _, op := range pend.Operations {
		r := g.dispatch(ctx, op)
		r.Action, r.Symbol = op.Action, op.Symbol()
		g.pushing.Results = append(g.pushing.Results, r)
		if err := g.saveProgress(); err != nil {
			g.deps.Logger.Error("trading git: checkpoint push", "hash", pend.Hash, "err", err)
		}
	}
	c := Commit{Hash: pend.Hash, Message: pend.Message, Operations: pend.Operations,
		Results: g.pushing.Results, Timestamp: g.deps.Now().UTC()}
	c = g.appendLocked(c)
	c.StateAfter = g.stateAfter(ctx)
	g.f.Commits[len(g.f.Commits)-1] = c
	g.f.Staged, g.f.Pending = nil, nil
	if err := g.save(); err != nil {
		return PushResult{}, c, fmt.Errorf("push executed but history not saved: %w", err)
	}
	g.clearProgress()
	res := PushResult{Hash: c.Hash, Message: c.Message, OperationCount: len(c.Operations), Submitted: []Result{}, Rejected: []Result{}}
	for _, r := range c.Results {
		if r.Success {
			res.Submitted = append(res.Submitted, r)
		} else {
			res.Rejected = append(res.Rejected, r)
		}
	}
	return res, c, nil
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

// Reject records the prepared commit as rejected by the user; nothing
// executes and the staging area is cleared.
func (g *Git) Reject(ctx context.Context, reason string) (Commit, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.f.Pending == nil {
		if len(g.f.Staged) > 0 {
			return Commit{}, ErrUncommitted
		}
		return Commit{}, ErrNoPending
	}
	pend := g.f.Pending
	msg := "[rejected] " + pend.Message
	errText := "Rejected by user"
	if r := strings.TrimSpace(reason); r != "" {
		msg += " — " + r
		errText = r
	}
	c := Commit{Hash: pend.Hash, Message: msg, Operations: pend.Operations, Timestamp: g.deps.Now().UTC()}
	for _, op := range pend.Operations {
		c.Results = append(c.Results, Result{Action: op.Action, Status: StatusUserRejected, Error: errText, Symbol: op.Symbol()})
	}
	c = g.appendLocked(c)
	c.StateAfter = g.stateAfter(ctx)
	g.f.Commits[len(g.f.Commits)-1] = c
	g.f.Staged, g.f.Pending = nil, nil
	return c, g.save()
}
