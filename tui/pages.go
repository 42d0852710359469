package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// marketRefresh is how often the focused Market pane reloads its symbol.
const marketRefresh = 30 * time.Second

// Palette entries for the Market, Activity and MCP panes (the "Go to"
// entries and alt+N keys come from addPane).

// Actions lists the Market pane's palette entries.
func (p *marketPane) Actions() []Action {
	k := p.keys
	a := []Action{
		{ID: "market.search", Title: "Market: search a symbol", Group: "Market", Key: keyOf(k.Search), Keywords: "quote ticker chart", Run: p.m.goAndPress(p, k.Search)},
	}
	if p.symbol == "" {
		return a
	}
	a = append(a,
		Action{ID: "market.interval", Title: "Market: next chart interval", Group: "Market", Key: keyOf(k.Interval), Keywords: "1m 5m 1h 1d candles", Run: p.m.goAndPress(p, k.Interval)},
		Action{ID: "market.indicator", Title: "Market: add an indicator overlay", Group: "Market", Key: keyOf(k.Indicator), Keywords: "sma ema formula calculateIndicator", Run: p.m.goAndPress(p, k.Indicator)},
		Action{ID: "market.ask", Title: "Market: ask Alice about " + p.symbol, Group: "Market", Key: keyOf(k.Ask), Keywords: "chat question", Run: p.m.goAndPress(p, k.Ask)},
		Action{ID: "market.order", Title: "Market: stage an order for " + p.symbol, Group: "Market", Key: keyOf(k.Order), Keywords: "buy sell trade placeOrder", Run: p.m.goAndPress(p, k.Order)},
	)
	if p.onSimulator() {
		a = append(a, Action{ID: "market.sim", Title: "Simulator: set price, cash, clock or fill orders", Group: "Market", Key: keyOf(k.Sim),
			Keywords: "god view mark deposit withdraw fill advance clock time", Run: p.m.goAndPress(p, k.Sim)})
	}
	return a
}

// Actions lists the Activity pane's palette entries.
func (p *activityPane) Actions() []Action {
	tab := func(t activityTab, id, words string) Action {
		return Action{ID: "activity." + id, Title: "Activity: " + activityTabNames[t], Group: "Activity", Keywords: words,
			Run: func() tea.Cmd {
				p.m.show(p)
				p.tab, p.detail = t, false
				return p.load()
			}}
	}
	return []Action{
		tab(tabEvents, "events", "event log causedBy json"),
		tab(tabRuns, "runs", "cron heartbeat webhook task"),
		tab(tabToolCalls, "toolcalls", "tool calls arguments duration errors"),
		tab(tabNotifications, "notifications", "notify delivered channel"),
	}
}

// Actions lists the MCP page's palette entries.
func (p *mcpPane) Actions() []Action {
	var out []Action
	for i, it := range p.copyables() {
		i, it := i, it
		out = append(out, Action{ID: "mcp.copy." + it.label, Title: "MCP: copy " + it.label, Group: "MCP", Keywords: "clipboard url snippet claude",
			Run: func() tea.Cmd {
				p.m.show(p)
				p.sel = i
				return press(p, p.keys.Copy)
			}})
	}
	return out
}

// refreshPage reloads the focused Market, Activity or MCP pane on the
// periodic tick: MCP clients come and go without an event, and quotes move.
func (m *Model) refreshPage() tea.Cmd {
	switch m.cur() {
	case m.market:
		// Quotes and candles every marketRefresh (HTTP backends are rate
		// limited); positions and orders on every tick.
		if now := m.now(); now.Sub(m.market.refreshed) >= marketRefresh {
			m.market.refreshed = now
			return tea.Batch(m.market.load(), m.market.loadSymbol())
		}
		return m.market.load()
	case m.activity:
		return m.activity.load()
	case m.mcpPage:
		return m.mcpPage.load()
	}
	return nil
}

// prefill puts text into the chat input for the person to edit and send.
func (c *chatPane) prefill(text string) {
	c.input.SetValue(text)
	c.input.CursorEnd()
}
