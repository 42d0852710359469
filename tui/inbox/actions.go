package inbox

import (
	"strconv"

	"github.com/alice-trading/alice/tui/kit"
)

// Badge is the unread count on the Inbox tab.
func (p *Pane) Badge() string {
	if n := p.Unread(); n > 0 {
		return "(" + strconv.Itoa(n) + ")"
	}
	return ""
}

func (p *Pane) Actions() []kit.Action {
	k, m := p.m.KeyMap().Inbox, p.m
	out := []kit.Action{}
	if len(p.Entries) > 0 {
		out = append(out,
			kit.Action{ID: "inbox.open", Title: "Open the selected inbox entry", Group: "Inbox", Key: kit.KeyOf(k.Open), Run: m.GoAndPress(p, k.Open)},
			kit.Action{ID: "inbox.delete", Title: "Delete the selected inbox entry", Group: "Inbox", Key: kit.KeyOf(k.Delete), Keywords: "remove", Run: m.GoAndPress(p, k.Delete)},
			kit.Action{ID: "inbox.workspace", Title: "Go to the entry's workspace", Group: "Inbox", Key: kit.KeyOf(k.Jump), Run: m.GoAndPress(p, k.Jump)},
		)
	}
	if p.Unread() > 0 {
		out = append(out, kit.Action{ID: "inbox.readall", Title: "Mark every inbox entry read", Group: "Inbox", Key: kit.KeyOf(k.ReadAll),
			Run: m.GoAndPress(p, k.ReadAll)})
	}
	return out
}
