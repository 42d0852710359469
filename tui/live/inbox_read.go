package live

import "github.com/alice-trading/alice/core/inbox"

// The inbox's read marks, persisted in the data dir (tui.InboxReadCore).

func (c *Core) readState() inbox.ReadState {
	return inbox.NewReadState(c.a.Paths().DataPath("inbox", "read.json"))
}

// InboxSeen loads the ids of entries the person has seen.
func (c *Core) InboxSeen() (map[string]bool, error) { return c.readState().Load() }

// SaveInboxSeen replaces the stored set of seen ids.
func (c *Core) SaveInboxSeen(ids []string) error { return c.readState().Save(ids) }
