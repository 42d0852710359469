package portfolio

import (
	"strconv"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// Badge marks commits waiting for approval on the Portfolio tab.
func (p *Pane) Badge() string {
	if n := len(p.pending); n > 0 {
		return "[" + strconv.Itoa(n) + " pending]"
	}
	return ""
}

func (p *Pane) Actions() []kit.Action {
	k, m := p.m.KeyMap().Portfolio, p.m
	out := []kit.Action{
		{ID: "portfolio.refresh", Title: "Refresh the portfolio", Group: "Portfolio", Key: kit.KeyOf(k.Refresh), Keywords: "reload", Run: m.GoAndPress(p, k.Refresh)},
	}
	if len(p.pending) > 0 {
		out = append(out,
			kit.Action{ID: "portfolio.approve", Title: "Approve the pending commit (push)", Group: "Portfolio", Key: kit.KeyOf(k.Approve), Keywords: "push execute order", Run: m.GoAndPress(p, k.Approve)},
			kit.Action{ID: "portfolio.reject", Title: "Reject the pending commit", Group: "Portfolio", Key: kit.KeyOf(k.Reject), Run: m.GoAndPress(p, k.Reject)},
		)
	}
	if _, ok := p.core.(HistoryCore); ok {
		title := "Show order history, trades and session costs"
		if p.view == viewHistory {
			title = "Back to the portfolio overview"
		}
		out = append(out, kit.Action{ID: "portfolio.history", Title: title, Group: "Portfolio", Key: kit.KeyOf(k.History),
			Keywords: "orders trades fills tokens cost sessions pnl", Run: m.GoAndPress(p, k.History)})
	}
	if _, ok := p.core.(SnapshotCore); ok && p.current() != "" {
		out = append(out, kit.Action{ID: "portfolio.snapshot", Title: "Take a snapshot now", Group: "Portfolio", Keywords: "equity record",
			Run: func() tea.Cmd { m.Show(p); return p.takeSnapshot() }})
	}
	out = append(out, p.haltActions()...)
	if len(p.accounts) > 1 {
		out = append(out, kit.Action{ID: "portfolio.next", Title: "Next trading account", Group: "Portfolio", Key: kit.KeyOf(k.NextAccount), Run: m.GoAndPress(p, k.NextAccount)})
	}
	return out
}
