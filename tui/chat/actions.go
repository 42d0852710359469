package chat

import (
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

func (c *Pane) Actions() []kit.Action {
	k, m := c.m.KeyMap().Chat, c.m
	inChat := func(run func() tea.Cmd) func() tea.Cmd {
		return func() tea.Cmd { m.Show(c); return run() }
	}
	return []kit.Action{
		{ID: "chat.new", Title: "New chat session", Group: "Chat", Keywords: "conversation /new", Run: inChat(func() tea.Cmd {
			c.Input.SetValue("/new ")
			c.Input.CursorEnd()
			return nil
		})},
		{ID: "chat.sessions", Title: "Switch chat session", Group: "Chat", Key: kit.KeyOf(k.Sessions), Keywords: "conversation pick", Run: m.GoAndPress(c, k.Sessions)},
		{ID: "chat.compact", Title: "Compact this session", Group: "Chat", Keywords: "summarize /compact shrink", Run: inChat(func() tea.Cmd { return c.command("/compact") })},
		{ID: "chat.tools", Title: "Expand or collapse tool calls", Group: "Chat", Key: kit.KeyOf(k.ToggleTools), Run: m.GoAndPress(c, k.ToggleTools)},
		{ID: "chat.clear", Title: "Clear the transcript view", Group: "Chat", Keywords: "/clear", Run: inChat(func() tea.Cmd { return c.command("/clear") })},
	}
}

// Prefill puts text into the chat input for the person to edit and send.
func (c *Pane) Prefill(text string) {
	c.Input.SetValue(text)
	c.Input.CursorEnd()
}
