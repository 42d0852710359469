package uta

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"
	"github.com/alice-trading/alice/trading/snapshot"
)

// ApprovalNote is what tradingPush says when a human must approve.
const ApprovalNote = "requires human approval in the alice UI (Portfolio pane) or Telegram /trading — pending; " +
	"until a person decides, staging and committing on this account are refused (tradingReject withdraws the commit)"

// ApprovalAgainNote is what tradingPush says for a commit already waiting.
const ApprovalAgainNote = "already waiting for a person's approval since it was first pushed; they were not asked again — " +
	"wait for their decision (tradingLog / tradingStatus show it) or withdraw it with tradingReject"

// CommitOutcome is one account's tradingCommit result.
type CommitOutcome struct {
	AccountID string `json:"accountId"`
	git.Prepared
	AutoApprove bool `json:"autoApprove"`
}

// Commit prepares staged operations. With an empty source every account
// that has staged operations commits; an account with nothing staged, or
// frozen by a push awaiting a person, is an error only when named
// explicitly (or when no account could commit).
func (m *Manager) Commit(source, message string) ([]CommitOutcome, error) {
	utas, err := m.Resolve(source)
	if err != nil {
		return nil, err
	}
	var out []CommitOutcome
	var frozen error
	for _, u := range utas {
		st := u.git.Status()
		if source == "" && len(st.Staged) == 0 {
			continue
		}
		if source == "" && st.AwaitingApproval {
			frozen = fmt.Errorf("account %s: %w", u.ID(), &git.AwaitingError{Hash: st.PendingHash, Message: st.PendingMessage})
			continue
		}
		p, err := u.git.Commit(message)
		if err != nil {
			return out, err
		}
		out = append(out, CommitOutcome{AccountID: u.ID(), Prepared: p, AutoApprove: u.AutoApprove()})
		m.publish(trading.Event{Type: trading.EventCommitPrepared, AccountID: u.ID(), Hash: p.Hash, Time: m.now(), Data: p}, true)
	}
	if len(out) == 0 {
		if frozen != nil {
			return nil, frozen
		}
		return nil, git.ErrNothingStaged
	}
	return out, nil
}

// PendingApproval is a prepared commit waiting for a human.
type PendingApproval struct {
	AccountID   string          `json:"accountId"`
	Label       string          `json:"label"`
	AutoApprove bool            `json:"autoApprove"`
	Hash        string          `json:"hash"`
	Message     string          `json:"message"`
	Timestamp   time.Time       `json:"timestamp"`
	Operations  []git.Operation `json:"operations"`
	// AwaitingApproval: a push was requested; the staging area is frozen.
	AwaitingApproval bool `json:"awaitingApproval"`
	// AlreadyRequested: this push asked again for a commit that was
	// already waiting; the people were not notified a second time.
	AlreadyRequested bool `json:"alreadyRequested,omitempty"`
}

// Pending lists every prepared commit across accounts.
func (m *Manager) Pending() []PendingApproval {
	utas, err := m.Resolve("")
	if err != nil {
		return nil
	}
	var out []PendingApproval
	for _, u := range utas {
		if p := u.git.PendingCommit(); p != nil {
			out = append(out, PendingApproval{AccountID: u.ID(), Label: u.Label(), AutoApprove: u.AutoApprove(),
				Hash: p.Hash, Message: p.Message, Timestamp: p.Timestamp, Operations: p.Operations, AwaitingApproval: p.AwaitingApproval})
		}
	}
	return out
}

// RequestApproval freezes the account's prepared commit until a person
// decides and announces it to the people (the approval-requested event),
// once: asking again for a commit already waiting returns it with
// AlreadyRequested set and announces nothing. It is what the tradingPush
// tool does for accounts without auto-approve.
func (m *Manager) RequestApproval(accountID string) (PendingApproval, error) {
	u, err := m.Get(accountID)
	if err != nil {
		return PendingApproval{}, err
	}
	p, fresh, err := u.git.RequestApproval()
	if err != nil {
		return PendingApproval{}, err
	}
	pa := PendingApproval{AccountID: u.ID(), Label: u.Label(), Hash: p.Hash, Message: p.Message, Timestamp: p.Timestamp,
		Operations: p.Operations, AwaitingApproval: true, AlreadyRequested: !fresh}
	if fresh {
		m.publish(trading.Event{Type: trading.EventApprovalRequest, AccountID: u.ID(), Hash: p.Hash, Time: m.now(), Data: pa}, true)
	}
	return pa, nil
}

// Push executes an account's prepared commit if its hash is still hash —
// the one the person approving was shown (or that autoApprove read). A
// changed commit is refused (git.ErrStale) and nothing executes. A
// disabled or offline account refuses.
func (m *Manager) Push(ctx context.Context, accountID, hash string) (git.PushResult, error) {
	u, err := m.Get(accountID)
	if err != nil {
		return git.PushResult{}, err
	}
	if h, msg := u.Health(); h == Offline {
		if err := u.broker.Init(ctx); err != nil {
			return git.PushResult{}, errors.New("account is offline: " + msg)
		}
		u.observe(nil)
	}
	res, _, err := u.git.Push(ctx, hash)
	if err != nil {
		return res, err
	}
	m.publish(trading.Event{Type: trading.EventPushed, AccountID: u.ID(), Hash: res.Hash, Time: m.now(), Data: res}, true)
	if c, ok := u.git.Show(res.Hash); ok && len(res.Submitted) > 0 && hasBracket(c) {
		// The take-profit and stop-loss legs the broker opened are
		// recorded now, as this order's own ("[bracket]"), not at the next
		// poll for external orders (minutes later, and as external).
		_, _ = m.ObserveExternal(ctx, u.ID())
	}
	m.snapshot(ctx, u, snapshot.PostPush)
	return res, nil
}

// hasBracket reports whether a commit placed an order with take-profit or
// stop-loss legs.
func hasBracket(c git.Commit) bool {
	for _, op := range c.Operations {
		if op.TPSL != nil && (op.TPSL.TakeProfit != nil || op.TPSL.StopLoss != nil) {
			return true
		}
	}
	return false
}

// Reject discards an account's prepared commit with hash, recording why.
func (m *Manager) Reject(ctx context.Context, accountID, hash, reason string) (git.Commit, error) {
	u, err := m.Get(accountID)
	if err != nil {
		return git.Commit{}, err
	}
	c, err := u.git.Reject(ctx, hash, reason)
	if err != nil {
		return c, err
	}
	m.publish(trading.Event{Type: trading.EventRejected, AccountID: u.ID(), Hash: c.Hash, Time: m.now(),
		Data: map[string]any{"message": c.Message, "reason": reason}}, true)
	m.snapshot(ctx, u, snapshot.PostReject)
	return c, nil
}

// AccountLogEntry is a log entry tagged with its account.
type AccountLogEntry struct {
	AccountID string `json:"accountId"`
	git.LogEntry
}

// Log merges "git log" across the matching accounts, newest first.
func (m *Manager) Log(source string, limit int, symbol string) ([]AccountLogEntry, error) {
	utas, err := m.Resolve(source)
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = 10
	}
	out := []AccountLogEntry{}
	for _, u := range utas {
		for _, e := range u.git.Log(limit, symbol) {
			out = append(out, AccountLogEntry{AccountID: u.ID(), LogEntry: e})
		}
	}
	sortByTime(out)
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// AccountCommit is a commit tagged with its account.
type AccountCommit struct {
	AccountID string `json:"accountId"`
	git.Commit
}

// Show finds a commit by hash (prefix) in the accounts source matches
// ("" = all), resolved the same way as every other trading tool's source.
func (m *Manager) Show(source, hash string) (AccountCommit, bool, error) {
	utas, err := m.Resolve(source)
	if err != nil {
		return AccountCommit{}, false, err
	}
	for _, u := range utas {
		if c, ok := u.git.Show(hash); ok {
			return AccountCommit{AccountID: u.ID(), Commit: c}, true, nil
		}
	}
	return AccountCommit{}, false, nil
}

// AccountSync is one account's sync result.
type AccountSync struct {
	AccountID string `json:"accountId"`
	git.SyncResult
}

// Sync pulls order statuses for the matching accounts.
func (m *Manager) Sync(ctx context.Context, source string, delay time.Duration) ([]AccountSync, error) {
	utas, err := m.Resolve(source)
	if err != nil {
		return nil, err
	}
	if delay > 0 {
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	out := []AccountSync{}
	for _, u := range utas {
		r, err := u.git.Sync(ctx, 0)
		if err != nil {
			return out, err
		}
		if r.UpdatedCount > 0 {
			m.publish(trading.Event{Type: trading.EventSynced, AccountID: u.ID(), Hash: r.Hash, Time: m.now(), Data: r}, false)
		}
		out = append(out, AccountSync{AccountID: u.ID(), SyncResult: r})
	}
	return out, nil
}

// Account, Positions and Orders are convenience reads for the UI.
func (m *Manager) Account(ctx context.Context, id string) (trading.AccountInfo, error) {
	u, err := m.Get(id)
	if err != nil {
		return trading.AccountInfo{}, err
	}
	return u.Account(ctx)
}

// Positions reads one account's positions.
func (m *Manager) Positions(ctx context.Context, id string) ([]trading.Position, error) {
	u, err := m.Get(id)
	if err != nil {
		return nil, err
	}
	return u.Positions(ctx)
}

// Orders reads one account's orders (pending ones from history by default).
func (m *Manager) Orders(ctx context.Context, id string, ids []string) ([]trading.OpenOrder, error) {
	u, err := m.Get(id)
	if err != nil {
		return nil, err
	}
	return u.Orders(ctx, ids)
}
