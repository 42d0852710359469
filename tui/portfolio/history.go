package portfolio

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/shopspring/decimal"
)

// HistoryCore gives the Portfolio pane's history view: the account's
// orders with their lifecycle collapsed and its fills (the orderHistory
// and tradeHistory views of the trading log), and per agent session the
// tokens and cost it spent beside the realised P&L of the trades it
// originated (sessionCosts). Optional: without it the view is not offered.
type HistoryCore interface {
	OrderHistory(account string, limit int) ([]HistoryOrder, error)
	TradeHistory(account string, limit int) ([]HistoryTrade, error)
	SessionCosts(ctx context.Context, account string) ([]SessionCost, error)
}

// HistoryOrder is one order of the account, newest first.
type HistoryOrder struct {
	Time     time.Time
	ID       string
	Side     string
	Symbol   string
	Type     string
	Quantity decimal.Decimal
	Filled   decimal.Decimal
	AvgPrice decimal.Decimal
	Status   string
	// External marks an order placed outside alice (the venue's own app);
	// By is who staged an alice order (session, channel, or "person").
	External bool
	By       string
}

// HistoryTrade is one fill.
type HistoryTrade struct {
	Time     time.Time
	Side     string
	Symbol   string
	Quantity decimal.Decimal
	Price    decimal.Decimal
	Value    decimal.Decimal
	External bool
	By       string
}

// SessionCost is one agent session's spend and its trades' outcome on the
// account.
type SessionCost struct {
	Session      string
	Turns        int
	InputTokens  int64
	OutputTokens int64
	CostUSD      decimal.Decimal
	Unpriced     int // turns of models without a known price
	Unreported   int // turns whose backend reported no token usage
	Fills        int
	Realized     decimal.Decimal
	Currency     string
}

// historyRows is how many orders and trades the view asks for.
const historyRows = 50

// paneView is what the Portfolio pane shows.
type paneView int

const (
	viewOverview paneView = iota
	viewHistory
)

type historyMsg struct {
	account string
	orders  []HistoryOrder
	trades  []HistoryTrade
	costs   []SessionCost
	err     error
}

// loadHistoryView fetches orders, trades and session costs for the
// selected account.
func (p *Pane) loadHistoryView() tea.Cmd {
	hc, ok := p.core.(HistoryCore)
	acct := p.current()
	if !ok || acct == "" || p.view != viewHistory {
		return nil
	}
	ctx := p.m.AppContext()
	return func() tea.Msg {
		r := historyMsg{account: acct}
		var err error
		if r.orders, err = hc.OrderHistory(acct, historyRows); err != nil {
			r.err = err
		}
		if r.trades, err = hc.TradeHistory(acct, historyRows); err != nil && r.err == nil {
			r.err = err
		}
		if r.costs, err = hc.SessionCosts(ctx, acct); err != nil && r.err == nil {
			r.err = err
		}
		return r
	}
}

// toggleView switches between the overview and the history view.
func (p *Pane) toggleView() tea.Cmd {
	if _, ok := p.core.(HistoryCore); !ok {
		return func() tea.Msg { return kit.FlashMsg("order history is not available here") }
	}
	if p.view == viewHistory {
		p.view = viewOverview
		return nil
	}
	p.view = viewHistory
	return p.loadHistoryView()
}

// badge labels who placed an order or trade: external ones stand out.
func (p *Pane) badge(external bool, by string) string {
	st := p.m.Styles()
	if external {
		return st.Warn.Render("⇄ external")
	}
	if by == "" {
		by = "alice"
	}
	return st.Muted.Render(by)
}

// historyView is the history body in w×h: orders and trades (side by
// side when wide), then the session costs.
func (p *Pane) historyView(w, h int) string {
	st := p.m.Styles()
	if p.hist.err != "" {
		return st.Error.Render(p.hist.err)
	}
	costs := p.costsView(w, min(len(p.hist.costs), max(1, h/4)))
	costH := strings.Count(costs, "\n") + 1
	if w >= 124 {
		const gap = 3
		cw := (w - gap) / 2
		n := max(1, h-costH-3)
		top := columns([]string{p.orderHistoryView(cw, n), p.tradesView(w-cw-gap, n)}, []int{cw}, gap)
		return kit.Stack(top, "", costs)
	}
	// Share what is left between orders and trades; a short list gives
	// its spare rows to the other.
	avail := max(2, h-costH-6)
	no, nt := min(len(p.hist.orders), avail/2), min(len(p.hist.trades), avail-avail/2)
	no = max(1, min(len(p.hist.orders), avail-nt))
	nt = max(1, min(len(p.hist.trades), avail-no))
	return kit.Stack(p.orderHistoryView(w, no), "", p.tradesView(w, nt), "", costs)
}

func stamp(t time.Time) string { return t.Format("01-02 15:04") }

func (p *Pane) orderHistoryView(w, n int) string {
	st := p.m.Styles()
	if len(p.hist.orders) == 0 {
		return kit.Stack(st.Accent.Render("Order history"), st.Muted.Render("  no orders yet"))
	}
	cols := []col{{"Time", 11, false, false}, {"Side", 4, false, false}, {"Symbol", 7, false, false}, {"Type", 4, false, false},
		{"Qty", 6, true, false}, {"Fill", 9, true, false}, {"Status", 13, false, false}, {"By", 10, false, true}}
	var rows [][]string
	for i, o := range p.hist.orders {
		if i >= n {
			break
		}
		fill := ""
		if !o.AvgPrice.IsZero() {
			fill = kit.Money(o.AvgPrice)
		}
		rows = append(rows, []string{stamp(o.Time), o.Side, o.Symbol, o.Type, o.Quantity.String(), fill, o.Status, p.badge(o.External, o.By)})
	}
	return table(*st, fmt.Sprintf("Order history (%d)", len(p.hist.orders)), cols, rows, w)
}

func (p *Pane) tradesView(w, n int) string {
	st := p.m.Styles()
	if len(p.hist.trades) == 0 {
		return kit.Stack(st.Accent.Render("Trades"), st.Muted.Render("  no fills yet"))
	}
	cols := []col{{"Time", 11, false, false}, {"Side", 4, false, false}, {"Symbol", 7, false, false}, {"Qty", 6, true, false},
		{"Price", 9, true, false}, {"Value", 10, true, false}, {"By", 10, false, true}}
	var rows [][]string
	for i, t := range p.hist.trades {
		if i >= n {
			break
		}
		rows = append(rows, []string{stamp(t.Time), t.Side, t.Symbol, t.Quantity.String(), kit.Money(t.Price), kit.Money(t.Value), p.badge(t.External, t.By)})
	}
	return table(*st, fmt.Sprintf("Trades (%d)", len(p.hist.trades)), cols, rows, w)
}

// tokens renders a token count compactly: 950, 12.3k, 4.1M.
func tokens(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	case n >= 1_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

func (p *Pane) costsView(w, n int) string {
	st := p.m.Styles()
	title := "Sessions: model cost and the P&L of their trades"
	if len(p.hist.costs) == 0 {
		return kit.Stack(st.Accent.Render(title), st.Muted.Render("  no agent sessions yet"))
	}
	cols := []col{{"Session", 14, false, true}, {"Turns", 5, true, false}, {"Tokens in/out", 13, true, false},
		{"Cost", 9, true, false}, {"Fills", 5, true, false}, {"Realized", 10, true, false}}
	var rows [][]string
	for i, c := range p.hist.costs {
		if i >= n {
			break
		}
		cost, toks := "$"+c.CostUSD.StringFixed(4), tokens(c.InputTokens)+"/"+tokens(c.OutputTokens)
		if c.Unpriced > 0 || c.Unreported > 0 {
			cost += "+?"
		}
		if c.Unreported > 0 {
			toks += "+?"
		}
		// no model turn (an MCP client, external orders), or none whose
		// backend reported usage (mock LLM, CLI backends): unknown, not 0
		if c.Turns == 0 || c.Unreported >= c.Turns {
			cost, toks = st.Muted.Render("—"), st.Muted.Render("—")
		}
		realized := st.Muted.Render("—")
		if c.Fills > 0 {
			realized = p.pnlPad(c.Realized, 0)
		}
		rows = append(rows, []string{c.Session, fmt.Sprint(c.Turns), toks, cost, fmt.Sprint(c.Fills), realized})
	}
	return table(*st, title, cols, rows, w)
}
