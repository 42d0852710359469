package settings

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/alice-trading/alice/config"
)

// Heartbeat is heartbeat.json as a form edits it; empty Start and End
// remove the active hours.
type Heartbeat struct {
	Enabled              bool
	Every, Prompt        string
	Start, End, Timezone string
}

// Heartbeat reads heartbeat.json with its version.
func (s *Service) Heartbeat() (config.Heartbeat, config.Version, error) {
	return config.LoadVersioned(s.store, config.HeartbeatFile, config.DefaultHeartbeat)
}

// SaveHeartbeat writes heartbeat.json (Options.Changed then wakes the
// running heartbeat so the change applies now).
func (s *Service) SaveHeartbeat(base config.Version, in Heartbeat) error {
	_, _, err := config.Edit(s.store, config.HeartbeatFile, base, config.DefaultHeartbeat, func(h *config.Heartbeat) error {
		h.Enabled, h.Every, h.Prompt = in.Enabled, strings.TrimSpace(in.Every), in.Prompt
		if strings.TrimSpace(in.Start) == "" && strings.TrimSpace(in.End) == "" {
			h.ActiveHours = nil
		} else {
			h.ActiveHours = &config.ActiveHours{Start: strings.TrimSpace(in.Start), End: strings.TrimSpace(in.End), Timezone: strings.TrimSpace(in.Timezone)}
		}
		return nil
	})
	if err == nil {
		s.changed(config.HeartbeatFile)
	}
	return err
}

// Connectors is the part of connectors.json the connector form edits.
type Connectors struct {
	AskEnabled       bool
	AskPort          int
	TelegramEnabled  bool
	TelegramTokenEnv string
	TelegramChatIDs  string // comma or space separated
}

// Connectors reads connectors.json with its version.
func (s *Service) Connectors() (config.Connectors, config.Version, error) {
	return config.LoadVersioned(s.store, config.ConnectorsFile, config.DefaultConnectors)
}

// MCP reads mcp.json.
func (s *Service) MCP() (config.MCP, error) { return s.store.MCP() }

// Webhook reads webhook.json.
func (s *Service) Webhook() (config.Webhook, error) { return s.store.Webhook() }

// SaveConnectors writes the Ask and Telegram settings.
func (s *Service) SaveConnectors(base config.Version, in Connectors) error {
	var ids []int64
	for _, f := range strings.FieldsFunc(in.TelegramChatIDs, func(r rune) bool { return r == ',' || r == ' ' }) {
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return &config.Error{File: s.store.Path(config.ConnectorsFile), Key: "telegram.chatIds", Msg: fmt.Sprintf("%q is not a chat id (a whole number)", f)}
		}
		ids = append(ids, id)
	}
	if ids == nil {
		ids = []int64{}
	}
	return s.editConnectors(base, func(cn *config.Connectors) error {
		cn.MCPAsk.Enabled, cn.MCPAsk.Port = in.AskEnabled, in.AskPort
		cn.Telegram.Enabled, cn.Telegram.BotTokenEnv, cn.Telegram.ChatIDs = in.TelegramEnabled, strings.TrimSpace(in.TelegramTokenEnv), ids
		return nil
	})
}

func (s *Service) editConnectors(base config.Version, fn func(*config.Connectors) error) error {
	_, _, err := config.Edit(s.store, config.ConnectorsFile, base, config.DefaultConnectors, fn)
	if err == nil {
		s.changed(config.ConnectorsFile)
	}
	return err
}

// TelegramNotifications reports whether notifications are pushed to
// Telegram. An unreadable connectors.json never silences alerts.
func (s *Service) TelegramNotifications() bool {
	c, err := s.store.Connectors()
	return err != nil || c.Telegram.NotificationsOn()
}

// SetTelegramNotifications switches pushing notifications to Telegram (on
// is the default and is written as the key's absence).
func (s *Service) SetTelegramNotifications(on bool) error {
	return s.editConnectors("", func(c *config.Connectors) error {
		if on {
			c.Telegram.Notifications = nil
		} else {
			c.Telegram.Notifications = &on
		}
		return nil
	})
}

// News reads news.json with its version.
func (s *Service) News() (config.News, config.Version, error) {
	return config.LoadVersioned(s.store, config.NewsFile, config.DefaultNews)
}

func (s *Service) editNews(base config.Version, fn func(*config.News) error) error {
	_, _, err := config.Edit(s.store, config.NewsFile, base, config.DefaultNews, fn)
	if err == nil {
		s.changed(config.NewsFile)
	}
	return err
}

// AddFeed appends an enabled feed; a URL already listed is refused.
func (s *Service) AddFeed(base config.Version, name, url string) error {
	name, url = strings.TrimSpace(name), strings.TrimSpace(url)
	return s.editNews(base, func(n *config.News) error {
		for _, f := range n.Feeds {
			if f.URL == url {
				return fmt.Errorf("feed %s is already in news.json", url)
			}
		}
		n.Feeds = append(n.Feeds, config.Feed{Name: name, URL: url, Source: name, Enabled: true})
		return nil
	})
}

// RemoveFeed deletes a feed by URL.
func (s *Service) RemoveFeed(base config.Version, url string) error {
	return s.editNews(base, func(n *config.News) error {
		for i, f := range n.Feeds {
			if f.URL == url {
				n.Feeds = append(n.Feeds[:i], n.Feeds[i+1:]...)
				return nil
			}
		}
		return fmt.Errorf("no feed %s", url)
	})
}

// SetFeedEnabled turns one feed on or off.
func (s *Service) SetFeedEnabled(base config.Version, url string, on bool) error {
	return s.editNews(base, func(n *config.News) error {
		for i := range n.Feeds {
			if n.Feeds[i].URL == url {
				n.Feeds[i].Enabled = on
				return nil
			}
		}
		return fmt.Errorf("no feed %s", url)
	})
}

// SetToolEnabled edits tools.json's disabled list (applies on the next
// tool call).
func (s *Service) SetToolEnabled(name string, on bool) error {
	_, _, err := config.Edit(s.store, config.ToolsFile, "", config.DefaultTools, func(t *config.Tools) error {
		out := t.Disabled[:0:0]
		for _, d := range t.Disabled {
			if d != name {
				out = append(out, d)
			}
		}
		if !on {
			out = append(out, name)
		}
		t.Disabled = out
		return nil
	})
	if err == nil {
		s.changed(config.ToolsFile)
	}
	return err
}

// PersonaFile returns the persona file and the text in use; with create
// it first writes the default persona there when the file is missing, so
// an editor opens something to change.
func (s *Service) PersonaFile(create bool) (string, string, error) {
	path := s.o.PersonaPath
	if path == "" {
		return "", "", errors.New("no persona file is configured")
	}
	if _, err := os.Stat(path); create && errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return path, "", err
		}
		if err := config.WriteFileAtomic(path, []byte(s.o.DefaultPersona), 0o600); err != nil {
			return path, "", err
		}
	}
	if s.o.Persona != nil {
		return path, s.o.Persona(), nil
	}
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return path, "", err
	}
	if strings.TrimSpace(string(b)) == "" {
		return path, s.o.DefaultPersona, nil
	}
	return path, string(b), nil
}

// Accounts reads accounts.json with its version (account edits go through
// the trading service, which applies them live).
func (s *Service) Accounts() (config.Accounts, config.Version, error) {
	return config.LoadVersioned(s.store, config.AccountsFile, config.DefaultAccounts)
}
