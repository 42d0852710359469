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

// refreshShown reloads the pane that was just focused when it shows
// files or logs that change without an event (the Market pane reloads on
// its next tick, which its Focus makes due).
func (m *Model) refreshShown() tea.Cmd {
	switch m.cur() {
	case m.Chat:
		return m.Chat.ReloadChannels()
	case m.Settings:
		return m.Settings.Tick()
	case m.Activity:
		return m.Activity.Load()
	case m.MCPPage:
		return m.MCPPage.Load()
	}
	return nil
}
