package market

import (
	"fmt"
	"math"
	"strings"

	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
)

func (p *Pane) View() string {
	st := p.m.Styles()
	if _, ok := p.core(); !ok {
		return kit.Stack(st.Title.Render("Market"), st.Muted.Render(errNoMarket.Error()))
	}
	lines := []string{p.headerLine()}
	if p.Symbol != "" {
		lines = append(lines, p.quoteLine())
	}
	if len(p.results) > 0 && !p.picking && p.Symbol != "" {
		lines = append(lines, p.resultsLine())
	}
	switch p.Mode {
	case mkSearch:
		lines = append(lines, st.Accent.Render("Search ")+p.Input.View())
	case mkIndicator:
		lines = append(lines, st.Accent.Render("Indicator ")+p.Input.View())
	case MkSim:
		lines = append(lines, st.Warn.Render("Simulator ")+p.Input.View())
	}
	if p.searching != "" {
		lines = append(lines, ansi.Truncate(st.Muted.Render(fmt.Sprintf("Searching %q…  esc gives up", p.searching)), p.w, "…"))
	}
	if p.picking {
		lines = append(lines, p.resultRows(p.h-len(lines))...)
		return kit.FitHeight(strings.Join(lines, "\n"), p.h)
	}
	if p.Symbol == "" {
		lines = append(lines, p.listView(p.w, p.h-len(lines))...)
		return kit.FitHeight(strings.Join(lines, "\n"), p.h)
	}
	lines = append(lines, p.chartHeader())
	var lower []string
	if p.Mode == MkOrder {
		lower = strings.Split(p.Form.view(*st, p.w), "\n")
	} else {
		lower = p.lowerSection()
	}
	chartH := max(3, p.h-len(lines)-len(lower)-1)
	chart := CandleChart{Candles: p.Candles, W: p.w, H: chartH, Cw: p.Zoom}
	for _, o := range p.Overlays {
		chart.Overlays = append(chart.Overlays, o.Values)
	}
	if len(p.Candles) == 0 {
		lines = append(lines, kit.FitHeight(st.Muted.Render("  loading "+MarketIntervals[p.Interval]+" bars…"), chartH))
	} else {
		lines = append(lines, chart.Render(*st))
	}
	lines = append(lines, lower...)
	return kit.FitHeight(strings.Join(lines, "\n"), p.h)
}

func (p *Pane) headerLine() string {
	st := p.m.Styles()
	var tabs []string
	for i, a := range p.accounts {
		if i == p.acct {
			tabs = append(tabs, st.Selected.Render(" "+a.ID+" "))
		} else {
			tabs = append(tabs, st.Muted.Render(" "+a.ID+" "))
		}
	}
	s := st.Title.Render("Market") + "  " + strings.Join(tabs, "") + st.Muted.Render("  / search · [ ] account")
	return ansi.Truncate(s, p.w, "…")
}

func (p *Pane) quoteLine() string {
	st := p.m.Styles()
	q := p.quote
	name := ""
	for _, r := range p.results {
		if r.Symbol == p.Symbol && r.Name != "" {
			name = " " + r.Name
		}
	}
	s := st.Title.Render(p.Symbol) + st.Muted.Render(name+" · "+p.class)
	switch {
	case q.Simulated:
		s += st.Muted.Render(" · ") + st.Warn.Render("simulated")
	case q.Source != "":
		s += st.Muted.Render(" · " + q.Source)
	}
	if !q.Last.IsZero() {
		places := pricePlaces(q.Last)
		chg := fmt.Sprintf("%s (%s%%)", signed(q.Change.StringFixed(places)), signed(q.ChangePct.StringFixed(2)))
		switch q.Change.Sign() {
		case 1:
			chg = st.Profit.Render(chg)
		case -1:
			chg = st.Loss.Render(chg)
		}
		s += "   " + st.Text.Render(q.Last.StringFixed(places)) + " " + chg
		if !q.Volume.IsZero() {
			s += st.Muted.Render("   vol ") + compactNumber(q.Volume)
		}
		if !q.Bid.IsZero() || !q.Ask.IsZero() {
			s += st.Muted.Render("   bid/ask ") + q.Bid.StringFixed(places) + "/" + q.Ask.StringFixed(places)
		}
	}
	return ansi.Truncate(s, p.w, "…")
}

// resultRows lists search results to pick from: symbol, name, class.
func (p *Pane) resultRows(h int) []string {
	st := p.m.Styles()
	out := []string{st.Accent.Render(fmt.Sprintf("Results (%d)", len(p.results))) + st.Muted.Render("  ↑/↓ select · enter show · esc back")}
	for i, r := range p.results {
		if len(out) >= h {
			break
		}
		line := fmt.Sprintf("  %-12s %-40s %s", r.Symbol, ansi.Truncate(r.Name, 40, "…"), r.Class)
		if i == p.sel {
			out = append(out, st.Selected.Render(ansi.Truncate("›"+line[1:], p.w, "…")))
		} else {
			out = append(out, ansi.Truncate(line, p.w, "…"))
		}
	}
	return out
}

func (p *Pane) resultsLine() string {
	st := p.m.Styles()
	parts := []string{st.Muted.Render("Results")}
	for i, r := range p.results {
		label := r.Symbol
		if i == p.sel {
			parts = append(parts, st.Selected.Render(" "+label+" "))
		} else {
			parts = append(parts, " "+label+" ")
		}
	}
	return ansi.Truncate(strings.Join(parts, ""), p.w, "…")
}

// chartHeader shows the intervals, zoom and overlay legend.
func (p *Pane) chartHeader() string {
	st := p.m.Styles()
	var b strings.Builder
	for i, iv := range MarketIntervals {
		if i == p.Interval {
			b.WriteString(st.Selected.Render(" " + iv + " "))
		} else {
			b.WriteString(st.Muted.Render(" " + iv + " "))
		}
	}
	b.WriteString(st.Muted.Render(fmt.Sprintf("  zoom %d", p.Zoom)))
	styles := []func(...string) string{st.Accent.Render, st.Warn.Render, st.Assistant.Render, st.Text.Render}
	for i, o := range p.Overlays {
		b.WriteString("  ")
		if o.Err != "" {
			b.WriteString(st.Error.Render("✗ " + o.formula + ": " + o.Err))
			continue
		}
		last := ""
		if n := len(o.Values); n > 0 && !math.IsNaN(o.Values[n-1]) {
			last = " " + priceLabel(o.Values[n-1])
		}
		b.WriteString(styles[i%len(styles)]("• " + o.formula + last))
	}
	return ansi.Truncate(b.String(), p.w, "…")
}

// lowerSection lists the position, open orders and news for the symbol.
func (p *Pane) lowerSection() []string {
	st := p.m.Styles()
	left := []string{st.Accent.Render("Position in " + p.Symbol)}
	found := false
	for _, ps := range p.positions {
		if strings.EqualFold(ps.Symbol, p.Symbol) {
			found = true
			// The account's mark (a simulator may pin it away from the feed).
			left = append(left, fmt.Sprintf("  %s %s @ %s  mark %s  value %s  P&L %s", ps.Side, ps.Quantity.String(), kit.Money(ps.AvgCost),
				kit.Money(ps.MarketPrice), kit.Money(ps.MarketValue), kit.PnlPad(p.m.Styles(), ps.UnrealizedPnL, 0)))
		}
	}
	if !found {
		left = append(left, st.Muted.Render("  none"))
	}
	var ords []string
	for _, o := range p.orders {
		if strings.EqualFold(o.Symbol, p.Symbol) {
			price := ""
			if !o.Limit.IsZero() {
				price = " @" + kit.Money(o.Limit)
			}
			ords = append(ords, fmt.Sprintf("  %s %s %s%s  %s", o.Action, o.Quantity.String(), o.Type, price, st.Muted.Render(o.Status)))
		}
	}
	left = append(left, st.Accent.Render("Open orders"))
	if len(ords) == 0 {
		ords = []string{st.Muted.Render("  none")}
	}
	left = append(left, ords[:min(len(ords), 3)]...)

	right := []string{st.Accent.Render("News")}
	if len(p.news) == 0 {
		right = append(right, st.Muted.Render("  nothing in the archive mentions "+p.Symbol))
	}
	for _, n := range p.news[:min(len(p.news), 4)] {
		src := ""
		if n.Source != "" {
			src = st.Muted.Render("  " + n.Source)
		}
		right = append(right, "  "+n.Title+src)
	}
	if p.w >= 120 {
		lw := p.w / 2
		for i := range right {
			right[i] = ansi.Truncate(right[i], p.w-lw, "…")
		}
		return strings.Split(kit.SideBySide(strings.Join(left, "\n"), strings.Join(right, "\n"), lw), "\n")
	}
	out := append(left, right[:min(len(right), 3)]...)
	for i := range out {
		out[i] = ansi.Truncate(out[i], p.w, "…")
	}
	return out
}

// compactNumber renders a volume as 1.2K / 3.4M / 5.6B.
func compactNumber(d decimal.Decimal) string {
	f, _ := d.Float64()
	switch a := math.Abs(f); {
	case a >= 1e9:
		return fmt.Sprintf("%.1fB", f/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.1fM", f/1e6)
	case a >= 1e3:
		return fmt.Sprintf("%.1fK", f/1e3)
	}
	return d.String()
}

// pricePlaces is how many decimals a price is shown with: two from 10
// up (equities, indices, gold), four from 1 (currency pairs: 1.0843),
// and four significant digits below 1 (0.6521, small coins).
func pricePlaces(price decimal.Decimal) int32 {
	a := price.Abs()
	switch {
	case a.IsZero() || a.GreaterThanOrEqual(decimal.NewFromInt(10)):
		return 2
	case a.GreaterThanOrEqual(decimal.NewFromInt(1)):
		return 4
	}
	places := int32(3)
	for one := decimal.NewFromInt(1); a.LessThan(one) && places < 12; a = a.Mul(decimal.NewFromInt(10)) {
		places++
	}
	return places
}
