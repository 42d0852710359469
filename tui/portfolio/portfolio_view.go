package portfolio

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// Portfolio layout: header, account summary and pending approval on top;
// the equity line chart across the full width; then positions, orders and
// the trading log — three columns on wide terminals, two on medium (log
// below), stacked on narrow ones. Tables stretch to their column's width.

// PositionHistoryCore gives recent prices per held symbol for the
// positions' sparklines (optional: without it the column is omitted).
type PositionHistoryCore interface {
	PositionHistory(account string) (map[string][]float64, error)
}

// SnapshotCore takes a snapshot on demand (optional: the palette offers
// "Take a snapshot now" only when the core can).
type SnapshotCore interface {
	TakeSnapshot(ctx context.Context, account string) error
}

// snapshotDoneMsg ends a manual snapshot.
type snapshotDoneMsg struct{ err error }

// takeSnapshot runs a manual snapshot with the progress line showing, then
// reloads the pane (the curve gains a point).
func (p *Pane) takeSnapshot() tea.Cmd {
	sc, ok := p.core.(SnapshotCore)
	acct := p.current()
	if !ok || acct == "" {
		return nil
	}
	ctx := p.m.AppContext()
	return tea.Batch(p.m.BeginWork("snapshot", "taking a snapshot of "+acct), func() tea.Msg {
		return snapshotDoneMsg{sc.TakeSnapshot(ctx, acct)}
	})
}

type positionHistoryMsg struct {
	account string
	prices  map[string][]float64
}

func (p *Pane) loadHistory() tea.Cmd {
	hc, ok := p.core.(PositionHistoryCore)
	acct := p.current()
	if !ok || acct == "" {
		return nil
	}
	return func() tea.Msg {
		prices, err := hc.PositionHistory(acct)
		if err != nil {
			return positionHistoryMsg{account: acct} // sparklines are optional: no toast
		}
		return positionHistoryMsg{acct, prices}
	}
}

func (p *Pane) View() string {
	st := p.m.Styles()
	if len(p.accounts) == 0 {
		none := st.Muted.Render("No trading accounts. Add one to accounts.json.")
		if p.halt.Halted {
			return kit.Stack(none, p.haltLine())
		}
		return kit.Stack(none)
	}
	// The account tabs and the key hint stay; the rest scrolls when it is
	// taller than the pane, marked "↑/↓ N more".
	body := kit.Window(*st, p.bodyLines(), p.top, p.bodyRows())
	return strings.Join(append([]string{p.headerLine()}, body...), "\n")
}

// bodyRows is how many rows the body has under the account tabs.
func (p *Pane) bodyRows() int { return max(1, p.h-1) }

// scrollable reports whether the body is taller than the pane.
func (p *Pane) scrollable() bool {
	return len(p.accounts) > 0 && len(p.bodyLines()) > p.bodyRows()
}

// scroll moves the body by delta lines, within what there is to show.
func (p *Pane) scroll(delta int) {
	if len(p.accounts) == 0 {
		p.top = 0
		return
	}
	p.top = kit.ScrollBy(p.top, delta, len(p.bodyLines()), p.bodyRows())
}

// headerLine is the account tabs and the view's key hint.
func (p *Pane) headerLine() string {
	st := p.m.Styles()
	var tabs []string
	for i, acc := range p.accounts {
		if i == p.acct {
			tabs = append(tabs, st.Selected.Render(" "+acc.ID+" "))
		} else {
			tabs = append(tabs, st.Muted.Render(" "+acc.ID+" "))
		}
	}
	hint := "  [ ] switch · a approve · x reject · r refresh · v history"
	if p.view == viewHistory {
		hint = "  [ ] switch · r refresh · v overview"
	}
	return ansi.Truncate(strings.Join(tabs, "")+st.Muted.Render(hint), p.w, "…")
}

// bodyLines is everything under the account tabs, one string a line:
// the summary, the kill switch, a pending approval, then the equity chart
// and the tables (or the history view), laid out for the pane's height
// as far as it goes and scrolled where it is taller.
func (p *Pane) bodyLines() []string {
	st := p.m.Styles()
	a := p.accounts[min(p.acct, len(p.accounts)-1)]
	// the summary's figures wrap, whole, onto as many lines as the width
	// needs (at 40 columns "Realized" would otherwise be cut off)
	lines := wrapItems([]string{
		st.Muted.Render("Net liq") + " " + kit.Money(a.NetLiq), st.Muted.Render("Cash") + " " + kit.Money(a.Cash),
		st.Muted.Render("Unrealized") + " " + p.pnl(a.UnrealizedPnL), st.Muted.Render("Realized") + " " + p.pnl(a.RealizedPnL),
		st.Muted.Render(a.Broker + " · " + a.Health)}, "   ", p.w)
	if p.halt.Halted {
		lines = append(lines, p.haltLine())
	}
	if a.Error != "" {
		// A broker's own words: one plain line (no escape sequences or
		// line breaks of its own), wrapped to the pane, at most 3 rows.
		wrapped := strings.Split(ansi.Wrap(plainLine(a.Error, 0), max(10, p.w), " "), "\n")
		if len(wrapped) > 3 {
			wrapped = append(wrapped[:2], ansi.Truncate(wrapped[2]+" "+strings.Join(wrapped[3:], " "), max(10, p.w), "…"))
		}
		for _, l := range wrapped {
			lines = append(lines, st.Error.Render(l))
		}
	}
	if pc, ok := p.pendingFor(a.ID); ok {
		// the operations come first and each on its own line; the
		// agent's message follows as one plain line, cut to the width, so
		// it can neither fake an operation nor push the real ones away
		lines = append(lines, st.Warn.Render(ansi.Truncate(fmt.Sprintf("⏳ Pending approval: %s %s — %s", plainLine(pc.Account, 0), pc.Hash, kit.Plural(len(pc.Operations), "operation")), p.w, "…")))
		for _, op := range pc.Operations {
			lines = append(lines, ansi.Truncate("   "+plainLine(op, 0), p.w, "…"))
		}
		lines = append(lines, ansi.Truncate("   message: "+plainLine(pc.Message, 0), p.w, "…"))
		lines = append(lines, st.Muted.Render("   press a to approve (push) or x to reject"))
	}
	lines = append(lines, "")
	head := 1 + len(lines) // the account tabs above
	if p.view == viewHistory {
		lines = append(lines, p.historyView(p.w, p.h-head))
	} else {
		tables := p.tablesView()
		tablesH := strings.Count(tables, "\n") + 1
		chartH := min(30, max(5, p.h-head-tablesH-1))
		lines = append(lines, p.chartView(p.w, chartH), "", tables)
	}
	return strings.Split(strings.Join(lines, "\n"), "\n")
}

// wrapItems joins items with sep into lines at most w cells wide, never
// splitting an item (one wider than w is cut with "…").
func wrapItems(items []string, sep string, w int) []string {
	var out []string
	cur := ""
	for _, it := range items {
		switch {
		case cur == "":
			cur = it
		case ansi.StringWidth(cur+sep+it) <= w:
			cur += sep + it
		default:
			out = append(out, cur)
			cur = it
		}
	}
	out = append(out, cur)
	for i, l := range out {
		out[i] = ansi.Truncate(l, max(1, w), "…")
	}
	return out
}

// tablesView lays out positions, orders and log for the pane's width.
func (p *Pane) tablesView() string {
	const gap = 3
	switch {
	case p.w >= 190: // three columns of ≥ 62 cells (a position row is ~60)
		cw := (p.w - 2*gap) / 3
		return columns([]string{p.positionsView(cw), p.ordersView(cw), p.logView(p.w - 2*(cw+gap))}, []int{cw, cw}, gap)
	case p.w >= 124:
		cw := (p.w - gap) / 2
		return columns([]string{p.positionsView(cw), p.ordersView(p.w - cw - gap)}, []int{cw}, gap) + "\n\n" + p.logView(p.w)
	}
	return kit.Stack(p.positionsView(p.w), "", p.ordersView(p.w), "", p.logView(p.w))
}

// columns joins blocks side by side; widths are those of all but the last.
func columns(blocks []string, widths []int, gap int) string {
	split := make([][]string, len(blocks))
	n := 0
	for i, b := range blocks {
		split[i] = strings.Split(b, "\n")
		n = max(n, len(split[i]))
	}
	out := make([]string, n)
	for r := 0; r < n; r++ {
		var b strings.Builder
		for i := range blocks {
			cell := ""
			if r < len(split[i]) {
				cell = split[i][r]
			}
			if i < len(widths) {
				cell = kit.Pad(ansi.Truncate(cell, widths[i], "…"), widths[i], false) + strings.Repeat(" ", gap)
			}
			b.WriteString(cell)
		}
		out[r] = b.String()
	}
	return strings.Join(out, "\n")
}

// col is one table column: a header, a natural width, alignment and
// whether it takes the spare width.
type col struct {
	title string
	width int
	right bool
	flex  bool
}

// table renders rows in w cells: every column gets its natural width, a
// flex column up to 40 more, and what is left is shared evenly (k9s-style:
// tables fill the view without one huge gap). A number column (right
// aligned) is as wide as its widest value: its cells are never cut (a
// quantity of 1000000000 shown as "10000…" reads as 10000). Text columns
// give up their width first; on a pane too narrow even for that, columns
// are left out whole from the right.
func table(st kit.Styles, title string, cols []col, rows [][]string, w int) string {
	const minText = 4 // a text column keeps at least "abc…"
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = c.width
		if c.right {
			widths[i] = max(widths[i], ansi.StringWidth(c.title))
			for _, r := range rows {
				if i < len(r) {
					widths[i] = max(widths[i], ansi.StringWidth(r[i]))
				}
			}
		}
	}
	used := func() int {
		n := 2 + len(widths) - 1 // indent and separators
		for _, x := range widths {
			n += x
		}
		return n
	}
	// Too wide: shrink the text columns, flex ones first, then from the
	// right, each down to its title (at least 4 cells); the first column
	// names the row and keeps its width.
	for _, flex := range []bool{true, false} {
		for i := len(cols) - 1; i > 0; i-- {
			floor := max(minText, ansi.StringWidth(cols[i].title))
			if over := used() - w; over > 0 && !cols[i].right && cols[i].flex == flex && widths[i] > floor {
				widths[i] -= min(over, widths[i]-floor)
			}
		}
	}
	// Still too wide: drop columns from the right, whole.
	for len(widths) > 1 && used() > w {
		widths, cols = widths[:len(widths)-1], cols[:len(cols)-1]
	}
	spare := max(0, w-used())
	for i, c := range cols {
		if c.flex {
			extra := min(spare, 40)
			widths[i] += extra
			spare -= extra
		}
	}
	for i := range widths {
		widths[i] += spare / len(widths)
	}
	line := func(cells []string, style func(string) string) string {
		var b strings.Builder
		b.WriteString("  ")
		for i, c := range cells[:min(len(cells), len(widths))] {
			cell := c
			if !cols[i].right {
				cell = ansi.Truncate(c, widths[i], "…")
			}
			b.WriteString(kit.Pad(cell, widths[i], cols[i].right))
			if i < len(widths)-1 {
				b.WriteByte(' ')
			}
		}
		return style(b.String())
	}
	heads := make([]string, len(cols))
	for i, c := range cols {
		heads[i] = c.title
	}
	out := []string{st.Accent.Render(title), line(heads, func(s string) string { return st.Muted.Render(s) })}
	for _, r := range rows {
		// a last resort (a pane narrower than the first column): the
		// columns kept above fit w, so this never cuts a number
		out = append(out, ansi.Truncate(line(r, func(s string) string { return s }), w, "…"))
	}
	return strings.Join(out, "\n")
}

func (p *Pane) positionsView(w int) string {
	st := p.m.Styles()
	if len(p.positions) == 0 {
		return kit.Stack(st.Accent.Render("Positions"), st.Muted.Render("  none"))
	}
	cols := []col{{"Symbol", 8, false, false}, {"Side", 5, false, false}, {"Qty", 8, true, false},
		{"Price", 10, true, false}, {"Value", 11, true, false}, {"P&L", 10, true, false}}
	if p.history != nil {
		cols = append(cols, col{"Trend", 6, false, true})
	}
	var rows [][]string
	for _, ps := range p.positions {
		r := []string{ps.Symbol, ps.Side, ps.Quantity.String(), kit.Money(ps.MarketPrice), kit.Money(ps.MarketValue), p.pnlPad(ps.UnrealizedPnL, 0)}
		if p.history != nil {
			spark := kit.Sparkline(p.history[ps.Symbol], 40)
			if spark == "" {
				spark = st.Muted.Render("—")
			} else {
				spark = st.Chart.Render(spark)
			}
			r = append(r, spark)
		}
		rows = append(rows, r)
	}
	return table(*st, "Positions", cols, rows, w)
}

func (p *Pane) ordersView(w int) string {
	st := p.m.Styles()
	if len(p.orders) == 0 {
		return kit.Stack(st.Accent.Render("Open orders"), st.Muted.Render("  none"))
	}
	cols := []col{{"Order", 10, false, true}, {"Side", 4, false, false}, {"Symbol", 7, false, false}, {"Type", 4, false, false},
		{"Qty", 7, true, false}, {"Limit", 9, true, false}, {"Status", 9, false, false}}
	var rows [][]string
	for _, o := range p.orders {
		limit := ""
		if !o.Limit.IsZero() {
			limit = kit.Money(o.Limit)
		}
		rows = append(rows, []string{o.ID, o.Action, o.Symbol, o.Type, o.Quantity.String(), limit, o.Status})
	}
	return table(*st, "Open orders", cols, rows, w)
}

func (p *Pane) logView(w int) string {
	st := p.m.Styles()
	rows := []string{st.Accent.Render("Trading log")}
	if len(p.log) == 0 {
		return kit.Stack(rows[0], st.Muted.Render("  no commits yet"))
	}
	for _, c := range p.log {
		rows = append(rows, ansi.Truncate(fmt.Sprintf("  %s %s %s", st.Warn.Render(c.Hash), st.Muted.Render(c.Time.Format("01-02 15:04")), plainLine(c.Message, 0)), w, "…"))
		for _, ch := range c.Changes {
			rows = append(rows, st.Muted.Render(ansi.Truncate("      "+plainLine(ch, 0), w, "…")))
		}
	}
	return strings.Join(rows, "\n")
}

// chartView is the equity curve with its period high, low and change.
func (p *Pane) chartView(w, h int) string {
	st := p.m.Styles()
	title := st.Accent.Render("Equity")
	if len(p.curve) < 2 {
		return kit.Stack(title, st.Muted.Render("  collecting snapshots… (the curve appears after the second one)"))
	}
	hiI, loI := 0, 0
	for i, pt := range p.curve {
		if pt.Equity > p.curve[hiI].Equity {
			hiI = i
		}
		if pt.Equity < p.curve[loI].Equity {
			loI = i
		}
	}
	first, last := p.curve[0], p.curve[len(p.curve)-1]
	change := last.Equity - first.Equity
	pct := 0.0
	if first.Equity != 0 {
		pct = change / first.Equity * 100
	}
	chg := fmt.Sprintf("%+.2f (%+.2f%%)", change, pct)
	switch {
	case change > 0:
		chg = st.Profit.Render(chg)
	case change < 0:
		chg = st.Loss.Render(chg)
	}
	stamp := "01-02 15:04"
	head := title + st.Muted.Render(fmt.Sprintf("  %s → %s  high ", first.Time.Format(stamp), last.Time.Format(stamp))) +
		fmt.Sprintf("%.2f", p.curve[hiI].Equity) + st.Muted.Render(" ("+p.curve[hiI].Time.Format(stamp)+")  low ") +
		fmt.Sprintf("%.2f", p.curve[loI].Equity) + st.Muted.Render(" ("+p.curve[loI].Time.Format(stamp)+")  change ") + chg
	chart := kit.LineChart(*st, p.curve, w, h-1, func(v float64) string { return fmt.Sprintf("%.2f", v) })
	return kit.Stack(ansi.Truncate(head, w, "…"), chart)
}

// plainLine is text an agent supplied (a commit message, a symbol inside
// an operation) as the pane may show it: one line with no control
// characters, escape sequences or bidirectional overrides (see
// core.PlainLine), cut at max characters when max > 0.
func plainLine(s string, max int) string { return core.PlainLine(s, max) }

// plainLines is plainLine for text alice laid out in lines (an approval's
// evidence): each line made safe on its own.
func plainLines(s string) string { return core.PlainLines(s) }
