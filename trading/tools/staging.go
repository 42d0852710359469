package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"
	"github.com/alice-trading/alice/trading/uta"
)

// oneFor resolves the account of a contract operation: source when given,
// else the account inside aliceId (OpenAlice makes source optional there).
func (h *handlers) oneFor(source, aliceID string) (*uta.UTA, error) {
	if strings.TrimSpace(source) == "" {
		acct, _, err := trading.SplitAliceID(aliceID)
		if err != nil {
			return nil, err
		}
		source = acct
	}
	return h.one(source)
}

// provenance is who is staging, from the caller the agent pipeline or the
// MCP listener put in ctx; nil when unknown.
func provenance(ctx context.Context) *git.Provenance {
	c, ok := core.CallerFrom(ctx)
	if !ok || c == (core.Caller{}) {
		return nil
	}
	return &git.Provenance{Session: c.Session, Channel: c.Channel, Agent: c.Agent, Person: c.Person}
}

// stageReply is what the staging tools return: the stage result, the
// account, and — with commitMessage — the commit it went into.
type stageReply struct {
	Source string `json:"source"`
	git.StageResult
	Committed *committed `json:"committed,omitempty"`
	NextStep  string     `json:"nextStep,omitempty"`
}

type committed struct {
	Hash    string `json:"hash"`
	Message string `json:"message"`
}

// stage records who staged op, stages it and, when commitMessage is set,
// commits the account's staging area in the same call (OpenAlice's
// stage-and-commit). Nothing executes: a push is still required.
func (h *handlers) stage(ctx context.Context, u *uta.UTA, op git.Operation, commitMessage string) (any, error) {
	// the message is checked before anything is staged, so a refused
	// message leaves the staging area as it was
	if strings.TrimSpace(commitMessage) != "" {
		if err := git.ValidateMessage(commitMessage); err != nil {
			return nil, fmt.Errorf("commitMessage: %w", err)
		}
	}
	op.StagedBy = provenance(ctx)
	res, err := u.Stage(ctx, op)
	if err != nil {
		return nil, err
	}
	out := stageReply{Source: u.ID(), StageResult: res}
	if strings.TrimSpace(commitMessage) == "" {
		return out, nil
	}
	cs, err := h.m.Commit(u.ID(), commitMessage)
	if err != nil {
		return nil, fmt.Errorf("staged as operation %d of %d but not committed: %w", res.Index+1, res.StagedCount, err)
	}
	c := cs[0]
	out.Committed = &committed{Hash: c.Hash, Message: c.Message}
	out.NextStep = "Committed " + c.Hash + ": call tradingPush to execute"
	if !c.AutoApprove {
		out.NextStep += " — this account waits for a person's approval (alice Portfolio pane or Telegram /trading)"
	}
	return out, nil
}
