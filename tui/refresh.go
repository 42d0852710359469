package tui

import (
	tea "charm.land/bubbletea/v2"
)

// refreshPage reloads the focused Market, Activity or MCP pane on the
// periodic tick: MCP clients come and go without an event, and quotes move.
func (m *Model) refreshPage() tea.Cmd {
	switch m.cur() {
	case m.Market:
		return m.Market.Refresh(m.now())
	case m.Activity:
		return m.Activity.Load()
	case m.MCPPage:
		return m.MCPPage.Load()
	}
	return nil
}
