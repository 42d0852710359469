package market

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
)

// orderForm is the Market pane's stage-order ticket. It never places
// anything itself: submitting opens the usual grace-period confirmation,
// and confirming calls MarketCore.StageOrder (placeOrder → commit → push
// request), so guards and the human approval in Portfolio still apply.
//
// The number fields hold exactly what was typed or pasted: nothing is
// filtered or rewritten (a minus, a comma or a second dot stays in the
// field and is refused by name at submit). An earlier version kept only
// digits and one dot, so "-1" became a BUY of 1 and "1,5" one of 15.
type orderForm struct {
	account, symbol string
	field           int // index into orderFields
	action, otype   string
	Qty, limit      string
	// err is the refusal of the last submit; once shown it follows every
	// edit (another message, or gone once the values are valid).
	err string
}

var orderFields = []string{"Side", "Type", "Quantity", "Limit price"}

const (
	fieldQty   = 2
	fieldLimit = 3
)

func newOrderForm(account, symbol string) orderForm {
	return orderForm{account: account, symbol: symbol, action: "BUY", otype: "MKT", field: fieldQty}
}

// ticket validates the form into an OrderTicket with the order model's
// own parser and checks (trading.ParsePositive, trading.Order.Validate:
// what placeOrder runs when it stages), so the form accepts exactly what
// staging accepts (plain decimal notation: no exponent, no minus, no
// thousands separators) and refuses the rest before anything is staged.
// Lot size, tick and the venue are checked at staging, where the
// instrument is known.
func (f orderForm) ticket() (OrderTicket, error) {
	t := OrderTicket{Account: f.account, Symbol: f.symbol, Action: f.action, Type: f.otype}
	var err error
	if t.Quantity, err = parseTyped("quantity", "totalQuantity", f.Qty); err != nil {
		return t, err
	}
	if f.otype == "LMT" {
		if t.Limit, err = parseTyped("limit price", "lmtPrice", f.limit); err != nil {
			return t, err
		}
	}
	o := trading.Order{Action: trading.Action(f.action), OrderType: trading.OrderType(f.otype), TotalQuantity: t.Quantity, LmtPrice: t.Limit}
	if err := o.Validate(); err != nil {
		// the model names its own field: say which of ours, as typed
		for _, v := range []struct{ model, label, text string }{{"totalQuantity", "quantity", f.Qty}, {"lmtPrice", "limit price", f.limit}} {
			if why, ok := strings.CutPrefix(err.Error(), v.model+": "); ok {
				return t, fmt.Errorf("%s %q refused: %s", v.label, v.text, why)
			}
		}
		return t, fmt.Errorf("order refused: %w", err)
	}
	return t, nil
}

// parseTyped parses a number field's text with the order model's parser
// (model is the field's name there) and, when it refuses, names the
// form's field and quotes the text exactly as typed. "" is a missing
// value (the model reads it as unset).
func parseTyped(label, model, typed string) (decimal.Decimal, error) {
	d, err := trading.ParsePositive(model, typed)
	if err == nil && d.IsPositive() {
		return d, nil
	}
	bad := fmt.Errorf("%s must be a positive decimal number, got %q", label, typed)
	if err == nil {
		return decimal.Zero, bad
	}
	why := strings.TrimPrefix(err.Error(), model+": ")
	if strings.HasPrefix(why, "must be > 0") || strings.HasSuffix(why, "is not a decimal number") {
		return decimal.Zero, bad
	}
	// the model says more (an exponent, too many digits or places, too
	// long): its reason, without the text it quotes again
	why = strings.TrimPrefix(why, strconv.Quote(strings.TrimSpace(typed))+": ")
	return decimal.Zero, fmt.Errorf("%s %q refused: %s", label, typed, why)
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
		return fieldQty
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
		if f.field < len(orderFields)-1 && !(f.field == fieldQty && f.otype == "MKT") {
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
	case fieldQty:
		f.Qty = editText(f.Qty, msg)
	case fieldLimit:
		f.limit = editText(f.limit, msg)
	}
	f.recheck()
	return nil
}

// paste puts pasted text into the focused number field as it came.
func (f *orderForm) paste(text string) {
	switch f.field {
	case fieldQty:
		f.Qty += text
	case fieldLimit:
		f.limit += text
	}
	f.recheck()
}

// recheck keeps a shown refusal current after an edit: it names what the
// fields hold now, or goes once they are valid (a stale "got "-1"" under
// a corrected quantity would say the order is still refused).
func (f *orderForm) recheck() {
	if f.err == "" {
		return
	}
	f.err = ""
	if _, err := f.ticket(); err != nil {
		f.err = err.Error()
	}
}

// editText applies a key to a number field: the key's text is appended
// exactly as typed (whether it can be part of a number is the order
// model's call at submit, never a silent filter here); backspace removes
// the last character.
func editText(s string, msg tea.KeyPressMsg) string {
	if msg.Code == tea.KeyBackspace {
		_, n := utf8.DecodeLastRuneInString(s)
		return s[:len(s)-n]
	}
	return s + msg.Text
}

// shown renders a field's text for the ticket: control characters (a
// pasted escape or tab) appear as Go escapes instead of acting on the
// terminal, and text wider than w keeps its end (where typing happens)
// behind a leading "…", so a long value is never shown as a shorter
// number.
func shown(s string, w int) string {
	var b strings.Builder
	for _, r := range s {
		if !unicode.IsGraphic(r) {
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	out := b.String()
	if w < 2 || ansi.StringWidth(out) <= w {
		return out
	}
	return "…" + ansi.TruncateLeft(out, ansi.StringWidth(out)-(w-1), "")
}

func (f orderForm) view(st kit.Styles, w int) string {
	lines := []string{st.Title.Render("Stage an order") + st.Muted.Render(fmt.Sprintf("  %s on %s", f.symbol, f.account))}
	vals := []string{f.action, f.otype, f.Qty, f.limit}
	for i, name := range orderFields {
		if i == fieldLimit && f.otype == "MKT" {
			continue
		}
		label := fmt.Sprintf("  %-12s ", name)
		v := vals[i]
		if i < fieldQty {
			v = "‹ " + v + " ›"
		} else {
			v = shown(v, w-len(label)-1)
			if i == f.field {
				v += "▏"
			}
		}
		if i == f.field {
			lines = append(lines, st.Selected.Render(label+v))
		} else {
			lines = append(lines, label+v)
		}
	}
	if f.err != "" {
		// wrapped, not cut: the refusal quotes the typed value in full
		for _, l := range strings.Split(ansi.Wrap(f.err, max(w-2, 20), ""), "\n") {
			lines = append(lines, st.Error.Render("  "+l))
		}
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
