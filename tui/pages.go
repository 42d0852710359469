package tui

import (
	tea "charm.land/bubbletea/v2"
)

// refreshPage reloads the focused Market, Activity or MCP pane on the
// periodic tick: MCP clients come and go without an event, and quotes move.
func (m *Model) refreshPage() tea.Cmd {
	switch m.cur() {
	case m.market:
		return m.market.refresh(m.now())
	case m.activity:
		return m.activity.load()
	case m.mcpPage:
		return m.mcpPage.load()
	}
	return nil
}
