package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// pageKeys jump to the Market, Activity and MCP panes. They live here,
// not in keys.go, so these panes stay in their own files.
type pageKeys struct {
	Market, Activity, MCP key.Binding
}

func defaultPageKeys() pageKeys {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return pageKeys{
		Market:   b("alt+5", "market", "alt+5", "f6"),
		Activity: b("alt+6", "activity", "alt+6", "f7"),
		MCP:      b("alt+7", "MCP", "alt+7", "f8"),
	}
}

func (k pageKeys) bindings() []key.Binding { return []key.Binding{k.Market, k.Activity, k.MCP} }

// pageKey focuses one of these panes if msg is its key.
func (m *Model) pageKey(msg tea.KeyPressMsg) bool {
	k := defaultPageKeys()
	switch {
	case key.Matches(msg, k.Market):
		m.setFocus(focusMarket)
	case key.Matches(msg, k.Activity):
		m.setFocus(focusActivity)
	case key.Matches(msg, k.MCP):
		m.setFocus(focusMCP)
	default:
		return false
	}
	return true
}

// pagesInit loads the extra panes at start.
func (m *Model) pagesInit() tea.Cmd {
	return tea.Batch(m.market.load(), m.activity.load(), m.mcpPage.load())
}

// routePageMsg handles messages the extra panes send to the root; it
// reports whether msg was one of them.
func (m *Model) routePageMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case askAliceMsg:
		m.setFocus(focusChat)
		m.chat.prefill(msg.text)
		return nil, true
	}
	return nil, false
}

// prefill puts text into the chat input for the person to edit and send.
func (c *chatPane) prefill(text string) {
	c.input.SetValue(text)
	c.input.CursorEnd()
}

// shortPaneNames keep the tab line within narrow terminals.
var shortPaneNames = [paneCount]string{"Chat", "Inbox", "Port", "Work", "Mkt", "Act", "MCP"}

// tabName is the pane's tab title, shortened below 110 columns.
func (m *Model) tabName(f focus, name string) string {
	if m.width > 0 && m.width < 110 {
		return shortPaneNames[f]
	}
	return name
}
