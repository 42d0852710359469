package tui

import (
	"strconv"

	tea "charm.land/bubbletea/v2"
)

// Badge marks commits waiting for approval on the Portfolio tab.
func (p *portfolioPane) Badge() string {
	if n := len(p.pending); n > 0 {
		return "[" + strconv.Itoa(n) + " pending]"
	}
	return ""
}

func (p *portfolioPane) Actions() []Action {
	k, m := p.m.keyMap().Portfolio, p.m
	out := []Action{
		{ID: "portfolio.refresh", Title: "Refresh the portfolio", Group: "Portfolio", Key: keyOf(k.Refresh), Keywords: "reload", Run: m.goAndPress(p, k.Refresh)},
	}
	if len(p.pending) > 0 {
		out = append(out,
			Action{ID: "portfolio.approve", Title: "Approve the pending commit (push)", Group: "Portfolio", Key: keyOf(k.Approve), Keywords: "push execute order", Run: m.goAndPress(p, k.Approve)},
			Action{ID: "portfolio.reject", Title: "Reject the pending commit", Group: "Portfolio", Key: keyOf(k.Reject), Run: m.goAndPress(p, k.Reject)},
		)
	}
	if _, ok := p.core.(SnapshotCore); ok && p.current() != "" {
		out = append(out, Action{ID: "portfolio.snapshot", Title: "Take a snapshot now", Group: "Portfolio", Keywords: "equity record",
			Run: func() tea.Cmd { m.show(p); return p.takeSnapshot() }})
	}
	if len(p.accounts) > 1 {
		out = append(out, Action{ID: "portfolio.next", Title: "Next trading account", Group: "Portfolio", Key: keyOf(k.NextAccount), Run: m.goAndPress(p, k.NextAccount)})
	}
	return out
}
