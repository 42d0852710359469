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
		{ID: "chat.new", Title: "New chat channel", Group: "Chat", Keywords: "conversation session /channel new", Run: inChat(func() tea.Cmd {
			c.Prefill("/channel new ")
			c.relayout()
			return nil
		})},
		{ID: "chat.sessions", Title: "Switch channel or session (browser)", Group: "Chat", Key: kit.KeyOf(k.Sessions), Keywords: "conversation pick channel search rename delete", Run: m.GoAndPress(c, k.Sessions)},
		{ID: "chat.channel.switch", Title: "Switch to a channel by name", Group: "Chat", Keywords: "/channel", Run: inChat(func() tea.Cmd {
			c.Prefill("/channel ")
			c.relayout()
			return nil
		})},
		{ID: "chat.channel.rename", Title: "Rename this channel", Group: "Chat", Keywords: "/channel rename label", Run: inChat(func() tea.Cmd {
			c.Prefill("/channel rename ")
			c.relayout()
			return nil
		})},
		{ID: "chat.channel.archive", Title: "Archive this channel", Group: "Chat", Keywords: "/channel archive hide", Run: inChat(func() tea.Cmd { return c.command("/channel archive") })},
		{ID: "chat.title", Title: "Name this session", Group: "Chat", Keywords: "/title rename session", Run: inChat(func() tea.Cmd {
			c.Prefill("/title ")
			c.relayout()
			return nil
		})},
		{ID: "chat.compact", Title: "Compact this session", Group: "Chat", Keywords: "summarize /compact shrink", Run: inChat(func() tea.Cmd { return c.command("/compact") })},
		{ID: "chat.tools", Title: "Expand or collapse tool calls", Group: "Chat", Key: kit.KeyOf(k.ToggleTools), Run: m.GoAndPress(c, k.ToggleTools)},
		{ID: "chat.clear", Title: "Clear the transcript view", Group: "Chat", Keywords: "/clear", Run: inChat(func() tea.Cmd { return c.command("/clear") })},
	}
}

// Prefill puts text into the chat input for the person to edit and send.
func (c *Pane) Prefill(text string) {
	c.setInput(text)
	c.Input.CursorEnd()
}
