package market

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/tui/kit"
)

// The Market pane starts on a list rather than an empty screen: the
// watchlist (persisted, w adds or removes the shown symbol) and the
// symbols the account holds, each with its last price, the day's change
// and a sparkline, refreshed with the pane. ↑/↓ and enter open one;
// typing a ticker starts a search.

// WatchCore keeps the watchlist; tui/live provides it.
type WatchCore interface {
	Watchlist() ([]WatchItem, error)
	WatchAdd(symbol, class string) ([]WatchItem, error)
	WatchRemove(symbol string) ([]WatchItem, error)
}

// WatchItem is one watched symbol.
type WatchItem struct {
	Symbol string
	Class  string
}

// listRow is one row of the start list.
type listRow struct {
	Symbol, Class string
	Held          bool // from a position
	Watched       bool
	Quote         MarketQuote
	Spark         []float64
	Err           string
}

type (
	watchlistMsg struct {
		items   []WatchItem
		err     error
		toggled string // the symbol w added or removed
	}
	rowQuoteMsg struct {
		symbol string
		quote  MarketQuote
		spark  []float64
		err    error
	}
)

func (p *Pane) watchCore() (WatchCore, bool) {
	wc, ok := p.base.(WatchCore)
	return wc, ok
}

// loadWatchlist reads the watchlist.
func (p *Pane) loadWatchlist() tea.Cmd {
	wc, ok := p.watchCore()
	if !ok {
		return nil
	}
	return func() tea.Msg { items, err := wc.Watchlist(); return watchlistMsg{items: items, err: err} }
}

// rows is the start list: watched symbols first, then held ones.
func (p *Pane) rows() []listRow {
	var out []listRow
	seen := map[string]int{}
	for _, w := range p.watch {
		seen[w.Symbol] = len(out)
		out = append(out, listRow{Symbol: w.Symbol, Class: w.Class, Watched: true})
	}
	for _, ps := range p.positions {
		sym := strings.ToUpper(ps.Symbol)
		if i, ok := seen[sym]; ok {
			out[i].Held = true
			continue
		}
		seen[sym] = len(out)
		out = append(out, listRow{Symbol: sym, Class: "equity", Held: true})
	}
	for i := range out {
		if q, ok := p.rowQuotes[out[i].Symbol]; ok {
			out[i].Quote, out[i].Spark, out[i].Err = q.Quote, q.Spark, q.Err
		}
	}
	return out
}

// loadRowQuotes fetches quote and sparkline for every start-list row.
func (p *Pane) loadRowQuotes() tea.Cmd {
	mc, ok := p.core()
	if !ok {
		return nil
	}
	fetch := p.rowQuoteFetcher(mc)
	var cmds []tea.Cmd
	for _, r := range p.rows() {
		sym, class := r.Symbol, r.Class
		cmds = append(cmds, func() tea.Msg { return fetch(sym, class) })
	}
	return tea.Batch(cmds...)
}

// rowQuoteFetcher fetches a start-list row's quote and sparkline; on a
// simulator account the last price is the account's own mark (which a
// simulator move pins away from the feed), as on the quote line.
func (p *Pane) rowQuoteFetcher(mc MarketCore) func(sym, class string) tea.Msg {
	ctx, acct := p.m.AppContext(), p.current()
	sc, sim := p.base.(SimCore)
	if !sim || !p.onSimulator() {
		sc = nil
	}
	return func(sym, class string) tea.Msg { return fetchRowQuote(ctx, mc, sc, acct, sym, class) }
}

func fetchRowQuote(ctx context.Context, mc MarketCore, sc SimCore, acct, sym, class string) tea.Msg {
	q, err := mc.MarketQuote(ctx, sym, class)
	if err != nil {
		return rowQuoteMsg{symbol: sym, err: err}
	}
	var mark decimal.Decimal
	if sc != nil {
		if m, err := sc.SimMark(ctx, acct, sym); err == nil && m.IsPositive() {
			mark = m
			q = withLast(q, mark)
		}
	}
	var spark []float64
	if cs, err := mc.Candles(ctx, sym, class, "1h", 24); err == nil {
		for _, c := range atMark(cs, mark) {
			spark = append(spark, c.Close)
		}
	}
	return rowQuoteMsg{symbol: sym, quote: q, spark: spark}
}

// toggleWatch adds the shown symbol to the watchlist or removes it.
func (p *Pane) toggleWatch() tea.Cmd {
	wc, ok := p.watchCore()
	if !ok {
		return kit.FlashCmd("the watchlist is not available here")
	}
	sym, class := p.Symbol, p.class
	if sym == "" {
		rows := p.rows()
		if p.listSel >= len(rows) {
			return kit.FlashCmd("pick a symbol first")
		}
		sym, class = rows[p.listSel].Symbol, rows[p.listSel].Class
	}
	watched := false
	for _, w := range p.watch {
		watched = watched || w.Symbol == sym
	}
	return func() tea.Msg {
		var items []WatchItem
		var err error
		if watched {
			items, err = wc.WatchRemove(sym)
		} else {
			items, err = wc.WatchAdd(sym, class)
		}
		return watchlistMsg{items: items, err: err, toggled: sym}
	}
}

// sparkline draws values as block characters over w cells; a flat series
// is a flat line, never stretched into a zig-zag.
func Sparkline(values []float64, w int) string {
	if len(values) == 0 || w <= 0 {
		return ""
	}
	if len(values) > w {
		values = values[len(values)-w:]
	}
	lo, hi := values[0], values[0]
	for _, v := range values {
		lo, hi = min(lo, v), max(hi, v)
	}
	blocks := []rune("▁▂▃▄▅▆▇█")
	var b strings.Builder
	for _, v := range values {
		i := 0
		// A range under 0.1% of the price is noise: draw it flat.
		if hi > lo && (hi-lo) > 0.001*max(hi, -lo) {
			i = int((v - lo) / (hi - lo) * float64(len(blocks)-1))
		}
		b.WriteRune(blocks[i])
	}
	return b.String()
}

// listView renders the start list in w×h.
func (p *Pane) listView(w, h int) []string {
	st := p.m.Styles()
	rows := p.rows()
	if len(rows) == 0 {
		return []string{st.Muted.Render("Type a ticker (or / to search by name), ↑/↓ and enter to pick one; w adds the shown symbol to the watchlist."),
			st.Muted.Render("Then: t interval · +/- zoom · i indicator · a ask Alice · o stage an order · s simulator")}
	}
	head := st.Accent.Render("Watchlist and holdings")
	if src, sim := listSource(rows); sim {
		head += " " + st.Warn.Render("simulated prices")
	} else if src != "" {
		head += st.Muted.Render(" · " + src)
	}
	out := []string{ansi.Truncate(head+st.Muted.Render("  enter open · w add/remove · type a ticker to search"), w, "…")}
	for i, r := range rows {
		if len(out) >= h {
			break
		}
		tag := "  "
		switch {
		case r.Watched && r.Held:
			tag = "★●"
		case r.Watched:
			tag = "★ "
		case r.Held:
			tag = "● "
		}
		last, chg := "—", ""
		if !r.Quote.Last.IsZero() {
			last = r.Quote.Last.StringFixed(pricePlaces(r.Quote.Last))
			chg = fmt.Sprintf("%s%%", signed(r.Quote.ChangePct.StringFixed(2)))
		}
		if r.Err != "" {
			chg = "quote failed"
		}
		line := fmt.Sprintf("%s %-10s %12s %9s  ", tag, ansi.Truncate(r.Symbol, 10, "…"), last, chg)
		spark := Sparkline(r.Spark, max(0, w-ansi.StringWidth(line)-1))
		switch r.Quote.Change.Sign() {
		case 1:
			chg = st.Profit.Render(chg)
		case -1:
			chg = st.Loss.Render(chg)
		}
		if i == p.listSel {
			out = append(out, st.Selected.Render(ansi.Truncate(line+spark, w, "…")))
		} else {
			out = append(out, ansi.Truncate(line, w, "…")+st.Muted.Render(spark))
		}
	}
	return out
}

// isTicker reports a key that starts a search from the empty pane.
func isTicker(s string) bool {
	if len(s) != 1 {
		return false
	}
	c := s[0]
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
}

// unwatchSelected removes the selected start-list row from the watchlist
// (held positions are not in it: they stay listed while held).
func (p *Pane) unwatchSelected() tea.Cmd {
	rows := p.rows()
	if p.listSel >= len(rows) {
		return nil
	}
	sym := rows[p.listSel].Symbol
	for _, w := range p.watch {
		if w.Symbol == sym {
			return p.toggleWatch()
		}
	}
	return kit.FlashCmd(sym + " is listed because it is held, not watched")
}

// ListSelected is the start list's selected symbol ("" when empty).
func (p *Pane) ListSelected() string { return kit.KeyAt(p.rows(), rowKey, p.listSel) }

func rowKey(r listRow) string { return r.Symbol }

func instrumentKey(m MarketInstrument) string { return m.Symbol + "\x00" + m.Class }

// listSource is the provider of the list's quotes: sim is true when any
// came from the simulated market (the header then says so), else src is
// the one provider that answered ("" when none did or they differ).
func listSource(rows []listRow) (src string, sim bool) {
	for _, r := range rows {
		switch {
		case r.Quote.Simulated:
			return "", true
		case r.Quote.Source == "":
		case src == "":
			src = r.Quote.Source
		case src != r.Quote.Source:
			src = "mixed sources"
		}
	}
	return src, false
}
