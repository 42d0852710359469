package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
)

// portfolioPane shows accounts, positions, orders, the equity curve, the
// Trading-as-Git log and the commits waiting for approval.
type portfolioPane struct {
	m         *Model
	w, h      int
	focused   bool
	accounts  []AccountSummary
	acct      int
	positions []Position
	orders    []Order
	pending   []PendingCommit
	log       []CommitLogEntry
	curve     []EquityPoint
	loadedFor string
}

type portfolioMsg struct {
	accounts  []AccountSummary
	account   string
	positions []Position
	orders    []Order
	pending   []PendingCommit
	log       []CommitLogEntry
	curve     []EquityPoint
	err       error
}

func newPortfolioPane(m *Model) *portfolioPane { return &portfolioPane{m: m} }

func (p *portfolioPane) SetSize(w, h int) { p.w, p.h = w, h }
func (p *portfolioPane) Focus()           { p.focused = true }
func (p *portfolioPane) Blur()            { p.focused = false }
func (p *portfolioPane) Capturing() bool  { return false }
func (p *portfolioPane) ShortHelp() []key.Binding {
	k := p.m.keys.Portfolio
	return []key.Binding{k.PrevAccount, k.NextAccount, k.Approve, k.Reject, k.Refresh}
}

func (p *portfolioPane) current() string {
	if p.acct < len(p.accounts) {
		return p.accounts[p.acct].ID
	}
	return ""
}

// load fetches everything for the selected account in one Cmd.
func (p *portfolioPane) load() tea.Cmd {
	core, want := p.m.core, p.current()
	return func() tea.Msg {
		var r portfolioMsg
		if r.accounts, r.err = core.Accounts(); r.err != nil {
			return r
		}
		if want == "" && len(r.accounts) > 0 {
			want = r.accounts[0].ID
		}
		r.account = want
		if want == "" {
			return r
		}
		var errs []error
		var err error
		if r.positions, err = core.Positions(want); err != nil {
			errs = append(errs, err)
		}
		if r.orders, err = core.Orders(want); err != nil {
			errs = append(errs, err)
		}
		if r.pending, err = core.Pending(); err != nil {
			errs = append(errs, err)
		}
		if r.log, err = core.TradingLog(want, 8); err != nil {
			errs = append(errs, err)
		}
		if r.curve, err = core.EquityCurve(want); err != nil {
			errs = append(errs, err)
		}
		if len(errs) > 0 {
			r.err = errs[0]
		}
		return r
	}
}

func (p *portfolioPane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case portfolioMsg:
		p.accounts = msg.accounts
		for i, a := range p.accounts {
			if a.ID == msg.account {
				p.acct = i
			}
		}
		p.positions, p.orders, p.pending, p.log, p.curve, p.loadedFor = msg.positions, msg.orders, msg.pending, msg.log, msg.curve, msg.account
		if msg.err != nil {
			return errCmd(msg.err)
		}
		return nil
	case approvedMsg:
		text := msg.text
		return tea.Batch(msg.reload, func() tea.Msg { return flashMsg(text) })
	case tea.KeyPressMsg:
		return p.onKey(msg)
	}
	return nil
}

func (p *portfolioPane) pendingFor(acct string) (PendingCommit, bool) {
	for _, pc := range p.pending {
		if pc.Account == acct {
			return pc, true
		}
	}
	if len(p.pending) > 0 {
		return p.pending[0], true
	}
	return PendingCommit{}, false
}

func (p *portfolioPane) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := p.m.keys.Portfolio
	switch {
	case key.Matches(msg, k.PrevAccount):
		if p.acct > 0 {
			p.acct--
			return p.load()
		}
	case key.Matches(msg, k.NextAccount):
		if p.acct < len(p.accounts)-1 {
			p.acct++
			return p.load()
		}
	case key.Matches(msg, k.Refresh):
		return p.load()
	case key.Matches(msg, k.Approve):
		pc, ok := p.pendingFor(p.current())
		if !ok {
			return func() tea.Msg { return flashMsg("nothing is waiting for approval") }
		}
		core, ctx, reload := p.m.core, p.m.ctx, p.load()
		body := fmt.Sprintf("Push commit %s on %s?\n%s\n\n%s", pc.Hash, pc.Account, pc.Message, strings.Join(pc.Operations, "\n"))
		p.m.openDialog("Approve and execute these orders?", body, func() tea.Msg {
			res, err := core.Approve(ctx, pc.Account, pc.Hash)
			if err != nil {
				return errMsg{err}
			}
			return approvedMsg{res, reload}
		})
	case key.Matches(msg, k.Reject):
		pc, ok := p.pendingFor(p.current())
		if !ok {
			return func() tea.Msg { return flashMsg("nothing is waiting for approval") }
		}
		core, ctx, reload := p.m.core, p.m.ctx, p.load()
		p.m.openDialog("Reject this commit?", fmt.Sprintf("%s on %s: %s", pc.Hash, pc.Account, pc.Message), func() tea.Msg {
			if err := core.Reject(ctx, pc.Account, pc.Hash, "rejected in the alice UI"); err != nil {
				return errMsg{err}
			}
			return approvedMsg{"commit " + pc.Hash + " rejected", reload}
		})
	}
	return nil
}

// approvedMsg reports a push/reject outcome and reloads the pane.
type approvedMsg struct {
	text   string
	reload tea.Cmd
}

func (p *portfolioPane) View() string {
	st := p.m.st
	if len(p.accounts) == 0 {
		return stack(st.Title.Render("Portfolio"), st.Muted.Render("No trading accounts. Add one to accounts.json."))
	}
	a := p.accounts[min(p.acct, len(p.accounts)-1)]
	var tabs []string
	for i, acc := range p.accounts {
		label := acc.ID
		if i == p.acct {
			tabs = append(tabs, st.Selected.Render(" "+label+" "))
		} else {
			tabs = append(tabs, st.Muted.Render(" "+label+" "))
		}
	}
	header := st.Title.Render("Portfolio") + "  " + strings.Join(tabs, "") + st.Muted.Render("  [ ] switch · a approve · x reject")
	summary := fmt.Sprintf("%s %s   %s %s   %s %s   %s %s   %s",
		st.Muted.Render("Net liq"), money(a.NetLiq), st.Muted.Render("Cash"), money(a.Cash),
		st.Muted.Render("Unrealized"), p.pnl(a.UnrealizedPnL), st.Muted.Render("Realized"), p.pnl(a.RealizedPnL),
		st.Muted.Render(a.Broker+" · "+a.Health))
	if a.Error != "" {
		summary += "\n" + st.Error.Render(a.Error)
	}
	lines := []string{header, summary, ""}
	if pc, ok := p.pendingFor(a.ID); ok {
		lines = append(lines, st.Warn.Render(fmt.Sprintf("⏳ Pending approval: %s %s — %s", pc.Account, pc.Hash, pc.Message)))
		for _, op := range pc.Operations {
			lines = append(lines, "   "+op)
		}
		lines = append(lines, st.Muted.Render("   press a to approve (push) or x to reject"), "")
	}
	left := p.positionsView()
	right := p.chartView(max(20, min(p.w-70, p.w-4)), 6)
	if p.w >= 130 {
		lines = append(lines, sideBySide(left, right, 66))
	} else {
		lines = append(lines, left, right)
	}
	lines = append(lines, "", p.ordersView(), "", p.logView())
	return fitHeight(strings.Join(lines, "\n"), p.h)
}

func (p *portfolioPane) pnl(d decimal.Decimal) string { return p.pnlPad(d, 0) }

// pnlPad colours a P&L value after right-aligning it to width cells, so
// table columns stay aligned despite the escape codes.
func (p *portfolioPane) pnlPad(d decimal.Decimal, width int) string {
	s := money(d)
	if d.Sign() > 0 {
		s = "+" + s
	}
	s = fmt.Sprintf("%*s", width, s)
	switch d.Sign() {
	case 1:
		return p.m.st.Profit.Render(s)
	case -1:
		return p.m.st.Loss.Render(s)
	}
	return s
}

func money(d decimal.Decimal) string { return d.StringFixed(2) }

func (p *portfolioPane) positionsView() string {
	st := p.m.st
	rows := []string{st.Accent.Render("Positions")}
	if len(p.positions) == 0 {
		return stack(rows[0], st.Muted.Render("  none"))
	}
	rows = append(rows, st.Muted.Render(fmt.Sprintf("  %-8s %5s %10s %10s %12s %12s", "Symbol", "Side", "Qty", "Price", "Value", "P&L")))
	for _, ps := range p.positions {
		rows = append(rows, fmt.Sprintf("  %-8s %5s %10s %10s %12s %s", ps.Symbol, ps.Side, ps.Quantity.String(),
			money(ps.MarketPrice), money(ps.MarketValue), p.pnlPad(ps.UnrealizedPnL, 12)))
	}
	return strings.Join(rows, "\n")
}

func (p *portfolioPane) ordersView() string {
	st := p.m.st
	rows := []string{st.Accent.Render("Open orders")}
	if len(p.orders) == 0 {
		return stack(rows[0], st.Muted.Render("  none"))
	}
	for _, o := range p.orders {
		price := ""
		if !o.Limit.IsZero() {
			price = "@" + money(o.Limit)
		}
		rows = append(rows, fmt.Sprintf("  %-14s %-4s %-8s %-7s %8s %-10s %s", ansi.Truncate(o.ID, 14, "…"), o.Action, o.Symbol, o.Type, o.Quantity.String(), price, o.Status))
	}
	return strings.Join(rows, "\n")
}

func (p *portfolioPane) logView() string {
	st := p.m.st
	rows := []string{st.Accent.Render("Trading log")}
	if len(p.log) == 0 {
		return stack(rows[0], st.Muted.Render("  no commits yet"))
	}
	for _, c := range p.log {
		rows = append(rows, fmt.Sprintf("  %s %s %s", st.Warn.Render(c.Hash), st.Muted.Render(c.Time.Format("01-02 15:04")), ansi.Truncate(c.Message, p.w-30, "…")))
		for _, ch := range c.Changes {
			rows = append(rows, st.Muted.Render("      "+ch))
		}
	}
	return strings.Join(rows, "\n")
}

// chartView draws the equity curve as block columns, h rows tall.
func (p *portfolioPane) chartView(w, h int) string {
	st := p.m.st
	title := st.Accent.Render("Equity")
	if len(p.curve) < 2 {
		return stack(title, st.Muted.Render("  collecting snapshots…"))
	}
	pts := resample(p.curve, w)
	lo, hi := pts[0], pts[0]
	for _, v := range pts {
		lo, hi = min(lo, v), max(hi, v)
	}
	span := hi - lo
	if span == 0 {
		span = 1
	}
	levels := []rune(" ▁▂▃▄▅▆▇█")
	grid := make([][]rune, h)
	for r := range grid {
		grid[r] = []rune(strings.Repeat(" ", len(pts)))
	}
	for x, v := range pts {
		filled := (v - lo) / span * float64(h*8)
		for r := 0; r < h; r++ {
			cell := filled - float64((h-1-r)*8)
			switch {
			case cell >= 8:
				grid[r][x] = '█'
			case cell > 0:
				grid[r][x] = levels[int(cell)]
			}
		}
	}
	rows := []string{title + st.Muted.Render(fmt.Sprintf("  %.2f – %.2f", lo, hi))}
	for _, g := range grid {
		rows = append(rows, st.Chart.Render(string(g)))
	}
	return strings.Join(rows, "\n")
}

// resample maps the curve onto w columns (last value per column).
func resample(curve []EquityPoint, w int) []float64 {
	if w <= 0 {
		w = 1
	}
	if len(curve) <= w {
		out := make([]float64, len(curve))
		for i, c := range curve {
			out[i] = c.Equity
		}
		return out
	}
	out := make([]float64, w)
	for i := range out {
		out[i] = curve[(i+1)*len(curve)/w-1].Equity
	}
	return out
}

// sideBySide joins two blocks in columns, the left padded to lw.
func sideBySide(left, right string, lw int) string {
	l, r := strings.Split(left, "\n"), strings.Split(right, "\n")
	n := max(len(l), len(r))
	out := make([]string, n)
	for i := 0; i < n; i++ {
		var a, b string
		if i < len(l) {
			a = l[i]
		}
		if i < len(r) {
			b = r[i]
		}
		if pad := lw - ansi.StringWidth(a); pad > 0 {
			a += strings.Repeat(" ", pad)
		}
		out[i] = ansi.Truncate(a, lw, "") + b
	}
	return strings.Join(out, "\n")
}
