package live

import (
	"github.com/alice-trading/alice/core/channel"
	"github.com/alice-trading/alice/tui/chat"
)

var _ chat.ChannelCore = (*Core)(nil)

func channelInfo(in channel.Info) chat.ChannelInfo {
	return chat.ChannelInfo{ID: in.ID, Label: in.Label, Session: in.Session, Profile: in.Profile,
		DisabledTools: append([]string(nil), in.DisabledTools...), Persona: in.Persona, Archived: in.Archived}
}

// Channels lists the chat channels (default first), archived ones too,
// with the provider each one's turns resolve to.
func (c *Core) Channels() ([]chat.ChannelInfo, error) {
	list, err := c.channels.List(true)
	if err != nil {
		return nil, err
	}
	out := make([]chat.ChannelInfo, 0, len(list))
	for _, in := range list {
		ci := channelInfo(in)
		ci.Provider = c.chat.ProviderLabel("tui", in.ID)
		out = append(out, ci)
	}
	return out, nil
}

// CreateChannel adds a chat channel.
func (c *Core) CreateChannel(label string) (chat.ChannelInfo, error) {
	in, err := c.channels.Create(label)
	return channelInfo(in), err
}

// RenameChannel changes a channel's label.
func (c *Core) RenameChannel(id, label string) error {
	_, err := c.channels.Rename(id, label)
	return err
}

// ArchiveChannel archives or restores a channel.
func (c *Core) ArchiveChannel(id string, archived bool) error {
	_, err := c.channels.SetArchived(id, archived)
	return err
}

// BrowseSessions lists sessions for the browser.
func (c *Core) BrowseSessions(query string) ([]chat.SessionRow, error) {
	rows, err := c.channels.Browse(query)
	if err != nil {
		return nil, err
	}
	out := make([]chat.SessionRow, 0, len(rows))
	for _, r := range rows {
		row := chat.SessionRow{ID: r.ID, Title: r.Title, TitleSet: r.TitleSet, LastActivity: r.LastActivity,
			Messages: r.Messages, Preview: r.Preview, PreviewRole: r.PreviewRole, Match: r.Match}
		if r.Channel != nil {
			row.ChannelID, row.Channel, row.Archived = r.Channel.ID, r.Channel.Label, r.Channel.Archived
		}
		out = append(out, row)
	}
	return out, nil
}

// SetSessionTitle names a session.
func (c *Core) SetSessionTitle(session, title string) error {
	return c.chat.SetTitle(session, title)
}

// DeleteSession removes a session's file.
func (c *Core) DeleteSession(session string) error { return c.chat.DeleteSession(session) }
