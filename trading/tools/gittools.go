package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading/git"
	"github.com/alice-trading/alice/trading/uta"

	"github.com/shopspring/decimal"
)

func (h *handlers) gitTools() []core.Tool {
	return []core.Tool{
		tool("tradingCommit", "Commit staged operations with a message (like git commit). Nothing executes; a push follows.",
			`{"type":"object","properties":{`+sourceProp+`,"message":{"type":"string","maxLength":500,"description":"Your trading thesis: one line of at most 500 characters, no control characters."}},"required":["message"]}`,
			h.commit),
		tool("tradingPush", "Request execution of committed operations. Accounts with autoApprove execute now; others wait for a person's approval (alice UI or Telegram), and until the person decides, that account's staging area is frozen (tradingReject withdraws the commit).",
			`{"type":"object","properties":{`+sourceProp+`}}`,
			h.push),
		tool("tradingLog", "Trading history (like git log --stat), newest first, merged across accounts.",
			`{"type":"object","properties":{`+sourceProp+`,"limit":{"type":"integer","minimum":1,"default":10},"symbol":{"type":"string"}}}`,
			h.log),
		tool("tradingShow", "Show one commit by hash (like git show).",
			`{"type":"object","properties":{`+sourceProp+`,"hash":{"type":"string","description":"8-character commit hash"}},"required":["hash"]}`,
			h.show),
		tool("tradingReject", "Discard one account's staged and committed-but-unpushed operations (like \"git reset\", or a person's reject): nothing reaches the broker, the rejection is recorded in the trading log and the staging area is cleared. Without hash it discards whatever is staged or waiting; with hash only that commit (refused if the prepared commit is no longer it).",
			`{"type":"object","properties":{"source":{"type":"string","description":"Account id (see listUTAs)"},"reason":{"type":"string","description":"Why the operations are discarded"},"hash":{"type":"string","description":"Optional: the 8-character commit hash tradingPush showed"}},"required":["source"]}`,
			h.reject),
		tool("orderHistory", "Order history: one row per order with its lifecycle collapsed (submitted → filled/cancelled/rejected, fill price and quantity, source \"external\" for orders placed outside alice, stagedBy = the session/channel/agent that staged it). Prefer this over tradingLog to see what happened to orders.",
			`{"type":"object","properties":{`+sourceProp+`,"limit":{"type":"integer","minimum":1,"maximum":200,"description":"Max rows per account (default 50)"}}}`,
			h.orderHistory),
		tool("tradeHistory", "Trade history: fills only, with execution price, quantity and value (source \"order\" for alice's orders, \"external\" for orders placed outside alice), attributed to the session that staged them.",
			`{"type":"object","properties":{`+sourceProp+`,"limit":{"type":"integer","minimum":1,"maximum":200,"description":"Max rows per account (default 50)"}}}`,
			h.tradeHistory),
		tool("tradingStatus", "Staged operations and pending commit (like git status).",
			`{"type":"object","properties":{`+sourceProp+`}}`,
			func(ctx context.Context, args json.RawMessage) (any, error) {
				var a sourceArgs
				if err := decode(args, &a); err != nil {
					return nil, err
				}
				return h.perAccount(ctx, a.Source, func(_ context.Context, u *uta.UTA) (any, error) { return u.Git().Status(), nil })
			}),
		tool("tradingSync", "Pull order status updates from the brokers (like git pull).",
			`{"type":"object","properties":{`+sourceProp+`,"delayMs":{"type":"integer","minimum":0,"maximum":30000}}}`,
			h.sync),
		tool("simulatePriceChange", "Dry run: portfolio impact of price changes (\"@150\" absolute, \"+10%\" / \"-5%\" relative; symbol \"all\" for every position). Changes nothing.",
			`{"type":"object","properties":{`+sourceProp+`,"priceChanges":{"type":"array","minItems":1,"items":{"type":"object","properties":{"symbol":{"type":"string"},"change":{"type":"string"}},"required":["symbol","change"]}}},"required":["priceChanges"]}`,
			h.simulate),
	}
}

func (h *handlers) commit(_ context.Context, args json.RawMessage) (any, error) {
	var a struct {
		Source  string `json:"source"`
		Message string `json:"message"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Message) == "" {
		return nil, fmt.Errorf("message is required")
	}
	if err := git.ValidateMessage(a.Message); err != nil {
		return nil, fmt.Errorf("message: %w", err)
	}
	return h.m.Commit(a.Source, a.Message)
}

type pushOutcome struct {
	AccountID string               `json:"accountId"`
	Status    string               `json:"status"` // "pushed" or "pending"
	Note      string               `json:"note,omitempty"`
	Result    *git.PushResult      `json:"result,omitempty"`
	Pending   *uta.PendingApproval `json:"pending,omitempty"`
}

func (h *handlers) push(ctx context.Context, args json.RawMessage) (any, error) {
	var a sourceArgs
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	us, err := h.m.Resolve(a.Source)
	if err != nil {
		return nil, err
	}
	var out []pushOutcome
	for _, u := range us {
		st := u.Git().Status()
		if st.PendingHash == "" {
			if len(st.Staged) > 0 {
				return nil, fmt.Errorf("account %s: %w", u.ID(), git.ErrUncommitted)
			}
			continue
		}
		if u.AutoApprove() {
			// autoApprove approves exactly the commit just read; if the
			// agent staged in between, Push refuses the changed hash.
			r, err := h.m.Push(ctx, u.ID(), st.PendingHash)
			if err != nil {
				return nil, fmt.Errorf("account %s: %w", u.ID(), err)
			}
			out = append(out, pushOutcome{AccountID: u.ID(), Status: "pushed", Result: &r})
			continue
		}
		p, err := h.m.RequestApproval(u.ID())
		if err != nil {
			return nil, fmt.Errorf("account %s: %w", u.ID(), err)
		}
		note := uta.ApprovalNote
		if p.AlreadyRequested {
			note = uta.ApprovalAgainNote
		}
		out = append(out, pushOutcome{AccountID: u.ID(), Status: "pending", Note: note, Pending: &p})
	}
	if len(out) == 0 {
		return nil, git.ErrNoPending
	}
	return out, nil
}

func (h *handlers) log(_ context.Context, args json.RawMessage) (any, error) {
	var a struct {
		Source string `json:"source"`
		Limit  *int   `json:"limit"`
		Symbol string `json:"symbol"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	limit := 10
	if a.Limit != nil {
		if *a.Limit <= 0 {
			return nil, fmt.Errorf("limit must be > 0")
		}
		limit = *a.Limit
	}
	return h.m.Log(a.Source, limit, a.Symbol)
}

func (h *handlers) show(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct {
		Source string `json:"source"`
		Hash   string `json:"hash"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	if len(strings.TrimSpace(a.Hash)) < 4 {
		return nil, fmt.Errorf("hash must be at least 4 characters (commits use 8)")
	}
	c, ok, err := h.m.Show(a.Source, a.Hash)
	if err != nil {
		return nil, err
	}
	if !ok {
		// a commit not yet pushed: show it with the evidence a person
		// approving it gets (notional, position and cash after, guards)
		for _, p := range h.m.Pending() {
			if (a.Source == "" || a.Source == p.AccountID) && strings.HasPrefix(p.Hash, strings.TrimSpace(a.Hash)) {
				ev, err := h.m.Evidence(ctx, p.AccountID, p.Hash)
				if err != nil {
					return nil, err
				}
				return map[string]any{"pending": p, "evidence": ev, "summary": ev.Text()}, nil
			}
		}
		where := "any account"
		if a.Source != "" {
			where = fmt.Sprintf("source %q", a.Source)
		}
		return nil, fmt.Errorf("no commit %q in %s (see tradingLog)", a.Hash, where)
	}
	return c, nil
}

func (h *handlers) reject(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct {
		Source string `json:"source"`
		Hash   string `json:"hash"`
		Reason string `json:"reason"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	u, err := h.one(a.Source)
	if err != nil {
		return nil, err
	}
	reason := strings.TrimSpace(a.Reason)
	if reason == "" {
		reason = "withdrawn by the agent"
	}
	hash := strings.TrimSpace(a.Hash)
	if hash == "" {
		// OpenAlice's form: discard whatever is there. A staging area
		// without a commit is committed first so the log records what was
		// discarded; rejecting never executes anything.
		st := u.Git().Status()
		switch {
		case st.PendingHash != "":
			hash = st.PendingHash
		case len(st.Staged) > 0:
			// the reason is appended once, by Reject
			cs, err := h.m.Commit(u.ID(), "staged operations (never committed)")
			if err != nil {
				return nil, fmt.Errorf("account %s: %w", u.ID(), err)
			}
			hash = cs[0].Hash
		default:
			return map[string]any{"source": u.ID(), "message": "Nothing staged to reject."}, nil
		}
	}
	c, err := h.m.Reject(ctx, u.ID(), hash, reason)
	if err != nil {
		return nil, fmt.Errorf("account %s: %w", u.ID(), err)
	}
	return uta.AccountCommit{AccountID: u.ID(), Commit: c}, nil
}

type historyArgs struct {
	Source string `json:"source"`
	Limit  *int   `json:"limit"`
}

func (a historyArgs) limit() (int, error) {
	if a.Limit == nil {
		return 50, nil
	}
	if *a.Limit < 1 || *a.Limit > 200 {
		return 0, fmt.Errorf("limit must be between 1 and 200")
	}
	return *a.Limit, nil
}

func (h *handlers) orderHistory(_ context.Context, args json.RawMessage) (any, error) {
	return history(args, h.m.OrderHistory, "orders", "No order history yet.")
}

func (h *handlers) tradeHistory(_ context.Context, args json.RawMessage) (any, error) {
	return history(args, h.m.TradeHistory, "trades", "No trades yet.")
}

// history answers orderHistory and tradeHistory: the rows, or an empty
// list under key with a message when there are none.
func history[T any](args json.RawMessage, get func(source string, limit int) ([]T, error), key, empty string) (any, error) {
	var a historyArgs
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	limit, err := a.limit()
	if err != nil {
		return nil, err
	}
	rows, err := get(a.Source, limit)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return map[string]any{key: rows, "message": empty}, nil
	}
	return rows, nil
}

func (h *handlers) sync(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct {
		Source  string `json:"source"`
		DelayMs int    `json:"delayMs"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	if a.DelayMs < 0 || a.DelayMs > 30000 {
		return nil, fmt.Errorf("delayMs must be between 0 and 30000")
	}
	return h.m.Sync(ctx, a.Source, time.Duration(a.DelayMs)*time.Millisecond)
}

// priceChange parses "@150", "+10%", "-5%" (also "150" and "+10").
func priceChange(cur decimal.Decimal, s string) (decimal.Decimal, error) {
	s = strings.TrimSpace(s)
	if abs, ok := strings.CutPrefix(s, "@"); ok {
		d, err := decimal.NewFromString(strings.TrimSpace(abs))
		if err != nil || !d.IsPositive() {
			return decimal.Zero, fmt.Errorf("change %q: want @<price> with a positive price", s)
		}
		return d, nil
	}
	pct, isPct := strings.CutSuffix(s, "%")
	if isPct && (strings.HasPrefix(pct, "+") || strings.HasPrefix(pct, "-")) {
		d, err := decimal.NewFromString(pct)
		if err != nil {
			return decimal.Zero, fmt.Errorf("change %q: want e.g. \"+10%%\" or \"-5%%\"", s)
		}
		next := cur.Mul(hundred.Add(d)).Div(hundred)
		if next.IsNegative() {
			next = decimal.Zero
		}
		return next, nil
	}
	return decimal.Zero, errors.New("change " + fmt.Sprintf("%q", s) + ": want \"@150\" (absolute) or \"+10%\" / \"-5%\" (relative)")
}

type simRow struct {
	Symbol         string          `json:"symbol"`
	Quantity       decimal.Decimal `json:"quantity"`
	CurrentPrice   decimal.Decimal `json:"currentPrice"`
	SimulatedPrice decimal.Decimal `json:"simulatedPrice"`
	CurrentPnL     decimal.Decimal `json:"currentUnrealizedPnL"`
	SimulatedPnL   decimal.Decimal `json:"simulatedUnrealizedPnL"`
	PnLChange      decimal.Decimal `json:"pnlChange"`
}

func (h *handlers) simulate(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct {
		Source       string `json:"source"`
		PriceChanges []struct {
			Symbol string `json:"symbol"`
			Change string `json:"change"`
		} `json:"priceChanges"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	if len(a.PriceChanges) == 0 {
		return nil, fmt.Errorf("priceChanges needs at least one {symbol, change}")
	}
	for _, pc := range a.PriceChanges {
		if strings.TrimSpace(pc.Symbol) == "" {
			return nil, fmt.Errorf("every priceChanges entry needs a symbol (or \"all\")")
		}
		if _, err := priceChange(decimal.NewFromInt(1), pc.Change); err != nil {
			return nil, err
		}
	}
	return h.perAccount(ctx, a.Source, func(ctx context.Context, u *uta.UTA) (any, error) {
		acct, err := u.Account(ctx)
		if err != nil {
			return nil, err
		}
		pos, err := u.Positions(ctx)
		if err != nil {
			return nil, err
		}
		rows := []simRow{}
		total := decimal.Zero
		var worst *simRow
		for _, p := range pos {
			change := ""
			for _, pc := range a.PriceChanges {
				if strings.EqualFold(pc.Symbol, "all") || strings.EqualFold(pc.Symbol, p.Contract.Symbol) {
					change = pc.Change // later entries win
				}
			}
			if change == "" {
				continue
			}
			np, _ := priceChange(p.MarketPrice, change)
			simPnL := np.Sub(p.AvgCost).Mul(p.Quantity)
			if p.Side == "short" {
				simPnL = p.AvgCost.Sub(np).Mul(p.Quantity)
			}
			r := simRow{Symbol: p.Contract.Symbol, Quantity: p.Quantity, CurrentPrice: p.MarketPrice, SimulatedPrice: np,
				CurrentPnL: p.UnrealizedPnL, SimulatedPnL: simPnL, PnLChange: simPnL.Sub(p.UnrealizedPnL)}
			rows = append(rows, r)
			total = total.Add(r.PnLChange)
			if worst == nil || r.PnLChange.LessThan(worst.PnLChange) {
				w := r
				worst = &w
			}
		}
		summary := map[string]any{"totalPnLChange": total, "equityChange": total, "currentEquity": acct.NetLiquidation,
			"simulatedEquity": acct.NetLiquidation.Add(total), "equityChangePercent": "0"}
		if acct.NetLiquidation.IsPositive() {
			summary["equityChangePercent"] = total.Div(acct.NetLiquidation).Mul(hundred).StringFixed(2)
		}
		if worst != nil {
			summary["worstCase"] = worst
		}
		return map[string]any{"positions": rows, "summary": summary, "dryRun": true}, nil
	})
}
