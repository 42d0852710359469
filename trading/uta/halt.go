package uta

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"
)

// HaltFile is the kill switch's record under data/trading/ (account ids
// never contain a dot, so it cannot be an account's directory).
const HaltFile = "halt.json"

// HaltState is the kill switch: while it is on, no account stages
// anything. Only a person lifts it (Resume).
type HaltState struct {
	Halted bool      `json:"halted"`
	At     time.Time `json:"at"`
	By     string    `json:"by"`
	Reason string    `json:"reason,omitempty"`
}

// ErrHalted is wrapped by every refusal while the kill switch is on.
var ErrHalted = errors.New("trading is halted")

// ErrAITradingOff is wrapped by refusals of agents' staging while
// agent.json aiTrading is false.
var ErrAITradingOff = errors.New("AI trading is off")

func (m *Manager) haltPath() string { return m.paths.DataPath("trading", HaltFile) }

// Halted reads the kill switch (the file is the truth, so `alice halt`
// from another process and a restart both see it).
func (m *Manager) Halted() (HaltState, error) {
	var st HaltState
	b, err := os.ReadFile(m.haltPath())
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return HaltState{Halted: true, Reason: "cannot read " + m.haltPath() + ": " + err.Error()}, nil
	}
	if err := json.Unmarshal(b, &st); err != nil {
		// a damaged record keeps trading halted: fail closed
		return HaltState{Halted: true, Reason: "damaged " + m.haltPath()}, nil
	}
	return st, nil
}

// stageGate is every account's staging gate: the kill switch, then the
// AI-trading switch for calls a person did not make directly.
func (m *Manager) stageGate(ctx context.Context) error {
	if st, _ := m.Halted(); st.Halted {
		return fmt.Errorf("%w since %s by %s%s: no account stages anything until a person resumes (alice resume)",
			ErrHalted, st.At.UTC().Format(time.RFC3339), st.By, reasonSuffix(st.Reason))
	}
	if c, _ := core.CallerFrom(ctx); !c.Person {
		a, err := m.store.Agent()
		if err != nil {
			return fmt.Errorf("%w: agent.json cannot be read (%v), so agents may not stage orders", ErrAITradingOff, err)
		}
		if !a.AITrading {
			return fmt.Errorf("%w (agent.json aiTrading: false): tools called by an agent cannot stage orders; a person can still trade from the alice UI or Telegram", ErrAITradingOff)
		}
	}
	return nil
}

func reasonSuffix(r string) string {
	if r == "" {
		return ""
	}
	return " (" + r + ")"
}

// HaltReport is what the kill switch did on each account.
type HaltReport struct {
	State     HaltState         `json:"state"`
	Withdrawn []string          `json:"withdrawn,omitempty"` // commits that waited for approval
	Cancelled map[string]int    `json:"cancelled"`           // resting orders cancelled per account
	Errors    map[string]string `json:"errors,omitempty"`
}

// Halt is the kill switch: it freezes staging on every account first,
// then on each account withdraws a commit waiting for approval, and
// cancels every resting order through the account's own history (a
// commit "kill switch", pushed at once: a person asked for it). It is
// recorded in the event log. Calling it again while halted re-runs the
// cancellation and keeps the first record.
func (m *Manager) Halt(ctx context.Context, by, reason string) (HaltReport, error) {
	by = strings.TrimSpace(by)
	if by == "" {
		return HaltReport{}, errors.New("halt: say who halts (a person)")
	}
	st, _ := m.Halted()
	if !st.Halted {
		st = HaltState{Halted: true, At: m.now().UTC(), By: by, Reason: strings.TrimSpace(reason)}
		b, _ := json.MarshalIndent(st, "", "  ")
		if err := os.MkdirAll(m.paths.DataPath("trading"), 0o700); err != nil {
			return HaltReport{}, err
		}
		if err := config.WriteFileAtomic(m.haltPath(), append(b, '\n'), 0o600); err != nil {
			return HaltReport{}, fmt.Errorf("halt: %w", err)
		}
	}
	rep := HaltReport{State: st, Cancelled: map[string]int{}, Errors: map[string]string{}}
	utas, _ := m.Resolve("")
	for _, u := range utas {
		n, withdrawn, err := u.cancelResting(ctx, "kill switch: "+by)
		rep.Cancelled[u.ID()] = n
		if withdrawn != "" {
			rep.Withdrawn = append(rep.Withdrawn, u.ID()+" "+withdrawn)
		}
		if err != nil {
			rep.Errors[u.ID()] = err.Error()
		}
	}
	m.publish(trading.Event{Type: trading.EventHalted, Time: m.now(), Data: rep}, true)
	return rep, nil
}

// Resume lifts the kill switch; only a person calls it.
func (m *Manager) Resume(by string) (HaltState, error) {
	by = strings.TrimSpace(by)
	if by == "" {
		return HaltState{}, errors.New("resume: say who resumes (a person)")
	}
	st, _ := m.Halted()
	if !st.Halted {
		return st, errors.New("trading is not halted")
	}
	if err := os.Remove(m.haltPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return st, fmt.Errorf("resume: %w", err)
	}
	m.publish(trading.Event{Type: trading.EventResumed, Time: m.now(), Data: map[string]any{"by": by, "haltedAt": st.At, "haltedBy": st.By}}, true)
	return HaltState{}, nil
}

// cancelResting withdraws a commit awaiting approval and cancels every
// resting order the history knows, as one pushed commit.
func (u *UTA) cancelResting(ctx context.Context, who string) (int, string, error) {
	withdrawn := ""
	if p := u.git.PendingCommit(); p != nil {
		if _, err := u.git.Reject(ctx, p.Hash, "withdrawn by the "+who); err != nil {
			return 0, "", err
		}
		withdrawn = p.Hash
	}
	orders, err := u.Orders(ctx, nil)
	if err != nil {
		return 0, withdrawn, err
	}
	if st := u.git.Status(); len(st.Staged) > 0 {
		// staged work is part of what the halt stops: the cancels must not
		// carry it into the commit
		if err := u.git.Unstage(); err != nil {
			return 0, withdrawn, err
		}
	}
	n := 0
	for _, o := range orders {
		if !o.Status.Pending() {
			continue
		}
		if _, err := u.git.Stage(git.Operation{Action: git.CancelOrder, OrderID: o.Order.OrderID, SymbolHint: o.Contract.Symbol,
			StagedBy: &git.Provenance{Agent: who, Person: true}}); err != nil {
			return n, withdrawn, err
		}
		n++
	}
	if n == 0 {
		return 0, withdrawn, nil
	}
	p, err := u.git.Commit(who + ": cancel every resting order")
	if err != nil {
		return 0, withdrawn, err
	}
	res, _, err := u.git.Push(ctx, p.Hash)
	if err != nil {
		return 0, withdrawn, err
	}
	if len(res.Rejected) > 0 {
		return len(res.Submitted), withdrawn, fmt.Errorf("%d cancel(s) failed: %s", len(res.Rejected), res.Rejected[0].Error)
	}
	return n, withdrawn, nil
}
