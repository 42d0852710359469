package tui

import (
	tea "charm.land/bubbletea/v2"
)

// The periodic refresh (TickMsg, every 5 s) runs only while the focused
// pane shows what changes without an event: quotes and prices (Market,
// Portfolio), MCP clients, files edited outside alice (Settings, the
// Inbox's documents), the log. In Chat and Workspaces — an attached
// session, what a person sits in all day — nothing ticks: events bring
// every change, and the status bar reloads on them and on a pane switch.

// wantsTick reports whether the focused pane needs the periodic refresh.
func (m *Model) wantsTick() bool {
	switch m.cur() {
	case m.Market, m.Portfolio, m.MCPPage, m.Activity, m.Settings, m.Inbox:
		return true
	}
	return false
}

// startTicking starts the periodic refresh, at once, when the focused
// pane wants it and none is on its way.
func (m *Model) startTicking() tea.Cmd {
	if m.ticking || !m.wantsTick() {
		return nil
	}
	m.ticking = true
	now := m.now()
	return func() tea.Msg { return TickMsg(now) }
}

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

// Ticking reports whether the periodic refresh runs (a TickMsg is on its
// way): for tests and the status of idleness.
func (m *Model) Ticking() bool { return m.ticking }
