package live

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/agent"
	"github.com/alice-trading/alice/core/connector/telegram"
	"github.com/alice-trading/alice/core/schedule"
	"github.com/alice-trading/alice/trading/news"
	"github.com/alice-trading/alice/trading/uta"
	"github.com/alice-trading/alice/tui/settings"
)

// The Settings pane's view of the core. Every write goes through
// config.Edit: atomic, merge-preserving, refused when the file changed
// since the pane read it, and validated by the same Validate methods
// `alice check` runs. Accounts go through the AccountManager so they apply
// live.

var _ settings.SettingsCore = (*Core)(nil)

func (c *Core) store() *config.Store { return c.a.Opts.Store }

func ver(v string) config.Version { return config.Version(v) }

// AIProviders reads ai-provider.json.
func (c *Core) AIProviders() (settings.ProviderSettings, error) {
	cfg, v, err := config.LoadVersioned(c.store(), config.AIProviderFile, config.DefaultAIProvider)
	if err != nil {
		return settings.ProviderSettings{}, err
	}
	out := settings.ProviderSettings{Version: string(v), Active: cfg.ActiveProfile, Channels: map[string]string{},
		File: c.store().Path(config.AIProviderFile)}
	for ch, p := range cfg.Channels {
		out.Channels[ch] = p
	}
	for name, p := range cfg.Profiles {
		out.Profiles = append(out.Profiles, settings.ProfileSetting{Name: name, Backend: string(p.Backend), Model: p.Model,
			BaseURL: p.BaseURL, APIKeyEnv: p.APIKeyEnv, APIKey: p.APIKey})
	}
	sort.Slice(out.Profiles, func(i, j int) bool { return out.Profiles[i].Name < out.Profiles[j].Name })
	return out, nil
}

func (c *Core) editProviders(base string, fn func(*config.AIProvider) error) error {
	_, _, err := config.Edit(c.store(), config.AIProviderFile, ver(base), config.DefaultAIProvider, func(p *config.AIProvider) error {
		if p.Profiles == nil {
			p.Profiles = map[string]config.Profile{}
		}
		if p.Channels == nil {
			p.Channels = map[string]string{}
		}
		return fn(p)
	})
	return err
}

// SaveProfile adds or edits (and possibly renames) a profile; fields the
// form does not show (authMode, maxTokens, command) are kept.
func (c *Core) SaveProfile(base, oldName string, s settings.ProfileSetting) error {
	name := strings.TrimSpace(s.Name)
	if name == "" {
		return fmt.Errorf("a profile needs a name")
	}
	return c.editProviders(base, func(cfg *config.AIProvider) error {
		p := config.Profile{}
		if oldName != "" {
			old, ok := cfg.Profiles[oldName]
			if !ok {
				return fmt.Errorf("no profile %q (it was removed meanwhile)", oldName)
			}
			p = old
		}
		if name != oldName {
			if _, taken := cfg.Profiles[name]; taken {
				return fmt.Errorf("a profile named %q already exists", name)
			}
		}
		p.Backend, p.Model, p.BaseURL = config.Backend(s.Backend), strings.TrimSpace(s.Model), strings.TrimSpace(s.BaseURL)
		p.APIKeyEnv, p.APIKey = strings.TrimSpace(s.APIKeyEnv), strings.TrimSpace(s.APIKey)
		if oldName != "" && oldName != name {
			delete(cfg.Profiles, oldName)
			if cfg.ActiveProfile == oldName {
				cfg.ActiveProfile = name
			}
			for ch, pr := range cfg.Channels {
				if pr == oldName {
					cfg.Channels[ch] = name
				}
			}
		}
		cfg.Profiles[name] = p
		if cfg.ActiveProfile == "" && len(cfg.Profiles) == 1 {
			cfg.ActiveProfile = name // the first profile becomes active
		}
		return nil
	})
}

// DeleteProfile removes a profile and any channel overrides pointing at it.
func (c *Core) DeleteProfile(base, name string) error {
	return c.editProviders(base, func(cfg *config.AIProvider) error {
		if _, ok := cfg.Profiles[name]; !ok {
			return fmt.Errorf("no profile %q", name)
		}
		delete(cfg.Profiles, name)
		if cfg.ActiveProfile == name {
			cfg.ActiveProfile = ""
		}
		for ch, p := range cfg.Channels {
			if p == name {
				delete(cfg.Channels, ch)
			}
		}
		return nil
	})
}

// SetActiveProfile makes name the default profile.
func (c *Core) SetActiveProfile(base, name string) error {
	return c.editProviders(base, func(cfg *config.AIProvider) error { cfg.ActiveProfile = name; return nil })
}

// SetChannelProfile sets or (profile "") removes a channel override.
func (c *Core) SetChannelProfile(base, channel, profile string) error {
	channel = strings.TrimSpace(channel)
	if channel == "" {
		return fmt.Errorf("a channel override needs a channel (tui, telegram, mcp-ask, heartbeat, cron)")
	}
	return c.editProviders(base, func(cfg *config.AIProvider) error {
		if profile == "" {
			delete(cfg.Channels, channel)
		} else {
			cfg.Channels[channel] = profile
		}
		return nil
	})
}

// TestProfile sends the probe prompt through a profile.
func (c *Core) TestProfile(ctx context.Context, name string) (settings.ProbeReport, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	r, err := c.a.Router.Probe(ctx, name, "tui")
	return settings.ProbeReport{Label: r.Label, Latency: r.Latency, Reply: r.Reply}, err
}

// AccountPresets lists the broker presets with their form fields.
func (c *Core) AccountPresets() []settings.AccountPreset {
	var out []settings.AccountPreset
	for _, p := range uta.Presets() {
		ap := settings.AccountPreset{ID: p.ID, Name: p.Name, Description: p.Description}
		for _, f := range p.Fields {
			ap.Fields = append(ap.Fields, settings.PresetFieldSetting{Key: f.Key, Label: f.Label, Kind: string(f.Kind),
				Default: f.Default, Help: f.Help, Required: f.Required, Options: f.Options})
		}
		out = append(out, ap)
	}
	return out
}

// AccountSettings lists accounts.json with each account's live health.
func (c *Core) AccountSettings() ([]settings.AccountSetting, error) {
	accts, err := c.store().Accounts()
	if err != nil {
		return nil, err
	}
	health := map[string]uta.Summary{}
	for _, s := range c.a.Trading.Accounts() {
		health[s.ID] = s
	}
	out := make([]settings.AccountSetting, 0, len(accts))
	for _, a := range accts {
		g, _ := json.Marshal(a.Guards)
		s := settings.AccountSetting{ID: a.ID, Label: a.Label, Preset: a.Preset, Enabled: a.Enabled, AutoApprove: a.AutoApprove,
			GuardsJSON: string(g), Health: "starting"}
		if h, ok := health[a.ID]; ok {
			s.Health, s.Error = string(h.Health), h.Error
		}
		out = append(out, s)
	}
	return out, nil
}

// AddAccount adds and starts an account.
func (c *Core) AddAccount(ctx context.Context, a settings.NewAccountInput) error {
	return c.a.Trading.AddAccount(ctx, uta.NewAccount{ID: strings.TrimSpace(a.ID), Label: strings.TrimSpace(a.Label),
		PresetID: a.PresetID, Values: a.Values})
}

// SetAccountEnabled starts or stops an account.
func (c *Core) SetAccountEnabled(ctx context.Context, id string, on bool) error {
	return c.a.Trading.UpdateAccount(ctx, id, "", func(a *config.Account) error { a.Enabled = on; return nil })
}

// SetAccountAutoApprove flips autoApprove.
func (c *Core) SetAccountAutoApprove(ctx context.Context, id string, on bool) error {
	return c.a.Trading.UpdateAccount(ctx, id, "", func(a *config.Account) error { a.AutoApprove = on; return nil })
}

// SetAccountGuards replaces an account's guard list (a JSON array).
func (c *Core) SetAccountGuards(ctx context.Context, id, guardsJSON string) error {
	var gs []config.Guard
	if err := json.Unmarshal([]byte(guardsJSON), &gs); err != nil {
		return fmt.Errorf("guards must be a JSON array like [{\"type\":\"max-order-value\",\"options\":{\"maxValue\":\"5000\"}}]: %v", err)
	}
	if gs == nil {
		gs = []config.Guard{}
	}
	return c.a.Trading.UpdateAccount(ctx, id, "", func(a *config.Account) error { a.Guards = gs; return nil })
}

// RemoveAccount removes an account (its history stays on disk).
func (c *Core) RemoveAccount(ctx context.Context, id string) error {
	return c.a.Trading.RemoveAccount(ctx, id)
}

// ReconnectAccount re-initialises an account's broker (after an outage
// or a fixed key) and resets its health on success.
func (c *Core) ReconnectAccount(ctx context.Context, id string) error {
	return c.a.Trading.Reconnect(ctx, id)
}

// CronJobs lists the jobs with next run and last result.
func (c *Core) CronJobs() ([]settings.CronJobSetting, error) {
	var out []settings.CronJobSetting
	for _, j := range c.a.Cron.List() {
		s := settings.CronJobSetting{ID: j.ID, Name: j.Name, Schedule: j.Schedule.String(), Prompt: j.Payload, Target: schedule.TargetText(j.Target), Enabled: j.Enabled}
		if j.State.NextRunAtMs != nil {
			s.Next = time.UnixMilli(*j.State.NextRunAtMs)
		}
		if j.State.LastRunAtMs != nil {
			s.LastRun = time.UnixMilli(*j.State.LastRunAtMs)
		}
		if j.State.LastStatus != nil {
			s.LastStatus = string(*j.State.LastStatus)
		}
		out = append(out, s)
	}
	return out, nil
}

// SaveCronJob adds (ID "") or edits a job.
func (c *Core) SaveCronJob(in settings.CronJobInput) error {
	s, err := schedule.ParseScheduleText(in.Schedule)
	if err != nil {
		return err
	}
	target, err := schedule.ParseTargetText(in.Target)
	if err != nil {
		return err
	}
	if in.ID == "" {
		_, err = c.a.Cron.AddTargeted(in.Name, in.Prompt, s, in.Enabled, target)
		return err
	}
	if target == nil {
		target = &schedule.Target{Kind: schedule.TargetAlice} // back into Alice
	}
	_, err = c.a.Cron.Update(in.ID, schedule.JobPatch{Name: &in.Name, Payload: &in.Prompt, Schedule: &s, Enabled: &in.Enabled, Target: target})
	return err
}

// SetCronEnabled enables or disables a job.
func (c *Core) SetCronEnabled(id string, on bool) error {
	_, err := c.a.Cron.Update(id, schedule.JobPatch{Enabled: &on})
	return err
}

// RunCronNow fires a job now and reports the outcome.
func (c *Core) RunCronNow(ctx context.Context, id string) (string, error) {
	out, err := c.a.Cron.RunNow(ctx, id)
	if err != nil {
		return "", err
	}
	return out.String(), out.Err
}

// DeleteCronJob removes a job.
func (c *Core) DeleteCronJob(id string) error { return c.a.Cron.Remove(id) }

// PreviewSchedule lists the next n fire times.
func (c *Core) PreviewSchedule(text string, n int) ([]time.Time, error) {
	s, err := schedule.ParseScheduleText(text)
	if err != nil {
		return nil, err
	}
	return c.a.Cron.PreviewIn(s, n)
}

// Heartbeat reads heartbeat.json.
func (c *Core) Heartbeat() (settings.HeartbeatSetting, error) {
	h, v, err := config.LoadVersioned(c.store(), config.HeartbeatFile, config.DefaultHeartbeat)
	if err != nil {
		return settings.HeartbeatSetting{}, err
	}
	out := settings.HeartbeatSetting{Version: string(v), Enabled: h.Enabled, Every: h.Every, Prompt: h.Prompt}
	if h.ActiveHours != nil {
		out.Start, out.End, out.Timezone = h.ActiveHours.Start, h.ActiveHours.End, h.ActiveHours.Timezone
	}
	return out, nil
}

// SaveHeartbeat writes heartbeat.json and wakes the heartbeat loop.
func (c *Core) SaveHeartbeat(base string, s settings.HeartbeatSetting) error {
	_, _, err := config.Edit(c.store(), config.HeartbeatFile, ver(base), config.DefaultHeartbeat, func(h *config.Heartbeat) error {
		h.Enabled, h.Every, h.Prompt = s.Enabled, strings.TrimSpace(s.Every), s.Prompt
		if strings.TrimSpace(s.Start) == "" && strings.TrimSpace(s.End) == "" {
			h.ActiveHours = nil
		} else {
			h.ActiveHours = &config.ActiveHours{Start: strings.TrimSpace(s.Start), End: strings.TrimSpace(s.End), Timezone: strings.TrimSpace(s.Timezone)}
		}
		return nil
	})
	if err == nil {
		c.a.HeartbeatChanged()
	}
	return err
}

// Connectors reads connectors.json, mcp.json and webhook.json.
func (c *Core) Connectors() (settings.ConnectorSetting, error) {
	cn, v, err := config.LoadVersioned(c.store(), config.ConnectorsFile, config.DefaultConnectors)
	if err != nil {
		return settings.ConnectorSetting{}, err
	}
	m, err := c.store().MCP()
	if err != nil {
		return settings.ConnectorSetting{}, err
	}
	wh, err := c.store().Webhook()
	if err != nil {
		return settings.ConnectorSetting{}, err
	}
	ids := make([]string, 0, len(cn.Telegram.ChatIDs))
	for _, id := range cn.Telegram.ChatIDs {
		ids = append(ids, strconv.FormatInt(id, 10))
	}
	out := settings.ConnectorSetting{Version: string(v), AskEnabled: cn.MCPAsk.Enabled, AskPort: cn.MCPAsk.Port,
		TelegramEnabled: cn.Telegram.Enabled, TelegramTokenEnv: cn.Telegram.BotTokenEnv, TelegramHasToken: cn.Telegram.BotToken != "",
		TelegramChatIDs: strings.Join(ids, ","), MainTokenSet: m.Token != "", AskTokenSet: cn.MCPAsk.Token != "",
		ConnectorsFile: c.store().Path(config.ConnectorsFile)}
	for _, l := range c.a.Listeners() {
		switch l.Name {
		case "MCP":
			out.MainURL = l.URL
		case "Ask":
			out.AskURL = l.URL
		}
	}
	for _, ch := range c.a.Connectors.Channels() {
		if ch == telegram.Channel {
			out.TelegramRunning = true
		}
	}
	for _, t := range wh.Tokens {
		out.WebhookTokens = append(out.WebhookTokens, settings.WebhookTokenSetting{ID: t.ID, CreatedAt: time.UnixMilli(t.CreatedAt)})
	}
	return out, nil
}

// SaveConnectors writes the Ask and Telegram settings.
func (c *Core) SaveConnectors(base string, s settings.ConnectorSetting) error {
	var ids []int64
	for _, f := range strings.FieldsFunc(s.TelegramChatIDs, func(r rune) bool { return r == ',' || r == ' ' }) {
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return &config.Error{File: c.store().Path(config.ConnectorsFile), Key: "telegram.chatIds", Msg: fmt.Sprintf("%q is not a chat id (a whole number)", f)}
		}
		ids = append(ids, id)
	}
	if ids == nil {
		ids = []int64{}
	}
	_, _, err := config.Edit(c.store(), config.ConnectorsFile, ver(base), config.DefaultConnectors, func(cn *config.Connectors) error {
		cn.MCPAsk.Enabled, cn.MCPAsk.Port = s.AskEnabled, s.AskPort
		cn.Telegram.Enabled, cn.Telegram.BotTokenEnv, cn.Telegram.ChatIDs = s.TelegramEnabled, strings.TrimSpace(s.TelegramTokenEnv), ids
		return nil
	})
	return err
}

func newToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// NewMCPToken stores a fresh bearer token for a listener and returns it.
func (c *Core) NewMCPToken(listener string) (string, error) {
	tok := newToken()
	return tok, c.setMCPToken(listener, tok)
}

// RevokeMCPToken removes a listener's bearer token.
func (c *Core) RevokeMCPToken(listener string) error { return c.setMCPToken(listener, "") }

func (c *Core) setMCPToken(listener, tok string) error {
	switch listener {
	case "main":
		_, _, err := config.Edit(c.store(), config.MCPFile, "", config.DefaultMCP, func(m *config.MCP) error { m.Token = tok; return nil })
		return err
	case "ask":
		_, _, err := config.Edit(c.store(), config.ConnectorsFile, "", config.DefaultConnectors, func(cn *config.Connectors) error { cn.MCPAsk.Token = tok; return nil })
		return err
	}
	return fmt.Errorf("unknown listener %q (main or ask)", listener)
}

// CreateWebhookToken adds a webhook token and returns it with a ready curl
// line (both shown once).
func (c *Core) CreateWebhookToken() (settings.WebhookTokenSetting, error) {
	t := config.WebhookToken{ID: "wh-" + newToken()[:8], Token: newToken(), CreatedAt: time.Now().UnixMilli()}
	_, _, err := config.Edit(c.store(), config.WebhookFile, "", config.DefaultWebhook, func(w *config.Webhook) error {
		w.Tokens = append(w.Tokens, t)
		return nil
	})
	if err != nil {
		return settings.WebhookTokenSetting{}, err
	}
	base := "http://127.0.0.1:3001"
	for _, l := range c.a.Listeners() {
		if l.Name == "MCP" {
			base = strings.TrimSuffix(l.URL, "/mcp")
		}
	}
	curl := fmt.Sprintf(`curl -X POST %s/api/events/ingest -H 'Authorization: Bearer %s' -H 'Content-Type: application/json' -d '{"type":"task.requested","payload":{"prompt":"Check the portfolio"}}'`, base, t.Token)
	return settings.WebhookTokenSetting{ID: t.ID, CreatedAt: time.UnixMilli(t.CreatedAt), Token: t.Token, Curl: curl}, nil
}

// RevokeWebhookToken removes a webhook token (takes effect immediately).
func (c *Core) RevokeWebhookToken(id string) error {
	_, _, err := config.Edit(c.store(), config.WebhookFile, "", config.DefaultWebhook, func(w *config.Webhook) error {
		for i, t := range w.Tokens {
			if t.ID == id {
				w.Tokens = append(w.Tokens[:i], w.Tokens[i+1:]...)
				return nil
			}
		}
		return fmt.Errorf("no webhook token %q", id)
	})
	return err
}

// TelegramTest sends a test message to every allowed chat.
func (c *Core) TelegramTest(ctx context.Context) error {
	cn, err := c.store().Connectors()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	return telegram.SendTest(ctx, cn.Telegram, "alice: test message from Settings ✓")
}

// NewsFeeds reads news.json.
func (c *Core) NewsFeeds() (settings.NewsSetting, error) {
	n, v, err := config.LoadVersioned(c.store(), config.NewsFile, config.DefaultNews)
	if err != nil {
		return settings.NewsSetting{}, err
	}
	out := settings.NewsSetting{Version: string(v), Enabled: n.Enabled}
	for _, f := range n.Feeds {
		out.Feeds = append(out.Feeds, settings.FeedSetting{Name: f.Name, URL: f.URL, Enabled: f.Enabled})
	}
	return out, nil
}

func (c *Core) editNews(base string, fn func(*config.News) error) error {
	_, _, err := config.Edit(c.store(), config.NewsFile, ver(base), config.DefaultNews, fn)
	return err
}

// AddFeed appends an enabled feed.
func (c *Core) AddFeed(base, name, url string) error {
	name, url = strings.TrimSpace(name), strings.TrimSpace(url)
	return c.editNews(base, func(n *config.News) error {
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
func (c *Core) RemoveFeed(base, url string) error {
	return c.editNews(base, func(n *config.News) error {
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
func (c *Core) SetFeedEnabled(base, url string, on bool) error {
	return c.editNews(base, func(n *config.News) error {
		for i := range n.Feeds {
			if n.Feeds[i].URL == url {
				n.Feeds[i].Enabled = on
				return nil
			}
		}
		return fmt.Errorf("no feed %s", url)
	})
}

// TestFeed fetches a feed once and reports its title and item count.
func (c *Core) TestFeed(ctx context.Context, url string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	title, n, err := news.ProbeFeed(ctx, nil, strings.TrimSpace(url))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%q: %d items", title, n), nil
}

// ToolList lists every registered tool with its enabled state.
func (c *Core) ToolList() ([]settings.ToolSetting, error) {
	var out []settings.ToolSetting
	for _, t := range c.a.Tools.Inventory() {
		out = append(out, settings.ToolSetting{Name: t.Name, Group: t.Group, Description: t.Description, Enabled: !t.Disabled})
	}
	return out, nil
}

// SetToolEnabled edits tools.json's disabled list (applies on the next call).
func (c *Core) SetToolEnabled(name string, on bool) error {
	_, _, err := config.Edit(c.store(), config.ToolsFile, "", config.DefaultTools, func(t *config.Tools) error {
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
	return err
}

// PersonaFile returns the persona file and the text in use; with create
// it first writes the built-in persona there when the file is missing, so
// the editor opens something to change.
func (c *Core) PersonaFile(create bool) (string, string, error) {
	path := c.a.Opts.Paths.DataPath("brain", "persona.md")
	if _, err := os.Stat(path); create && errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return path, "", err
		}
		if err := config.WriteFileAtomic(path, []byte(agent.DefaultPersona), 0o600); err != nil {
			return path, "", err
		}
	}
	text := agent.PersonaFile(path)()
	return path, text, nil
}
