package tui

import (
	"strconv"
)

// Badge is the unread count on the Inbox tab.
func (p *inboxPane) Badge() string {
	if n := p.unread(); n > 0 {
		return "(" + strconv.Itoa(n) + ")"
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
