package tui

import (
	tea "charm.land/bubbletea/v2"
)

func (c *chatPane) Actions() []Action {
	k, m := c.m.keyMap().Chat, c.m
	inChat := func(run func() tea.Cmd) func() tea.Cmd {
		return func() tea.Cmd { m.show(c); return run() }
	}
	return []Action{
		{ID: "chat.new", Title: "New chat session", Group: "Chat", Keywords: "conversation /new", Run: inChat(func() tea.Cmd {
			c.input.SetValue("/new ")
			c.input.CursorEnd()
			return nil
		})},
		{ID: "chat.sessions", Title: "Switch chat session", Group: "Chat", Key: keyOf(k.Sessions), Keywords: "conversation pick", Run: m.goAndPress(c, k.Sessions)},
		{ID: "chat.compact", Title: "Compact this session", Group: "Chat", Keywords: "summarize /compact shrink", Run: inChat(func() tea.Cmd { return c.command("/compact") })},
		{ID: "chat.tools", Title: "Expand or collapse tool calls", Group: "Chat", Key: keyOf(k.ToggleTools), Run: m.goAndPress(c, k.ToggleTools)},
		{ID: "chat.clear", Title: "Clear the transcript view", Group: "Chat", Keywords: "/clear", Run: inChat(func() tea.Cmd { return c.command("/clear") })},
	}
}

// prefill puts text into the chat input for the person to edit and send.
func (c *chatPane) prefill(text string) {
	c.input.SetValue(text)
	c.input.CursorEnd()
}
