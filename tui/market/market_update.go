package market

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// marketKeys are the Market pane's bindings (kept next to the pane so
// panes added by different people do not collide in keys.go).
type marketKeys struct {
	Search, Up, Down, Select, Interval, ZoomIn, ZoomOut, Indicator, DropIndicator,
	Ask, Order, Sim, PrevAccount, NextAccount, Refresh, Watch, Unwatch, ListUp, ListDown, List,
	Submit, Back, FormNext, FormPrev, FormCycle key.Binding
}

func DefaultMarketKeys() marketKeys {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return marketKeys{
		Search:        b("/", "search symbol", "/"),
		Up:            b("↑/k", "previous result", "up", "k"),
		Down:          b("↓/j", "next result", "down", "j"),
		Select:        b("enter", "show symbol", "enter"),
		Interval:      b("t", "interval 1m/5m/1h/1d", "t"),
		ZoomIn:        b("+", "zoom in", "+", "="),
		ZoomOut:       b("-", "zoom out", "-"),
		Indicator:     b("i", "add indicator formula", "i"),
		DropIndicator: b("D", "remove last indicator", "D"),
		Ask:           b("a", "ask Alice about this", "a"),
		Order:         b("o", "stage an order", "o"),
		Sim:           b("s", "simulator controls", "s"),
		PrevAccount:   b("[", "previous account", "["),
		NextAccount:   b("]", "next account", "]"),
		Refresh:       b("r", "refresh", "r"),
		Watch:         b("w", "add/remove watchlist", "w"),
		// On the start list every letter starts a search, so the list
		// moves with the arrows only and del removes a watched row.
		Unwatch:   b("del", "remove from watchlist", "delete", "backspace"),
		ListUp:    b("↑", "previous row", "up"),
		ListDown:  b("↓", "next row", "down"),
		List:      b("esc", "back to the list", "esc"),
		Submit:    b("enter", "submit", "enter"),
		Back:      b("esc", "cancel", "esc"),
		FormNext:  b("↓", "next field", "down"),
		FormPrev:  b("↑", "previous field", "up"),
		FormCycle: b("←/→/space", "change choice", "left", "right", "space"),
	}
}

func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case marketAccountMsg:
		p.accounts = msg.accounts
		p.acct = 0
		for i, a := range p.accounts {
			if a.ID == msg.account {
				p.acct = i
			}
		}
		prev := p.ListSelected()
		p.positions, p.orders = msg.positions, msg.orders
		p.listSel = kit.Reselect(p.rows(), rowKey, prev, p.listSel)
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		// Holdings new to the start list get their quotes.
		var missing []tea.Cmd
		if mc, ok := p.core(); ok && p.Symbol == "" {
			fetch := p.rowQuoteFetcher(mc)
			for _, r := range p.rows() {
				if _, ok := p.rowQuotes[r.Symbol]; !ok {
					sym, class := r.Symbol, r.Class
					p.rowQuotes[sym] = listRow{}
					missing = append(missing, func() tea.Msg { return fetch(sym, class) })
				}
			}
		}
		return tea.Batch(missing...)
	case watchlistMsg:
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		prev := p.ListSelected()
		p.watch = msg.items
		p.listSel = kit.Reselect(p.rows(), rowKey, prev, p.listSel)
		var note tea.Cmd
		if msg.toggled != "" {
			verb := "removed from"
			for _, w := range msg.items {
				if w.Symbol == msg.toggled {
					verb = "added to"
				}
			}
			note = kit.FlashCmd(msg.toggled + " " + verb + " the watchlist")
		}
		if p.Symbol != "" {
			return note
		}
		return tea.Batch(note, p.loadRowQuotes())
	case rowQuoteMsg:
		r := listRow{Quote: msg.quote, Spark: msg.spark}
		if msg.err != nil {
			r.Err = msg.err.Error()
		}
		p.rowQuotes[msg.symbol] = r
		return nil
	case marketSearchMsg:
		if msg.query != p.searching {
			return nil // given up (esc) or overtaken by a newer search
		}
		p.searching = ""
		// A refined search keeps the cursor on its symbol when it is still
		// listed, else starts at the best match.
		k := kit.KeyAt(p.results, instrumentKey, p.sel)
		p.results = msg.results
		p.sel = kit.Reselect(p.results, instrumentKey, k, 0)
		p.picking = len(msg.results) > 0
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		if len(p.results) == 0 {
			return kit.FlashCmd(fmt.Sprintf("no symbol matches %q", msg.query))
		}
	case marketDataMsg:
		if msg.symbol != p.Symbol || msg.interval != MarketIntervals[p.Interval] {
			return nil // a stale answer for a symbol or interval no longer shown
		}
		p.quote, p.Candles, p.news = msg.quote, msg.candles, msg.news
		if msg.err != nil {
			return tea.Batch(kit.ErrCmd(msg.err), p.reloadIndicators())
		}
		return p.reloadIndicators()
	case marketIndicatorMsg:
		o := overlay{formula: msg.formula, Values: msg.values}
		if msg.err != nil {
			o.Err, o.Values = msg.err.Error(), nil
		}
		for i := range p.Overlays {
			if p.Overlays[i].formula == msg.formula {
				p.Overlays[i] = o
				return nil
			}
		}
		p.Overlays = append(p.Overlays, o)
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
	case orderStagedMsg:
		text := msg.text
		return tea.Batch(p.Load(), p.m.ReloadPortfolio(), kit.FlashCmd(text))
	case simDoneMsg:
		p.simNote = msg.text
		return tea.Batch(p.Load(), p.loadSymbol(), p.m.ReloadPortfolio(), kit.FlashCmd(msg.text))
	case tea.KeyPressMsg:
		return p.onKey(msg)
	case tea.PasteMsg:
		return p.onPaste(msg)
	}
	return nil
}

// onPaste types pasted text (its lines joined by spaces; the inputs are
// one line): into the open input, into the ticket's focused number (as
// it came: the ticket filters nothing), or,
// on the start list, into a new search.
func (p *Pane) onPaste(msg tea.PasteMsg) tea.Cmd {
	text := kit.OneLine(msg.Content)
	if text == "" {
		return nil
	}
	switch p.Mode {
	case mkSearch, mkIndicator, MkSim:
		var cmd tea.Cmd
		p.Input, cmd = p.Input.Update(tea.PasteMsg{Content: text})
		return cmd
	case MkOrder:
		p.Form.paste(text)
		return nil
	}
	if p.Symbol == "" && !p.picking {
		return p.openInput(mkSearch, "symbol or name, e.g. AAPL, apple, bitcoin", text)
	}
	return nil
}

func (p *Pane) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := p.keys
	switch p.Mode {
	case MkOrder:
		return p.Form.onKey(p, msg)
	case mkSearch, mkIndicator, MkSim:
		switch {
		case key.Matches(msg, k.Back):
			p.Mode = MkBrowse
			p.Input.Blur()
			return nil
		case key.Matches(msg, k.Submit):
			return p.submitInput()
		}
		var cmd tea.Cmd
		p.Input, cmd = p.Input.Update(msg)
		return cmd
	}
	// While a search is under way enter waits for its results (it would
	// open the list's row) and esc gives the search up.
	if p.searching != "" {
		switch {
		case key.Matches(msg, k.Back):
			p.searching = ""
			return nil
		case key.Matches(msg, k.Select):
			return nil
		}
	}
	// The start list (no symbol shown, no results to pick from): ↑/↓,
	// enter, w; a letter or digit starts a search with it.
	if p.Symbol == "" && !p.picking {
		rows := p.rows()
		switch {
		case key.Matches(msg, k.ListUp):
			p.listSel = max(0, p.listSel-1)
			return nil
		case key.Matches(msg, k.ListDown):
			p.listSel = min(max(0, len(rows)-1), p.listSel+1)
			return nil
		case key.Matches(msg, k.Select):
			if p.listSel < len(rows) {
				return p.show(MarketInstrument{Symbol: rows[p.listSel].Symbol, Class: rows[p.listSel].Class})
			}
			return nil
		case key.Matches(msg, k.Unwatch):
			return p.unwatchSelected()
		case isTicker(msg.String()):
			// Letters and digits are a ticker being typed, never pane keys
			// (w, j, k, r…): "wmt" searches WMT.
			return p.openInput(mkSearch, "symbol or name, e.g. AAPL, apple, bitcoin", msg.String())
		}
	}
	switch {
	case key.Matches(msg, k.Search):
		return p.openInput(mkSearch, "symbol or name, e.g. AAPL, apple, bitcoin", "")
	case key.Matches(msg, k.List) && (p.picking || p.Symbol != ""):
		if p.picking {
			p.picking = false
			return nil
		}
		// Back on the list, the cursor is on the symbol just shown.
		p.listSel = kit.Reselect(p.rows(), rowKey, p.Symbol, p.listSel)
		p.Symbol, p.Overlays, p.Candles = "", nil, nil
		return p.loadRowQuotes()
	case key.Matches(msg, k.Watch) && p.Symbol != "":
		return p.toggleWatch()
	case key.Matches(msg, k.Up):
		if p.sel > 0 {
			p.sel--
		}
	case key.Matches(msg, k.Down):
		if p.sel < len(p.results)-1 {
			p.sel++
		}
	case key.Matches(msg, k.Select):
		if p.sel < len(p.results) {
			return p.show(p.results[p.sel])
		}
	case key.Matches(msg, k.Interval):
		if p.Symbol == "" {
			return nil
		}
		p.Interval = (p.Interval + 1) % len(MarketIntervals)
		p.Candles = nil
		return p.loadSymbol()
	case key.Matches(msg, k.ZoomIn):
		p.Zoom = min(p.Zoom+1, 4)
	case key.Matches(msg, k.ZoomOut):
		p.Zoom = max(p.Zoom-1, 1)
	case key.Matches(msg, k.Indicator):
		if p.Symbol == "" {
			return kit.FlashCmd("search and pick a symbol first (/)")
		}
		// The example is the placeholder (dimmed, not part of the value):
		// typing replaces it and enter on the empty line adds it.
		return p.openInput(mkIndicator, fmt.Sprintf("SMA(CLOSE('%s','%s'),20)", p.Symbol, MarketIntervals[p.Interval]), "")
	case key.Matches(msg, k.DropIndicator):
		if n := len(p.Overlays); n > 0 {
			p.Overlays = p.Overlays[:n-1]
		}
	case key.Matches(msg, k.Ask):
		if p.Symbol == "" {
			return kit.FlashCmd("search and pick a symbol first (/)")
		}
		text := p.askText()
		return func() tea.Msg { return AskAliceMsg{text} }
	case key.Matches(msg, k.Order):
		if p.Symbol == "" {
			return kit.FlashCmd("search and pick a symbol first (/)")
		}
		if p.current() == "" {
			return kit.FlashCmd("no trading account to stage an order on")
		}
		p.Form = newOrderForm(p.current(), p.Symbol)
		p.Mode = MkOrder
	case key.Matches(msg, k.Sim):
		if p.Symbol == "" {
			return kit.FlashCmd("search and pick a symbol first (/)")
		}
		if !p.onSimulator() {
			return kit.FlashCmd("simulator controls work on simulator accounts only")
		}
		return p.openInput(MkSim, "@150 · +5% · -3% · deposit 1000 · withdraw 500 · fill · advance 1h", "")
	case key.Matches(msg, k.PrevAccount):
		if p.acct > 0 {
			p.acct--
			return p.Load()
		}
	case key.Matches(msg, k.NextAccount):
		if p.acct < len(p.accounts)-1 {
			p.acct++
			return p.Load()
		}
	case key.Matches(msg, k.Refresh):
		return tea.Batch(p.Load(), p.loadSymbol(), p.reloadIndicators())
	}
	return nil
}

func (p *Pane) openInput(mode marketMode, placeholder, value string) tea.Cmd {
	p.Mode = mode
	p.Input.Placeholder = placeholder
	p.Input.SetValue(value)
	p.Input.CursorEnd()
	return p.Input.Focus()
}

// submitInput acts on the search, formula or simulator line.
func (p *Pane) submitInput() tea.Cmd {
	text := strings.TrimSpace(p.Input.Value())
	mode := p.Mode
	if text == "" && mode == mkIndicator {
		text = p.Input.Placeholder
	}
	p.Mode = MkBrowse
	p.Input.Blur()
	if text == "" {
		return nil
	}
	switch mode {
	case mkSearch:
		return p.search(text)
	case mkIndicator:
		return p.evalIndicator(text)
	case MkSim:
		return p.runSim(text)
	}
	return nil
}

// show makes inst the shown symbol and loads its data.
func (p *Pane) show(inst MarketInstrument) tea.Cmd {
	if inst.Symbol != p.Symbol {
		p.Overlays = nil
		p.quote, p.Candles, p.news = MarketQuote{}, nil, nil
	}
	p.Symbol, p.class, p.picking = inst.Symbol, inst.Class, false
	return tea.Batch(p.loadSymbol(), p.Load())
}

// askText is the chat prefill for "ask Alice about this".
func (p *Pane) askText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "What do you think about %s", p.Symbol)
	if !p.quote.Last.IsZero() {
		fmt.Fprintf(&b, " (last %s, %s%% today)", p.quote.Last.StringFixed(pricePlaces(p.quote.Last)), signed(p.quote.ChangePct.StringFixed(2)))
	}
	if len(p.Overlays) > 0 {
		var fs []string
		for _, o := range p.Overlays {
			fs = append(fs, o.formula)
		}
		fmt.Fprintf(&b, "? I'm watching %s", strings.Join(fs, ", "))
	}
	b.WriteString("?")
	return strings.ReplaceAll(b.String(), "??", "?")
}

func signed(s string) string {
	if s != "" && s[0] != '-' && strings.Trim(s, "0.") != "" {
		return "+" + s
	}
	return s
}

// onSimulator reports whether the selected account is a simulator.
func (p *Pane) onSimulator() bool {
	sc, ok := p.base.(SimCore)
	return ok && p.current() != "" && sc.IsSimulator(p.current())
}
