package uta

import (
	"context"
	"fmt"
	"strings"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"
	"github.com/alice-trading/alice/trading/guard"

	"github.com/shopspring/decimal"
)

// OpEvidence is what a person needs to judge one operation before
// approving it: what it is, what it would cost at the current quote, the
// position and cash after it, every guard's verdict with its headroom,
// the time in force and who staged it. Built once here; every surface
// (tradingShow, Telegram, the approval dialog) renders it.
type OpEvidence struct {
	Describe       string          `json:"describe"`
	Symbol         string          `json:"symbol"`
	TIF            trading.TIF     `json:"tif,omitempty"`
	StagedBy       string          `json:"stagedBy"`
	Bid            decimal.Decimal `json:"bid,omitzero"`
	Ask            decimal.Decimal `json:"ask,omitzero"`
	Notional       decimal.Decimal `json:"notional,omitzero"`
	PositionBefore decimal.Decimal `json:"positionBefore"`
	PositionAfter  decimal.Decimal `json:"positionAfter"`
	CashBefore     decimal.Decimal `json:"cashBefore"`
	CashAfter      decimal.Decimal `json:"cashAfter"`
	Currency       string          `json:"currency,omitempty"`
	Verdicts       []guard.Verdict `json:"verdicts"`
	// Problem says why part of the evidence could not be built.
	Problem string `json:"problem,omitempty"`
}

// Evidence is the evidence for one pending commit.
type Evidence struct {
	AccountID string       `json:"accountId"`
	Hash      string       `json:"hash"`
	Message   string       `json:"message"`
	Ops       []OpEvidence `json:"operations"`
}

// stagedBy names who staged an operation for people.
func stagedBy(p *git.Provenance) string {
	switch {
	case p == nil:
		return "unknown"
	case p.Person && p.Agent != "":
		return p.Agent
	case p.Person:
		return "a person"
	}
	var parts []string
	if p.Agent != "" {
		parts = append(parts, p.Agent)
	}
	if p.Session != "" {
		parts = append(parts, "session "+p.Session)
	}
	if p.Channel != "" {
		parts = append(parts, "via "+p.Channel)
	}
	if len(parts) == 0 {
		return "unknown"
	}
	return strings.Join(parts, ", ")
}

// Evidence builds the evidence for an account's pending commit (hash ""
// = whatever is pending). Operations are judged in order against the
// account as the earlier ones would leave it (positions and cash); quotes
// and guard verdicts are read now, without side effects.
func (m *Manager) Evidence(ctx context.Context, accountID, hash string) (Evidence, error) {
	u, err := m.Get(accountID)
	if err != nil {
		return Evidence{}, err
	}
	p := u.git.PendingCommit()
	if p == nil || (hash != "" && !strings.HasPrefix(p.Hash, hash)) {
		return Evidence{}, fmt.Errorf("account %s has no pending commit %s", accountID, hash)
	}
	ev := Evidence{AccountID: u.ID(), Hash: p.Hash, Message: p.Message}
	acct, aerr := u.Account(ctx)
	pos, perr := u.Positions(ctx)
	cash := acct.TotalCashValue
	for _, op := range p.Operations {
		oe := OpEvidence{Describe: op.Describe(), Symbol: op.Symbol(), StagedBy: stagedBy(op.StagedBy), Currency: acct.BaseCurrency}
		switch {
		case aerr != nil:
			oe.Problem = "account unreadable: " + aerr.Error()
		case perr != nil:
			oe.Problem = "positions unreadable: " + perr.Error()
		}
		held := decimal.Zero
		for _, ps := range pos {
			if strings.EqualFold(ps.Contract.Symbol, oe.Symbol) {
				held = ps.Quantity
				if ps.Side == trading.Short {
					held = held.Neg()
				}
			}
		}
		oe.PositionBefore, oe.PositionAfter, oe.CashBefore, oe.CashAfter = held, held, cash, cash
		gc := guard.Context{Op: op, Positions: pos, Account: acct, Now: m.now(), Quote: u.quote}
		switch op.Action {
		case git.ModifyOrder:
			if g, err := u.guardContext(ctx, op); err == nil {
				gc = g
			}
		case git.ClosePosition:
			if o, ok := closeOrder(pos, op); ok && op.Contract != nil {
				c := *op.Contract
				gc.Order, gc.Contract = &o, &c
			}
		}
		if gc.DayStartEquity.IsZero() && u.guards.Has("daily-loss") {
			gc.DayStartEquity, gc.DayStartAt = u.dayStartEquity()
		}
		if gc.Resting == nil && u.guards.Has("max-position-size") {
			if r, err := u.resting(ctx, op); err == nil {
				gc.Resting = r
			} else if oe.Problem == "" {
				oe.Problem = "resting orders unreadable: " + err.Error()
			}
		}
		if o, c, ok := gc.Executes(); ok {
			oe.TIF = o.TIF
			if q, err := u.quote(ctx, c); err == nil {
				oe.Bid, oe.Ask = q.Bid, q.Ask
				// the estimate is money in cents; cash after is computed
				// from exactly the estimate shown
				oe.Notional = trading.RoundMoney(o.Notional(q))
				if px := o.FillPrice(q); px.IsPositive() && op.Action == git.PlaceOrder {
					qty := o.TotalQuantity
					if qty.IsZero() {
						qty = o.CashQty.Div(px).Round(8)
					}
					if o.Action == trading.Sell {
						qty = qty.Neg()
					}
					oe.PositionAfter = held.Add(qty)
					if o.Action == trading.Buy {
						oe.CashAfter = cash.Sub(oe.Notional)
					} else {
						oe.CashAfter = cash.Add(oe.Notional)
					}
				}
			} else if oe.Problem == "" {
				oe.Problem = "no quote: " + err.Error()
			}
		}
		if op.Action == git.ClosePosition {
			oe.PositionAfter = decimal.Zero
			if op.Quantity.IsPositive() && op.Quantity.LessThan(held.Abs()) {
				oe.PositionAfter = held.Sub(op.Quantity.Mul(decimal.NewFromInt(int64(held.Sign()))))
			}
		}
		oe.Verdicts = u.guards.Assess(ctx, gc)
		ev.Ops = append(ev.Ops, oe)
		// the next operation sees the account as this one leaves it
		cash = oe.CashAfter
		px := oe.Ask
		if oe.PositionAfter.LessThan(oe.PositionBefore) {
			px = oe.Bid
		}
		pos = withQuantity(pos, oe.Symbol, oe.PositionAfter, oe.PositionBefore, px)
	}
	return ev, nil
}

// withQuantity returns positions with symbol's quantity changed from
// before to after (market value scaled), for judging the next operation.
func withQuantity(pos []trading.Position, sym string, after, before, price decimal.Decimal) []trading.Position {
	if after.Equal(before) {
		return pos
	}
	out := append([]trading.Position(nil), pos...)
	for i := range out {
		if strings.EqualFold(out[i].Contract.Symbol, sym) {
			out[i].Quantity = after.Abs()
			out[i].MarketValue = out[i].MarketPrice.Mul(after.Abs())
			return out
		}
	}
	side := trading.Long
	if after.IsNegative() {
		side = trading.Short
	}
	return append(out, trading.Position{Contract: trading.Contract{Symbol: sym}, Side: side, Quantity: after.Abs(),
		MarketPrice: price, MarketValue: price.Mul(after.Abs())})
}

// Text renders the evidence for people (Telegram, tradingShow, the TUI
// dialog): one block per operation.
func (ev Evidence) Text() string {
	var b strings.Builder
	for i, oe := range ev.Ops {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(oe.Text())
	}
	return b.String()
}

// Text renders one operation's evidence. Text an agent or a venue
// supplied (the symbol inside the description, who staged it, a problem)
// is shown as one plain line each (core.PlainLine), so it cannot draw
// lines of its own.
func (oe OpEvidence) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "• %s\n  staged by %s", core.PlainLine(oe.Describe, 0), core.PlainLine(oe.StagedBy, 0))
	if oe.TIF != "" {
		fmt.Fprintf(&b, "; time in force %s", oe.TIF)
	}
	if oe.Notional.IsPositive() {
		fmt.Fprintf(&b, "\n  est. %s %s at the current quote (bid %s / ask %s)", trading.FormatMoney(oe.Notional), core.PlainLine(oe.Currency, 0), oe.Bid, oe.Ask)
	}
	if !oe.PositionAfter.Equal(oe.PositionBefore) || !oe.CashAfter.Equal(oe.CashBefore) {
		fmt.Fprintf(&b, "\n  position %s %s → %s; cash %s → %s", core.PlainLine(oe.Symbol, 0), oe.PositionBefore, oe.PositionAfter, trading.FormatMoney(oe.CashBefore), trading.FormatMoney(oe.CashAfter))
	}
	for _, v := range oe.Verdicts {
		if v.Applies {
			b.WriteString("\n  " + v.String())
		}
	}
	if oe.Problem != "" {
		b.WriteString("\n  ! " + core.PlainLine(oe.Problem, 0))
	}
	return b.String()
}
