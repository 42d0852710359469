// Package channel is the chat-channel service: named chats, each with its
// own session and its own configuration (provider profile, disabled tools,
// persona addition), stored in channels.json (OpenAlice's sub-channel
// shape). The TUI's chats, the Telegram chats ("telegram") and the Ask
// connector ("mcp-ask") are all channels, so a channel entry means the same
// thing on every surface: the AgentCenter applies it to every turn whose
// Options name the channel (Lookup).
//
// Chat channels write to session tui/<id>; the default channel is
// tui/default and exists without an entry (the first edit of it adds one,
// as OpenAlice does). Sessions tui/<name> made before channels existed are
// listed as channels too (Implicit), labelled with their name.
package channel

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/session"
)

// SessionPrefix is where chat channels keep their sessions.
const SessionPrefix = "tui/"

// DefaultLabel names the default channel until it is renamed.
const DefaultLabel = "Alice"

// Kind tells chat channels from connector channels.
type Kind int

const (
	KindChat      Kind = iota // a TUI chat: session tui/<id>
	KindConnector             // telegram or mcp-ask: sessions per chat / caller
)

// Info is one channel as lists show it.
type Info struct {
	config.Channel
	Kind Kind
	// Session is the chat channel's session id ("" for connectors, which
	// have one session per chat or caller).
	Session string
	// Implicit marks a tui/<name> session without a channels.json entry.
	Implicit bool
}

// ErrNotFound is returned for an unknown channel id.
var ErrNotFound = errors.New("no such channel")

// Service reads and edits channels.json.
type Service struct {
	store    *config.Store
	sessions *session.Store
}

// New builds the service; sessions may be nil (no implicit channels).
func New(store *config.Store, sessions *session.Store) *Service {
	return &Service{store: store, sessions: sessions}
}

// SessionOf is the session of chat channel id.
func SessionOf(id string) string { return SessionPrefix + id }

// FromSession returns the chat channel a session belongs to ("" when the
// session is not a chat channel's, e.g. telegram/42 or heartbeat).
func FromSession(sessionID string) string {
	id, ok := strings.CutPrefix(sessionID, SessionPrefix)
	if !ok || !config.ValidChannelID(id) {
		return ""
	}
	return id
}

// IsConnector reports the connector channel ids.
func IsConnector(id string) bool { return id == config.TelegramChannel || id == config.AskChannel }

var connectorLabels = map[string]string{config.TelegramChannel: "Telegram", config.AskChannel: "Ask connector"}

// Lookup returns the configuration of channel id (false when it has no
// entry, so nothing is overridden). It reads channels.json on every call,
// as the provider router reads ai-provider.json, so edits apply to the
// next message; an unreadable file is reported, never silently ignored.
func (s *Service) Lookup(id string) (config.Channel, bool, error) {
	c, err := s.store.Channels()
	if err != nil {
		return config.Channel{}, false, err
	}
	ch, ok := c.Find(id)
	return ch, ok, nil
}

// List returns the chat channels, default first, then channels.json order,
// then implicit tui/<name> sessions by name. Archived ones only with
// archived=true.
func (s *Service) List(archived bool) ([]Info, error) {
	c, err := s.store.Channels()
	if err != nil {
		return nil, err
	}
	def := config.Channel{ID: config.DefaultChannel, Label: DefaultLabel}
	if e, ok := c.Find(config.DefaultChannel); ok {
		def = e
	}
	out := []Info{{Channel: def, Session: SessionOf(def.ID)}}
	known := map[string]bool{config.DefaultChannel: true}
	for _, e := range c.Channels {
		known[e.ID] = true
		if e.ID == config.DefaultChannel || IsConnector(e.ID) || (e.Archived && !archived) {
			continue
		}
		out = append(out, Info{Channel: e, Session: SessionOf(e.ID)})
	}
	if s.sessions == nil {
		return out, nil
	}
	page, err := s.sessions.ListPage(session.ListOptions{Prefix: SessionPrefix})
	if err != nil {
		return out, err
	}
	var implicit []Info
	for _, in := range page.Sessions {
		id := FromSession(in.ID)
		if id == "" || known[id] || IsConnector(id) {
			continue
		}
		implicit = append(implicit, Info{Channel: config.Channel{ID: id, Label: id}, Session: in.ID, Implicit: true})
	}
	slices.SortFunc(implicit, func(a, b Info) int { return strings.Compare(a.ID, b.ID) })
	return append(out, implicit...), nil
}

// Connectors returns the Telegram and Ask channels with their settings
// (an empty entry when channels.json has none), for the Settings page.
func (s *Service) Connectors() ([]Info, error) {
	c, err := s.store.Channels()
	if err != nil {
		return nil, err
	}
	var out []Info
	for _, id := range []string{config.TelegramChannel, config.AskChannel} {
		e, ok := c.Find(id)
		if !ok {
			e = config.Channel{ID: id, Label: connectorLabels[id]}
		}
		out = append(out, Info{Channel: e, Kind: KindConnector})
	}
	return out, nil
}

// Get returns one channel (chat, implicit or connector).
func (s *Service) Get(id string) (Info, error) {
	if IsConnector(id) {
		list, err := s.Connectors()
		if err != nil {
			return Info{}, err
		}
		for _, in := range list {
			if in.ID == id {
				return in, nil
			}
		}
	}
	list, err := s.List(true)
	if err != nil {
		return Info{}, err
	}
	for _, in := range list {
		if in.ID == id {
			return in, nil
		}
	}
	return Info{}, fmt.Errorf("%w %q", ErrNotFound, id)
}

var slugRe = regexp.MustCompile(`[^a-z0-9]+`)

// slugify derives an id from a label (OpenAlice's rule): lower-case,
// runs of other characters become "-", at most 40 characters; a label
// with no Latin letters or digits gets channel-<random hex>.
func slugify(label string) string {
	s := strings.Trim(slugRe.ReplaceAllString(strings.ToLower(label), "-"), "-")
	if len(s) > 36 {
		s = strings.TrimRight(s[:36], "-")
	}
	if s == "" {
		b := make([]byte, 3)
		_, _ = rand.Read(b)
		return "channel-" + hex.EncodeToString(b)
	}
	return s
}

// Create adds a chat channel labelled label and returns it. The id is
// derived from the label and made unique; a label already in use (any
// case) is refused.
func (s *Service) Create(label string) (Info, error) {
	label = strings.TrimSpace(label)
	if label == "" {
		return Info{}, errors.New("a channel needs a name")
	}
	taken, err := s.List(true)
	if err != nil {
		return Info{}, err
	}
	ids := map[string]bool{config.TelegramChannel: true, config.AskChannel: true}
	for _, in := range taken {
		ids[in.ID] = true
		if strings.EqualFold(strings.TrimSpace(in.Label), label) {
			return Info{}, fmt.Errorf("a channel named %q already exists", in.Label)
		}
	}
	base := slugify(label)
	id := base
	for n := 2; ids[id]; n++ {
		id = fmt.Sprintf("%s-%d", base, n)
	}
	ch := config.Channel{ID: id, Label: label}
	_, _, err = config.Edit(s.store, config.ChannelsFile, "", config.DefaultChannels, func(c *config.Channels) error {
		if _, ok := c.Find(id); ok {
			return fmt.Errorf("channel %q already exists", id)
		}
		c.Channels = append(c.Channels, ch)
		return nil
	})
	if err != nil {
		return Info{}, err
	}
	return Info{Channel: ch, Session: SessionOf(id)}, nil
}

// Update edits channel id's entry (adding one for the default channel,
// an implicit channel or a connector on its first edit) and returns the
// result. fn must not change the id.
func (s *Service) Update(id string, fn func(*config.Channel) error) (Info, error) {
	cur, err := s.Get(id)
	if err != nil {
		return Info{}, err
	}
	var out config.Channel
	_, _, err = config.Edit(s.store, config.ChannelsFile, "", config.DefaultChannels, func(c *config.Channels) error {
		i := slices.IndexFunc(c.Channels, func(e config.Channel) bool { return e.ID == id })
		if i < 0 {
			c.Channels = append(c.Channels, cur.Channel)
			i = len(c.Channels) - 1
		}
		e := c.Channels[i]
		e.DisabledTools = slices.Clone(e.DisabledTools)
		if err := fn(&e); err != nil {
			return err
		}
		if e.ID != id {
			return errors.New("a channel's id cannot change (rename changes its label)")
		}
		if e.Profile != "" && e.Profile != cur.Profile {
			ai, err := s.store.AIProvider()
			if err != nil {
				return err
			}
			if _, ok := ai.Profiles[e.Profile]; !ok {
				return fmt.Errorf("no profile named %q in %s", e.Profile, s.store.Path(config.AIProviderFile))
			}
		}
		c.Channels[i] = e
		out = e
		return nil
	})
	if err != nil {
		return Info{}, err
	}
	cur.Channel, cur.Implicit = out, false
	return cur, nil
}

// Rename changes a channel's label.
func (s *Service) Rename(id, label string) (Info, error) {
	label = strings.TrimSpace(label)
	if label == "" {
		return Info{}, errors.New("a channel needs a name")
	}
	all, err := s.List(true)
	if err != nil {
		return Info{}, err
	}
	for _, in := range all {
		if in.ID != id && strings.EqualFold(strings.TrimSpace(in.Label), label) {
			return Info{}, fmt.Errorf("a channel named %q already exists", in.Label)
		}
	}
	return s.Update(id, func(c *config.Channel) error { c.Label = label; return nil })
}

// SetArchived archives (hides from lists, keeping its session) or
// restores a chat channel. The default channel and connectors cannot be
// archived.
func (s *Service) SetArchived(id string, archived bool) (Info, error) {
	if id == config.DefaultChannel || IsConnector(id) {
		return Info{}, fmt.Errorf("channel %q cannot be archived", id)
	}
	return s.Update(id, func(c *config.Channel) error { c.Archived = archived; return nil })
}
