package config

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// ChannelsFile is channels.json: the chat channels and their settings.
const ChannelsFile = "channels.json"

// Channel ids with a fixed meaning. DefaultChannel is the TUI's first
// chat; TelegramChannel and AskChannel configure the Telegram chats and
// the Ask connector, so one entry shape means the same thing everywhere.
const (
	DefaultChannel  = "default"
	TelegramChannel = "telegram"
	AskChannel      = "mcp-ask"
)

// channelIDRe is OpenAlice's sub-channel id rule (^[a-z0-9-_]+$) with a
// bounded length and a letter or digit first, so the id is a safe
// session path segment.
var channelIDRe = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)

// ValidChannelID reports whether id may name a channel.
func ValidChannelID(id string) bool { return channelIDRe.MatchString(id) }

// Channel is one chat channel. The first five keys are OpenAlice's
// sub-channel shape (web-subchannels.json); persona and archived are
// alice's.
type Channel struct {
	// ID names the channel (its session is tui/<id>); never changes.
	ID string `json:"id"`
	// Label is what lists show; rename changes only this.
	Label string `json:"label"`
	// SystemPrompt replaces the persona for this channel (OpenAlice's
	// meaning); prefer Persona, which adds to it.
	SystemPrompt string `json:"systemPrompt,omitempty"`
	// Profile is an ai-provider.json profile used instead of the active
	// one (and instead of ai-provider.json's channels map).
	Profile string `json:"profile,omitempty"`
	// DisabledTools are hidden from the model in this channel and refused
	// if called anyway, on top of tools.json.
	DisabledTools []string `json:"disabledTools,omitempty"`
	// Persona is added after the persona in this channel's system prompt.
	Persona string `json:"persona,omitempty"`
	// Archived channels keep their session but leave the channel lists.
	Archived bool `json:"archived,omitempty"`
}

// WorkspaceOverride configures agents Alice starts in one workspace.
type WorkspaceOverride struct {
	// Profile is the ai-provider.json profile whose model, key and base
	// URL the workspace's claude (anthropic or claude-cli profile) or codex
	// (openai or codex-cli profile) is started with.
	Profile string `json:"profile"`
}

// Channels is the whole channels.json.
type Channels struct {
	Channels []Channel `json:"channels"`
	// Workspaces maps a workspace tag (or id) to its overrides.
	Workspaces map[string]WorkspaceOverride `json:"workspaces,omitempty"`
}

// DefaultChannels lists no channel: the default channel exists without an
// entry (an entry with id "default" configures it).
func DefaultChannels() Channels { return Channels{Channels: []Channel{}} }

// Find returns the channel with id.
func (c *Channels) Find(id string) (Channel, bool) {
	for _, ch := range c.Channels {
		if ch.ID == id {
			return ch, true
		}
	}
	return Channel{}, false
}

// Validate checks ids (safe, unique), labels and tool lists. Profiles are
// checked against ai-provider.json by CheckChannelProfiles.
func (c *Channels) Validate() (string, error) {
	seen := map[string]bool{}
	labels := map[string]string{}
	for i, ch := range c.Channels {
		key := fmt.Sprintf("channels[%d]", i)
		if !ValidChannelID(ch.ID) {
			return key + ".id", fmt.Errorf("must be 1..40 of a-z, 0-9, - and _ starting with a letter or digit, got %q", ch.ID)
		}
		if seen[ch.ID] {
			return key + ".id", fmt.Errorf("duplicate channel id %q", ch.ID)
		}
		seen[ch.ID] = true
		label := strings.TrimSpace(ch.Label)
		if label == "" {
			return key + ".label", fmt.Errorf("must not be empty")
		}
		if other, ok := labels[strings.ToLower(label)]; ok {
			return key + ".label", fmt.Errorf("%q is already the label of channel %q", ch.Label, other)
		}
		labels[strings.ToLower(label)] = ch.ID
		for j, t := range ch.DisabledTools {
			if strings.TrimSpace(t) == "" {
				return fmt.Sprintf("%s.disabledTools[%d]", key, j), fmt.Errorf("must name a tool")
			}
		}
		if ch.Archived && ch.ID == DefaultChannel {
			return key + ".archived", fmt.Errorf("the default channel cannot be archived")
		}
	}
	for _, name := range sortedKeys(c.Workspaces) {
		if strings.TrimSpace(c.Workspaces[name].Profile) == "" {
			return "workspaces." + name + ".profile", fmt.Errorf("must name an ai-provider.json profile")
		}
	}
	return "", nil
}

// CheckChannelProfiles reports a channel or workspace override naming a
// profile ai-provider.json does not have (a cross-file check; start-up
// and `alice check` run it after each file's own validation).
func CheckChannelProfiles(s *Store) error {
	ch, err := s.Channels()
	if err != nil {
		return err
	}
	ai, err := s.AIProvider()
	if err != nil {
		return err
	}
	names := make([]string, 0, len(ai.Profiles))
	for n := range ai.Profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	missing := func(p string) string {
		msg := fmt.Sprintf("no profile named %q in %s", p, AIProviderFile)
		if near := Nearest(p, names); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		return msg
	}
	for i, c := range ch.Channels {
		if c.Profile != "" {
			if _, ok := ai.Profiles[c.Profile]; !ok {
				return &Error{File: s.Path(ChannelsFile), Key: fmt.Sprintf("channels[%d].profile", i), Msg: missing(c.Profile)}
			}
		}
	}
	for _, name := range sortedKeys(ch.Workspaces) {
		p := ch.Workspaces[name].Profile
		if _, ok := ai.Profiles[p]; !ok {
			return &Error{File: s.Path(ChannelsFile), Key: "workspaces." + name + ".profile", Msg: missing(p)}
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
