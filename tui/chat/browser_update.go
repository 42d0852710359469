package chat

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/alice-trading/alice/tui/kit"
)

// openBrowser shows the session browser and loads its rows. Without a
// ChannelCore the rows are the bare session ids.
func (c *Pane) openBrowser() tea.Cmd {
	c.browser.open, c.browser.mode, c.browser.err = true, browseList, ""
	c.browser.filter.SetValue("")
	c.browser.filter.Focus()
	return c.browse("")
}

// browse loads the rows for query.
func (c *Pane) browse(query string) tea.Cmd {
	c.browser.loading = true
	if cc, ok := c.channelCore(); ok {
		return func() tea.Msg { rows, err := cc.BrowseSessions(query); return browseRowsMsg{query, rows, err} }
	}
	core := c.core
	return func() tea.Msg {
		ids, err := core.Sessions()
		var rows []SessionRow
		for _, id := range ids {
			if query == "" || strings.Contains(strings.ToLower(id), strings.ToLower(query)) {
				rows = append(rows, SessionRow{ID: id, Title: id})
			}
		}
		return browseRowsMsg{query, rows, err}
	}
}

// onBrowserMsg folds browser answers in; false means msg is not one.
func (c *Pane) onBrowserMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case browseRowsMsg:
		if msg.query != strings.TrimSpace(c.browser.filter.Value()) {
			return nil, true // an answer to an older filter
		}
		c.browser.loading, c.browser.query = false, msg.query
		if msg.err != nil {
			c.browser.err = kit.FriendlyText(msg.err.Error())
			return nil, true
		}
		c.browser.err = ""
		c.browser.setRows(msg.rows)
		return nil, true
	case browserDoneMsg:
		if msg.err != nil {
			c.browser.err = kit.FriendlyText(msg.err.Error())
			return nil, true
		}
		c.browser.err = ""
		cmds := []tea.Cmd{c.browse(strings.TrimSpace(c.browser.filter.Value())), c.loadChannels()}
		if msg.flash != "" {
			cmds = append(cmds, kit.FlashCmd(msg.flash))
		}
		if msg.deleted == c.Session {
			c.Msgs = nil
			c.Replaced()
		}
		return tea.Batch(cmds...), true
	}
	return nil, false
}

// browserDoneMsg ends a browser edit (rename, delete, archive).
type browserDoneMsg struct {
	flash   string
	deleted string
	err     error
}

// onBrowserKey handles keys while the browser is open.
func (c *Pane) onBrowserKey(msg tea.KeyPressMsg) tea.Cmd {
	b := &c.browser
	cc, hasCC := c.channelCore()
	switch b.mode {
	case browseConfirmDelete:
		b.mode = browseList
		r, ok := b.selected()
		if msg.String() != "y" || !ok || !hasCC {
			return kit.FlashCmd("kept")
		}
		return func() tea.Msg {
			if err := cc.DeleteSession(r.ID); err != nil {
				return browserDoneMsg{err: err}
			}
			return browserDoneMsg{flash: "deleted " + r.ID, deleted: r.ID}
		}
	case browseRename, browseNewChannel:
		switch msg.String() {
		case "esc":
			b.mode = browseList
			return nil
		case "enter":
			text := strings.TrimSpace(b.edit.Value())
			mode := b.mode
			b.mode = browseList
			if !hasCC {
				return kit.ErrCmd(errNoChannels)
			}
			if mode == browseNewChannel {
				b.open = false
				return func() tea.Msg { ch, err := cc.CreateChannel(text); return switchChannelMsg{ch, err} }
			}
			r, ok := b.selected()
			if !ok {
				return nil
			}
			return func() tea.Msg {
				if err := cc.SetSessionTitle(r.ID, text); err != nil {
					return browserDoneMsg{err: err}
				}
				return browserDoneMsg{flash: "renamed"}
			}
		}
		var cmd tea.Cmd
		b.edit, cmd = b.edit.Update(msg)
		return cmd
	}
	switch msg.String() {
	case "esc", "ctrl+s":
		b.open = false
		return nil
	case "up", "ctrl+k":
		if b.idx > 0 {
			b.idx--
		}
		return nil
	case "down", "ctrl+j":
		if b.idx < len(b.rows)-1 {
			b.idx++
		}
		return nil
	case "pgup":
		b.idx = max(0, b.idx-5)
		return nil
	case "pgdown":
		b.idx = min(max(0, len(b.rows)-1), b.idx+5)
		return nil
	case "enter":
		r, ok := b.selected()
		if !ok {
			return nil
		}
		b.open = false
		return c.switchTo(r.ID)
	case "ctrl+r":
		r, ok := b.selected()
		if !ok {
			return nil
		}
		b.mode = browseRename
		b.edit.SetValue(r.Title)
		b.edit.CursorEnd()
		b.edit.Focus()
		return nil
	case "ctrl+n":
		b.mode = browseNewChannel
		b.edit.SetValue("")
		b.edit.Focus()
		return nil
	case "ctrl+d":
		if _, ok := b.selected(); ok {
			b.mode = browseConfirmDelete
		}
		return nil
	case "ctrl+a":
		r, ok := b.selected()
		if !ok || r.ChannelID == "" || !hasCC {
			return kit.FlashCmd("only a chat channel can be archived")
		}
		archive := !r.Archived
		return func() tea.Msg {
			if err := cc.ArchiveChannel(r.ChannelID, archive); err != nil {
				return browserDoneMsg{err: err}
			}
			verb := "archived"
			if !archive {
				verb = "restored"
			}
			return browserDoneMsg{flash: fmt.Sprintf("%s %s", verb, r.Channel)}
		}
	}
	before := b.filter.Value()
	var cmd tea.Cmd
	b.filter, cmd = b.filter.Update(msg)
	if b.filter.Value() != before {
		return tea.Batch(cmd, c.browse(strings.TrimSpace(b.filter.Value())))
	}
	return cmd
}

// browserPaste types a paste (one line) into the browser's open input:
// the title or channel name being edited, else the filter.
func (c *Pane) browserPaste(content string) tea.Cmd {
	b := &c.browser
	paste := tea.PasteMsg{Content: kit.OneLine(content)}
	var cmd tea.Cmd
	switch b.mode {
	case browseRename, browseNewChannel:
		b.edit, cmd = b.edit.Update(paste)
		return cmd
	case browseConfirmDelete:
		return nil
	}
	before := b.filter.Value()
	b.filter, cmd = b.filter.Update(paste)
	if b.filter.Value() != before {
		return tea.Batch(cmd, c.browse(strings.TrimSpace(b.filter.Value())))
	}
	return cmd
}
