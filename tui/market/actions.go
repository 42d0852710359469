package market

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// marketRefresh is how often the focused Market pane reloads its symbol.
const marketRefresh = 30 * time.Second

// Actions lists the Market pane's palette entries.
func (p *Pane) Actions() []kit.Action {
	k := p.keys
	a := []kit.Action{
		{ID: "market.search", Title: "Market: search a symbol", Group: "Market", Key: kit.KeyOf(k.Search), Keywords: "quote ticker chart", Run: p.m.GoAndPress(p, k.Search)},
	}
	if p.Symbol == "" {
		return a
	}
	a = append(a,
		kit.Action{ID: "market.interval", Title: "Market: next chart interval", Group: "Market", Key: kit.KeyOf(k.Interval), Keywords: "1m 5m 1h 1d candles", Run: p.m.GoAndPress(p, k.Interval)},
		kit.Action{ID: "market.indicator", Title: "Market: add an indicator overlay", Group: "Market", Key: kit.KeyOf(k.Indicator), Keywords: "sma ema formula calculateIndicator", Run: p.m.GoAndPress(p, k.Indicator)},
		kit.Action{ID: "market.ask", Title: "Market: ask Alice about " + p.Symbol, Group: "Market", Key: kit.KeyOf(k.Ask), Keywords: "chat question", Run: p.m.GoAndPress(p, k.Ask)},
		kit.Action{ID: "market.order", Title: "Market: stage an order for " + p.Symbol, Group: "Market", Key: kit.KeyOf(k.Order), Keywords: "buy sell trade placeOrder", Run: p.m.GoAndPress(p, k.Order)},
	)
	if p.onSimulator() {
		a = append(a, kit.Action{ID: "market.sim", Title: "Simulator: set price, cash, clock or fill orders", Group: "Market", Key: kit.KeyOf(k.Sim),
			Keywords: "god view mark deposit withdraw fill advance clock time", Run: p.m.GoAndPress(p, k.Sim)})
	}
	return a
}

// MarkMoved reloads what a simulator's pinned mark changes (the shown
// symbol's quote and chart, or the start list's rows) when the core
// reports a pin, made here, in another client or by a tool.
func (p *Pane) MarkMoved() tea.Cmd {
	if !p.onSimulator() {
		return nil
	}
	if p.Symbol == "" {
		return p.loadRowQuotes()
	}
	return p.loadSymbol()
}

// Refresh reloads the pane on the root's periodic tick while it is
// focused: quotes and candles every marketRefresh (HTTP backends are rate
// limited); positions and orders on every tick.
func (p *Pane) Refresh(now time.Time) tea.Cmd {
	if now.Sub(p.refreshed) >= marketRefresh {
		p.refreshed = now
		if p.Symbol == "" {
			return tea.Batch(p.Load(), p.loadRowQuotes())
		}
		return tea.Batch(p.Load(), p.loadSymbol())
	}
	return p.Load()
}
