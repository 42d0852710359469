package chat

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/alice-trading/alice/tui/kit"
)

// ChannelCore is what channels and the session browser need beyond Core.
// tui/live provides it; without it /channel and the browser explain that
// channels are unavailable and ctrl+s lists session ids only.
type ChannelCore interface {
	// Channels lists the chat channels, default first (archived ones too).
	Channels() ([]ChannelInfo, error)
	CreateChannel(label string) (ChannelInfo, error)
	RenameChannel(id, label string) error
	ArchiveChannel(id string, archived bool) error
	// BrowseSessions lists every session, most recently active first,
	// filtered by query (titles, channel names, message text).
	BrowseSessions(query string) ([]SessionRow, error)
	SetSessionTitle(session, title string) error
	DeleteSession(session string) error
}

// ChannelInfo is one chat channel.
type ChannelInfo struct {
	ID, Label, Session string
	Profile            string
	// Provider is what the channel's turns resolve to ("other (openai
	// other-model)"), "" when the core does not say.
	Provider      string
	DisabledTools []string
	Persona       string
	Archived      bool
}

var errNoChannels = errors.New("channels are not available in this build of the UI")

func (c *Pane) channelCore() (ChannelCore, bool) {
	cc, ok := c.core.(ChannelCore)
	return cc, ok
}

// channelsMsg carries the channel list (for the header, /channel and
// completion).
type channelsMsg struct {
	list []ChannelInfo
	err  error
}

// switchChannelMsg opens a channel's session after a create.
type switchChannelMsg struct {
	ch  ChannelInfo
	err error
}

// loadChannels re-reads the channel list.
// ReloadChannels re-reads the channels (their profiles may have changed
// in Settings).
func (c *Pane) ReloadChannels() tea.Cmd { return c.loadChannels() }

func (c *Pane) loadChannels() tea.Cmd {
	cc, ok := c.channelCore()
	if !ok {
		return nil
	}
	return func() tea.Msg { l, err := cc.Channels(); return channelsMsg{l, err} }
}

// channelOf returns the channel whose session is session.
func (c *Pane) channelOf(session string) (ChannelInfo, bool) {
	for _, ch := range c.channels {
		if ch.Session == session {
			return ch, true
		}
	}
	return ChannelInfo{}, false
}

// channelLabels lists the non-archived channels' labels (completion).
func (c *Pane) channelLabels() []string {
	var out []string
	for _, ch := range c.channels {
		if !ch.Archived {
			out = append(out, ch.Label)
		}
	}
	return out
}

// findChannel matches a channel by label (any case) or id.
func (c *Pane) findChannel(name string) (ChannelInfo, bool) {
	for _, ch := range c.channels {
		if strings.EqualFold(ch.Label, name) || ch.ID == name {
			return ch, true
		}
	}
	return ChannelInfo{}, false
}

// channelCommand runs /channel [new <name> | rename <name> | archive | <name>].
func (c *Pane) channelCommand(args string) tea.Cmd {
	cc, ok := c.channelCore()
	if !ok {
		return kit.ErrCmd(errNoChannels)
	}
	sub, rest, _ := strings.Cut(strings.TrimSpace(args), " ")
	rest = strings.TrimSpace(rest)
	cur, inChannel := c.channelOf(c.Session)
	switch sub {
	case "":
		return c.openBrowser()
	case "new":
		if rest == "" {
			return kit.ErrCmd(fmt.Errorf("usage: /channel new <name>"))
		}
		if ch, ok := c.findChannel(rest); ok && !ch.Archived {
			return tea.Batch(c.switchTo(ch.Session), kit.FlashCmd("channel "+ch.Label+" already exists: switched to it"))
		}
		return func() tea.Msg { ch, err := cc.CreateChannel(rest); return switchChannelMsg{ch, err} }
	case "rename":
		if !inChannel {
			return kit.ErrCmd(fmt.Errorf("%s is not a chat channel", c.Session))
		}
		if rest == "" {
			return kit.ErrCmd(fmt.Errorf("usage: /channel rename <new name>"))
		}
		return func() tea.Msg {
			if err := cc.RenameChannel(cur.ID, rest); err != nil {
				return kit.ErrMsg{Err: err}
			}
			l, err := cc.Channels()
			return channelsMsg{l, err}
		}
	case "archive":
		if !inChannel {
			return kit.ErrCmd(fmt.Errorf("%s is not a chat channel", c.Session))
		}
		return func() tea.Msg {
			if err := cc.ArchiveChannel(cur.ID, true); err != nil {
				return kit.ErrMsg{Err: err}
			}
			return switchChannelMsg{ch: ChannelInfo{ID: "default", Label: "Alice", Session: DefaultSession}}
		}
	}
	name := strings.TrimSpace(args)
	if ch, ok := c.findChannel(name); ok {
		if ch.Archived {
			return func() tea.Msg {
				if err := cc.ArchiveChannel(ch.ID, false); err != nil {
					return kit.ErrMsg{Err: err}
				}
				ch.Archived = false
				return switchChannelMsg{ch: ch}
			}
		}
		return c.switchTo(ch.Session)
	}
	return kit.ErrCmd(fmt.Errorf("no channel named %q; /channel new %s creates it", name, name))
}

// header names the channel (or the session) the chat shows.
func (c *Pane) headerName() string {
	if ch, ok := c.channelOf(c.Session); ok {
		return "# " + ch.Label
	}
	return c.Session
}
