package app

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/agent"
)

// SessionCost is one row of sessionCosts: what an agent session spent on
// its model (tokens, dollars at list price) next to what the trades it
// staged did (fills, realised P&L per account, in that account's currency).
type SessionCost struct {
	Session       string          `json:"session"`
	Turns         int             `json:"turns"`
	InputTokens   int64           `json:"inputTokens"`
	OutputTokens  int64           `json:"outputTokens"`
	CostUSD       decimal.Decimal `json:"costUsd"`
	UnpricedTurns int             `json:"unpricedTurns,omitempty"`
	// UnreportedTurns ran on a backend that reports no token usage (mock
	// LLM, CLI backends): their tokens and cost are unknown, not zero.
	UnreportedTurns int          `json:"unreportedTurns,omitempty"`
	Models          []string     `json:"models"`
	Fills           int          `json:"fills"`
	RealizedPnL     []AccountPnL `json:"realizedPnL"`
}

// AccountPnL is a session's realised P&L on one account.
type AccountPnL struct {
	Account  string          `json:"account"`
	Currency string          `json:"currency,omitempty"`
	Fills    int             `json:"fills"`
	Realized decimal.Decimal `json:"realized"`
}

// SessionCosts joins the usage log with the trading history by session id.
// Sessions that only traded (an MCP client, orders placed outside alice:
// "external") appear with zero tokens.
func (a *App) SessionCosts(ctx context.Context, source string) ([]SessionCost, error) {
	var usage []agent.SessionUsage
	if u := a.agent.Usage(); u != nil {
		var err error
		if usage, err = u.Sessions(); err != nil {
			return nil, err
		}
	}
	by := map[string]*SessionCost{}
	row := func(id string) *SessionCost {
		if by[id] == nil {
			by[id] = &SessionCost{Session: id, Models: []string{}, RealizedPnL: []AccountPnL{}}
		}
		return by[id]
	}
	for _, u := range usage {
		r := row(u.SessionID)
		r.Turns, r.InputTokens, r.OutputTokens, r.CostUSD, r.UnpricedTurns = u.Turns, u.InputTokens, u.OutputTokens, u.CostUSD, u.UnpricedTurns
		r.UnreportedTurns = u.UnreportedTurns
		if u.Models != nil {
			r.Models = u.Models
		}
	}
	pnl, err := a.trading.SessionPnL(ctx, source)
	if err != nil {
		return nil, err
	}
	for _, p := range pnl {
		r := row(p.Session)
		r.Fills += p.Fills
		r.RealizedPnL = append(r.RealizedPnL, AccountPnL{Account: p.Account, Currency: p.Currency, Fills: p.Fills, Realized: p.RealizedPnL})
	}
	out := make([]SessionCost, 0, len(by))
	for _, r := range by {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Session < out[j].Session })
	return out, nil
}

// registerCostTools adds sessionCosts.
func (a *App) registerCostTools() {
	a.tools.Register(core.Tool{
		Name:  "sessionCosts",
		Group: "session",
		Description: "Per agent session: model turns, tokens in/out and their cost in US dollars at the model's list price (unpricedTurns for models without a known price; unreportedTurns for backends that report no token usage, whose tokens and cost are unknown), " +
			"next to the fills that session's staged orders produced and the realised P&L of the lots it opened (per account, first in first out). " +
			"Orders placed outside alice show as session \"external\".",
		InputSchema: core.Schema(`{"type":"object","properties":{
			"source":{"type":"string","description":"Account id or provider to limit the trading side to; omit for all"},
			"session":{"type":"string","description":"Only this session id"}}}`),
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			var in struct {
				Source  string `json:"source"`
				Session string `json:"session"`
			}
			if err := core.DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			rows, err := a.SessionCosts(ctx, in.Source)
			if err != nil {
				return nil, err
			}
			if s := strings.TrimSpace(in.Session); s != "" {
				for _, r := range rows {
					if r.Session == s {
						return r, nil
					}
				}
				return nil, errors.New("no usage or trades recorded for session " + s + " (see listSessions)")
			}
			return rows, nil
		},
	})
}
