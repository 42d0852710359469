package live

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	appsettings "github.com/alice-trading/alice/app/settings"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/channel"
	"github.com/alice-trading/alice/core/schedule"
	"github.com/alice-trading/alice/trading/news"
	"github.com/alice-trading/alice/trading/uta"
	"github.com/alice-trading/alice/tui/settings"
)

// The Settings pane's view of the core: a thin adapter over the settings
// service (app/settings: every write atomic, merge-preserving, refused when
// the file changed since the pane read it, validated as `alice check`
// does), the automation service (cron, heartbeat) and the trading
// service's account editor (accounts apply live).

var _ settings.SettingsCore = (*Core)(nil)

func ver(v string) config.Version { return config.Version(v) }

// AIProviders reads ai-provider.json.
func (c *Core) AIProviders() (settings.ProviderSettings, error) {
	cfg, v, err := c.settings.Providers()
	if err != nil {
		return settings.ProviderSettings{}, err
	}
	out := settings.ProviderSettings{Version: string(v), Active: cfg.ActiveProfile, Channels: map[string]string{},
		File: c.settings.Path(config.AIProviderFile)}
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

// SaveProfile adds or edits (and possibly renames) a profile; fields the
// form does not show (authMode, maxTokens, command) are kept.
func (c *Core) SaveProfile(base, oldName string, s settings.ProfileSetting) error {
	return c.settings.SaveProfile(ver(base), oldName, appsettings.Profile{Name: s.Name, Backend: s.Backend, Model: s.Model,
		BaseURL: s.BaseURL, APIKeyEnv: s.APIKeyEnv, APIKey: s.APIKey})
}

// DeleteProfile removes a profile and any channel overrides pointing at it.
func (c *Core) DeleteProfile(base, name string) error {
	return c.settings.DeleteProfile(ver(base), name)
}

// SetActiveProfile makes name the default profile.
func (c *Core) SetActiveProfile(base, name string) error {
	return c.settings.SetActiveProfile(ver(base), name)
}

// SetChannelProfile sets or (profile "") removes a channel override.
func (c *Core) SetChannelProfile(base, channel, profile string) error {
	return c.settings.SetChannelProfile(ver(base), channel, profile)
}

// TestProfile sends the probe prompt through a profile.
func (c *Core) TestProfile(ctx context.Context, name string) (settings.ProbeReport, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	r, err := c.chat.Probe(ctx, name, "tui")
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
	accts, _, err := c.settings.Accounts()
	if err != nil {
		return nil, err
	}
	health := map[string]uta.Summary{}
	for _, s := range c.trading.Accounts() {
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
	return c.trading.AddAccount(ctx, uta.NewAccount{ID: strings.TrimSpace(a.ID), Label: strings.TrimSpace(a.Label),
		PresetID: a.PresetID, Values: a.Values})
}

// SetAccountEnabled starts or stops an account.
func (c *Core) SetAccountEnabled(ctx context.Context, id string, on bool) error {
	return c.trading.UpdateAccount(ctx, id, "", func(a *config.Account) error { a.Enabled = on; return nil })
}

// SetAccountAutoApprove flips autoApprove.
func (c *Core) SetAccountAutoApprove(ctx context.Context, id string, on bool) error {
	return c.trading.UpdateAccount(ctx, id, "", func(a *config.Account) error { a.AutoApprove = on; return nil })
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
	return c.trading.UpdateAccount(ctx, id, "", func(a *config.Account) error { a.Guards = gs; return nil })
}

// RemoveAccount removes an account (its history stays on disk).
func (c *Core) RemoveAccount(ctx context.Context, id string) error {
	return c.trading.RemoveAccount(ctx, id)
}

// ReconnectAccount re-initialises an account's broker (after an outage
// or a fixed key) and resets its health on success.
func (c *Core) ReconnectAccount(ctx context.Context, id string) error {
	return c.trading.Reconnect(ctx, id)
}

// CronJobs lists the jobs with next run and last result.
func (c *Core) CronJobs() ([]settings.CronJobSetting, error) {
	var out []settings.CronJobSetting
	for _, j := range c.automation.Jobs() {
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
	target, err := schedule.ParseTargetText(in.Target)
	if err != nil {
		return err
	}
	if in.ID != "" && target == nil {
		target = &schedule.Target{Kind: schedule.TargetAlice} // an emptied target moves the job back into Alice
	}
	_, err = c.automation.SaveJob(schedule.JobInput{ID: in.ID, Name: in.Name, Prompt: in.Prompt, Schedule: in.Schedule, Enabled: in.Enabled, Target: target})
	return err
}

// SetCronEnabled enables or disables a job.
func (c *Core) SetCronEnabled(id string, on bool) error { return c.automation.SetJobEnabled(id, on) }

// RunCronNow fires a job now and reports the outcome.
func (c *Core) RunCronNow(ctx context.Context, id string) (string, error) {
	out, err := c.automation.RunJobNow(ctx, id)
	if err != nil {
		return "", err
	}
	return out.String(), out.Err
}

// DeleteCronJob removes a job.
func (c *Core) DeleteCronJob(id string) error { return c.automation.RemoveJob(id) }

// PreviewSchedule lists the next n fire times.
func (c *Core) PreviewSchedule(text string, n int) ([]time.Time, error) {
	return c.automation.Preview(text, n)
}

// Heartbeat reads heartbeat.json.
func (c *Core) Heartbeat() (settings.HeartbeatSetting, error) {
	h, v, err := c.settings.Heartbeat()
	if err != nil {
		return settings.HeartbeatSetting{}, err
	}
	out := settings.HeartbeatSetting{Version: string(v), Enabled: h.Enabled, Every: h.Every, Prompt: h.Prompt}
	if h.ActiveHours != nil {
		out.Start, out.End, out.Timezone = h.ActiveHours.Start, h.ActiveHours.End, h.ActiveHours.Timezone
	}
	return out, nil
}

// SaveHeartbeat writes heartbeat.json; the settings service wakes the
// heartbeat loop.
func (c *Core) SaveHeartbeat(base string, s settings.HeartbeatSetting) error {
	return c.settings.SaveHeartbeat(ver(base), appsettings.Heartbeat{Enabled: s.Enabled, Every: s.Every, Prompt: s.Prompt,
		Start: s.Start, End: s.End, Timezone: s.Timezone})
}

// Connectors reads connectors.json, mcp.json and webhook.json.
func (c *Core) Connectors() (settings.ConnectorSetting, error) {
	cn, v, err := c.settings.Connectors()
	if err != nil {
		return settings.ConnectorSetting{}, err
	}
	m, err := c.settings.MCP()
	if err != nil {
		return settings.ConnectorSetting{}, err
	}
	wh, err := c.settings.Webhook()
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
		ConnectorsFile: c.settings.Path(config.ConnectorsFile)}
	for _, l := range c.a.Listeners() {
		switch l.Name {
		case "MCP":
			out.MainURL = l.URL
		case "Ask":
			out.AskURL = l.URL
		}
	}
	out.TelegramRunning = c.a.TelegramRunning()
	for _, t := range wh.Tokens {
		out.WebhookTokens = append(out.WebhookTokens, settings.WebhookTokenSetting{ID: t.ID, CreatedAt: time.UnixMilli(t.CreatedAt)})
	}
	return out, nil
}

// SaveConnectors writes the Ask and Telegram settings.
func (c *Core) SaveConnectors(base string, s settings.ConnectorSetting) error {
	return c.settings.SaveConnectors(ver(base), appsettings.Connectors{AskEnabled: s.AskEnabled, AskPort: s.AskPort,
		TelegramEnabled: s.TelegramEnabled, TelegramTokenEnv: s.TelegramTokenEnv, TelegramChatIDs: s.TelegramChatIDs})
}

// NewMCPToken stores a fresh bearer token for a listener and returns it.
func (c *Core) NewMCPToken(listener string) (string, error) {
	l, err := appsettings.ParseListener(listener)
	if err != nil {
		return "", err
	}
	return c.settings.NewMCPToken(l)
}

// RevokeMCPToken removes a listener's bearer token.
func (c *Core) RevokeMCPToken(listener string) error {
	l, err := appsettings.ParseListener(listener)
	if err != nil {
		return err
	}
	return c.settings.RevokeMCPToken(l)
}

// CreateWebhookToken adds a webhook token and returns it with a ready curl
// line (both shown once).
func (c *Core) CreateWebhookToken() (settings.WebhookTokenSetting, error) {
	t, err := c.settings.CreateWebhookToken()
	if err != nil {
		return settings.WebhookTokenSetting{}, err
	}
	return settings.WebhookTokenSetting{ID: t.ID, CreatedAt: t.CreatedAt, Token: t.Token, Curl: t.Curl}, nil
}

// RevokeWebhookToken removes a webhook token (takes effect immediately).
func (c *Core) RevokeWebhookToken(id string) error { return c.settings.RevokeWebhookToken(id) }

// TelegramTest sends a test message to every allowed chat.
func (c *Core) TelegramTest(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	return c.a.TestTelegram(ctx, "alice: test message from Settings ✓")
}

// NewsFeeds reads news.json.
func (c *Core) NewsFeeds() (settings.NewsSetting, error) {
	n, v, err := c.settings.News()
	if err != nil {
		return settings.NewsSetting{}, err
	}
	out := settings.NewsSetting{Version: string(v), Enabled: n.Enabled}
	for _, f := range n.Feeds {
		out.Feeds = append(out.Feeds, settings.FeedSetting{Name: f.Name, URL: f.URL, Enabled: f.Enabled})
	}
	return out, nil
}

// AddFeed appends an enabled feed.
func (c *Core) AddFeed(base, name, url string) error { return c.settings.AddFeed(ver(base), name, url) }

// RemoveFeed deletes a feed by URL.
func (c *Core) RemoveFeed(base, url string) error { return c.settings.RemoveFeed(ver(base), url) }

// SetFeedEnabled turns one feed on or off.
func (c *Core) SetFeedEnabled(base, url string, on bool) error {
	return c.settings.SetFeedEnabled(ver(base), url, on)
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
	for _, t := range c.tools.Inventory() {
		out = append(out, settings.ToolSetting{Name: t.Name, Group: t.Group, Description: t.Description, Enabled: !t.Disabled})
	}
	return out, nil
}

// SetToolEnabled edits tools.json's disabled list (applies on the next call).
func (c *Core) SetToolEnabled(name string, on bool) error { return c.settings.SetToolEnabled(name, on) }

// PersonaFile returns the persona file and the text in use; with create
// it first writes the built-in persona there when the file is missing, so
// the editor opens something to change.
func (c *Core) PersonaFile(create bool) (string, string, error) {
	return c.settings.PersonaFile(create)
}

// ChannelSettings lists the chat channels (archived too), then Telegram
// and Ask, with channels.json's version for the save.
func (c *Core) ChannelSettings() (settings.ChannelSettings, error) {
	_, v, err := c.settings.Channels()
	if err != nil {
		return settings.ChannelSettings{}, err
	}
	out := settings.ChannelSettings{Version: string(v), File: c.settings.Path(config.ChannelsFile)}
	chats, err := c.channels.List(true)
	if err != nil {
		return out, err
	}
	conns, err := c.channels.Connectors()
	if err != nil {
		return out, err
	}
	for _, in := range append(chats, conns...) {
		out.Channels = append(out.Channels, settings.ChannelSetting{ID: in.ID, Label: in.Label, Profile: in.Profile, Persona: in.Persona,
			DisabledTools: append([]string(nil), in.DisabledTools...), Archived: in.Archived, Connector: channel.IsConnector(in.ID)})
	}
	return out, nil
}

// SaveChannel writes one channel through the settings service; an error
// about one field names it (Field) so the form shows it there.
func (c *Core) SaveChannel(base string, ch settings.ChannelSetting) error {
	err := c.settings.SaveChannel(ver(base), ch.ID, ch.Label, appsettings.ChannelEdit{Label: ch.Label, Profile: ch.Profile,
		Persona: ch.Persona, DisabledTools: ch.DisabledTools, Archived: ch.Archived})
	if f := appsettings.ChannelField(err); f != "" {
		return fieldError{field: f, err: err}
	}
	return err
}

// AddChannel creates a chat channel through the channel service (the
// chat's /new) and then sets its profile. The profile is checked first, so
// a refused name or profile writes nothing.
func (c *Core) AddChannel(label, profile string) (string, error) {
	if profile != "" {
		cfg, _, err := c.settings.Providers()
		if err != nil {
			return "", err
		}
		if _, ok := cfg.Profiles[profile]; !ok {
			return "", fieldError{field: "profile", err: fmt.Errorf("no profile named %q in %s", profile, c.settings.Path(config.AIProviderFile))}
		}
	}
	in, err := c.channels.Create(label)
	if err != nil {
		return "", fieldError{field: "label", err: err}
	}
	if profile != "" {
		if _, err := c.channels.Update(in.ID, func(ch *config.Channel) error { ch.Profile = profile; return nil }); err != nil {
			return in.ID, fmt.Errorf("created channel %q but could not set its profile: %w", in.ID, err)
		}
	}
	return in.ID, nil
}

// fieldError is an error about one form field.
type fieldError struct {
	field string
	err   error
}

func (e fieldError) Error() string { return e.err.Error() }
func (e fieldError) Unwrap() error { return e.err }
func (e fieldError) Field() string { return e.field }
