package git

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrAwaitingApproval matches (errors.Is) every *AwaitingError.
var ErrAwaitingApproval = errors.New("a commit is waiting for a person's approval")

// AwaitingError refuses changes to the staging area while a push waits for
// a person: what they are looking at must stay exactly what would execute.
type AwaitingError struct {
	Hash    string
	Message string
}

func (e *AwaitingError) Error() string {
	return fmt.Sprintf("commit %s (%q) is waiting for a person's approval, so staging and committing are frozen until it is decided: "+
		"a person approves or rejects it in the alice Portfolio pane or with Telegram /trading, "+
		"or you withdraw it with tradingReject {source, hash: %q}", e.Hash, e.Message, e.Hash)
}

// Is makes errors.Is(err, ErrAwaitingApproval) true.
func (e *AwaitingError) Is(target error) bool { return target == ErrAwaitingApproval }

// ErrStale matches (errors.Is) every *StaleError.
var ErrStale = errors.New("the commit changed since it was shown")

// StaleError refuses a decision about a commit that is no longer the
// prepared one: nothing executes that the decider did not see.
type StaleError struct {
	Want string // the hash the decider was shown
	Have string // the prepared commit now ("" when there is none)
}

func (e *StaleError) Error() string {
	if e.Have == "" {
		return fmt.Sprintf("commit %s is no longer waiting (it was already decided or voided); nothing was executed", e.Want)
	}
	return fmt.Sprintf("commit %s is no longer the prepared commit (now %s); nothing was executed — review %s and decide on it", e.Want, e.Have, e.Have)
}

// Is makes errors.Is(err, ErrStale) true.
func (e *StaleError) Is(target error) bool { return target == ErrStale }

// frozenLocked refuses while a push awaits a person, and after Close.
func (g *Git) frozenLocked() error {
	if g.closed {
		return ErrClosed
	}
	if p := g.f.Pending; p != nil && p.AwaitingApproval {
		return &AwaitingError{Hash: p.Hash, Message: p.Message}
	}
	return nil
}

// Frozen is the error staging gets while a push awaits a person (or
// after Close); nil when staging is open.
func (g *Git) Frozen() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.frozenLocked()
}

// pendingLocked returns the prepared commit if it is the one with hash.
func (g *Git) pendingLocked(hash string) (*Pending, error) {
	if g.closed {
		return nil, ErrClosed
	}
	hash = strings.ToLower(strings.TrimSpace(hash))
	p := g.f.Pending
	if p == nil {
		if hash == "" {
			if len(g.f.Staged) > 0 {
				return nil, ErrUncommitted
			}
			return nil, ErrNoPending
		}
		return nil, &StaleError{Want: hash}
	}
	if hash == "" {
		return nil, fmt.Errorf("the commit hash is required (the prepared commit is %s)", p.Hash)
	}
	if p.Hash != hash {
		return nil, &StaleError{Want: hash, Have: p.Hash}
	}
	return p, nil
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

// RequestApproval marks the prepared commit as waiting for a person and
// freezes the staging area until Push or Reject. Asking again returns the
// same commit with fresh false: the person was already asked, and is not
// asked again (a retrying agent must not flood their phone).
func (g *Git) RequestApproval() (p Pending, fresh bool, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return Pending{}, false, ErrClosed
	}
	if g.f.Pending == nil {
		if len(g.f.Staged) > 0 {
			return Pending{}, false, ErrUncommitted
		}
		return Pending{}, false, ErrNoPending
	}
	if !g.f.Pending.AwaitingApproval {
		g.f.Pending.AwaitingApproval = true
		if err := g.saveWork(); err != nil {
			g.f.Pending.AwaitingApproval = false
			return Pending{}, false, err
		}
		fresh = true
	}
	p = *g.f.Pending
	p.Operations = append([]Operation(nil), p.Operations...)
	return p, fresh, nil
}

// Push executes the prepared commit whose hash the decider was shown (a
// person's approval, or autoApprove). Each operation's result is
// checkpointed to disk before the next runs.
func (g *Git) Push(ctx context.Context, hash string) (PushResult, Commit, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	pend, err := g.pendingLocked(hash)
	if err != nil {
		return PushResult{}, Commit{}, err
	}
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

// Reject records the prepared commit with hash as rejected; nothing
// executes and the staging area is cleared (a rejected commit held every
// staged operation).
func (g *Git) Reject(ctx context.Context, hash, reason string) (Commit, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	pend, err := g.pendingLocked(hash)
	if err != nil {
		return Commit{}, err
	}
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
	prev := g.f // memory and disk must agree: undo if the save fails
	c = g.appendLocked(c)
	c.StateAfter = g.stateAfter(ctx)
	g.f.Commits[len(g.f.Commits)-1] = c
	g.f.Staged, g.f.Pending = nil, nil
	if err := g.save(); err != nil {
		g.f = prev
		return Commit{}, err
	}
	return c, nil
}

// reconcile asks the broker about an operation a crash interrupted.
func (g *Git) reconcile(op Operation) (Result, bool) {
	if g.deps.Reconcile == nil || op.Order == nil || op.Order.ClientOrderID == "" {
		return Result{}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, ok := g.deps.Reconcile(ctx, op)
	if !ok {
		return Result{}, false
	}
	r.Action, r.Symbol = op.Action, op.Symbol()
	g.deps.Logger.Info("trading git: reconciled interrupted operation", "clientOrderId", op.Order.ClientOrderID, "orderId", r.OrderID)
	return r, true
}
