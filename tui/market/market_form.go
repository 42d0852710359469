package market

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/shopspring/decimal"
)

// orderForm is the Market pane's stage-order ticket. It never places
// anything itself: submitting opens the usual grace-period confirmation,
// and confirming calls MarketCore.StageOrder (placeOrder → commit → push
// request), so guards and the human approval in Portfolio still apply.
type orderForm struct {
	account, symbol string
	field           int // index into orderFields
	action, otype   string
	Qty, limit      string
	err             string
}

var orderFields = []string{"Side", "Type", "Quantity", "Limit price"}

func newOrderForm(account, symbol string) orderForm {
	return orderForm{account: account, symbol: symbol, action: "BUY", otype: "MKT", field: 2}
}

// ticket validates the form into an OrderTicket.
func (f orderForm) ticket() (OrderTicket, error) {
	t := OrderTicket{Account: f.account, Symbol: f.symbol, Action: f.action, Type: f.otype}
	q, err := decimal.NewFromString(strings.TrimSpace(f.Qty))
	if err != nil || !q.IsPositive() {
		return t, fmt.Errorf("quantity must be a number > 0, got %q", f.Qty)
	}
	t.Quantity = q
	if f.otype == "LMT" {
		l, err := decimal.NewFromString(strings.TrimSpace(f.limit))
		if err != nil || !l.IsPositive() {
			return t, fmt.Errorf("limit price must be a number > 0, got %q", f.limit)
		}
		t.Limit = l
	}
	return t, nil
}

// Describe is the one-line summary shown in the confirmation.
func (t OrderTicket) Describe() string {
	s := fmt.Sprintf("%s %s %s %s", t.Action, t.Quantity.String(), t.Symbol, t.Type)
	if t.Type == "LMT" {
		s += " @" + t.Limit.StringFixed(2)
	}
	return s + " on " + t.Account
}

// lastField is the last field shown: a market order has no limit price.
func (f *orderForm) lastField() int {
	if f.otype == "MKT" {
		return 2
	}
	return len(orderFields) - 1
}

func (f *orderForm) onKey(p *Pane, msg tea.KeyPressMsg) tea.Cmd {
	k := p.keys
	switch {
	case key.Matches(msg, k.Back):
		p.Mode = MkBrowse
		return nil
	case key.Matches(msg, k.FormNext):
		f.field = min(f.field+1, f.lastField())
		return nil
	case key.Matches(msg, k.FormPrev):
		f.field = max(f.field-1, 0)
		return nil
	case key.Matches(msg, k.Submit):
		if f.field < len(orderFields)-1 && !(f.field == 2 && f.otype == "MKT") {
			f.field++
			return nil
		}
		t, err := f.ticket()
		if err != nil {
			f.err = err.Error()
			return nil
		}
		f.err = ""
		p.Mode = MkBrowse
		mc, ok := p.core()
		if !ok {
			return kit.ErrCmd(errNoMarket)
		}
		ctx := p.m.AppContext()
		p.m.OpenDialog("Stage this order?", t.Describe()+
			"\n\nIt is staged, committed and sent for approval;\nnothing executes until you approve the push in Portfolio.", func() tea.Msg {
			res, err := mc.StageOrder(ctx, t)
			if err != nil {
				return kit.ErrMsg{Err: err}
			}
			return orderStagedMsg{res}
		})
		return nil
	}
	switch f.field {
	case 0:
		if key.Matches(msg, k.FormCycle) || msg.String() == "b" || msg.String() == "s" {
			f.action = map[string]string{"BUY": "SELL", "SELL": "BUY"}[f.action]
		}
	case 1:
		if key.Matches(msg, k.FormCycle) || msg.String() == "m" || msg.String() == "l" {
			f.otype = map[string]string{"MKT": "LMT", "LMT": "MKT"}[f.otype]
		}
	case 2:
		f.Qty = editNumber(f.Qty, msg)
	case 3:
		f.limit = editNumber(f.limit, msg)
	}
	return nil
}

// typeRune types r into the focused number field (a paste).
func (f *orderForm) typeRune(r rune) {
	k := tea.KeyPressMsg{Code: r, Text: string(r)}
	switch f.field {
	case 2:
		f.Qty = editNumber(f.Qty, k)
	case 3:
		f.limit = editNumber(f.limit, k)
	}
}

// editNumber applies a key to a numeric field: digits and one dot.
func editNumber(s string, msg tea.KeyPressMsg) string {
	if msg.Code == tea.KeyBackspace {
		if s == "" {
			return s
		}
		return s[:len(s)-1]
	}
	t := msg.Text
	if len(t) == 1 && (t[0] >= '0' && t[0] <= '9' || t[0] == '.' && !strings.Contains(s, ".")) {
		return s + t
	}
	return s
}

func (f orderForm) view(st kit.Styles) string {
	lines := []string{st.Title.Render("Stage an order") + st.Muted.Render(fmt.Sprintf("  %s on %s", f.symbol, f.account))}
	vals := []string{f.action, f.otype, f.Qty, f.limit}
	for i, name := range orderFields {
		if i == 3 && f.otype == "MKT" {
			continue
		}
		v := vals[i]
		if i < 2 {
			v = "‹ " + v + " ›"
		} else if i == f.field {
			v += "▏"
		}
		label := fmt.Sprintf("  %-12s ", name)
		if i == f.field {
			lines = append(lines, st.Selected.Render(label+v))
		} else {
			lines = append(lines, label+v)
		}
	}
	if f.err != "" {
		lines = append(lines, st.Error.Render("  "+f.err))
	}
	lines = append(lines, st.Muted.Render("  ↑/↓ field · ←/→ change · enter next/submit · esc cancel"))
	return strings.Join(lines, "\n")
}

// SimCore is what the simulator controls need. Every control is recorded
// in the event log by the core.
type SimCore interface {
	IsSimulator(account string) bool
	// SimPrice pins a symbol's mark: "@150" absolute, "+5%"/"-3%" relative
	// (simulatePriceChange's syntax); resting orders match against it.
	SimPrice(ctx context.Context, account, symbol, change string) (string, error)
	// SimCash deposits (amount > 0) or withdraws (amount < 0) cash.
	SimCash(ctx context.Context, account string, amount decimal.Decimal) (string, error)
	// SimFill force-fills the account's resting orders in symbol at the mark.
	SimFill(ctx context.Context, account, symbol string) (string, error)
	// SimAdvance moves the account's simulated clock forward by d (prices
	// follow it) and matches resting orders.
	SimAdvance(ctx context.Context, account string, d time.Duration) (string, error)
	// SimMark is the account's current mark for symbol.
	SimMark(ctx context.Context, account, symbol string) (decimal.Decimal, error)
}

// simCommand is a parsed simulator line.
type simCommand struct {
	Kind   string // price | cash | fill | advance
	Change string
	Amount decimal.Decimal
	by     time.Duration
}

// ParseSimCommand reads "@150", "+5%", "-3%", "deposit 1000",
// "withdraw 500", "fill" or "advance 2h" (s, m, h or d).
func ParseSimCommand(s string) (simCommand, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	f := strings.Fields(s)
	switch {
	case s == "":
		return simCommand{}, fmt.Errorf("empty command")
	case s == "fill":
		return simCommand{Kind: "fill"}, nil
	case strings.HasPrefix(s, "@"):
		v, err := decimal.NewFromString(s[1:])
		if err != nil || !v.IsPositive() {
			return simCommand{}, fmt.Errorf("price must be @<number > 0>, got %q", s)
		}
		return simCommand{Kind: "price", Change: "@" + v.String()}, nil
	case (s[0] == '+' || s[0] == '-') && strings.HasSuffix(s, "%"):
		v, err := decimal.NewFromString(s[1 : len(s)-1])
		if err != nil || v.IsNegative() {
			return simCommand{}, fmt.Errorf("move must look like +5%% or -3%%, got %q", s)
		}
		if s[0] == '-' && v.GreaterThanOrEqual(decimal.NewFromInt(100)) {
			return simCommand{}, fmt.Errorf("a price cannot fall by %s%%", v)
		}
		return simCommand{Kind: "price", Change: s[:1] + v.String() + "%"}, nil
	case len(f) == 2 && f[0] == "advance":
		d, err := parseSimDuration(f[1])
		if err != nil || d <= 0 {
			return simCommand{}, fmt.Errorf("advance needs a duration such as 30m, 2h or 1d, got %q", f[1])
		}
		return simCommand{Kind: "advance", by: d}, nil
	case len(f) == 2 && (f[0] == "deposit" || f[0] == "withdraw"):
		v, err := decimal.NewFromString(f[1])
		if err != nil || !v.IsPositive() {
			return simCommand{}, fmt.Errorf("%s needs an amount > 0, got %q", f[0], f[1])
		}
		if f[0] == "withdraw" {
			v = v.Neg()
		}
		return simCommand{Kind: "cash", Amount: v}, nil
	}
	return simCommand{}, fmt.Errorf("unknown simulator command %q (try @150, +5%%, deposit 1000, withdraw 500, fill, advance 1h)", s)
}

// parseSimDuration is time.ParseDuration plus whole days ("2d").
func parseSimDuration(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil {
			return 0, err
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	return time.ParseDuration(s)
}

// simDoneMsg reports a simulator control's outcome.
type simDoneMsg struct{ text string }

func (p *Pane) runSim(text string) tea.Cmd {
	sc, ok := p.base.(SimCore)
	if !ok {
		return kit.ErrCmd(marketError("simulator controls are not available in this core"))
	}
	cmd, err := ParseSimCommand(text)
	if err != nil {
		return kit.ErrCmd(err)
	}
	ctx, acct, sym := p.m.AppContext(), p.current(), p.Symbol
	return func() tea.Msg {
		var res string
		var err error
		switch cmd.Kind {
		case "price":
			res, err = sc.SimPrice(ctx, acct, sym, cmd.Change)
		case "cash":
			res, err = sc.SimCash(ctx, acct, cmd.Amount)
		case "fill":
			res, err = sc.SimFill(ctx, acct, sym)
		case "advance":
			res, err = sc.SimAdvance(ctx, acct, cmd.by)
		}
		if err != nil {
			return kit.ErrMsg{Err: err}
		}
		return simDoneMsg{res}
	}
}
