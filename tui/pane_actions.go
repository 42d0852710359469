package tui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Palette actions and tab badges of the four original panes. A new pane
// puts its own Actions/Badge next to its code instead.

// press runs a pane binding as if its first key were typed, so a palette
// entry does exactly what the key does.
func press(p pane, b key.Binding) tea.Cmd {
	keys := b.Keys()
	if len(keys) == 0 {
		return nil
	}
	return p.Update(keyPress(keys[0]))
}

// keyPress builds the KeyPressMsg for a binding key string ("ctrl+s",
// "enter", "a").
func keyPress(k string) tea.KeyPressMsg {
	var mod tea.KeyMod
	for {
		switch {
		case strings.HasPrefix(k, "ctrl+"):
			mod |= tea.ModCtrl
			k = k[5:]
			continue
		case strings.HasPrefix(k, "alt+"):
			mod |= tea.ModAlt
			k = k[4:]
			continue
		case strings.HasPrefix(k, "shift+"):
			mod |= tea.ModShift
			k = k[6:]
			continue
		}
		break
	}
	named := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp,
		"down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
		"home": tea.KeyHome, "end": tea.KeyEnd, "backspace": tea.KeyBackspace}
	if c, ok := named[k]; ok {
		return tea.KeyPressMsg{Code: c, Mod: mod}
	}
	r := []rune(k)[0]
	if mod == 0 {
		return tea.KeyPressMsg{Code: r, Text: k}
	}
	return tea.KeyPressMsg{Code: r, Mod: mod}
}

// goAndPress focuses p, then presses b there.
func (m *Model) goAndPress(p pane, b key.Binding) func() tea.Cmd {
	return func() tea.Cmd {
		m.setFocus(m.paneIndex(p))
		return press(p, b)
	}
}

// Badge is the unread count on the Inbox tab.
func (p *inboxPane) Badge() string {
	if n := p.unread(); n > 0 {
		return "(" + strconv.Itoa(n) + ")"
	}
	return ""
}

// Badge marks commits waiting for approval on the Portfolio tab.
func (p *portfolioPane) Badge() string {
	if n := len(p.pending); n > 0 {
		return "[" + strconv.Itoa(n) + " pending]"
	}
	return ""
}

func (p *inboxPane) Actions() []Action {
	k, m := p.m.keyMap().Inbox, p.m
	out := []Action{}
	if len(p.entries) > 0 {
		out = append(out,
			Action{ID: "inbox.open", Title: "Open the selected inbox entry", Group: "Inbox", Key: keyOf(k.Open), Run: m.goAndPress(p, k.Open)},
			Action{ID: "inbox.delete", Title: "Delete the selected inbox entry", Group: "Inbox", Key: keyOf(k.Delete), Keywords: "remove", Run: m.goAndPress(p, k.Delete)},
			Action{ID: "inbox.workspace", Title: "Go to the entry's workspace", Group: "Inbox", Key: keyOf(k.Jump), Run: m.goAndPress(p, k.Jump)},
		)
	}
	if p.unread() > 0 {
		out = append(out, Action{ID: "inbox.readall", Title: "Mark every inbox entry read", Group: "Inbox", Key: keyOf(k.ReadAll),
			Run: m.goAndPress(p, k.ReadAll)})
	}
	return out
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

func (p *workspacesPane) Actions() []Action {
	k, m := p.m.keyMap().Workspaces, p.m
	out := []Action{
		{ID: "workspaces.new", Title: "New workspace", Group: "Workspaces", Key: keyOf(k.Create), Keywords: "create", Run: m.goAndPress(p, k.Create)},
	}
	if w, ok := p.current(); ok && p.mode == wsList {
		for _, s := range []struct {
			b     key.Binding
			id, t string
		}{{k.Shell, "shell", "shell"}, {k.Claude, "claude", "Claude Code"}, {k.Codex, "codex", "Codex"}} {
			out = append(out, Action{ID: "workspaces." + s.id, Title: "Start " + s.t + " in " + w.Tag, Group: "Workspaces", Key: keyOf(s.b),
				Keywords: "session terminal agent", Run: m.goAndPress(p, s.b)})
		}
		out = append(out,
			Action{ID: "workspaces.files", Title: "Browse files of " + w.Tag, Group: "Workspaces", Key: keyOf(k.Files), Run: m.goAndPress(p, k.Files)},
			Action{ID: "workspaces.git", Title: "Git log/status of " + w.Tag, Group: "Workspaces", Key: keyOf(k.Git), Run: m.goAndPress(p, k.Git)},
		)
		out = append(out, p.agentActions(w)...)
	}
	return out
}

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
